#!/usr/bin/env python3
"""The lookahead mode against the exact mode (core.access_lookahead; docs/timing.md "The lookahead
mode"): for message-passing workloads, the host time, the simulated cycles and how many of the
cores' device accesses the adapters took early, at several lookaheads (0 is the exact mode).

    bench/lookahead.py [--build build] [--repeat 2] [--lookaheads 0,4,10,100,1000] [--only KEY]
                       [--instructions] [--docs docs/benchmarks.md]

Every run uses the JIT. A workload whose repeated runs differ in their statistics stops the script
(each mode is deterministic). Host time is the fastest of --repeat runs; the lookaheads alternate
within each round, so that a host whose speed drifts during the script (this one's does, by up to
2x) slows every lookahead alike. --instructions adds the host instructions of each run's first
cycles, counted by callgrind (valgrind): a measure of the host's work that the host's speed does
not move.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402

# (title, key, namp-vp arguments, firmware, the cycles --instructions counts (0: not counted))
WORKLOADS = [
    ("all-to-one, 15 x 200 NAMP messages", "all_to_one", ["--preset", "bare"],
     "namp_stress_15to1_msg.elf", 6000000),
    ("NAS CG class S, 16 ranks, NAMP", "cg",
     ["--preset", "bare", "--set", "tile.sram_size=4194304", "--max-cycles", "10000000000"],
     "mpi_cg_namp.elf", 20000000),
    ("NAMP all-to-all, 64 partners per tile, 16x16", "a2a16",
     ["--preset", "bare", "--set", "mesh.width=16", "--set", "mesh.height=16"], "namp_a2a_64.elf",
     100000),
    ("NAMP all-to-all, 64 partners per tile, 32x32", "a2a32",
     ["--preset", "bare", "--set", "mesh.width=32", "--set", "mesh.height=32"], "namp_a2a_64.elf",
     0),
]


def summary(stats):
    """(simulated cycles, device accesses, of them taken early) of a statistics document."""
    cores = [c for t in stats["tiles"] for c in t["cores"]]
    return (stats["simulation"]["simulated_cycles"], sum(c["device_accesses"] for c in cores),
            sum(c.get("early_accesses", 0) for c in cores))


def host_instructions(vp, args, cycles):
    """Host instructions (callgrind's Ir) of a run cut off after `cycles` simulated cycles (its
    own --max-cycles replaced)."""
    cut = []
    it = iter(args)
    for x in it:
        if x == "--max-cycles":
            next(it)
        else:
            cut.append(x)
    p = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", vp,
                        "--quiet"] + cut + ["--max-cycles", str(cycles)],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    m = re.search(r"Collected : (\d+)", p.stderr)
    # a run cut off by --max-cycles ends with 124 (the watchdog); anything else did not run
    if not m or p.returncode not in (0, 124):
        sys.exit(f"callgrind counted nothing: {' '.join(args)}\n{p.stderr[-2000:]}")
    return int(m.group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(os.path.dirname(__file__), "..", "build"))
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--lookaheads", default="0,4,10,100,1000")
    ap.add_argument("--only", help="a workload key: " + ", ".join(w[1] for w in WORKLOADS))
    ap.add_argument("--instructions", action="store_true")
    ap.add_argument("--docs")
    a = ap.parse_args()
    if a.instructions and not shutil.which("valgrind"):
        sys.exit("--instructions needs valgrind (apt-get install valgrind)")
    vp = os.path.join(a.build, "vp", "namp-vp")
    fw = os.path.join(a.build, "firmware")
    lookaheads = [int(x) for x in a.lookaheads.split(",")]
    lookaheads = [0] + [x for x in lookaheads if x != 0]  # the exact mode: every ratio's reference
    host = benchlib.machine()
    rows = []
    for title, key, args, elf, ir_cycles in WORKLOADS:
        if a.only and a.only != key:
            continue
        def command(la):
            return args + ["--set", f"core.access_lookahead={la}", "--firmware", os.path.join(fw, elf)]
        runs = {la: [] for la in lookaheads}
        seen = {la: set() for la in lookaheads}
        stats = {}
        for rnd in range(a.repeat):
            for la in lookaheads:
                r, stats[la] = benchlib.vp_run(vp, command(la), engine="jit")
                runs[la].append(r)
                seen[la].add(json.dumps(stats[la], sort_keys=True))
                print(f"round {rnd + 1}: {title:46} lookahead {la:6} {r.wall:8.2f} s", flush=True)
        ref_wall, ref_cycles = benchlib.best_of(runs[0]).wall, summary(stats[0])[0]
        ir = {}
        if a.instructions and ir_cycles:
            for la in lookaheads:
                ir[la] = host_instructions(vp, command(la), ir_cycles)
                print(f"{title:46} lookahead {la:6} {ir[la] / 1e9:8.3f} billion host instructions "
                      f"in {ir_cycles} cycles", flush=True)
        for la in lookaheads:
            if len(seen[la]) != 1:
                sys.exit(f"{title}, lookahead {la}: repeated runs gave different statistics")
            cycles, accesses, early = summary(stats[la])
            best = benchlib.best_of(runs[la])
            rows.append([title if la == 0 else "", "exact" if la == 0 else str(la),
                         f"{best.wall:.2f}", f"{best.cpu:.2f}", f"{ref_wall / best.wall:.2f}x",
                         benchlib.number(cycles), f"{100 * (cycles / ref_cycles - 1):+.1f} %",
                         benchlib.number(accesses),
                         f"{100 * early / accesses:.1f} %" if accesses else "–"] +
                        ([f"{ir[la] / 1e9:.3f} ({ir[la] / ir[0]:.2f})" if ir else "–"]
                         if a.instructions else []))
    counted = {w[1]: w[4] for w in WORKLOADS if w[4] and (not a.only or a.only == w[1])}
    md = [f"Measured by `bench/lookahead.py --repeat {a.repeat} --lookaheads {a.lookaheads}"
          f"{' --instructions' if a.instructions else ''}` on {host}, with the JIT. Speed-up and "
          "difference: against the exact mode of the same workload; early: the share of the cores' "
          "device accesses the adapter took at SystemC's time." +
          (" Host instructions: callgrind's count for the run's first cycles (" +
           ", ".join(f"{k} {benchlib.number(c)}" for k, c in counted.items()) +
           "), in billions, and in parentheses against the exact mode." if a.instructions else ""),
          "",
          benchlib.table(["Workload", "Lookahead (cycles)", "Host s", "CPU s", "Speed-up",
                          "Simulated cycles", "Difference", "Device accesses", "Taken early"] +
                         (["Host instructions"] if a.instructions else []), rows)]
    print("\n".join(md))
    if a.docs:
        benchlib.write_docs(a.docs, "bench/lookahead.py", "\n".join(md))


if __name__ == "__main__":
    main()
