#!/usr/bin/env bash
# scripts/timing-sweep reports what a variation breaks and passes what it does not: the identity
# adversary's test with the adapter's endpoint identity off fails, named with its command; the same
# test with a short quantum passes; a failure at a known limit of the model is named with its reason
# and not counted; a pattern that selects nothing is an error.
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
out=$("$root/scripts/timing-sweep" --build "$build" -R '^kernel\.osqm_critical\.freertos$' --jobs 1 \
      --vary quantum_cycles=7919 2>&1) ||
  { echo "FAIL: a known limit counts as a failure"; echo "$out"; exit 1; }
grep -q "LIMIT kernel.osqm_critical.freertos with quantum_cycles=7919: the adapter's demand" <<<"$out" ||
  { echo "FAIL: the known limit is not named with its reason"; echo "$out"; exit 1; }
grep -q "0 of 1 runs passed, 1 failed at a known limit" <<<"$out" ||
  { echo "FAIL: no summary of the limit"; echo "$out"; exit 1; }
"$root/scripts/timing-sweep" --build "$build" -R '^no such test$' >/dev/null 2>&1
rc=$?
[ $rc -eq 2 ] || { echo "FAIL: no test selected exits $rc, not 2"; exit 1; }
echo "timing-sweep ok"
