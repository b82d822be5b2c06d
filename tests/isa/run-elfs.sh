#!/bin/sh
# Runs every riscv-tests ELF of a directory on namp-vp and reports PASS/FAIL per test.
# Usage: tests/isa/run-elfs.sh <dir-with-test-elfs> <path/to/namp-vp> [extra namp-vp options]
# A test passes when namp-vp exits with 0 (the test stored 0 to the EXIT register; see
# tests/isa/riscv_test.h). Files that are not ELF executables (*.dump, *.S, ...) are skipped.
# Exit status: 0 if all tests passed, 1 if any failed, 2 on usage errors.
set -u

if [ $# -lt 2 ]; then
    echo "usage: $0 <dir-with-test-elfs> <namp-vp> [extra namp-vp options]" >&2
    exit 2
fi
dir=$1
vp=$2
shift 2
if [ ! -d "$dir" ]; then
    echo "$0: '$dir' is not a directory" >&2
    exit 2
fi
if [ ! -x "$vp" ]; then
    echo "$0: '$vp' is not an executable" >&2
    exit 2
fi

passed=0
failed=0
failed_names=
for elf in "$dir"/*; do
    [ -f "$elf" ] || continue
    # ELF magic: 0x7f 'E' 'L' 'F'
    magic=$(head -c 4 "$elf" | od -An -tx1 | tr -d ' \n')
    [ "$magic" = "7f454c46" ] || continue
    name=$(basename "$elf")
    out=$("$vp" --preset single --quiet --max-cycles 10000000 --firmware "$elf" "$@" 2>&1)
    rc=$?
    if [ $rc -eq 0 ]; then
        echo "PASS $name"
        passed=$((passed + 1))
    else
        # For a riscv-tests failure the exit code is (TESTNUM << 1) | 1 (low 8 bits).
        detail="exit code $rc"
        if [ $((rc & 1)) -eq 1 ] && [ $rc -lt 128 ]; then
            detail="$detail, failing test number $((rc >> 1)) (mod 128)"
        fi
        echo "FAIL $name ($detail)"
        if [ -n "$out" ]; then
            printf '%s\n' "$out" | tail -n 5 | sed 's/^/    /'
        fi
        failed=$((failed + 1))
        failed_names="$failed_names $name"
    fi
done

echo "$passed passed, $failed failed"
if [ $((passed + failed)) -eq 0 ]; then
    echo "$0: no ELF files in '$dir'" >&2
    exit 1
fi
[ $failed -eq 0 ]
