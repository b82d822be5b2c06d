#!/usr/bin/env python3
"""Guards the NAMP's measured claims (issue 7, docs/namp-benchmarks.md) on simulated cycles:

  - 1 -> 4 packet channels at 4 KiB: at least 3.0 B/cycle (75% of the 4 B/cycle link; thesis
    4.3.1) with the tile bus contended, and the slot sweep still rising from 4 to 8 slots;
  - 4 -> 1 channels at 4 KiB: at least 3.1 B/cycle;
  - driver-level sender overhead at most 127 cycles (namp_micro);
  - no worse than before the issue (commit d26e9cd, the figures of its docs/namp-benchmarks.md):
    the unbuffered sender overhead o_s of the blocking mcapi_msg_send (410) and
    mcapi_pktchan_send (484), the latency L of unbuffered messages and channels from 4 B to 4 KiB
    (namp_logp, neighbour, zero-copy receive), and the 4 -> 1 aggregates (namp_tput, 8 slots).

namp_claims.py VP FIRMWARE_DIR
"""
import json
import os
import re
import subprocess
import sys
import tempfile

# Before issue 7 (d26e9cd): unbuffered o_s and L by size, neighbour, zero-copy receive
BEFORE_OS = {"msg": 410, "chan": 484}
BEFORE_L = {"msg": {4: 1046, 64: 1159, 1024: 2947, 4096: 8640},
            "chan": {4: 1127, 64: 1161, 1024: 1770, 4096: 3702}}
# ... and the 4 -> 1 aggregates (B/cycle, 8 slots)
BEFORE_4TO1 = {"msg": {64: 0.101, 256: 0.268, 1024: 0.507, 4096: 0.674},
               "chan": {64: 0.076, 256: 0.302, 1024: 1.202, 4096: 3.185}}
EV = {5: "o_s", 8: "L"}


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


def logp(vp, fw):
    """namp_logp's marks -> {(mode, size): {"o_s": .., "L": ..}} for the unbuffered neighbour rows
    (mark id: event << 28 | cfg << 20 | value; cfg = ((pair * 2 + mode) * 3 + path) * 16 + log2)."""
    with tempfile.TemporaryDirectory() as d:
        stats = os.path.join(d, "stats.json")
        run(vp, fw, "--stats", stats)
        with open(stats) as f:
            marks = json.load(f).get("marks", [])
    vals = {}
    for m in marks:
        i = m["id"]
        ev, cfg, v = i >> 28, (i >> 20) & 0xFF, i & 0xFFFFF
        lg, rest = cfg % 16, cfg // 16
        path, rest = rest % 3, rest // 3
        mode, pair = rest % 2, rest // 2
        if ev in EV and pair == 0 and path == 0:
            vals.setdefault((["msg", "chan"][mode], 1 << lg), {})[EV[ev]] = v
    return vals


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
    for mode, sizes in BEFORE_4TO1.items():
        for size, ref in sizes.items():
            v = tput(t8, "4to1", mode, size)
            check(v >= ref, f"4 -> 1 {mode} {size} B: {v} B/cycle >= {ref} (before)")
    lp = logp(vp, f"{fwd}/namp_logp.elf")
    for mode, sizes in BEFORE_L.items():
        for size, ref in sizes.items():
            d = lp.get((mode, size), {})
            check("L" in d and d["L"] <= ref, f"L {mode} {size} B: {d.get('L', '?')} <= {ref} (before)")
            check("o_s" in d and d["o_s"] <= BEFORE_OS[mode],
                  f"o_s {mode} {size} B: {d.get('o_s', '?')} <= {BEFORE_OS[mode]} (before)")
    micro = run(vp, f"{fwd}/namp_micro.elf")
    m = re.search(r"driver o_s (\d+)", micro)
    check(m is not None and int(m.group(1)) <= 127, f"driver-level o_s {m.group(1) if m else '?'} <= 127")
    m = re.search(r"blocking mcapi_msg_send awake (\d+) cycles", micro)
    check(m is not None and int(m.group(1)) <= 411,
          f"blocking mcapi_msg_send awake {m.group(1) if m else '?'} <= 411 (before)")
    print(f"{len(fails)} failed" if fails else "all claims hold")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
