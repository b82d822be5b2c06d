#!/usr/bin/env bash
# scripts/explore (docs/exploration.md). usage: explore_test.sh MODE ROOT VP FIRMWARE_DIR
#   slots   the shipped slot sweep: CSV with every slot count, plot and report
#   repeat  a small JSON sweep run twice (locally, then via --sshlogin :): identical CSVs
#   slurm   the emitted Slurm script: array size and command lines; matrices of the other examples
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
  "${explore[@]}" slurm "$root/scripts/sweeps/namp-slots.yaml" --out "$dir/s" "${common[@]}"
  sb=$dir/s/sweep.sbatch
  grep -qx '#SBATCH --array=0-4' "$sb" || fail "array size: $(grep array "$sb")"
  grep -q 'sed -n "$((SLURM_ARRAY_TASK_ID + 1))p"' "$sb" || fail "task selection"
  [ "$(wc -l < "$dir/s/commands.txt")" -eq 5 ] || fail "want 5 command lines"
  i=0
  for s in 1 2 4 8 16; do
    line=$(sed -n "$((i + 1))p" "$dir/s/commands.txt")
    for want in "$vp --quiet --preset bare" "--set namp.slots=$s " "--stats $dir/s/runs/$i.json" \
                "--firmware $fw/namp_tput.elf"; do
      [[ $line == *"$want"* ]] || fail "line $((i + 1)) lacks '$want': $line"
    done
    i=$((i + 1))
  done
  [ "$("${explore[@]}" list "$root/scripts/sweeps/table42-presets.yaml" "${common[@]}" | wc -l)" -eq 9 ] \
    || fail "table 4.2 matrix"
  "${explore[@]}" list "$root/scripts/sweeps/mesh.yaml" "${common[@]}" | grep -q -- '--set mesh.width=16 --set mesh.height=16' \
    || fail "mesh matrix"
  echo "Slurm script and command lines as expected";;
*) fail "unknown mode $mode";;
esac
