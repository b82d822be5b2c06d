#!/usr/bin/env bash
# Runs NAMP firmware twice: the statistics must be bit-identical and contain the NAMP counters
# with completed transfers and protocol messages.
set -euo pipefail
vp=$1; shift
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$vp" --quiet --stats "$dir/a.json" "$@"
"$vp" --quiet --stats "$dir/b.json" "$@"
cmp "$dir/a.json" "$dir/b.json"
python3 - "$dir/a.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
n = [t["na"]["namp"] for t in doc["tiles"] if "namp" in t.get("na", {})]
assert n, "no namp statistics"
transfers = sum(s["transfers"] for a in n for s in a["slots"])
finals = sum(a["messages_sent"]["finalize"] for a in n)
received = sum(a["rx_completed"] for a in n)
assert transfers > 0 and finals > 0 and received == finals, (transfers, finals, received)
print(f"namp statistics identical: {len(n)} adapters, {transfers} transfers, {finals} finalizations")
PY
