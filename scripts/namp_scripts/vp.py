"""One run of namp-vp (or of any of the build's programs) from a script: its console output,
stdout and stderr together as they interleave, the command line and that output written to a
log file, a hang guard, and the statistics the run wrote with --stats."""
import json
import os
import subprocess


class Failure(Exception):
    """A run that failed or did not end in time; the message names the command."""


class Run:
    def __init__(self, cmd, returncode, output, reused=False):
        self.cmd, self.returncode, self.output, self.reused = cmd, returncode, output, reused

    def ok(self, fail="FAIL"):
        """Exit status 0 and no `fail` text (one string or several) in the output."""
        texts = (fail,) if isinstance(fail, str) else fail
        return self.returncode == 0 and not any(t in self.output for t in texts)

    def failure(self, tail=3000):
        return Failure(f"{' '.join(self.cmd)}: exit {self.returncode}\n{self.output[-tail:]}")

    def stats(self):
        """The statistics JSON of the run's --stats FILE."""
        with open(self.cmd[self.cmd.index("--stats") + 1]) as f:
            return json.load(f)


def run(cmd, log=None, timeout=None, reuse=False):
    """Runs cmd; log: a file that gets the command line and the output. reuse: an existing log
    is taken for the run (Run.reused, no exit status: the caller judges the log). A run past
    timeout (seconds: a hang guard, the measure is simulated cycles) raises Failure."""
    if reuse and log and os.path.exists(log):
        with open(log) as f:
            return Run(cmd, None, f.read(), reused=True)
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        raise Failure(str(e)) from None
    out = p.stdout.decode(errors="replace")
    if log:
        with open(log, "w") as f:
            f.write(" ".join(cmd) + "\n" + out)
    return Run(cmd, p.returncode, out)


def sets(settings):
    """--set KEY=VALUE for each setting."""
    return [x for s in settings for x in ("--set", s)]


def config_default(vp, key):
    """The default of configuration key `key` as `vp --list-config` prints it (a string)."""
    p = run([vp, "--list-config"], timeout=60)
    for line in p.output.splitlines():
        w = line.split()
        if len(w) >= 3 and w[0] == key and w[1] == "default":
            return w[2]
    raise Failure(f"{vp} --list-config: no default of {key} (exit {p.returncode})")
