#!/usr/bin/env bash
# find_package(NampFirmware) in a project configured without the SDK's toolchain file (the host's
# compiler) fails at configure time with a message naming namp-toolchain.cmake, not at link time
# with "cannot represent machine 'riscv'" (issue 35).
# usage: host_compiler_test.sh BUILD_DIR EXAMPLE_DIR
set -euo pipefail
build=$1 example=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cmake --install "$build" --prefix "$dir/sdk" >/dev/null
cp -r "$example" "$dir/app"
if out=$(cmake -S "$dir/app" -B "$dir/app/build" -G Ninja -DCMAKE_PREFIX_PATH="$dir/sdk" 2>&1); then
  echo "$out"
  echo "FAIL: a host-compiler project configured against the SDK"
  exit 1
fi
echo "$out"
out=$(tr -s ' \n' '  ' <<<"$out")   # cmake wraps the message
grep -q "builds RISC-V (rv32imac) firmware, but this project's C compiler is" <<<"$out" \
  || { echo "FAIL: the refusal does not say why"; exit 1; }
grep -qF -- "-DCMAKE_TOOLCHAIN_FILE=$dir/sdk/lib/cmake/NampFirmware/namp-toolchain.cmake" <<<"$out" \
  || { echo "FAIL: the refusal does not name the toolchain file"; exit 1; }
echo "host compiler refused at configure time, naming the toolchain file"
