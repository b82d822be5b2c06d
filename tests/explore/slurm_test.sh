#!/usr/bin/env bash
# scripts/explore against a real single-node Slurm (scripts/slurm-local; docs/exploration.md,
# "Slurm"). usage: slurm_test.sh ROOT VP FIRMWARE_DIR
# Bad input is refused before anything is submitted; an 8-point sweep with one failing point runs
# as an array job: 7 good rows equal to a local run, the failure named with its Slurm exit code; a
# resubmission runs only that point; collect names tasks that never ran; afterwards no Slurm or
# munge process of the test is left, and a sweep against the stopped Slurm is refused.
set -euo pipefail
root=$1 vp=$2 fw=$3
explore=("$root/scripts/explore")
common=(--vp "$vp" --firmware-dir "$fw" --jobs 2)
dir=$(mktemp -d)
cluster=$dir/cluster
fail() { echo "FAIL: $*"; exit 1; }
daemons() {  # how many Slurm and munge processes run on this machine
  local n=0
  for d in slurmctld slurmd slurmstepd munged; do n=$((n + $(pgrep -c -x "$d" || true))); done
  echo "$n"
}
before=$(daemons)
trap '"$root/scripts/slurm-local" stop "$cluster" >/dev/null 2>&1 || true; rm -rf "$dir"' EXIT
"$root/scripts/slurm-local" start "$cluster"
export SLURM_CONF=$cluster/slurm.conf
[ "$(daemons)" -ge $((before + 3)) ] || fail "munged, slurmctld and slurmd are not running"

refused() {  # NAME PATTERN explore-arguments...: exit 2, the reason named, nothing submitted
  local name=$1 pattern=$2; shift 2
  set +e
  "${explore[@]}" "$@" > "$dir/$name.out" 2>&1
  local rc=$?
  set -e
  [ "$rc" -eq 2 ] || fail "$name: exit $rc, want 2: $(cat "$dir/$name.out")"
  grep -q -- "$pattern" "$dir/$name.out" || fail "$name: reason not named: $(cat "$dir/$name.out")"
  echo "$name: $(grep -- "$pattern" "$dir/$name.out" | head -1)"
}
jobs_known() { squeue -h -t all -o %i | wc -l; }

sed 's/mesh.width: 3, mesh.height: 2/mesh.widht: 3, mesh.height: 2/' "$root/tests/explore/slurm8.yaml" > "$dir/typo.yaml"
refused typo "unknown configuration key 'mesh.widht'" slurm "$dir/typo.yaml" --out "$dir/t" "${common[@]}"
refused partition "Slurm has no partition 'nope'" slurm "$root/tests/explore/slurm8.yaml" --out "$dir/p" \
  --partition nope "${common[@]}"
[ "$(jobs_known)" -eq 0 ] || fail "a job was submitted for bad input"

# the sweep on Slurm: exit 1 (one run failed), the failure named with Slurm's exit code
set +e
"${explore[@]}" slurm "$root/tests/explore/slurm8.yaml" --out "$dir/s" "${common[@]}" --wait \
  --time 00:05:00 --mem 256M > "$dir/s.out" 2>&1
rc=$?
set -e
cat "$dir/s.out"
[ "$rc" -eq 1 ] || fail "slurm sweep: exit $rc, want 1"
job=$(awk '{print $1}' "$dir/s/slurm/jobs.txt")
grep -q "submitted slurm job $job: 8 array tasks for 8 of 8 runs" "$dir/s.out" || fail "8 tasks"
grep -q "run 7 (test_exit_code, name=fails.*exit 42.*slurm job $job task 7: FAILED, exit code 42" "$dir/s.out" \
  || fail "the failed task and its exit code are not named"
# the same sweep locally: the same CSV, 7 good rows
set +e
"${explore[@]}" run "$root/tests/explore/slurm8.yaml" --out "$dir/l" "${common[@]}" --keep-going > "$dir/l.out" 2>&1
set -e
cmp "$dir/s/slurm8.csv" "$dir/l/slurm8.csv" || fail "the Slurm CSV differs from the local one"
good=$(python3 -c 'import csv, sys; print(sum(r["exit_code"] == "0" for r in csv.DictReader(open(sys.argv[1]))))' "$dir/s/slurm8.csv")
[ "$good" -eq 7 ] || fail "$good good rows, want 7"
# a resubmission runs only the failed point
stamp=$(stat -c %Y.%N "$dir"/s/runs/[0-6].exit | md5sum)
sleep 1
set +e
"${explore[@]}" slurm "$root/tests/explore/slurm8.yaml" --out "$dir/s" "${common[@]}" --wait > "$dir/r.out" 2>&1
rc=$?
set -e
cat "$dir/r.out"
[ "$rc" -eq 1 ] || fail "resubmission: exit $rc, want 1 (the point fails again)"
grep -q "1 array tasks for 1 of 8 runs (7 succeeded earlier)" "$dir/r.out" || fail "resubmitted more than the failed run"
[ "$(cat "$dir/s/slurm/tasks-2.txt")" = 7 ] || fail "the resubmitted task does not run run 7"
[ "$(stat -c %Y.%N "$dir"/s/runs/[0-6].exit | md5sum)" = "$stamp" ] || fail "a good run was run again"
# collect on a job whose tasks never ran: held, then cancelled
"${explore[@]}" slurm "$root/tests/explore/slurm8.yaml" --out "$dir/h" "${common[@]}" --sbatch-line=--hold
held=$(awk '{print $1}' "$dir/h/slurm/jobs.txt")
set +e
"${explore[@]}" collect "$root/tests/explore/slurm8.yaml" --out "$dir/h" "${common[@]}" > "$dir/h1.out" 2>&1
rc1=$?
scancel "$held"
sleep 1
"${explore[@]}" collect "$root/tests/explore/slurm8.yaml" --out "$dir/h" "${common[@]}" > "$dir/h2.out" 2>&1
rc2=$?
set -e
[ "$rc1" -eq 1 ] && [ "$rc2" -eq 1 ] || fail "collect of a job that did not run: exit $rc1, $rc2"
grep -q "run 0 (hello, name=m1x1.*never finished; slurm job $held task 0: PENDING" "$dir/h1.out" || fail "pending tasks: $(cat "$dir/h1.out")"
grep -q "run 7 (.*never finished; slurm job $held task 7: CANCELLED" "$dir/h2.out" || fail "cancelled tasks: $(cat "$dir/h2.out")"
echo "collect names tasks that never ran (PENDING, then CANCELLED)"

"$root/scripts/slurm-local" stop "$cluster"
left=$(pgrep -f "$cluster" || true)
[ -z "$left" ] || fail "processes of the test cluster are left: $left"
[ "$(daemons)" -eq "$before" ] || fail "Slurm or munge processes left: $(pgrep -a 'slurm|munge')"
refused stopped "Slurm is not running" slurm "$root/tests/explore/slurm8.yaml" --out "$dir/s" "${common[@]}"
[ "$(wc -l < "$dir/s/slurm/jobs.txt")" -eq 2 ] || fail "something was submitted to a stopped Slurm"
echo "Slurm sweep, resubmission and collection as expected; nothing left running"
