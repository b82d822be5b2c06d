#!/usr/bin/env python3
"""Simulation speed: simulated MIPS of one core and of a 16-tile platform, with QEMU beside it.

Runs the compute-bound firmware `mips_bench` (same workload code on every target) and prints host
time, instruction count and MIPS side by side in one run. Not a test: speed depends on the host.

usage: bench/mips.py [--build build] [--repeat 3]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time


def timed(cmd):
    start = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    elapsed = time.perf_counter() - start
    if p.returncode != 0:
        sys.exit(f"failed ({p.returncode}): {' '.join(cmd)}\n{p.stdout.decode(errors='replace')[-2000:]}")
    return elapsed, p.stdout.decode(errors="replace")


def run_vp(vp, elf, args, repeat):
    best = None
    with tempfile.TemporaryDirectory() as d:
        stats_file = os.path.join(d, "stats.json")
        for _ in range(repeat):
            t, _ = timed([vp, "--quiet", "--stats", stats_file, "--firmware", elf] + args)
            best = t if best is None else min(best, t)
        with open(stats_file) as f:
            stats = json.load(f)
    return best, stats["totals"]["instret"], stats["simulation"]["simulated_cycles"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(os.path.dirname(__file__), "..", "build"))
    ap.add_argument("--repeat", type=int, default=3, help="runs per target; the fastest counts")
    a = ap.parse_args()
    vp = os.path.join(a.build, "vp", "namp-vp")
    fw = os.path.join(a.build, "firmware")
    elf = os.path.join(fw, "mips_bench.elf")
    rows = []

    t1, n1, c1 = run_vp(vp, elf, ["--preset", "single"], a.repeat)
    rows.append(("namp-vp, 1 tile x 1 core", t1, n1))
    t16, n16, _ = run_vp(vp, elf, [], a.repeat)
    rows.append(("namp-vp, 4x4 tiles x 1 core", t16, n16))

    qemu = shutil.which("qemu-system-riscv32")
    qemu_elf = os.path.join(fw, "mips_bench_qemu.elf")
    if qemu and os.path.exists(qemu_elf):
        cmd = [qemu, "-machine", "virt", "-nographic", "-bios", "none", "-kernel", qemu_elf]
        tq = min(timed(cmd)[0] for _ in range(a.repeat))
        # Same workload code: the VP's instruction count stands for QEMU's too.
        rows.append(("qemu-system-riscv32 (TCG), same workload", tq, n1))
    else:
        print("qemu-system-riscv32 or mips_bench_qemu.elf missing: QEMU column skipped")

    print(f"{'target':44} {'host s':>8} {'instructions':>14} {'MIPS':>8} {'vs 1-core VP':>13}")
    base = n1 / t1
    for name, t, n in rows:
        mips = n / t / 1e6
        print(f"{name:44} {t:8.3f} {n:14d} {mips:8.1f} {mips / (base / 1e6):12.2f}x")
    print(f"simulated cycles of the 1-core run: {c1} (CPI {c1 / n1:.2f})")


if __name__ == "__main__":
    main()
