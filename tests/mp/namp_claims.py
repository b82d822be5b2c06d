#!/usr/bin/env python3
"""Guards the NAMP's measured claims (issue 7, docs/namp-benchmarks.md) on simulated cycles:

  - 1 -> 4 packet channels at 4 KiB: at least 3.0 B/cycle (75% of the 4 B/cycle link; thesis
    4.3.1) with the tile bus contended, and the slot sweep still rising from 4 to 8 slots;
  - 4 -> 1 channels at 4 KiB: at least 3.1 B/cycle;
  - driver-level sender overhead at most 127 cycles (namp_micro).

namp_claims.py VP FIRMWARE_DIR
"""
import re
import subprocess
import sys


def run(vp, fw, *extra):
    p = subprocess.run([vp, "--preset", "bare", *extra, "--firmware", fw],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300)
    out = p.stdout.decode(errors="replace")
    if p.returncode != 0 or "FAIL" in out:
        print(out[-3000:])
        raise SystemExit(f"FAIL: {fw} {' '.join(extra)} exited {p.returncode}")
    return out


def tput(out, scenario, mode, size):
    m = re.search(rf"tput {scenario} {mode} +{size} B +\d+ cycles +([0-9.]+) B/cycle", out)
    if not m:
        raise SystemExit(f"FAIL: no {scenario} {mode} {size} B line")
    return float(m.group(1))


def main():
    vp, fwd = sys.argv[1:3]
    fails = []

    def check(ok, what):
        print(("ok: " if ok else "FAIL: ") + what)
        if not ok:
            fails.append(what)

    t4 = run(vp, f"{fwd}/namp_tput.elf", "--set", "namp.slots=4")
    t8 = run(vp, f"{fwd}/namp_tput.elf", "--set", "namp.slots=8")
    c4, c8 = tput(t4, "1to4", "chan", 4096), tput(t8, "1to4", "chan", 4096)
    check(c8 >= 3.0, f"1 -> 4 channels, 4 KiB, 8 slots: {c8} B/cycle >= 3.0")
    check(c8 > c4, f"slot sweep rises from 4 slots ({c4}) to 8 slots ({c8})")
    r8 = tput(t8, "4to1", "chan", 4096)
    check(r8 >= 3.1, f"4 -> 1 channels, 4 KiB: {r8} B/cycle >= 3.1")
    micro = run(vp, f"{fwd}/namp_micro.elf")
    m = re.search(r"driver o_s (\d+)", micro)
    check(m is not None and int(m.group(1)) <= 127, f"driver-level o_s {m.group(1) if m else '?'} <= 127")
    print(f"{len(fails)} failed" if fails else "all claims hold")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
