#!/bin/bash
# kernel_firmware(... TASKS ...)'s partial link (sw/cmake/task_link.cmake) on two one-function
# tasks: a task's MCAPI call binds to mp_task and leaves no library name global; a task that
# calls what mp_task does not offer (mcapix_msg_hold) fails the build, naming the call.
#   task_link_test.sh <sw-build dir> <source dir>
set -u
sw=$1 src=$2
lib=$sw/lib/mp/libmp_task.a
[ -f "$lib" ] || { echo "FAIL: $lib not built"; exit 1; }
cc=riscv64-unknown-elf-gcc
flags="-march=rv32imac -mabi=ilp32 -misa-spec=2.2"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
inc="-I$src/sw/lib/mp/include -I$src/contract -I$src/sw/hal/include"
link() { # <name> <body>: compile a task calling <body>, run the partial link
    printf '#include "mcapi.h"\nvoid task_%s(void) { %s }\n' "$1" "$2" > "$t/$1.c"
    $cc $flags --specs=picolibc.specs $inc -O2 -c "$t/$1.c" -o "$t/$1.o" || { echo "FAIL: compile $1"; exit 1; }
    cmake -DCC=$cc "-DFLAGS=$flags --specs=picolibc.specs" -DNM=riscv64-unknown-elf-nm \
          -DOBJCOPY=riscv64-unknown-elf-objcopy -DLIB="$lib" -DOBJS="$t/$1.o" -DOUT="$t/$1.part.o" \
          -P "$src/sw/cmake/task_link.cmake" > "$t/$1.log" 2>&1
}
fail=0
if link good 'mcapi_status_t st; mcapi_msg_send(0, 0, 0, 0, 0, &st);'; then
    globals=$(riscv64-unknown-elf-nm -g --defined-only "$t/good.part.o" | awk '{print $3}')
    [ "$globals" = "task_good" ] || { echo "FAIL: globals of the task object: $globals"; fail=1; }
    riscv64-unknown-elf-nm "$t/good.part.o" | grep -q ' t mcapi_msg_send$' ||
        { echo "FAIL: mcapi_msg_send is not a local of the task object"; fail=1; }
else
    echo "FAIL: the partial link of a task calling mcapi_msg_send failed"; cat "$t/good.log"; fail=1
fi
if link bad 'void *d; size_t n; mcapi_status_t st; mcapix_msg_hold(0, &d, &n, &st);'; then
    echo "FAIL: a task calling mcapix_msg_hold linked"; fail=1
elif ! tr -s ' \n' ' ' < "$t/bad.log" | grep -q "needs mcapix_msg_hold, which mp_task does not define"; then
    echo "FAIL: the refusal does not name mcapix_msg_hold:"; cat "$t/bad.log"; fail=1
fi
[ $fail = 0 ] && echo "task_link ok: the task's MCAPI bound to mp_task, all local; mcapix_msg_hold refused"
exit $fail
