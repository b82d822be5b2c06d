#!/usr/bin/env bash
# The lookahead mode (core.access_lookahead; docs/timing.md "The lookahead mode") on one firmware:
# it passes its own checks in both modes; in the lookahead mode a share of the cores' device
# accesses is taken early (counted per core, never more than the accesses) and the run, repeated,
# gives the same statistics byte for byte; the exact mode (lookahead 0, the default) counts none
# and writes no such counter. Usage: lookahead_mode.sh VP LOOKAHEAD namp-vp-arguments...
set -euo pipefail
vp=$1 lookahead=$2; shift 2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$vp" --quiet --stats "$dir/exact.json" "$@"
"$vp" --quiet --set core.access_lookahead="$lookahead" --stats "$dir/a.json" "$@"
"$vp" --quiet --set core.access_lookahead="$lookahead" --stats "$dir/b.json" "$@"
cmp "$dir/a.json" "$dir/b.json"
python3 - "$dir/exact.json" "$dir/a.json" "$lookahead" <<'PY'
import json, sys
exact, ahead = (json.load(open(f)) for f in sys.argv[1:3])
lookahead = int(sys.argv[3])
cores = lambda s: [c for t in s["tiles"] for c in t["cores"]]
if any("early_accesses" in c for c in cores(exact)):
    sys.exit("the exact mode counts early accesses")
if ahead["config"]["core"]["access_lookahead"] != lookahead:
    sys.exit("the statistics do not echo core.access_lookahead")
early = sum(c["early_accesses"] for c in cores(ahead))
total = sum(c["device_accesses"] for c in cores(ahead))
if any(c["early_accesses"] > c["device_accesses"] for c in cores(ahead)):
    sys.exit("a core took more accesses early than it made")
if early == 0:
    sys.exit(f"no access taken early in {total} device accesses")
e, a = exact["simulation"]["simulated_cycles"], ahead["simulation"]["simulated_cycles"]
print(f"lookahead {lookahead}: {early} of {total} device accesses taken early; "
      f"{a} simulated cycles against {e} in the exact mode ({100 * (a / e - 1):+.1f} %); "
      "repeated, the same statistics")
PY
