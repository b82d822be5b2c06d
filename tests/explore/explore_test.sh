#!/usr/bin/env bash
# scripts/explore (docs/exploration.md). usage: explore_test.sh MODE ROOT VP FIRMWARE_DIR
#   slots   the shipped slot sweep: CSV with every slot count, plot and report
#   repeat  a small JSON sweep run twice (locally, then via --sshlogin :): identical CSVs
#   slurm   the emitted Slurm script: options, array size and command lines; matrices of the examples
#   input   a key typo, a missing firmware, a missing VP: each exit 2, the reason named, no run started
#   failing one failing point: non-zero exit, the point listed, the other runs done (--keep-going)
#   resume  a finished sweep run again: nothing re-run, the same CSV; statistics-path and derived columns
#   pareto  the Pareto plot and front of a slot sweep against its area
#   names   every name a sweep uses, checked before the first run: a typo of each class exits 2 with
#           "did you mean", in explore check as in run, and nothing runs
#   constraints  derived keys and constraints: the energy sweep's matrix, and their errors
#   partial collect on a partial sweep and after Ctrl-C; the resumed sweep's CSV is a clean run's
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
names)
  # each case: a sweep with one typo; explore check (and run) exit 2 naming it, nothing runs
  refuse() {  # NAME PATTERN SWEEP
    local name=$1 pattern=$2 sweep=$3
    for action in check run; do
      set +e
      "${explore[@]}" $action "$sweep" --out "$dir/$name-$action" "${common[@]}" > "$dir/$name.out" 2>&1
      local rc=$?
      set -e
      [ "$rc" -eq 2 ] || fail "$name ($action): exit $rc, want 2: $(cat "$dir/$name.out")"
      grep -qF -- "$pattern" "$dir/$name.out" || fail "$name ($action): not named: $(cat "$dir/$name.out")"
      [ ! -e "$dir/$name-$action/runs" ] || fail "$name ($action): a run was started"
    done
    echo "$name: $(grep -F -- "$pattern" "$dir/$name.out" | head -1)"
  }
  slots=$root/scripts/sweeps/namp-slots.yaml
  typo() { sed "$1" "$2" > "$dir/$3.yaml"; echo "$dir/$3.yaml"; }
  refuse plot_x "plot 1: x: 'namp.slot' is not a column of the sweep; did you mean 'namp.slots'" \
    "$(typo 's/^  x: namp.slots/  x: namp.slot/' "$slots" plot_x)"
  refuse plot_y "plot 1: y: 'bytes_per_cycl' is not a column of the sweep; did you mean 'bytes_per_cycle'" \
    "$(typo 's/^  y: bytes_per_cycle/  y: bytes_per_cycl/' "$slots" plot_y)"
  refuse series "plot 1: series: 'mod' is not a column of the sweep; did you mean 'mode'" \
    "$(typo 's/series: \[scenario, mode, size\]/series: [scenario, mod, size]/' "$slots" series)"
  refuse where_key "plot 1: where: 'sise' is not a column of the sweep; did you mean 'size'" \
    "$(typo 's/^    size: \[64/    sise: [64/' "$slots" where_key)"
  refuse where_value "plot 1: where: no row can have size = 1023" \
    "$(typo 's/size: \[64, 256, 1024/size: [64, 256, 1023/' "$slots" where_value)"
  refuse where_scenario "no row can have scenario = '1t4'; did you mean '1to4'" \
    "$(typo 's/^    size: \[64, 256, 1024, 4096\]/    scenario: [1t4]/' "$slots" where_scenario)"
  pareto=$root/tests/explore/pareto.yaml
  refuse pareto_cost "pareto 1: cost: 'namp_kgate' is not a column of the sweep; did you mean 'namp_kgates'" \
    "$(typo 's/^  cost: namp_kgates/  cost: namp_kgate/' "$pareto" pareto_cost)"
  refuse pareto_perf "pareto 1: perf: 'bytes_per_cyc' is not a column" \
    "$(typo 's/^  perf: bytes_per_cycle/  perf: bytes_per_cyc/' "$pareto" pareto_perf)"
  refuse pareto_label "pareto 1: label: 'namp.osq' is not a column of the sweep; did you mean 'namp.osqm'" \
    "$(typo 's/label: \[namp.slots, namp.osqm\]/label: [namp.slots, namp.osq]/' "$pareto" pareto_label)"
  failing=$root/tests/explore/failing.yaml
  refuse derived "results.derived.instret_per_kgate ('mean_instret / kgate'): 'kgate' is not a column of the sweep; did you mean 'kgates'" \
    "$(typo 's|mean_instret / kgates|mean_instret / kgate|' "$failing" derived)"
  refuse stats_path "results.columns.kgates: 'area.platform_kgate': the statistics have no 'platform_kgate' under 'area'; did you mean 'platform_kgates'" \
    "$(typo 's/area.platform_kgates/area.platform_kgate/' "$failing" stats_path)"
  refuse stats_wildcard "'tiles.*.cores.*.cycle': the statistics have no 'cycle' under 'tiles.*.cores.*'; did you mean 'cycles'" \
    "$(typo 's/tiles.\*.cores.\*.cycles/tiles.*.cores.*.cycle/' "$failing" stats_wildcard)"
  refuse facet "plot 1: facet: 'nam' is not a column of the sweep; did you mean 'name'" \
    "$(typo 's/^plot: {x: name, y: max_core_cycles}/plot: {x: name, y: max_core_cycles, facet: nam}/' "$failing" facet)"
  # the NoC sweep with one rate and one mesh: its 336 dry checks would only cost time here
  sed -e 's/^  traffic.rate: \[0.02,.*/  traffic.rate: [0.1]/' -e '/^                 0.7, 0.75/d' \
      -e '/where: {traffic.rate:/d' \
      -e 's/^  mesh.width,mesh.height: .*/  mesh.width,mesh.height: [[4, 4]]/' \
      "$root/scripts/sweeps/noc-load-latency.yaml" > "$dir/noc.yaml"
  noc=$dir/noc.yaml
  refuse saturation "saturation 1: latency: 'latncy' is not a column of the sweep; did you mean 'latency'" \
    "$(typo 's/^  latency: latency/  latency: latncy/' "$noc" saturation)"
  energy=$root/scripts/sweeps/energy.yaml
  refuse derive_key "derive: 'namp.slots_virtt' is not a configuration key; did you mean 'namp.slots_virt'" \
    "$(typo 's/^  namp.slots_virt:/  namp.slots_virtt:/' "$energy" derive_key)"
  refuse where_name "where 1: 'slots_vrt' is not a configuration key; did you mean" \
    "$(typo 's/or slots_virt >= 1/or slots_vrt >= 1/' "$energy" where_name)"
  refuse traffic_pattern "'traffic.pattern' must be one of uniform" \
    "$(typo 's/^  traffic.pattern: \[uniform,/  traffic.pattern: [unifrm,/' "$noc" traffic_pattern)"
  echo "every name a sweep uses is checked before the first run";;
constraints)
  energy=$root/scripts/sweeps/energy.yaml
  "${explore[@]}" list "$energy" "${common[@]}" > "$dir/list" 2> "$dir/err"
  cat "$dir/err"
  # 4 presets x 4 slot counts, the two SV points with one slot dropped
  [ "$(wc -l < "$dir/list")" -eq 14 ] || fail "want 14 runs: $(cat "$dir/list")"
  grep -q "2 points dropped (preset=svbase, namp.slots=1; preset=svfull, namp.slots=1)" "$dir/err" \
    || fail "dropped points not named: $(cat "$dir/err")"
  grep -q -- "--preset svfull --set namp.slots=2 --set namp.slots_virt=1 " "$dir/list" || fail "svfull, 2 slots"
  grep -q -- "--preset svfull --set namp.slots=8 --set namp.slots_virt=4 " "$dir/list" || fail "svfull, 8 slots"
  grep -q -- "--preset bare --set namp.slots=4 --set namp.slots_virt=0 " "$dir/list" || fail "bare"
  expect2() {  # NAME PATTERN SED
    sed "$3" "$energy" > "$dir/$1.yaml"
    set +e
    "${explore[@]}" check "$dir/$1.yaml" --out "$dir/$1" "${common[@]}" > "$dir/$1.out" 2>&1
    local rc=$?
    set -e
    [ "$rc" -eq 2 ] || fail "$1: exit $rc, want 2: $(cat "$dir/$1.out")"
    grep -qF -- "$2" "$dir/$1.out" || fail "$1: $(cat "$dir/$1.out")"
    echo "$1: $(grep -F -- "$2" "$dir/$1.out" | head -1)"
  }
  expect2 nothing_left "where: no point of the sweep meets" 's/^where: .*/where: "slots > 100"/'
  expect2 also_set "derive: 'namp.slots' is also set by the sweep" 's/^  namp.slots_virt: .*/  namp.slots: "slots + 1"/'
  expect2 fails_on_a_point "fails for namp_tput, preset=bare, namp.slots=1" \
    's|^  namp.slots_virt: .*|  namp.slots_virt: "4 // (slots - 1)"|'
  expect2 ambiguous "'enabled' could be na.enabled, namp.enabled" 's/^where: .*/where: "enabled"/'
  expect2 not_allowed "only numbers, strings, keys" 's/^where: .*/where: "__import__(1)"/'
  echo "derived keys and constraints as expected";;
partial)
  sweep=$root/tests/explore/partial.yaml
  "${explore[@]}" run "$sweep" --out "$dir/full" "${common[@]}"
  # a partial sweep: the namp_tput runs (the decoder's rows) not there yet
  cp -r "$dir/full" "$dir/part"
  for i in 6 7 8 9 10 11; do rm -f "$dir/part/runs/$i".*; done
  set +e
  "${explore[@]}" collect "$sweep" --out "$dir/part" "${common[@]}" > "$dir/part.out" 2>&1
  rc=$?
  set -e
  cat "$dir/part.out"
  [ "$rc" -eq 1 ] || fail "collect on a partial sweep: exit $rc, want 1 (missing runs)"
  grep -q "run 6 (namp_tput, namp.slots=1): never finished" "$dir/part.out" || fail "missing run not named"
  [ "$(($(wc -l < "$dir/part/partial.csv") - 1))" -eq 12 ] || fail "partial CSV: want 6 good + 6 missing rows"
  head -1 "$dir/part/partial.csv" | grep -q "bytes_per_kgate" || fail "the derived column is missing"
  # Ctrl-C: one run at a time, interrupted once the first run has finished (not after a fixed
  # time: on a busy machine that came before Python had started); collect, then resume
  set +e
  # (a background job starts with SIGINT ignored: env gives it back its default)
  env --default-signal=INT "${explore[@]}" run "$sweep" --out "$dir/int" --vp "$vp" --firmware-dir "$fw" --jobs 1 \
    > "$dir/int.out" 2>&1 &
  pid=$!
  for _ in $(seq 600); do
    [ ! -e "$dir/int/runs/0.exit" ] && kill -0 "$pid" 2> /dev/null || break
    sleep 0.5
  done
  kill -INT "$pid"
  wait "$pid"
  rc=$?
  set -e
  cat "$dir/int.out"
  [ "$rc" -eq 130 ] || fail "interrupted sweep: exit $rc, want 130"
  grep -q "interrupted" "$dir/int.out" || fail "no interruption message"
  ! pgrep -f "$dir/int/runs" > /dev/null ||
    fail "a run of the interrupted sweep is still running: $(pgrep -af "$dir/int/runs")"
  set +e
  "${explore[@]}" collect "$sweep" --out "$dir/int" "${common[@]}" > "$dir/int-collect.out" 2>&1
  rc=$?
  set -e
  [ "$rc" -eq 1 ] || fail "collect after Ctrl-C: exit $rc, want 1: $(cat "$dir/int-collect.out")"
  "${explore[@]}" run "$sweep" --out "$dir/int" "${common[@]}" > "$dir/resume.out"
  cmp "$dir/full/partial.csv" "$dir/int/partial.csv" || fail "the resumed sweep's CSV differs from a clean run's"
  echo "collect works on partial and interrupted sweeps; the resumed CSV equals a clean run's";;
*) fail "unknown mode $mode";;
esac
