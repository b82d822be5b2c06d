#!/usr/bin/env python3
"""Host time and peak memory of large meshes: hello and a NAMP all-to-all on 16x16, 32x32 and
64x64 tiles (one core each), with the JIT.

usage: bench/scale.py [--build build] [--sizes 16,32,64] [--full-a2a 16] [--docs docs/benchmarks.md]

Runs (preset bare, so the NAMP is there; default 1 MiB SRAM per tile, reserved and backed only
where touched):
  - hello: every core prints one line and exits;
  - NAMP all-to-all with 64 partners per tile (namp_a2a_64: each tile sends one 16-byte message
    to 64 tiles spread over the mesh and receives 64);
  - the complete NAMP all-to-all (namp_a2a: N - 1 messages per tile) on the sizes of --full-a2a
    (N^2 messages: 65 280 on 16x16, about a million on 32x32).
Peak memory is the child's maximum resident set (os.wait4). Not a test: it measures the host.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(os.path.dirname(__file__), "..", "build"))
    ap.add_argument("--sizes", default="16,32,64")
    ap.add_argument("--full-a2a", default="16", help="sizes for the complete all-to-all ('' for none)")
    ap.add_argument("--docs")
    a = ap.parse_args()
    vp = os.path.join(a.build, "vp", "namp-vp")
    fw = os.path.join(a.build, "firmware")
    sizes = [int(s) for s in a.sizes.split(",") if s]
    full = {int(s) for s in a.full_a2a.split(",") if s}
    host = benchlib.machine()
    cases = [("hello", "hello.elf", sizes),
             ("NAMP all-to-all, 64 partners per tile", "namp_a2a_64.elf", sizes),
             ("NAMP all-to-all, complete", "namp_a2a.elf", [s for s in sizes if s in full])]
    rows = []
    for title, elf, for_sizes in cases:
        for n in for_sizes:
            args = ["--preset", "bare", "--set", f"mesh.width={n}", "--set", f"mesh.height={n}",
                    "--firmware", os.path.join(fw, elf)]
            r, stats = benchlib.vp_run(vp, args, engine="jit")
            if stats["simulation"]["exit_code"] != 0:
                sys.exit(f"{title} on {n}x{n}: exit code {stats['simulation']['exit_code']}")
            t = stats["totals"]
            rows.append([title, f"{n}x{n}", f"{n * n:,}".replace(",", " "), f"{r.wall:.1f}",
                         f"{r.rss_kib / 1024:.0f}", f"{r.rss_kib / (n * n):.0f}",
                         f"{stats['simulation']['simulated_cycles']:,}".replace(",", " "),
                         f"{t['instret']:,}".replace(",", " ")])
            print(" | ".join(rows[-1]), flush=True)
    md = [f"Measured by `bench/scale.py --sizes {a.sizes} --full-a2a {a.full_a2a}` on {host}, "
          "engine jit, preset bare (NAMP), 1 MiB SRAM per tile.", "",
          benchlib.table(["Workload", "Mesh", "Tiles", "Host s", "Peak MiB", "KiB per tile",
                          "Simulated cycles", "Instructions"], rows)]
    print("\n".join(md))
    if a.docs:
        benchlib.write_docs(a.docs, "bench/scale.py", "\n".join(md))


if __name__ == "__main__":
    main()
