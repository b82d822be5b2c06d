#!/usr/bin/env python3
"""Runs a NAMP e2e case through tests/e2e/check_run.py.

namp_e2e.py CHECK_RUN VP PRESET -- check_run arguments (without the command) -- VP arguments
Fails (never skips) when the VP does not know PRESET: a NAMP test whose preset is missing is a
missing feature. The firmware itself fails ("FAIL: no NAMP") on a platform without a NAMP.
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
            print(f"FAIL: namp-vp has no preset '{preset}' (the NAMP feature is missing)")
            return 1
        vpargs = ["--preset", preset] + vpargs
    p = subprocess.run([sys.executable, check_run] + checks + ["--", vp] + vpargs,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    print(p.stdout.decode(errors="replace"))
    return p.returncode


if __name__ == "__main__":
    sys.exit(main())
