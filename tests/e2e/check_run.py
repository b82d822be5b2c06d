#!/usr/bin/env python3
"""Runs a command (normally namp-vp) and checks its exit code and output.

check_run.py --exit N [--expect REGEX]... [--count REGEX=N]... [--reject REGEX]... -- CMD ARGS...
Output is stdout and stderr together. A run longer than --timeout seconds fails (never hangs ctest).
--record FILE (a namp-vp run of the suite, tests/engines): the run also writes its statistics
(--stats) and keeps its exit code, stdout, stderr and statistics in FILE, with the size and time of
the simulator and the firmware, so that engines.all_runs_* compares its interpreter run with this
run (the default engine) instead of running it again.
The environment variable NAMP_VP_SET (KEY=VALUE words, blank-separated) adds those settings to a
namp-vp command: the suite's own checks in another mode of the model, e.g.
`NAMP_VP_SET=core.access_lookahead=1000 ctest -L namp` (docs/timing.md "The lookahead mode").
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

import run_record


def run_recorded(cmd, timeout, record):
    """Runs cmd with --stats into a temporary file; writes the record; returns (code, stdout, stderr)."""
    with tempfile.TemporaryDirectory() as d:
        stats = os.path.join(d, "stats.json")
        p = subprocess.run(cmd + ["--stats", stats], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=timeout)
        data = open(stats, "rb").read() if os.path.exists(stats) else b""
    run_record.write(record, cmd[0], cmd[1:], p.returncode, p.stdout, p.stderr, data)
    return p.returncode, p.stdout, p.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--exit", type=int, required=True, help="expected exit code")
    ap.add_argument("--expect", action="append", default=[], help="regex that must appear")
    ap.add_argument("--count", action="append", default=[], help="REGEX=N: exactly N matching lines")
    ap.add_argument("--reject", action="append", default=[], help="regex that must not appear")
    ap.add_argument("--timeout", type=float, default=240)
    ap.add_argument("--stdout", help="send the command's standard output here (only stderr is checked)")
    ap.add_argument("--record", help="keep the run for tests/engines (see above)")
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd
    if cmd and os.path.basename(cmd[0]) == "namp-vp":
        cmd = cmd + [x for kv in os.environ.get("NAMP_VP_SET", "").split() for x in ("--set", kv)]
    try:
        # a run that writes its own statistics is not kept (compare_engines runs it itself)
        if a.record and not a.stdout and not any(x.startswith("--stats") for x in cmd):
            code, out_b, err_b = run_recorded(cmd, a.timeout, a.record)
            p = subprocess.CompletedProcess(cmd, code, out_b + err_b)
        elif a.stdout:
            with open(a.stdout, "wb") as sink:
                p = subprocess.run(cmd, stdout=sink, stderr=subprocess.PIPE, timeout=a.timeout)
            p.stdout = p.stderr
        else:
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=a.timeout)
    except subprocess.TimeoutExpired:
        print(f"FAIL: timed out after {a.timeout} s: {' '.join(cmd)}")
        return 1
    out = p.stdout.decode(errors="replace")
    failures = []
    if p.returncode != a.exit:
        failures.append(f"exit code {p.returncode}, expected {a.exit}")
    for rx in a.expect:
        if not re.search(rx, out, re.M):
            failures.append(f"missing output matching /{rx}/")
    for rx in a.reject:
        if re.search(rx, out, re.M):
            failures.append(f"unexpected output matching /{rx}/")
    for spec in a.count:
        rx, n = spec.rsplit("=", 1)
        got = sum(1 for line in out.splitlines() if re.search(rx, line))
        if got != int(n):
            failures.append(f"{got} lines match /{rx}/, expected {n}")
    tail = "\n".join(out.splitlines()[-40:])
    print(f"$ {' '.join(cmd)}\n{tail}")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
