#!/usr/bin/env python3
"""Guards the NAMP-CC multicast claims (thesis Fig. 3.21, section 5.1; docs/namp-benchmarks.md,
"Collective communication") on simulated cycles, from the namp_cc_bench firmware on preset bare
at N = 1, 8, 15, against the MCAPI blocking loop (the two-sided guards of the thesis' figures,
against its own baselines, are the claims.* tests of docs/evaluation.md):

  - sender overhead at N = 8 destinations at least 64% below the software loop (4 B and 2048 B);
  - the NAMP-CC sender overhead is a single set-up: at N = 15 at most 1.5x that at N = 1, while
    the software loop's grows with N (at N = 15 at least 8x that at N = 1);
  - throughput (1 / gap) at N = 8 at least +72% at 4 B and at least +4% at 2048 B;
  - Fig. 3.23: scatter sender overhead at N = 8 at least 64% below software (4 B and 256 B per
    member) and the gap at N = 8 smaller (namp_cc_bench_scatter, baresg);
  - Fig. 3.25: the gather receive overhead with NAMP-CC stays flat in N (at N = 15 at most 1.3x
    that at N = 1) while the software path's grows (at N = 15 at least 5x the NAMP-CC one);
  - Fig. 3.26: the reduction receive overhead with NAMP-CC is the same for every op and type
    (within 5%), and at most a fifth of the software path's (namp_cc_bench_reduce, barered).

cc_claims.py VP FIRMWARE_DIR
"""
import re
import subprocess
import sys

LINE = re.compile(r"ccbench mcast path=(\w+) n=(\d+) size=(\d+) os=(\d+) g=(\d+)")
# N = 1, 8 and 15 only (tile.arg: a bitmask of the N the benchmarks measure)
NARG = ["--set", f"tile.arg={(1 << 1) | (1 << 8) | (1 << 15)}"]


def measure(vp, fw_dir):
    cmd = [vp, "--preset", "bare", *NARG, "--max-cycles", "500000000", "--firmware",
           f"{fw_dir}/namp_cc_bench.elf"]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300)
    out = p.stdout.decode(errors="replace")
    if p.returncode != 0 or "FAIL" in out or "ccbench done: features=0x1000" not in out:
        print(out[-3000:])
        raise SystemExit(f"FAIL: {' '.join(cmd)} exited {p.returncode}")
    res = {}
    for m in LINE.finditer(out):
        path, n, size, os_, g = m.group(1), *map(int, m.groups()[1:])
        res[(path, n, size)] = (os_, g)
    if len(res) != 6 * 3 * 3:
        raise SystemExit(f"FAIL: {len(res)} ccbench lines, expected 54 (6 paths, 3 N, 3 sizes)")
    return res


def scatter_measure(vp, fw_dir):
    cmd = [vp, "--preset", "baresg", *NARG, "--max-cycles", "900000000", "--firmware",
           f"{fw_dir}/namp_cc_bench_scatter.elf"]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300)
    out = p.stdout.decode(errors="replace")
    if p.returncode != 0 or "FAIL" in out or "ccbench scatter done" not in out:
        print(out[-3000:])
        raise SystemExit(f"FAIL: {' '.join(cmd)} exited {p.returncode}")
    sc = {(m.group(1), int(m.group(2)), int(m.group(3))): (int(m.group(4)), int(m.group(5)))
          for m in re.finditer(r"ccbench scatter path=(\w+) n=(\d+) size=(\d+) os=(\d+) g=(\d+)", out)}
    if len(sc) != 4 * 3 * 3:
        raise SystemExit(f"FAIL: {len(sc)} scatter lines, expected 36 (4 paths, 3 N, 3 sizes)")
    return sc


def gather_measure(vp, fw_dir):
    res = {}
    for fw in ("namp_cc_gather_mp_namp", "namp_cc_gather_swpath"):
        cmd = [vp, "--preset", "baresg", "--max-cycles", "200000000", "--firmware", f"{fw_dir}/{fw}.elf"]
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300)
        out = p.stdout.decode(errors="replace")
        if p.returncode != 0 or "FAIL" in out or "gather ok" not in out:
            print(out[-3000:])
            raise SystemExit(f"FAIL: {' '.join(cmd)} exited {p.returncode}")
        for m in re.finditer(r"ccbench gather path=(sw|hw) n=(\d+) size=\d+ or=(\d+)", out):
            res[(m.group(1), int(m.group(2)))] = int(m.group(3))
    if len(res) != 30:
        raise SystemExit(f"FAIL: {len(res)} gather lines, expected 30")
    return res


def reduce_measure(vp, fw_dir):
    cmd = [vp, "--preset", "barered", "--max-cycles", "500000000", "--firmware",
           f"{fw_dir}/namp_cc_bench_reduce.elf"]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300)
    out = p.stdout.decode(errors="replace")
    if p.returncode != 0 or "FAIL" in out or "ccbench reduce done" not in out:
        print(out[-3000:])
        raise SystemExit(f"FAIL: {' '.join(cmd)} exited {p.returncode}")
    red = {(m.group(1), int(m.group(2)), int(m.group(3))): int(m.group(4))
           for m in re.finditer(r"ccbench reduce path=(sw|hw) op=(\d+) type=(\d+) or=(\d+)", out)}
    if len(red) != 96:
        raise SystemExit(f"FAIL: {len(red)} reduction lines, expected 96")
    return red


def main():
    vp, fw = sys.argv[1], sys.argv[2]
    r = measure(vp, fw)
    fails = []

    def check(ok, what):
        print(("ok   " if ok else "FAIL ") + what)
        if not ok:
            fails.append(what)

    for size in (4, 2048):
        sw, hw = r[("sw", 8, size)][0], r[("hw", 8, size)][0]
        check(hw <= 0.36 * sw, f"o_s at N=8, {size} B: NAMP-CC {hw} vs software {sw} "
                               f"({100 * (1 - hw / sw):.0f}% less, thesis 64%)")
    hw1, hw15 = r[("hw", 1, 4)][0], r[("hw", 15, 4)][0]
    sw1, sw15 = r[("sw", 1, 4)][0], r[("sw", 15, 4)][0]
    check(hw15 <= 1.5 * hw1, f"NAMP-CC o_s independent of N: {hw1} at N=1, {hw15} at N=15")
    check(sw15 >= 8 * sw1, f"software o_s grows with N: {sw1} at N=1, {sw15} at N=15")
    for size, want in ((4, 1.72), (2048, 1.04)):
        gs, gh = r[("sw", 8, size)][1], r[("hw", 8, size)][1]
        check(gs >= want * gh, f"throughput at N=8, {size} B: x{gs / gh:.2f} (gap {gs} -> {gh}), "
                               f"thesis x{want}")
    sc = scatter_measure(vp, fw)
    for size in (4, 256):
        sw, hw = sc[("sw", 8, size)], sc[("hw", 8, size)]
        check(hw[0] <= 0.36 * sw[0], f"scatter o_s at N=8, {size} B: NAMP-CC {hw[0]} vs software {sw[0]}")
        check(hw[1] < sw[1], f"scatter gap at N=8, {size} B: NAMP-CC {hw[1]} vs software {sw[1]}")
    ga = gather_measure(vp, fw)
    check(ga[("hw", 15)] <= 1.3 * ga[("hw", 1)], f"gather o_r flat with NAMP-CC: {ga[('hw', 1)]} at N=1, {ga[('hw', 15)]} at N=15")
    check(ga[("sw", 15)] >= 5 * ga[("hw", 15)], f"gather o_r at N=15: software {ga[('sw', 15)]} vs NAMP-CC {ga[('hw', 15)]}")
    red = reduce_measure(vp, fw)
    hw = [v for (p, _, _), v in red.items() if p == "hw"]
    check(len(hw) == 48 and max(hw) <= 1.05 * min(hw), f"NAMP-CC o_r constant over op x type: {min(hw)}..{max(hw)}")
    worst = max(red[("hw", o, t)] / red[("sw", o, t)] for o in range(8) for t in range(6))
    check(worst <= 0.2, f"NAMP-CC o_r at most a fifth of software's for every op x type (worst {worst:.3f})")
    if fails:
        raise SystemExit(f"FAIL: {len(fails)} claim(s)")
    print("cc claims ok")


if __name__ == "__main__":
    main()
