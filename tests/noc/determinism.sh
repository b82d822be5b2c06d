#!/bin/sh
# Same seed -> byte-identical statistics JSON; another seed -> different statistics.
# usage: determinism.sh <path-to-noc-traffic>
set -eu
tool=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
run() { "$tool" --no-host --width 4 --height 4 --warmup 500 --measure 4000 "$@"; }
for mode in "" "--physical"; do
    # shellcheck disable=SC2086  # $mode is one optional word
    run --pattern uniform --rate 0.6 --seed 11 $mode >"$dir/a.json"
    # shellcheck disable=SC2086
    run --pattern uniform --rate 0.6 --seed 11 $mode >"$dir/b.json"
    # shellcheck disable=SC2086
    run --pattern uniform --rate 0.6 --seed 12 $mode >"$dir/c.json"
    cmp "$dir/a.json" "$dir/b.json" || { echo "same seed, different results ($mode)"; exit 1; }
    if cmp -s "$dir/a.json" "$dir/c.json"; then echo "different seeds, identical results ($mode)"; exit 1; fi
done
run --pattern hotspot --rate 0.3 --seed 5 --packet-flits 32 >"$dir/a.json"
run --pattern hotspot --rate 0.3 --seed 5 --packet-flits 32 >"$dir/b.json"
cmp "$dir/a.json" "$dir/b.json" || { echo "same seed, different results (hotspot)"; exit 1; }
echo "deterministic"
