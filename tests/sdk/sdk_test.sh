#!/usr/bin/env bash
# Installs the firmware SDK into a fresh prefix, builds the example project (sw/examples/sdk_hello)
# copied to a fresh folder with nothing but the installed toolchain file, and runs it on namp-vp.
# usage: sdk_test.sh VP BUILD_DIR EXAMPLE_DIR SOURCE_ROOT
set -euo pipefail
vp=$1 build=$2 example=$3 srcroot=$4
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

cmake --install "$build" --prefix "$dir/sdk" >/dev/null   # the documented install step
cp -r "$example" "$dir/app"
cmake -S "$dir/app" -B "$dir/app/build" -G Ninja \
      -DCMAKE_TOOLCHAIN_FILE="$dir/sdk/lib/cmake/NampFirmware/namp-toolchain.cmake" >/dev/null
cmake --build "$dir/app/build"
# Only the installed SDK was used: the build files never name the source tree.
if grep -rqF "$srcroot/" "$dir/app/build/build.ninja" "$dir/app/build/CMakeCache.txt"; then
  echo "FAIL: the out-of-tree build refers to the source tree $srcroot"; exit 1
fi
out=$("$vp" --preset smp --firmware "$dir/app/build/sdk_hello" 2>&1) || { echo "$out"; echo "FAIL: exit $?"; exit 1; }
echo "$out"
grep -q "sdk_hello: tile 3 received 'hello from the installed SDK'" <<<"$out" || { echo "FAIL: no message"; exit 1; }
grep -q "exit code 0" <<<"$out"

# The same program over the NAMP transport: only the imported target changes.
mkdir -p "$dir/namp"
cp "$example/main.c" "$dir/namp/"
cat > "$dir/namp/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.20)
project(sdk_hello_namp C)
find_package(NampFirmware REQUIRED)
add_executable(sdk_hello_namp main.c)
target_link_libraries(sdk_hello_namp PRIVATE namp::mcapi_namp)
CMAKE
cmake -S "$dir/namp" -B "$dir/namp/build" -G Ninja \
      -DCMAKE_TOOLCHAIN_FILE="$dir/sdk/lib/cmake/NampFirmware/namp-toolchain.cmake" >/dev/null
cmake --build "$dir/namp/build"
out=$("$vp" --preset bare --firmware "$dir/namp/build/sdk_hello_namp" 2>&1) || { echo "$out"; echo "FAIL: NAMP exit"; exit 1; }
echo "$out"
grep -q "sdk_hello: tile 15 received 'hello from the installed SDK'" <<<"$out" || { echo "FAIL: no message over the NAMP"; exit 1; }
echo "out-of-tree SDK example built and ran (baseline and NAMP transports)"
