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
        # The value the test stored to EXIT (see tests/isa/riscv_test.h): (TESTNUM << 1) | 1 for
        # RVTEST_FAIL, TESTNUM | 1337 for an unhandled trap. The process exit code holds its low
        # 8 bits; namp-vp also prints the full value ("exited with code N") on stderr.
        code=$(printf '%s\n' "$out" | sed -n 's/.*exited with code \([0-9][0-9]*\).*/\1/p' | head -n 1)
        exact=yes
        [ -n "$code" ] || { code=$rc; exact=no; }
        detail="exit code $rc"
        if [ "$code" -eq 124 ] && [ "$rc" -eq 124 ]; then
            detail="$detail, cycle limit reached (hang?)"
        elif [ $((code & 1337)) -eq 1337 ]; then
            detail="$detail, unexpected trap (stored $code = TESTNUM | 1337)"
        elif [ $((code & 1)) -eq 1 ]; then
            detail="$detail, RVTEST_FAIL in test $((code >> 1))"
            [ $exact = no ] && detail="$detail (mod 128)"
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
