#!/usr/bin/env bash
# Runs the same firmware twice and requires bit-identical statistics files.
set -euo pipefail
vp=$1; shift
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$vp" --quiet --stats "$dir/a.json" "$@"
"$vp" --quiet --stats "$dir/b.json" "$@"
cmp "$dir/a.json" "$dir/b.json"
grep -q '"instret"' "$dir/a.json"
echo "statistics identical ($(wc -c < "$dir/a.json") bytes)"
