#!/usr/bin/env bash
# scripts/same-stats: a setting that changes no simulation passes (host.skip_idle_sync, hello on
# 4x4 tiles); one that does fails, naming the test and its command (a load latency of 2 cycles);
# a refused configuration compares its exit status only; runs that hit the hang guard are a
# difference, not agreement; a pattern that selects nothing is an error.
set -u
root=$1 build=$2
same=("$root/scripts/same-stats" --build "$build" --jobs 1)
out=$("${same[@]}" -R '^e2e\.hello_4x4$' --set host.skip_idle_sync=false 2>&1) ||
  { echo "FAIL: host.skip_idle_sync=false moves hello"; echo "$out"; exit 1; }
grep -q "1 tests: 1 with the same statistics, 0 with the same exit status and no statistics, 0 differ" <<<"$out" ||
  { echo "FAIL: no summary"; echo "$out"; exit 1; }
out=$("${same[@]}" -R '^e2e\.hello_4x4$' --set core.timing.load=2 2>&1)
rc=$?
[ $rc -eq 1 ] || { echo "FAIL: a changed simulation exits $rc, not 1"; echo "$out"; exit 1; }
grep -q "DIFF e2e.hello_4x4: statistics differ" <<<"$out" ||
  { echo "FAIL: the differing test is not named"; echo "$out"; exit 1; }
grep -q "namp-vp --firmware .*hello.elf" <<<"$out" ||
  { echo "FAIL: the differing command is not printed"; echo "$out"; exit 1; }
out=$("${same[@]}" -R '^e2e\.bad_config_unknown_key$' 2>&1) ||
  { echo "FAIL: a refused configuration differs from itself"; echo "$out"; exit 1; }
grep -q "0 with the same statistics, 1 with the same exit status and no statistics (exit 2: 1), 0 differ" <<<"$out" ||
  { echo "FAIL: a refused configuration is not counted apart"; echo "$out"; exit 1; }
out=$("${same[@]}" -R '^e2e\.hello_4x4$' --timeout 0.001 2>&1)
rc=$?
[ $rc -eq 1 ] || { echo "FAIL: runs that hit the hang guard exit $rc, not 1"; echo "$out"; exit 1; }
grep -q "DIFF e2e.hello_4x4: timed out after 0.001 s" <<<"$out" ||
  { echo "FAIL: a run that hit the hang guard is not named"; echo "$out"; exit 1; }
"${same[@]}" -R '^no such test$' >/dev/null 2>&1
rc=$?
[ $rc -eq 2 ] || { echo "FAIL: no test selected exits $rc, not 2"; exit 1; }
echo "same-stats ok"
