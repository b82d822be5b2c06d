#!/usr/bin/env python3
"""Host time and peak memory of large meshes: hello and a NAMP all-to-all on 16x16, 32x32 and
64x64 tiles (one core each), with the JIT.

usage: bench/scale.py [--build build] [--sizes 16,32,64] [--full-a2a 16] [--repeat 1]
                      [--docs docs/benchmarks.md]

Runs (default 1 MiB SRAM per tile, reserved and backed only where touched):
  - hello (default preset: network adapters without the NAMP): every core prints a line, exits;
  - NAMP all-to-all with 64 partners per tile (namp_a2a_64: each tile sends one 16-byte message
    to 64 tiles spread over the mesh and receives 64);
  - the complete NAMP all-to-all (namp_a2a: N - 1 messages per tile) on the sizes of --full-a2a
    (N^2 messages: 65 280 on 16x16, about a million on 32x32);
  both with preset bare (the NAMP).
SystemC maps every thread stack with a guard page, two memory mappings per thread, 9 threads per
tile with the NAMP: on 64x64 tiles that is about 79 000 mappings, more than Linux's default
vm.max_map_count (65530). namp-vp then runs the threads without guard pages (host.stack_guards
auto, with a note on stderr; the stacks, mapped side by side, merge into a few mappings), which
changes nothing in the simulation; column "Stack guards" says which runs did. A run that fails is a row with the
reason (e.g. a host whose limit is too low even without guard pages: namp-vp checks that before
it runs and names the value to set).
Peak memory is the child's maximum resident set (os.wait4). With --repeat N every case runs N
times in a row and the fastest counts (this host's load moves single runs by up to a half); the
repeats must simulate the same cycles and instructions. Not a test: it measures the host.
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402


def failure(output):
    """Why a run failed, in a few words."""
    if "memory mappings" in output and "vm.max_map_count" in output:  # vp/src/host_limits.cpp
        need = re.search(r"needs about (\d+) memory mappings", output)
        return (f"needs about {benchlib.number(int(need.group(1)))} memory mappings (thread stacks), "
                "more than vm.max_map_count" if need else "more memory mappings than vm.max_map_count")
    if "failed to allocate stack memory" in output:
        return "SystemC could not map another thread stack (vm.max_map_count reached)"
    lines = [l for l in output.splitlines() if l.strip()]
    return lines[-1][:120] if lines else "no output"


def stack_guards(output):
    """Whether the run kept SystemC's stack guard pages (vp/src/host_limits.cpp says when not)."""
    return "off" if "stack guard pages are off" in output else "on"


def max_map_count():
    try:
        with open("/proc/sys/vm/max_map_count") as f:
            return f.read().strip()
    except OSError:
        return "unknown"


def fastest(vp, args, repeat):
    """The fastest of `repeat` runs, (Run, statistics); the runs must simulate the same."""
    results = [benchlib.vp_run(vp, args, engine="jit", check=False) for _ in range(max(1, repeat))]
    if len({str(s["totals"]) for _, s in results if s}) > 1:
        sys.exit(f"bench/scale.py: {' '.join(args)}: the repeats simulated differently")
    best = benchlib.best_of([r for r, _ in results])
    return next(x for x in results if x[0] is best)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(os.path.dirname(__file__), "..", "build"))
    ap.add_argument("--sizes", default="16,32,64")
    ap.add_argument("--full-a2a", default="16", help="sizes for the complete all-to-all ('' for none)")
    ap.add_argument("--repeat", type=int, default=1, help="runs of each case; the fastest counts")
    ap.add_argument("--docs")
    a = ap.parse_args()
    vp = os.path.join(a.build, "vp", "namp-vp")
    fw = os.path.join(a.build, "firmware")
    sizes = [int(s) for s in a.sizes.split(",") if s]
    full = {int(s) for s in a.full_a2a.split(",") if s}
    host = benchlib.machine()
    cases = [("hello", "default", "hello.elf", sizes),
             ("NAMP all-to-all, 64 partners per tile", "bare", "namp_a2a_64.elf", sizes),
             ("NAMP all-to-all, complete", "bare", "namp_a2a.elf", [s for s in sizes if s in full])]
    rows = []
    for title, preset, elf, for_sizes in cases:
        for n in for_sizes:
            args = ["--preset", preset, "--set", f"mesh.width={n}", "--set", f"mesh.height={n}",
                    "--firmware", os.path.join(fw, elf)]
            r, stats = fastest(vp, args, a.repeat)
            run = [title, preset, f"{n}x{n}", benchlib.number(n * n), stack_guards(r.output),
                   f"{r.wall:.1f}", f"{r.rss_kib / 1024:.0f}"]
            if stats is None or stats["simulation"]["exit_code"] != 0:
                rows.append(run + ["–", "failed: " + failure(r.output), "–"])
            else:
                rows.append(run + [f"{r.rss_kib / (n * n):.0f}",
                                   benchlib.number(stats["simulation"]["simulated_cycles"]),
                                   benchlib.number(stats["totals"]["instret"])])
            print(" | ".join(rows[-1]), flush=True)
    repeat = f" --repeat {a.repeat}" if a.repeat > 1 else ""
    md = [f"Measured by `bench/scale.py --sizes {a.sizes} --full-a2a {a.full_a2a}{repeat}` on {host}, "
          f"engine jit, one core and 1 MiB SRAM per tile; vm.max_map_count {max_map_count()}.", "",
          benchlib.table(["Workload", "Preset", "Mesh", "Tiles", "Stack guards", "Host s", "Peak MiB",
                          "KiB per tile", "Simulated cycles", "Instructions"], rows)]
    print("\n".join(md))
    if a.docs:
        benchlib.write_docs(a.docs, "bench/scale.py", "\n".join(md))


if __name__ == "__main__":
    main()
