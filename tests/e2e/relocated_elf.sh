#!/usr/bin/env bash
# An ELF whose segments lie outside the tile SRAM must be refused with a clear message (exit 2):
# move hello.elf down to 0x20000000 and try to boot it.
set -euo pipefail
vp=$1 elf=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
riscv64-unknown-elf-objcopy --change-addresses -0x60000000 "$elf" "$dir/low.elf" 2>/dev/null
set +e
out=$("$vp" --preset single --firmware "$dir/low.elf" 2>&1)
code=$?
set -e
echo "$out"
[ "$code" -eq 2 ] || { echo "FAIL: exit code $code, expected 2"; exit 1; }
grep -q "segment 0 at 0x2.* lies outside the tile SRAM \[0x80000000, 0x80100000)" <<<"$out" ||
  { echo "FAIL: no clear message about the segment"; exit 1; }
