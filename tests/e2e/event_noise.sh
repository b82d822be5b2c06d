#!/usr/bin/env bash
# Runs the same simulation without and with host.event_noise (seeds 1, 2, 3: a process that only
# reorders SystemC's simultaneous processes) and requires the same statistics: the run's outcome
# must not depend on the order SystemC picks (docs/timing.md, "Ties").
set -euo pipefail
vp=$1; shift
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for seed in 0 1 2 3; do
  "$vp" --quiet --set host.event_noise=$seed --stats "$dir/$seed.json" "$@"
done
python3 - "$dir" <<'PY'
import json, sys
d = sys.argv[1]
ref = json.load(open(f"{d}/0.json"))
if not ref["totals"].get("instret"):
    sys.exit("no instructions in the statistics")
for seed in (1, 2, 3):
    other = json.load(open(f"{d}/{seed}.json"))
    if other != ref:
        diff = [k for k in ref["totals"] if ref["totals"][k] != other["totals"].get(k)]
        sys.exit(f"statistics differ with host.event_noise={seed} (totals: {', '.join(diff) or 'same'})")
print("statistics identical without and with host.event_noise 1, 2, 3")
PY
