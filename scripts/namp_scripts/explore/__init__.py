"""Parts of scripts/explore (docs/exploration.md) that have one job each: safe expressions
(expr), the names a sweep file uses and their checks (names), derived configuration keys and
constraints (constraints), and saturation points of load-latency curves (saturation)."""


class InputError(Exception):
    """Bad sweep, missing VP or firmware, a configuration the VP refuses: nothing is run."""
