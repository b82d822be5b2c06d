#!/usr/bin/env bash
# scripts/explore against a real single-node Slurm (scripts/slurm-local; docs/exploration.md,
# "On a Slurm cluster"). usage: slurm_test.sh ROOT VP FIRMWARE_DIR
# Bad input is refused before anything is submitted; an 8-point sweep with one failing point runs
# as an array job: 7 good rows equal to a local run, the failure named with its exit code from
# sacct; per-task output in the output folder; a resubmission runs only that point; several runs
# per task give the same CSV; the job options reach Slurm; collect names tasks that never ran;
# afterwards no process of the test's Slurm is left, and a sweep against the stopped Slurm is
# refused. With "accounting" the Slurm has slurmdbd and its database, as a real cluster does, and
# the exit codes come from plain sacct; without, from its job completion log (sacct --completion).
# usage: slurm_test.sh ROOT VP FIRMWARE_DIR [accounting]
set -euo pipefail
root=$1 vp=$2 fw=$3 mode=${4:-}
if [ "$mode" = accounting ]; then
  start=(--accounting) source="(sacct)"
else
  start=() source="(sacct --completion)"
fi
explore=("$root/scripts/explore")
sweep=$root/tests/explore/slurm8.yaml
common=(--vp "$vp" --firmware-dir "$fw" --jobs 2)
dir=$(mktemp -d)
cluster=$dir/cluster
fail() { echo "FAIL: $*"; exit 1; }
# The processes of this test's cluster: the daemons name its folder on their command line, job
# steps and jobs carry its slurm.conf in their environment. Only these count: another Slurm on the
# machine (another checkout's test) is none of this test's business. A zombie has ended (the
# daemons' parent is init, which reaps them a little later) and has no command line.
cluster_procs() {
  python3 - "$cluster" <<'EOF'
import os, sys
d = sys.argv[1]
for pid in filter(str.isdigit, os.listdir("/proc")):
    if int(pid) == os.getpid():
        continue
    try:
        if open(f"/proc/{pid}/stat").read().rpartition(")")[2].split()[0] == "Z":
            continue
        cmd = open(f"/proc/{pid}/cmdline", "rb").read().replace(b"\0", b" ").decode(errors="replace")
    except (OSError, IndexError):
        continue
    try:
        env = open(f"/proc/{pid}/environ", "rb").read().split(b"\0")
    except OSError:
        env = []
    if d in cmd or f"SLURM_CONF={d}/slurm.conf".encode() in env:
        print(pid, cmd.strip())
EOF
}
trap '"$root/scripts/slurm-local" stop "$cluster" >/dev/null 2>&1 || true; rm -rf "$dir"' EXIT
"$root/scripts/slurm-local" start "$cluster" "${start[@]}"
export SLURM_CONF=$cluster/slurm.conf
procs=$(cluster_procs)
daemons=(munged slurmctld slurmd)
[ "$mode" != accounting ] || daemons+=(slurmdbd mariadbd)
for d in "${daemons[@]}"; do
  grep -q "$d" <<< "$procs" || fail "$d is not running: $procs"
done

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

sed 's/mesh.width: 3, mesh.height: 2/mesh.widht: 3, mesh.height: 2/' "$sweep" > "$dir/typo.yaml"
refused typo "unknown configuration key 'mesh.widht'" slurm "$dir/typo.yaml" --out "$dir/t" "${common[@]}"
refused partition "Slurm has no partition 'nope'" slurm "$sweep" --out "$dir/p" \
  --partition nope "${common[@]}"
[ "$(jobs_known)" -eq 0 ] || fail "a job was submitted for bad input"
# what only the controller can refuse: sbatch's reason, exit 2 (Slurm keeps a FAILED record of the
# refused array, none of it runs)
refused memory "Memory specification can not be satisfied" slurm "$sweep" --out "$dir/m" \
  --mem 100000G "${common[@]}"

# the sweep on Slurm: exit 1 (one run failed), the failure named with its exit code from sacct
set +e
"${explore[@]}" slurm "$sweep" --out "$dir/s" "${common[@]}" --wait --time 00:05:00 --mem 256M \
  > "$dir/s.out" 2>&1
rc=$?
set -e
cat "$dir/s.out"
[ "$rc" -eq 1 ] || fail "slurm sweep: exit $rc, want 1"
job=$(awk '{print $1}' "$dir/s/slurm/jobs.txt")
grep -q "submitted slurm job $job: 8 array tasks for 8 of 8 runs" "$dir/s.out" || fail "8 tasks"
grep -q "explore: slurm job $job: 8/8 runs done, 1 failed" "$dir/s.out" || fail "no final progress line"
grep -q "run 7 (test_exit_code, name=fails.*exit 42.*slurm job $job task 7: FAILED, exit code 42:0 $source" \
  "$dir/s.out" || fail "the failed task and its exit code from sacct are not named"
[ "$(grep -c '^  run ' "$dir/s.out")" -eq 1 ] || fail "more than one run named as failed"
# stdout and stderr of every task in the output folder; the failed one says which run failed
for t in 0 1 2 3 4 5 6 7; do
  [ -f "$dir/s/slurm/task-${job}_$t.out" ] && [ -f "$dir/s/slurm/task-${job}_$t.err" ] \
    || fail "no output files of task $t"
done
grep -q "explore: run 7 failed with exit status 42" "$dir/s/slurm/task-${job}_7.err" \
  || fail "task 7's stderr does not name the failed run"
# the same sweep locally: the same CSV, 7 good rows
set +e
"${explore[@]}" run "$sweep" --out "$dir/l" "${common[@]}" --keep-going > "$dir/l.out" 2>&1
set -e
cmp "$dir/s/slurm8.csv" "$dir/l/slurm8.csv" || fail "the Slurm CSV differs from the local one"
good=$(python3 -c 'import csv, sys; print(sum(r["exit_code"] == "0" for r in csv.DictReader(open(sys.argv[1]))))' "$dir/s/slurm8.csv")
[ "$good" -eq 7 ] || fail "$good good rows, want 7"
echo "the Slurm CSV equals the local one: 7 good rows of 8"
# a resubmission runs only the failed point
stamp=$(stat -c %Y.%N "$dir"/s/runs/[0-6].exit | md5sum)
sleep 1
set +e
"${explore[@]}" slurm "$sweep" --out "$dir/s" "${common[@]}" --wait > "$dir/r.out" 2>&1
rc=$?
set -e
cat "$dir/r.out"
[ "$rc" -eq 1 ] || fail "resubmission: exit $rc, want 1 (the point fails again)"
job2=$(awk 'NR == 2 {print $1}' "$dir/s/slurm/jobs.txt")
grep -q "submitted slurm job $job2: 1 array tasks for 1 of 8 runs (7 succeeded earlier)" "$dir/r.out" \
  || fail "resubmitted more than the failed run"
[ "$(cat "$dir/s/slurm/tasks-2.txt")" = 7 ] || fail "the resubmitted task does not run run 7"
grep -qF "slurm job $job2 task 0: FAILED, exit code 42:0 $source" "$dir/r.out" \
  || fail "the resubmitted task is not named with its exit code"
[ "$(stat -c %Y.%N "$dir"/s/runs/[0-6].exit | md5sum)" = "$stamp" ] || fail "a good run was run again"

# three runs per task, at most two tasks at once: 3 tasks, the same CSV; the options reach Slurm
set +e
"${explore[@]}" slurm "$sweep" --out "$dir/g" "${common[@]}" --runs-per-task 3 --throttle 2 \
  --partition debug --time 00:04:00 --mem 300M --wait > "$dir/g.out" 2>&1
rc=$?
set -e
[ "$rc" -eq 1 ] || fail "runs per task: exit $rc, want 1: $(cat "$dir/g.out")"
grep -q "3 array tasks for 8 of 8 runs" "$dir/g.out" || fail "not 3 tasks: $(cat "$dir/g.out")"
cmp "$dir/g/slurm8.csv" "$dir/l/slurm8.csv" || fail "the CSV of 3 runs per task differs from the local one"
jobg=$(awk '{print $1}' "$dir/g/slurm/jobs.txt")
grep -qF "slurm job $jobg task 2: FAILED, exit code 42:0 $source" "$dir/g.out" \
  || fail "the failed task of three runs is not named: $(cat "$dir/g.out")"
show=$(scontrol show job -o "${jobg}_0")
for want in ArrayTaskThrottle=2 Partition=debug TimeLimit=00:04:00 MinMemoryNode=300M; do
  grep -q "$want" <<< "$show" || fail "Slurm has no $want: $show"
done
echo "3 runs per task: the same CSV; Slurm has the throttle, partition, time and memory"

# collect on a job whose tasks never ran: held, then cancelled
"${explore[@]}" slurm "$sweep" --out "$dir/h" "${common[@]}" --sbatch-line=--hold
held=$(awk '{print $1}' "$dir/h/slurm/jobs.txt")
set +e
"${explore[@]}" collect "$sweep" --out "$dir/h" "${common[@]}" > "$dir/h1.out" 2>&1
rc1=$?
scancel "$held"
sleep 1
# slurmdbd learns of the cancel a few seconds after the controller: wait for it (at most 30 s)
for _ in $(seq 1 30); do
  [ "$mode" != accounting ] || sacct -X -n -j "$held" -o State | grep -q CANCELLED && break
  sleep 1
done
"${explore[@]}" collect "$sweep" --out "$dir/h" "${common[@]}" > "$dir/h2.out" 2>&1
rc2=$?
set -e
[ "$rc1" -eq 1 ] && [ "$rc2" -eq 1 ] || fail "collect of a job that did not run: exit $rc1, $rc2"
grep -q "run 0 (hello, name=m1x1.*never finished; slurm job $held task 0: PENDING" "$dir/h1.out" || fail "pending tasks: $(cat "$dir/h1.out")"
grep -qF "slurm job $held task 7: CANCELLED, exit code 0:0 $source" "$dir/h2.out" || fail "cancelled tasks: $(cat "$dir/h2.out")"
echo "collect names tasks that never ran (PENDING, then CANCELLED)"

# an array larger than the cluster takes: refused before submitting, with the way out
echo "MaxArraySize=4" >> "$SLURM_CONF"
scontrol reconfigure
refused array "8 array tasks for 8 runs, but this Slurm takes at most 4 (MaxArraySize): --runs-per-task 2" \
  slurm "$sweep" --out "$dir/a" "${common[@]}"
[ ! -e "$dir/a/slurm/jobs.txt" ] || fail "an array larger than MaxArraySize was submitted"

"$root/scripts/slurm-local" stop "$cluster"
unset SLURM_CONF  # (the scan's own processes must not carry it)
left=$(cluster_procs)
[ -z "$left" ] || fail "processes of the test's Slurm are left: $left"
echo "no process of the test's Slurm (${daemons[*]}, job steps, jobs) is left"
export SLURM_CONF=$cluster/slurm.conf
refused stopped "Slurm is not running" slurm "$sweep" --out "$dir/s" "${common[@]}"
[ "$(wc -l < "$dir/s/slurm/jobs.txt")" -eq 2 ] || fail "something was submitted to a stopped Slurm"
echo "Slurm sweep, resubmission and collection as expected; nothing left running"
