#!/usr/bin/env python3
"""Runs namp-vp with --stats and checks sums over the tiles of statistics counters.

stats_check.py VP [--le PATH LIMIT]... -- VP arguments
PATH is a dotted path inside one tile's statistics object (e.g. na.namp.nacks_sent); its sum over
all tiles must be <= LIMIT. The run itself must exit 0 and print no "FAIL".
"""
import json
import os
import subprocess
import sys
import tempfile


def tile_value(tile, path):
    v = tile
    for key in path.split("."):
        if not isinstance(v, dict) or key not in v:
            return 0
        v = v[key]
    if isinstance(v, dict):  # e.g. a channel map: sum its packet counts
        return sum(x.get("packets_sent", 0) for x in v.values() if isinstance(x, dict))
    return v


def main():
    args = sys.argv[1:]
    vp = args.pop(0)
    sep = args.index("--")
    checks, vpargs = args[:sep], args[sep + 1:]
    limits = []
    while checks:
        if checks[0] != "--le" or len(checks) < 3:
            print("usage: stats_check.py VP [--le PATH LIMIT]... -- ARGS")
            return 2
        limits.append((checks[1], int(checks[2])))
        checks = checks[3:]
    with tempfile.TemporaryDirectory() as d:
        stats = os.path.join(d, "stats.json")
        p = subprocess.run([vp, "--stats", stats] + vpargs, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=300)
        out = p.stdout.decode(errors="replace")
        print(out[-2000:])
        if p.returncode != 0 or "FAIL" in out:
            print(f"FAIL: the run exited {p.returncode}")
            return 1
        with open(stats) as f:
            doc = json.load(f)
    fails = 0
    for path, limit in limits:
        total = sum(tile_value(t, path) for t in doc["tiles"])
        ok = total <= limit
        fails += not ok
        print(f"{'ok' if ok else 'FAIL'}: sum of {path} = {total} (limit {limit})")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
