#!/usr/bin/env python3
"""Runs a NAMP e2e case through tests/e2e/check_run.py, or reports a skip.

namp_e2e.py CHECK_RUN VP PRESET -- check_run arguments (without the command) -- VP arguments
Skips (prints "SKIP: ..." and exits 0; ctest's SKIP_REGULAR_EXPRESSION) when the VP does not know
PRESET yet (the NAMP is being added), or when the firmware reports "SKIP: no NAMP".
"""
import subprocess
import sys


def main():
    check_run, vp, preset = sys.argv[1:4]
    rest = sys.argv[4:]
    sep = [i for i, a in enumerate(rest) if a == "--"]
    checks, vpargs = rest[sep[0] + 1:sep[1]], rest[sep[1] + 1:]
    if preset != "-":
        p = subprocess.run([vp, "--list-presets"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        names = p.stdout.decode(errors="replace").split()
        if preset not in names:
            print(f"SKIP: namp-vp has no preset '{preset}' (NAMP not available)")
            return 0
        vpargs = ["--preset", preset] + vpargs
    p = subprocess.run([sys.executable, check_run] + checks + ["--", vp] + vpargs,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = p.stdout.decode(errors="replace")
    print(out)
    if "SKIP: no NAMP" in out:
        return 0
    return p.returncode


if __name__ == "__main__":
    sys.exit(main())
