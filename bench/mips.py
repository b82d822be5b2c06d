#!/usr/bin/env python3
"""Simulation speed of one core: namp-vp with each ISS engine beside qemu-system-riscv32, in
deterministic instruction-counting mode (-icount shift=0) and with plain TCG, on the same
compute-bound workload; then the same workload on all 16 tiles of the default mesh.

usage: bench/mips.py [--build build] [--repeat 3] [--quick] [--docs docs/benchmarks.md]

Workload: sw/apps/mips_bench (CRC32, matrix multiply, sieve, heap sort; checksum-checked), built
as mips_bench_long (12000 rounds, about 6.2 G instructions: every target runs for seconds, so
start-up does not count) for namp-vp (--preset single) and for QEMU's virt board. Runs are
interleaved, every target once per round, so a change in the host's load hits all alike; the
fastest of --repeat rounds counts. Instructions: namp-vp's minstret total; QEMU's minstret as
its firmware prints it under -icount (exact), which stands for TCG's too (same workload code;
without -icount QEMU's minstret is an estimate). Not a test: it measures the host. With --docs
the tables replace the generated part of that file.
"""
import argparse
import os
import re
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402

ENGINES = ["interpreter", "block", "jit"]


def qemu_cmd(qemu, elf, icount):
    cmd = [qemu, "-machine", "virt", "-nographic", "-bios", "none", "-kernel", elf]
    return cmd + (["-icount", "shift=0"] if icount else [])


def qemu_instret(output):
    m = re.search(r"checksum 0x[0-9a-f]+ \(ok\), minstret (\d+)", output)
    if not m:
        sys.exit("QEMU run: no checksum ok line:\n" + output[-2000:])
    return int(m.group(1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(os.path.dirname(__file__), "..", "build"))
    ap.add_argument("--repeat", type=int, default=3, help="rounds; the fastest run of each target counts")
    ap.add_argument("--quick", action="store_true", help="the 102 M-instruction workload (a smoke run)")
    ap.add_argument("--docs", help="write the tables into this file's generated part")
    a = ap.parse_args()
    vp = os.path.join(a.build, "vp", "namp-vp")
    fw = os.path.join(a.build, "firmware")
    name = "mips_bench" if a.quick else "mips_bench_long"
    elf, qemu_elf = os.path.join(fw, name + ".elf"), os.path.join(fw, name + "_qemu.elf")
    qemu = shutil.which("qemu-system-riscv32")
    host = benchlib.machine()

    targets = [(f"namp-vp, 1 core, {e}", "vp", e) for e in ENGINES]
    if qemu and os.path.exists(qemu_elf):
        targets += [("qemu-system-riscv32 -icount shift=0", "qemu", True),
                    ("qemu-system-riscv32 (TCG)", "qemu", False)]
    else:
        print("qemu-system-riscv32 or the QEMU build of the workload is missing: QEMU rows skipped")
    runs = {t[0]: [] for t in targets}
    instret = {}
    for rnd in range(a.repeat):
        for label, kind, arg in targets:
            if kind == "vp":
                r, stats = benchlib.vp_run(vp, ["--preset", "single", "--firmware", elf], engine=arg)
                instret[label] = stats["totals"]["instret"]
                cycles = stats["simulation"]["simulated_cycles"]
            else:
                r = benchlib.run(qemu_cmd(qemu, qemu_elf, arg))
                if arg:  # -icount: exact
                    instret[label] = qemu_instret(r.output)
                else:
                    qemu_instret(r.output)  # the checksum line must be there
                    instret[label] = instret.get("qemu-system-riscv32 -icount shift=0")
            runs[label].append(r)
            print(f"round {rnd + 1}: {label:40} {r.wall:8.2f} s", flush=True)

    icount = "qemu-system-riscv32 -icount shift=0"
    rows = []
    for label, _, _ in targets:
        r = benchlib.best_of(runs[label])
        mips = instret[label] / r.wall / 1e6
        rows.append([label, f"{r.wall:.2f}", f"{r.cpu:.2f}", benchlib.number(instret[label]),
                     f"{mips:.0f}"])
    base = {row[0]: float(row[4]) for row in rows}
    for row in rows:
        row.append(f"{base[row[0]] / base[icount]:.2f}x" if icount in base else "–")

    # the same workload on all 16 tiles of the default 4x4 mesh
    small = os.path.join(fw, "mips_bench.elf")
    mesh_rows = []
    for e in ("interpreter", "jit"):
        best, total = None, 0
        for _ in range(a.repeat):
            r, stats = benchlib.vp_run(vp, ["--firmware", small], engine=e)
            best = r if best is None or r.wall < best.wall else best
            total = stats["totals"]["instret"]
        mesh_rows.append([f"namp-vp, 4x4 tiles x 1 core, {e}", f"{best.wall:.2f}", f"{best.cpu:.2f}",
                          benchlib.number(total), f"{total / best.wall / 1e6:.0f}"])

    md = [f"Measured by `bench/mips.py --repeat {a.repeat}` on {host}; "
          f"{benchlib.qemu_version(qemu) if qemu else 'no QEMU'}. Workload `{name}`, "
          f"{benchlib.number(cycles)} simulated cycles on one core.", "",
          benchlib.table(["Target", "Host s", "CPU s", "Instructions", "MIPS", "vs QEMU -icount"], rows), "",
          benchlib.table(["Target (mips_bench on every tile)", "Host s", "CPU s", "Instructions", "MIPS"],
                         mesh_rows)]
    print("\n".join(md))
    if a.docs:
        benchlib.write_docs(a.docs, "bench/mips.py", "\n".join(md))


if __name__ == "__main__":
    main()
