#!/usr/bin/env python3
"""The migration claim (`scripts/ps-bench --check`): the measured mean ratios lie in their bands
of docs/namp-ps-bench.md, and the checker is two-sided: with one documented ratio moved just
outside its band, up and then down, it fails on the same measurement (--measured: the runs are
made once); a --measured file that is not a measurement is refused with a message.

claim.py ROOT BUILD VP FIRMWARE_DIR
"""
import os
import re
import subprocess
import sys
import tempfile


def check(root, build, vp, fw, doc, measured, first):
    p = subprocess.run([sys.executable, os.path.join(root, "scripts", "ps-bench"), "--build", build,
                        "--vp", vp, "--firmware-dir", fw, "--check", "--docs", doc,
                        "--save-measured" if first else "--measured", measured], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=600)
    return p.returncode, p.stdout.decode()


def main():
    root, build, vp, fw = sys.argv[1:5]
    text = open(os.path.join(root, "docs", "namp-ps-bench.md")).read()
    # the claim row of the chain's relocation over channels: "| chain | channels | relocate | R | ±B |"
    row = re.search(r"^\| chain \| channels \| relocate \| ([0-9.]+) \| ±([0-9.]+) \|.*$", text, re.M)
    if not row:
        print("FAIL: no claim row for the chain's relocation over channels in docs/namp-ps-bench.md")
        return 1
    value, band = float(row.group(1)), float(row.group(2))
    fails = 0
    with tempfile.TemporaryDirectory() as d:
        doc = os.path.join(d, "namp-ps-bench.md")
        for shift, want in ((0.0, 0), (band + 0.01, 1), (-(band + 0.01), 1)):
            moved = row.group(0).replace(f"| {row.group(1)} |", f"| {value + shift:.3f} |", 1)
            with open(doc, "w") as f:
                f.write(text.replace(row.group(0), moved))
            rc, out = check(root, build, vp, fw, doc, os.path.join(d, "measured.json"), shift == 0.0)
            ok = rc == want
            fails += not ok
            print(f"{'ok' if ok else 'FAIL'}: documented ratio {value:.3f} {shift:+.3f}: exit {rc} (want {want})")
            if not ok:
                print(out[-1500:])
        # a measurement file that is not one (empty, or without every ratio): a clear error, exit 2
        for name, content in (("empty.json", ""),
                              ("partial.json", '[{"scenario": 1, "method": 4, "mean": 0.9}]')):
            bad = os.path.join(d, name)
            with open(bad, "w") as f:
                f.write(content)
            rc, out = check(root, build, vp, fw, os.path.join(root, "docs", "namp-ps-bench.md"), bad, False)
            ok = rc == 2 and "--measured" in out and "Traceback" not in out
            fails += not ok
            print(f"{'ok' if ok else 'FAIL'}: --measured {name}: exit {rc} (want 2 and a message)")
            if not ok:
                print(out[-1500:])
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
