#!/usr/bin/env bash
# Runs the same single-core firmware with a quantum of 100 and of 7919 cycles and requires the same
# statistics: a core alone has nothing to interleave with, and its timer interrupts come at their
# cycle whatever the quantum (docs/timing.md "Timer interrupts on time"). Compared: everything but
# the quantum itself.
set -euo pipefail
vp=$1; shift
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$vp" --quiet --set quantum_cycles=100 --stats "$dir/a.json" "$@"
"$vp" --quiet --set quantum_cycles=7919 --stats "$dir/b.json" "$@"
python3 - "$dir/a.json" "$dir/b.json" <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
for s in (a, b):
    del s["config"]["quantum_cycles"]
if a != b:
    sys.exit("statistics differ between quantum 100 and 7919")
if not a["totals"].get("instret"):
    sys.exit("no instructions in the statistics")
print("statistics identical with a quantum of 100 and of 7919 cycles")
PY
