#!/usr/bin/env python3
"""Runs namp-vp runs of the test suite with several ISS engines and requires identical results.

compare_engines.py --vp VP --runs RUNS [--engines interpreter,jit] [--shard K/N] [--only REGEX]
                   [--exclude-label LABEL]... [--ref-vp OLD_VP] [--set KEY=VALUE]... [--list]

RUNS holds one run a line, tab-separated: test name, comma-separated labels, namp-vp arguments
(written by tests/engines/CMakeLists.txt from every namp_record_run of the suite). For each run and
engine it adds `--stats FILE --set core.engine=ENGINE` and compares, against the first engine:
  - the exit code,
  - standard output (the consoles) byte for byte,
  - standard error byte for byte, except the host time and MIPS of the summary line,
  - the statistics JSON byte for byte, except the one line that echoes core.engine.
--set KEY=VALUE (repeatable) goes to every run, before core.engine: the engines compared in a
mode of the model (e.g. core.access_lookahead, the lookahead mode); runs the suite kept are not
used then.
With --ref-vp the reference is another namp-vp binary run without core.engine (an older build,
to show that a change of the platform leaves every simulation as it was).
With --records DIR, the engine named by --recorded (the default engine, jit) is not run again where
the suite's own test of the run kept it (tests/e2e/check_run.py --record): same arguments, no
core.engine among them, the same simulator and firmware files (size and time); else it is run.
"""
import argparse
import difflib
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
import run_record  # noqa: E402

HOST_TIME = re.compile(rb"host [0-9.]+ s, [0-9.a-z]+ MIPS")
ENGINE_LINE = re.compile(rb'^\s*"engine": "[a-z]+",?\n', re.M)


def read_runs(path):
    runs = []
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                continue
            name, labels, *args = line.split("\t")
            runs.append((name, set(filter(None, labels.split(","))), [a for a in args if a]))
    return runs


def run_once(vp, args, engine, stats):
    cmd = [vp] + args + ["--stats", stats] + (["--set", f"core.engine={engine}"] if engine else [])
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=900)
    data = b""
    if os.path.exists(stats):
        with open(stats, "rb") as f:
            data = f.read()
        os.remove(stats)
    return {
        "exit": p.returncode,
        "stdout": p.stdout,
        "stderr": HOST_TIME.sub(b"host <t> s, <m> MIPS", p.stderr),
        "stats": ENGINE_LINE.sub(b"", data),
    }


def recorded(records, name, vp, args):
    """The suite's own run of `name` with the default engine, if it is this build's run of args."""
    if not records or any("core.engine" in a for a in args):
        return None
    rec = run_record.read(os.path.join(records, name + ".json"), vp, args)
    if rec is None:
        return None
    code, stdout, stderr, stats = rec
    return {
        "exit": code,
        "stdout": stdout,
        "stderr": HOST_TIME.sub(b"host <t> s, <m> MIPS", stderr),
        "stats": ENGINE_LINE.sub(b"", stats),
    }


def first_difference(a, b, what):
    la = a.decode(errors="replace").splitlines()
    lb = b.decode(errors="replace").splitlines()
    diff = list(difflib.unified_diff(la, lb, what + " (reference)", what, n=2, lineterm=""))
    return "\n".join(diff[:40])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vp", required=True)
    ap.add_argument("--runs", required=True)
    ap.add_argument("--engines", default="interpreter,jit")
    ap.add_argument("--shard", default="1/1", help="K/N: the K-th of N equal parts of the runs")
    ap.add_argument("--only", help="regex on the test name")
    ap.add_argument("--exclude-label", action="append", default=[])
    ap.add_argument("--list", action="store_true", help="print the selected runs and stop")
    ap.add_argument("--ref-vp", help="reference binary (run without core.engine)")
    ap.add_argument("--records", help="the suite's kept runs (check_run.py --record)")
    ap.add_argument("--recorded", default="jit", help="the engine those runs used (the default)")
    ap.add_argument("--set", dest="sets", action="append", default=[],
                    help="KEY=VALUE for every run (repeatable)")
    a = ap.parse_args()
    sets = [x for kv in a.sets for x in ("--set", kv)]
    engines = a.engines.split(",")
    binaries = [a.vp] * len(engines)
    if a.ref_vp:
        engines = ["reference"] + engines
        binaries = [a.ref_vp] + binaries
    k, n = (int(v) for v in a.shard.split("/"))
    runs = [r for r in read_runs(a.runs) if not (r[1] & set(a.exclude_label))]
    if a.only:
        runs = [r for r in runs if re.search(a.only, r[0])]
    runs = runs[k - 1::n]
    if not runs:
        print("FAIL: no runs selected")
        return 1
    if a.list:
        for name, _, args in runs:
            print(name, " ".join(args))
        return 0
    failures = reused = 0
    with tempfile.TemporaryDirectory() as tmp:
        stats = os.path.join(tmp, "stats.json")
        for name, _, args in runs:
            args = args + sets
            results = []
            for vp, e in zip(binaries, engines):
                mine = e == a.recorded and not a.ref_vp and not sets
                r = recorded(a.records, name, vp, args) if mine else None
                reused += r is not None
                results.append(r or run_once(vp, args, None if e == "reference" else e, stats))
            ref = results[0]
            bad = []
            for engine, r in zip(engines[1:], results[1:]):
                if r["exit"] != ref["exit"]:
                    bad.append(f"{engine}: exit code {r['exit']}, {engines[0]}: {ref['exit']}")
                for what in ("stdout", "stderr", "stats"):
                    if r[what] != ref[what]:
                        bad.append(f"{engine}: {what} differs\n" + first_difference(ref[what], r[what], what))
            status = "ok" if not bad else "FAIL"
            print(f"{status:4} {name} (exit {ref['exit']}, {len(ref['stats'])} bytes of statistics)")
            for b in bad:
                print("     " + b.replace("\n", "\n     "))
            failures += bool(bad)
    print(f"{len(runs) - failures} of {len(runs)} runs identical with engines {', '.join(engines)}"
          f" ({reused} {a.recorded} runs taken from the suite's own tests)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
