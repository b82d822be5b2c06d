#!/usr/bin/env python3
"""The claim checker is two-sided: with one documented platform value moved just outside its
band, up and then down, `scripts/claims --check area` fails; with the value as documented it
passes. (The area group needs no simulation: namp-vp --area-calibration.)

two_sided.py ROOT VP
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile


def check(root, vp, doc):
    p = subprocess.run([sys.executable, os.path.join(root, "scripts", "claims"), "--vp", vp,
                        "--check", "area", "--docs", doc], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=300)
    return p.returncode, p.stdout.decode()


def main():
    root, vp = sys.argv[1:3]
    src = os.path.join(root, "docs", "evaluation.md")
    text = open(src).read()
    # the "each slot adds" row: platform column (the 6th cell) "4.25 kGates", regression band ±1%
    row = re.search(r"^\| (\d+) \| each slot adds \[validation\] \|[^\n]*$", text, re.M)
    if not row:
        print("FAIL: no 'each slot adds' row in docs/evaluation.md")
        return 1
    cells = row.group(0).split("|")
    value = float(cells[6].split()[0])
    fails = 0
    with tempfile.TemporaryDirectory() as d:
        doc = os.path.join(d, "evaluation.md")
        for factor, want in ((1.0, 0), (1.02, 1), (0.98, 1)):
            moved = list(cells)
            moved[6] = f" {value * factor:.2f} kGates "
            with open(doc, "w") as f:
                f.write(text.replace(row.group(0), "|".join(moved)))
            rc, out = check(root, vp, doc)
            ok = rc == want
            fails += not ok
            print(f"{'ok' if ok else 'FAIL'}: documented value x {factor}: exit {rc} (want {want})")
            if not ok:
                print(out[-1500:])
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
