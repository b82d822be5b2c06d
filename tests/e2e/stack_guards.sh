#!/usr/bin/env bash
# One NAMP run with SystemC's stack guard pages on and off (host.stack_guards): the statistics
# must be bit-identical, and the run without them must say so and have skipped the guard page of
# each of the platform's THREADS threads. EXPECT "refused" (a sanitizer build, which keeps its
# guard pages): off must be refused, naming why.
# usage: stack_guards.sh skip|refused THREADS namp-vp vp-args...
set -euo pipefail
expect=$1; threads=$2; vp=$3; shift 3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$vp" --stats "$dir/on.json" --set host.stack_guards=on "$@" >/dev/null 2>"$dir/on.err"
grep -q '"instret"' "$dir/on.json"
if grep -q "stack guard pages" "$dir/on.err"; then cat "$dir/on.err"; exit 1; fi
if [ "$expect" = refused ]; then
  if "$vp" --set host.stack_guards=off "$@" >/dev/null 2>"$dir/off.err"; then
    echo "host.stack_guards=off was not refused"; exit 1
  fi
  grep "host.stack_guards=off: this build of namp-vp cannot run" "$dir/off.err"
  exit 0
fi
"$vp" --stats "$dir/off.json" --set host.stack_guards=off "$@" >/dev/null 2>"$dir/off.err"
cat "$dir/off.err"
cmp "$dir/on.json" "$dir/off.json"
grep -q "^namp-vp: note: stack guard pages are off (host.stack_guards=off)" "$dir/off.err"
grep -q "^namp-vp: stack guard pages off: $threads thread stacks checked for overruns, 0 overran$" "$dir/off.err"
echo "statistics identical with and without stack guard pages ($(wc -c < "$dir/on.json") bytes)"
