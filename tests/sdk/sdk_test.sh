#!/usr/bin/env bash
# Installs the firmware SDK into a fresh prefix, builds the example project (sw/examples/sdk_hello)
# copied to a fresh folder with nothing but the installed toolchain file, and runs it on namp-vp.
# Then the MPI example (sw/examples/sdk_mpi) and a kernel firmware the same way, each run by the
# SDK's own simulator (bin/namp-vp), and checks that a build without a build type gets -O2 -g;
# an MPI program compiled with the installed namp-mpicc, with arguments from --args; a socket echo.
# usage: sdk_test.sh VP BUILD_DIR EXAMPLE_DIR SOURCE_ROOT
set -euo pipefail
vp=$1 build=$2 example=$3 srcroot=$4
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

cmake --install "$build" --prefix "$dir/sdk" >/dev/null   # the documented install step

# Configures and builds the project in folder $1 with nothing but the SDK's toolchain file.
build_app() {
  cmake -S "$1" -B "$1/build" -G Ninja -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
        -DCMAKE_TOOLCHAIN_FILE="$dir/sdk/lib/cmake/NampFirmware/namp-toolchain.cmake" >/dev/null
  cmake --build "$1/build"
}
cp -r "$example" "$dir/app"
build_app "$dir/app"
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
build_app "$dir/namp"
out=$("$vp" --preset bare --firmware "$dir/namp/build/sdk_hello_namp" 2>&1) || { echo "$out"; echo "FAIL: NAMP exit"; exit 1; }
echo "$out"
grep -q "sdk_hello: tile 15 received 'hello from the installed SDK'" <<<"$out" || { echo "FAIL: no message over the NAMP"; exit 1; }

# The simulator is part of the SDK.
sdkvp="$dir/sdk/bin/namp-vp"
[ -x "$sdkvp" ] || { echo "FAIL: no bin/namp-vp in the SDK"; exit 1; }

# The worked MPI example, copied out of the tree, built with no build type.
cp -r "$srcroot/sw/examples/sdk_mpi" "$dir/mpi"
build_app "$dir/mpi"
grep -q -- "-O2" "$dir/mpi/build/compile_commands.json" && grep -q -- " -g" "$dir/mpi/build/compile_commands.json" \
  || { echo "FAIL: no -O2 -g without a build type"; cat "$dir/mpi/build/compile_commands.json"; exit 1; }
if grep -rqF "$srcroot/" "$dir/mpi/build/build.ninja"; then echo "FAIL: MPI build refers to the tree"; exit 1; fi
out=$("$sdkvp" --preset smp --firmware "$dir/mpi/build/sdk_mpi" 2>&1) || { echo "$out"; echo "FAIL: MPI exit"; exit 1; }
echo "$out"
grep -q "sdk_mpi: 16 ranks, ring token 120, allreduce sum 120 (expected 120): ok" <<<"$out" \
  || { echo "FAIL: MPI example"; exit 1; }

# A kernel firmware (namp::kernel_freertos brings its own linker script instead of tile.ld).
mkdir -p "$dir/kernel"
cp "$srcroot/sw/tests/kernel/sched_test.c" "$srcroot/sw/tests/kernel/ktest.h" "$dir/kernel/"
cat > "$dir/kernel/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.20)
project(sdk_kernel C)
find_package(NampFirmware REQUIRED)
add_executable(sdk_kernel sched_test.c)
target_link_libraries(sdk_kernel PRIVATE namp::kernel_freertos)
CMAKE
build_app "$dir/kernel"
out=$("$sdkvp" --preset single --firmware "$dir/kernel/build/sdk_kernel" 2>&1) || { echo "$out"; echo "FAIL: kernel exit"; exit 1; }
grep -q "kernel sched ok (freertos)" <<<"$out" || { echo "$out"; echo "FAIL: kernel example"; exit 1; }

# An MPI program compiled like on a cluster, with the installed namp-mpicc (both transports), and
# its command-line arguments from --args.
cat > "$dir/mpi_hello.c" <<'C'
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
    int rank, size, sum = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int mine = argc > 1 ? atoi(argv[1]) * (rank + 1) : -1;
    MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("mpi_hello: %d ranks, sum %d\n", size, sum);
    MPI_Finalize();
    return 0;
}
C
"$dir/sdk/bin/namp-mpicc" -O2 -o "$dir/mpi_hello.elf" "$dir/mpi_hello.c"
"$dir/sdk/bin/namp-mpicc" --namp -O2 -c -o "$dir/mpi_hello.o" "$dir/mpi_hello.c"
"$dir/sdk/bin/namp-mpicc" --namp --sram 2097152 -o "$dir/mpi_hello_namp.elf" "$dir/mpi_hello.o"
out=$("$sdkvp" --set mesh.width=2 --set mesh.height=2 --firmware "$dir/mpi_hello.elf" \
      --args 3 2>&1) \
  || { echo "$out"; echo "FAIL: mpi_hello exit"; exit 1; }
grep -q "mpi_hello: 4 ranks, sum 30" <<<"$out" || { echo "$out"; echo "FAIL: mpi_hello"; exit 1; }
out=$("$sdkvp" --preset bare --set mesh.width=2 --set mesh.height=1 --set tile.sram_size=2097152 \
      --firmware "$dir/mpi_hello_namp.elf" --args 5 2>&1) \
  || { echo "$out"; echo "FAIL: NAMP mpi_hello"; exit 1; }
grep -q "mpi_hello: 2 ranks, sum 15" <<<"$out" \
  || { echo "$out"; echo "FAIL: NAMP mpi_hello"; exit 1; }
echo "namp-mpicc: MPI program built and ran (baseline and NAMP transports)"
# A socket program built with find_package and namp::sock_namp: tile 1 connects to tile 0, which
# echoes one message back.
mkdir -p "$dir/sock"
cat > "$dir/sock/main.c" <<'C'
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "hal/hal.h"
int main(void)
{
    if (tile_core_id() != 0 || tile_id() > 1)
        return 0;
    struct sockaddr_tile a = {.st_family = AF_TILE, .st_port = 7, .st_tile = 0};
    char buf[16] = {0};
    int s = socket(AF_TILE, SOCK_STREAM, 0);
    if (tile_id() == 0) {
        if (bind(s, (struct sockaddr *)&a, sizeof a) || listen(s, 1))
            return 1;
        int c = accept(s, NULL, NULL);
        if (c < 0 || recv(c, buf, 4, MSG_WAITALL) != 4 || send(c, buf, 4, 0) != 4)
            return 2;
        while (recv(c, buf, sizeof buf, 0) > 0) {}   /* until the client closes */
        close(c);
    } else {
        while (connect(s, (struct sockaddr *)&a, sizeof a) != 0) {   /* listener not up yet */
            close(s);
            s = socket(AF_TILE, SOCK_STREAM, 0);
        }
        if (send(s, "ping", 4, 0) != 4 || recv(s, buf, 4, MSG_WAITALL) != 4 ||
            memcmp(buf, "ping", 4))
            return 3;
        printf("sdk_sock: echo '%s' over the installed socket library\n", buf);
    }
    close(s);
    return 0;
}
C
cat > "$dir/sock/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.20)
project(sdk_sock C)
find_package(NampFirmware REQUIRED)
add_executable(sdk_sock main.c)
target_link_libraries(sdk_sock PRIVATE namp::sock_namp)
CMAKE
build_app "$dir/sock"
out=$("$sdkvp" --preset bare --set mesh.width=2 --set mesh.height=1 --max-cycles 400000000 \
      --firmware "$dir/sock/build/sdk_sock" 2>&1) \
  || { echo "$out"; echo "FAIL: sdk_sock exit"; exit 1; }
grep -q "sdk_sock: echo 'ping' over the installed socket library" <<<"$out" \
  || { echo "$out"; echo "FAIL: sdk_sock"; exit 1; }
echo "out-of-tree SDK examples built and ran (baseline, NAMP, MPI, kernel, sockets; SDK's namp-vp)"
