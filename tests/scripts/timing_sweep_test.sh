#!/usr/bin/env bash
# scripts/timing-sweep reports what a variation breaks and passes what it does not: the identity
# adversary's test with the adapter's endpoint identity off fails, named with its command; the same
# test with a short quantum passes; a pattern that selects nothing is an error.
set -u
root=$1 build=$2
sweep=("$root/scripts/timing-sweep" --build "$build" -R '^kernel\.security\.identity_svbase$' --jobs 1)
out=$("${sweep[@]}" --vary namp.identity=false 2>&1)
rc=$?
[ $rc -eq 1 ] || { echo "FAIL: the mutation exits $rc, not 1"; echo "$out"; exit 1; }
grep -q "FAIL kernel.security.identity_svbase with namp.identity=false" <<<"$out" ||
  { echo "FAIL: the failing run is not named"; echo "$out"; exit 1; }
grep -q "0 of 1 runs passed" <<<"$out" || { echo "FAIL: no summary"; echo "$out"; exit 1; }
out=$("${sweep[@]}" --vary quantum_cycles=100 2>&1) ||
  { echo "FAIL: a short quantum fails the identity adversary"; echo "$out"; exit 1; }
grep -q "1 of 1 runs passed" <<<"$out" || { echo "FAIL: no summary"; echo "$out"; exit 1; }
"$root/scripts/timing-sweep" --build "$build" -R '^no such test$' >/dev/null 2>&1
rc=$?
[ $rc -eq 2 ] || { echo "FAIL: no test selected exits $rc, not 2"; exit 1; }
echo "timing-sweep ok"
