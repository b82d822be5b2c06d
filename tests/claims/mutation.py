#!/usr/bin/env python3
"""The fidelity guard holds a claim to the thesis, not to the platform: in a copy of
docs/evaluation.md whose thesis value of one claim is changed by 30 % (up, then down),
`scripts/claims --check flits` fails on that claim's fidelity guard while its regression guard
still holds; with the table as documented it passes. (The flits group runs one unit test, no
simulation.)

mutation.py ROOT BUILD VP
"""
import os
import re
import subprocess
import sys
import tempfile


def check(root, build, vp, doc):
    p = subprocess.run([sys.executable, os.path.join(root, "scripts", "claims"), "--build", build, "--vp", vp,
                        "--check", "flits", "--docs", doc], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=300)
    return p.returncode, p.stdout.decode()


def main():
    root, build, vp = sys.argv[1:4]
    text = open(os.path.join(root, "docs", "evaluation.md")).read()
    # the packed gather's flits: thesis column (the 5th cell) "1213 flits"
    row = re.search(r"^\| (\d+) \| flits of a 4 KiB gather[^\n]*$", text, re.M)
    if not row:
        print("FAIL: no gather-flits row in docs/evaluation.md")
        return 1
    cells = row.group(0).split("|")
    thesis = float(cells[4].split()[0])
    fails = 0
    with tempfile.TemporaryDirectory() as d:
        doc = os.path.join(d, "evaluation.md")
        for factor, want in ((1.0, 0), (1.3, 1), (0.7, 1)):
            moved = list(cells)
            moved[4] = f" {thesis * factor:.0f} flits "
            with open(doc, "w") as f:
                f.write(text.replace(row.group(0), "|".join(moved)))
            rc, out = check(root, build, vp, doc)
            fid_failed = re.search(r"^FAIL: claim \d+ \(gather-flits\) fidelity", out, re.M) is not None
            reg_ok = re.search(r"^ok: claim \d+ \(gather-flits\) regression", out, re.M) is not None
            ok = rc == want and fid_failed == bool(want) and reg_ok
            fails += not ok
            print(f"{'ok' if ok else 'FAIL'}: thesis value x {factor}: exit {rc} (want {want}), fidelity "
                  f"guard {'failed' if fid_failed else 'held'}, regression guard {'held' if reg_ok else 'failed'}")
            if not ok:
                print(out[-1500:])
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
