#!/usr/bin/env bash
# scripts/demo installs only what booting hello needs (issue 35): `scripts/setup --list demo` has
# the compilers and libraries and none of the test tools, `all` has everything, and the demo's
# configuration (NAMP_BUILD_TESTS=OFF) needs no test package (GoogleTest).
# usage: demo_setup.sh SOURCE_ROOT
set -euo pipefail
root=$1
demo=$("$root/scripts/setup" --list demo)
all=$("$root/scripts/setup" --list all)
for p in gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf libsystemc-dev libelf-dev cmake; do
  grep -qx "$p" <<<"$demo" || { echo "FAIL: the demo does not install $p"; exit 1; }
done
for p in libgtest-dev gdb-multiarch qemu-system-misc clang slurm-wlm munge slurmdbd \
         mariadb-server-core parallel python3-matplotlib; do
  if grep -qx "$p" <<<"$demo"; then echo "FAIL: the demo installs $p, which only the tests use"; exit 1; fi
  grep -qx "$p" <<<"$all" || { echo "FAIL: 'all' lacks $p"; exit 1; }
done
while read -r p; do
  grep -qx "$p" <<<"$all" || { echo "FAIL: 'all' lacks the demo's $p"; exit 1; }
done <<<"$demo"
grep -q 'scripts/setup" demo' "$root/scripts/demo" && grep -q 'NAMP_BUILD_TESTS=OFF' "$root/scripts/demo" \
  || { echo "FAIL: scripts/demo does not use the demo set"; exit 1; }
# The demo's configuration: no GoogleTest, no test directories.
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DNAMP_BUILD_TESTS=OFF >/dev/null
if grep -qi "^GTest_DIR\|^GTEST_" "$dir/CMakeCache.txt" || [ -d "$dir/tests" ]; then
  echo "FAIL: the demo configuration looks for the test packages"; exit 1
fi
echo "demo: $(wc -l <<<"$demo") packages named, all: $(wc -l <<<"$all")"
