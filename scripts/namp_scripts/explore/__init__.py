"""scripts/explore (docs/exploration.md) by job: the sweep file, its run matrix, command lines and
checks (sweep); running the runs locally or over ssh (local) or as a Slurm array job (slurm);
the rows and CSV from the runs' statistics (results; the firmware's marks decoded by
namp_scripts.marks); plots, report and the exit status (report). Beside them: safe expressions
(expr), the names a sweep file uses and their checks (names), derived configuration keys and
constraints (constraints), and saturation points of load-latency curves (saturation). The
command line itself is scripts/explore."""

EXIT_FAILED, EXIT_INPUT = 1, 2   # a run failed or is missing; bad input, nothing was run


class InputError(Exception):
    """Bad sweep, missing VP or firmware, a configuration the VP refuses: nothing is run."""
