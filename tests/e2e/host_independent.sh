#!/usr/bin/env bash
# Runs the same simulation as the reference (host.event_noise=0, host.skip_idle_sync=true), with
# host.event_noise seeds 1, 2 and 3 (a process that only reorders SystemC's simultaneous
# processes) and with host.skip_idle_sync=false (a core waits after every device access), and
# requires the same statistics every time: the run's outcome must depend neither on the order
# SystemC picks nor on the waits the host saves (docs/timing.md, "Ties" and "Loosely-timed
# execution").
set -euo pipefail
vp=$1; shift
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for seed in 0 1 2 3; do
  "$vp" --quiet --set host.event_noise=$seed --stats "$dir/noise$seed.json" "$@"
done
"$vp" --quiet --set host.skip_idle_sync=false --stats "$dir/noskip.json" "$@"
python3 - "$dir" <<'PY'
import json, sys
d = sys.argv[1]
ref = json.load(open(f"{d}/noise0.json"))
if not ref["totals"].get("instret"):
    sys.exit("no instructions in the statistics")
for name, what in [("noise1", "host.event_noise=1"), ("noise2", "host.event_noise=2"),
                   ("noise3", "host.event_noise=3"), ("noskip", "host.skip_idle_sync=false")]:
    other = json.load(open(f"{d}/{name}.json"))
    if other != ref:
        diff = [k for k in ref["totals"] if ref["totals"][k] != other["totals"].get(k)]
        sys.exit(f"statistics differ with {what} (totals: {', '.join(diff) or 'same'})")
print("statistics identical with host.event_noise 1, 2, 3 and with host.skip_idle_sync=false")
PY
