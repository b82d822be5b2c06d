#!/usr/bin/env python3
"""Host time of 16-tile message-passing workloads with each ISS engine, side by side, and where
the time goes with the JIT (perf profile by component).

usage: bench/mp16.py [--build build] [--repeat 1] [--engines interpreter,jit] [--profile]
                     [--what-if-quantum N] [--only NAME] [--docs docs/benchmarks.md]

Workloads (4x4 mesh, one core per tile, preset bare: the NAMP):
  - NAS CG class S on 16 MPI ranks over the NAMP (mpi_cg_namp, 4 MiB SRAM per tile);
  - all-to-one: 15 tiles send 200 NAMP messages each to tile 0 (namp_stress_15to1_msg).
Runs are interleaved (every engine once per round); the fastest of --repeat rounds counts. Every
run's statistics must equal the interpreter's (cycles and instructions retired): a benchmark of a
simulation that changed would be void. --profile adds a perf record of one JIT run per workload,
its samples grouped by component (needs perf), and of one run per other engine for the ISS bound:
the share of each engine's CPU time spent in the ISS gives the speed-up the JIT would have if
everything else (SystemC kernel, NoC, adapters) took no time, and the most CPU time that
everything else may take, paid alike by both engines, for the JIT to be 3x faster in the same run
((ISS s of the first engine - 3 x ISS s of the JIT) / 2; none if even zero is too much).
--what-if-quantum N runs the JIT once more with quantum_cycles N: a different simulation, shown
only to tell the cost of the cores' synchronization at every quantum from the cost of the
instructions. Not a test: it measures the host.
"""
import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402

WORKLOADS = [
    ("CG class S, 16 ranks, NAMP", "cg",
     ["--preset", "bare", "--set", "tile.sram_size=4194304", "--max-cycles", "10000000000"],
     "mpi_cg_namp.elf"),
    ("all-to-one, 15 x 200 NAMP messages", "all_to_one", ["--preset", "bare"], "namp_stress_15to1_msg.elf"),
]

# perf symbol -> component; the first pattern that matches wins
COMPONENTS = [
    ("ISS: translated code", None),  # by mapping, in profile()
    ("ISS: C (engines, interpreter, MMU)", re.compile(r"^(rv_|jit_|x86_|tlb_entry|enter_page|block_|step_|run_chain|lookup|translate|exec_insn)")),
    ("core wrapper (cpu_core: TLM, quantum keeper)", re.compile(r"tiles::cpu_core|tlm_utils::tlm_quantumkeeper|tlm::tlm_global_quantum")),
    ("SystemC kernel", re.compile(r"sc_core::|sc_dt::|_qt_|qt_|sc_cor|sc_time")),
    ("NoC", re.compile(r"noc::")),
    ("network adapter and NAMP", re.compile(r"namp::")),
    ("tile bus and devices", re.compile(r"tiles::|tlm_utils::|tlm::")),
    ("host kernel", re.compile(r"^\[k\]")),
    ("C/C++ runtime (malloc, memcpy, ...)", re.compile(r"malloc|free|memcpy|memmove|memset|operator new|operator delete|std::")),
]


def perf_lines(data, sort):
    """(percent, dso, kind, symbol) of perf report --sort sort."""
    rep = subprocess.run(["perf", "report", "-i", data, "--stdio", "--no-children", "--sort", sort,
                          "-q"], stdout=subprocess.PIPE, text=True, stderr=subprocess.DEVNULL).stdout
    for line in rep.splitlines():
        m = re.match(r"\s*([0-9.]+)%\s+(.*?)(?:\s+\[([.k])\]\s+(.*))?$", line)
        if m:
            yield float(m.group(1)), m.group(2).strip(), m.group(3), (m.group(4) or "").strip()


ISS_COMPONENTS = ("ISS: translated code", "ISS: C (engines, interpreter, MMU)")


def profile(cmd):
    """perf record of cmd; returns [(component, percent)] of the samples. Translated code is
    counted per mapping (its samples spread over too many addresses to list one by one)."""
    with tempfile.TemporaryDirectory() as d:
        data = os.path.join(d, "perf.data")
        subprocess.run(["perf", "record", "-q", "-o", data, "--"] + cmd,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        share = collections.Counter()
        for pct, dso, _, _ in perf_lines(data, "dso"):
            if dso.startswith("[JIT]"):
                share[COMPONENTS[0][0]] += pct
        for pct, dso, kind, sym in perf_lines(data, "dso,sym"):
            if dso.startswith("[JIT]") or kind is None:
                continue
            key = "[k] " + sym if kind == "k" else sym
            share[next((c for c, rx in COMPONENTS[1:] if rx.search(key)), "other")] += pct
    share["not attributed (samples too few to list)"] = max(0.0, 100.0 - sum(share.values()))
    return sorted(share.items(), key=lambda kv: -kv[1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(os.path.dirname(__file__), "..", "build"))
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--engines", default="interpreter,jit")
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--what-if-quantum", type=int, default=0)
    ap.add_argument("--only", help="a workload key: cg or all_to_one")
    ap.add_argument("--docs")
    a = ap.parse_args()
    vp = os.path.join(a.build, "vp", "namp-vp")
    fw = os.path.join(a.build, "firmware")
    engines = a.engines.split(",")
    host = benchlib.machine()
    rows, profiles, bounds, what_if = [], [], [], []
    for title, key, args, elf in WORKLOADS:
        if a.only and a.only != key:
            continue
        cmd_args = args + ["--firmware", os.path.join(fw, elf)]
        runs = {e: [] for e in engines}
        totals = {}
        for rnd in range(a.repeat):
            for e in engines:
                r, stats = benchlib.vp_run(vp, cmd_args, engine=e)
                t = stats["totals"]
                totals[e] = (t["instret"], t["core_cycles"], stats["simulation"]["simulated_cycles"])
                runs[e].append(r)
                print(f"round {rnd + 1}: {title:36} {e:12} {r.wall:8.2f} s", flush=True)
        if len(set(totals.values())) != 1:
            sys.exit(f"{title}: the engines simulated different runs: {totals}")
        instret, _, cycles = totals[engines[0]]
        best = {e: benchlib.best_of(runs[e]) for e in engines}
        ref = best[engines[0]].wall
        for e in engines:
            r = best[e]
            rows.append([title, e, f"{r.wall:.2f}", f"{r.cpu:.2f}", f"{ref / r.wall:.2f}x",
                         f"{instret / r.wall / 1e6:.0f}", f"{r.rss_kib / 1024:.0f}"])
        if a.profile and shutil.which("perf"):
            iss = {}
            for e in engines:
                share = profile([vp, "--quiet", "--set", f"core.engine={e}"] + cmd_args)
                iss[e] = sum(p for c, p in share if c in ISS_COMPONENTS) / 100.0
                if e == "jit":
                    profiles.append((title, share))
            if "jit" in iss and engines[0] != "jit":
                ref_iss = best[engines[0]].cpu * iss[engines[0]]
                jit_iss = best["jit"].cpu * iss["jit"]
                # Both engines pay the rest of the platform (SystemC, NoC, adapters) alike, S:
                # (ref_iss + S) / (jit_iss + S) >= 3 holds only while S <= (ref_iss - 3 jit_iss) / 2.
                room = (ref_iss - 3 * jit_iss) / 2
                bounds.append([title, f"{ref_iss:.2f}", f"{jit_iss:.2f}",
                               f"{best['jit'].cpu * (1 - iss['jit']):.2f}",
                               f"{best[engines[0]].cpu / best['jit'].cpu:.2f}x",
                               f"{ref_iss / jit_iss:.2f}x" if jit_iss > 0 else "–",
                               f"{room:.2f}" if room >= 0 else "none"])
        if a.what_if_quantum:
            for e in engines:
                r, _ = benchlib.vp_run(vp, cmd_args + ["--set", f"quantum_cycles={a.what_if_quantum}"],
                                       engine=e)
                what_if.append([title, e, f"{best[e].cpu:.2f}", f"{r.cpu:.2f}",
                                f"{best[e].cpu / r.cpu:.2f}x"])
        rows.append([f"({benchlib.number(cycles)} cycles, {benchlib.number(instret)} instructions)",
                     "", "", "", "", "", ""])

    flags = (" --profile" if a.profile else "") + (f" --what-if-quantum {a.what_if_quantum}"
                                                   if a.what_if_quantum else "")
    md = [f"Measured by `bench/mp16.py --repeat {a.repeat}{flags}` on {host}.",
          "Speed-up: host time of the first engine divided by the engine's.", "",
          benchlib.table(["Workload", "Engine", "Host s", "CPU s", "Speed-up", "MIPS", "Peak MiB"], rows)]
    for title, share in profiles:
        md += ["", f"Where the host time goes with the JIT, {title} (perf samples):", "",
               benchlib.table(["Component", "Share"], [[c, f"{p:.1f} %"] for c, p in share if p >= 0.05])]
    if bounds:
        md += ["", f"ISS bound: CPU seconds in the ISS (its share of the engine's perf samples times the "
               f"engine's CPU s), the speed-up of the JIT over {engines[0]} if nothing but the ISS "
               "took time, and the most CPU time the rest of the platform (paid alike by both "
               "engines) may take for the JIT to be 3x faster in the same run:", "",
               benchlib.table(["Workload", f"ISS CPU s, {engines[0]}", "ISS CPU s, jit",
                               "Other CPU s, jit", "Speed-up (CPU s)", "Bound",
                               "Other CPU s allowing 3x"], bounds)]
    if what_if:
        md += ["", f"What if the quantum were {a.what_if_quantum} cycles instead of the default (a "
               "different simulation, for the cost of the synchronization only):", "",
               benchlib.table(["Workload", "Engine", "CPU s", f"CPU s, quantum {a.what_if_quantum}",
                               "Ratio"], what_if)]
    print("\n".join(md))
    if a.docs:
        benchlib.write_docs(a.docs, "bench/mp16.py", "\n".join(md))


if __name__ == "__main__":
    main()
