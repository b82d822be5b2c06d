#!/usr/bin/env bash
# scripts/explore (docs/exploration.md). usage: explore_test.sh MODE ROOT VP FIRMWARE_DIR
#   slots   the shipped slot sweep: CSV with every slot count, plot and report
#   repeat  a small JSON sweep run twice (locally, then via --sshlogin :): identical CSVs
#   slurm   the emitted Slurm script: options, array size and command lines; matrices of the examples
#   input   a key typo, a missing firmware, a missing VP: each exit 2, the reason named, no run started
#   failing one failing point: non-zero exit, the point listed, the other runs done (--keep-going)
#   resume  a finished sweep run again: nothing re-run, the same CSV; statistics-path and derived columns
#   pareto  the Pareto plot and front of a slot sweep against its area
set -euo pipefail
mode=$1 root=$2 vp=$3 fw=$4
explore=("$root/scripts/explore")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
common=(--vp "$vp" --firmware-dir "$fw" --jobs 2)

case $mode in
slots)
  "${explore[@]}" run "$root/scripts/sweeps/namp-slots.yaml" --out "$dir/s" "${common[@]}"
  csv=$dir/s/namp-slots.csv
  for f in "$csv" "$dir/s/namp-slots.png" "$dir/s/namp-slots.md"; do [ -s "$f" ] || fail "missing $f"; done
  head -1 "$csv" | grep -q '^run,firmware,repeat,namp.slots,exit_code,end_reason,simulated_cycles,instret,scenario,mode,size,bytes_per_cycle$' \
    || fail "CSV header: $(head -1 "$csv")"
  for s in 1 2 4 8 16; do
    # 2 scenarios x 2 modes x 11 sizes per slot count, every run exited with 0
    n=$(awk -F, -v s=$s 'NR > 1 && $4 == s && $5 == 0' "$csv" | wc -l)
    [ "$n" -eq 44 ] || fail "namp.slots=$s: $n rows, want 44"
  done
  grep -q '| 1to4 | msg | 4096 |' "$dir/s/namp-slots.md" || fail "report table"
  grep -q 'failed or missing runs: 0' "$dir/s/namp-slots.md" || fail "report: failures"
  [ "$(head -c 4 "$dir/s/namp-slots.png" | tail -c 3)" = PNG ] || fail "not a PNG"
  echo "slot sweep: $(($(wc -l < "$csv") - 1)) rows, plot and report";;
repeat)
  "${explore[@]}" run "$root/tests/explore/small.json" --out "$dir/a" "${common[@]}"
  # the second time through parallel's --sshlogin path (":" is this host, without ssh)
  "${explore[@]}" run "$root/tests/explore/small.json" --out "$dir/b" "${common[@]}" --sshlogin 2/:
  [ "$(($(wc -l < "$dir/a/small.csv") - 1))" -eq 352 ] || fail "want 352 rows (8 runs x 44)"
  awk -F, 'NR > 1 && $7 != 0 {exit 1}' "$dir/a/small.csv" || fail "a run failed"
  grep -q -- '--set console.echo=false' "$dir/a/commands.txt" || fail "fixed keys not passed"
  cmp "$dir/a/small.csv" "$dir/b/small.csv" || fail "CSVs differ between two runs"
  echo "two runs of the small sweep gave identical CSVs";;
slurm)
  "${explore[@]}" slurm "$root/scripts/sweeps/namp-slots.yaml" --out "$dir/s" "${common[@]}" --no-submit \
    --time 00:05:00 --mem 1G --partition short --throttle 3 --runs-per-task 2 \
    --sbatch-line=--qos=test --setup-line 'module load gcc'
  sb=$dir/s/sweep.sbatch
  for want in '#SBATCH --array=0-2%3' '#SBATCH --time=00:05:00' '#SBATCH --mem=1G' \
              '#SBATCH --partition=short' '#SBATCH --qos=test' 'module load gcc' 'exit "$status"'; do
    grep -qxF -- "$want" "$sb" || fail "sbatch lacks '$want'"
  done
  ! grep -q '|| true' "$sb" "$dir/s/commands.txt" || fail "a failure is hidden by '|| true'"
  [ "$(cat "$dir/s/slurm/tasks-1.txt" | tr '\n' ' ')" = "0 1 2 3 4 " ] || fail "tasks: $(cat "$dir/s/slurm/tasks-1.txt")"
  [ "$(wc -l < "$dir/s/commands.txt")" -eq 5 ] || fail "want 5 command lines"
  i=0
  for s in 1 2 4 8 16; do
    line=$(sed -n "$((i + 1))p" "$dir/s/commands.txt")
    for want in "$vp --quiet --preset bare" "--set namp.slots=$s " "--stats $dir/s/runs/$i.json" \
                "--firmware $fw/namp_tput.elf" "echo \$s >$dir/s/runs/$i.exit; exit \$s"; do
      [[ $line == *"$want"* ]] || fail "line $((i + 1)) lacks '$want': $line"
    done
    i=$((i + 1))
  done
  # a failing run fails its task: run the script's task loop by hand with a failing command
  mkdir -p "$dir/t/runs"
  printf 'true\nexit 7\ntrue\n' > "$dir/t/commands.txt"
  printf '0 1 2\n' > "$dir/t/tasks.txt"
  sed -e "s|^commands=.*|commands=$dir/t/commands.txt|" "$sb" > "$dir/t/job.sh"
  set +e
  SLURM_ARRAY_TASK_ID=0 bash "$dir/t/job.sh" "$dir/t/tasks.txt" 2> "$dir/t/err"
  rc=$?
  set -e
  [ "$rc" -eq 7 ] || fail "a task with a failing run exits $rc, want 7"
  grep -q 'run 1 failed with exit status 7' "$dir/t/err" || fail "task stderr: $(cat "$dir/t/err")"
  [ "$("${explore[@]}" list "$root/scripts/sweeps/table42-presets.yaml" "${common[@]}" | wc -l)" -eq 9 ] \
    || fail "table 4.2 matrix"
  "${explore[@]}" list "$root/scripts/sweeps/mesh.yaml" "${common[@]}" | grep -q -- '--set mesh.width=16 --set mesh.height=16' \
    || fail "mesh matrix"
  [ "$("${explore[@]}" list "$root/scripts/sweeps/table42-area.yaml" "${common[@]}" | wc -l)" -eq 34 ] \
    || fail "table 4.2 area matrix: points with their own firmware"
  echo "Slurm script, options and command lines as expected";;
input)
  # each case: exit status 2, the reason on stderr, no run started (no runs/ folder)
  expect_refusal() {  # NAME PATTERN explore-arguments...
    local name=$1 pattern=$2; shift 2
    set +e
    "${explore[@]}" "$@" --out "$dir/$name" > "$dir/$name.out" 2>&1
    local rc=$?
    set -e
    [ "$rc" -eq 2 ] || fail "$name: exit $rc, want 2: $(cat "$dir/$name.out")"
    grep -q -- "$pattern" "$dir/$name.out" || fail "$name: reason not named: $(cat "$dir/$name.out")"
    [ ! -e "$dir/$name/runs" ] || fail "$name: a run was started"
    echo "$name: $(grep -- "$pattern" "$dir/$name.out" | head -1)"
  }
  sed 's/namp.slots:/namp.slot:/' "$root/scripts/sweeps/namp-slots.yaml" > "$dir/typo.yaml"
  expect_refusal typo "unknown configuration key 'namp.slot'" run "$dir/typo.yaml" "${common[@]}"
  sed 's/firmware: \[hello, test_exit_code\]/firmware: [hello, helo]/; s/\[test_exit_code\]/[helo]/' \
    "$root/tests/explore/failing.yaml" > "$dir/nofw.yaml"
  expect_refusal nofw "firmware not found: 'helo'" run "$dir/nofw.yaml" "${common[@]}"
  expect_refusal novp "the VP '$dir/no-vp' does not exist" run "$root/tests/explore/failing.yaml" \
    --vp "$dir/no-vp" --firmware-dir "$fw" --jobs 2
  sed 's/namp.slots: \[1,/namp.slots: [0,/' "$root/scripts/sweeps/namp-slots.yaml" > "$dir/value.yaml"
  expect_refusal value "'namp.slots' must be an integer in \\[1, 128\\], got 0" run "$dir/value.yaml" \
    "${common[@]}"
  echo "bad input refused before any run";;
failing)
  set +e
  "${explore[@]}" run "$root/tests/explore/failing.yaml" --out "$dir/f" "${common[@]}" --keep-going \
    > "$dir/out" 2>&1
  rc=$?
  set -e
  cat "$dir/out"
  [ "$rc" -eq 1 ] || fail "exit $rc, want 1"
  grep -q 'run 3 (test_exit_code, name=fails, mesh.width=1, mesh.height=1): exit 42' "$dir/out" \
    || fail "the failed point is not listed"
  grep -q 'run 3 (test_exit_code.*exit 42' "$dir/f/failing.md" || fail "report: failed point"
  for i in 0 1 2; do [ "$(cat "$dir/f/runs/$i.exit")" = 0 ] || fail "run $i not done"; done
  # without --keep-going the first failure stops the sweep, and the report says how to go on
  set +e
  "${explore[@]}" run "$root/tests/explore/failing.yaml" --out "$dir/g" "${common[@]}" --rerun \
    > "$dir/out2" 2>&1
  rc=$?
  set -e
  [ "$rc" -eq 1 ] || fail "without --keep-going: exit $rc, want 1"
  grep -q 'run 3 (test_exit_code' "$dir/out2" || fail "without --keep-going: failure not listed"
  echo "the failing point is listed, the others ran, exit status 1";;
resume)
  sed '/fails/d; s/firmware: \[hello, test_exit_code\]/firmware: [hello]/' \
    "$root/tests/explore/failing.yaml" > "$dir/ok.yaml"
  "${explore[@]}" run "$dir/ok.yaml" --out "$dir/r" "${common[@]}"
  cp "$dir/r/failing.csv" "$dir/first.csv"
  stamp=$(stat -c %Y.%N "$dir"/r/runs/*.exit | md5sum)
  sleep 1
  "${explore[@]}" run "$dir/ok.yaml" --out "$dir/r" "${common[@]}" > "$dir/out"
  grep -q '3 of 3 runs have results for the same command line' "$dir/out" || fail "not resumed: $(cat "$dir/out")"
  [ "$(stat -c %Y.%N "$dir"/r/runs/*.exit | md5sum)" = "$stamp" ] || fail "a run was run again"
  cmp "$dir/first.csv" "$dir/r/failing.csv" || fail "the CSV changed"
  # statistics-path and derived columns: against the statistics files themselves
  python3 - "$dir/r" <<'PY' || fail "statistics-path columns"
import csv, json, sys
out = sys.argv[1]
rows = list(csv.DictReader(open(f"{out}/failing.csv")))
assert len(rows) == 3, rows
for r in rows:
    st = json.load(open(f"{out}/runs/{r['run']}.json"))
    tiles = st["tiles"]
    sent = sum(c["packets_sent"] for t in tiles for c in t["na"]["channels"].values())
    mx = max(c["cycles"] for t in tiles for c in t["cores"])
    mean = sum(t["cores"][0]["instret"] for t in tiles) / len(tiles)
    k = st["area"]["platform_kgates"]
    assert int(r["sent"]) == sent and int(r["max_core_cycles"]) == mx, r
    assert float(r["mean_instret"]) == mean and float(r["kgates"]) == k, r
    assert int(r["noc_delivered"]) == st["noc"]["flits"]["delivered"], r
    assert float(r["instret_per_kgate"]) == mean / k, r
print("columns:", {c: rows[-1][c] for c in ("sent", "max_core_cycles", "mean_instret", "kgates", "instret_per_kgate")})
PY
  echo "resumed without re-running; CSV identical; columns match the statistics";;
pareto)
  "${explore[@]}" run "$root/tests/explore/pareto.yaml" --out "$dir/p" "${common[@]}"
  png=$dir/p/pareto-pareto.png
  [ "$(head -c 4 "$png" | tail -c 3)" = PNG ] || fail "no Pareto plot"
  md=$dir/p/pareto.md
  cat "$md"
  # the rows by their label (the area is the model's, docs/area.md): on the front or not
  for front in '1, False' '2, False' '4, False'; do
    grep -E -- "^\| $front \| [0-9.]+ \| " "$md" | grep -q '| \* |$' || fail "not on the front: $front"
  done
  grep -E -- '^\| 4, True \| [0-9.]+ \| ' "$md" | grep -q '|  |$' || fail "4 slots with OSQM is dominated"
  echo "Pareto plot and front as expected";;
*) fail "unknown mode $mode";;
esac
