#!/usr/bin/env bash
# The Debian package (CPack, cmake/package.cmake): built from the build tree, its dependencies
# are packages this machine has (so `apt-get install ./namp-vp_*.deb` needs nothing else), and
# its contents, unpacked into an empty folder, run hello.elf from a clean directory.
# (CI also installs it for real: scripts/deb-install-check.)
# usage: deb_test.sh BUILD_DIR
set -euo pipefail
build=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
(cd "$dir" && cpack --config "$build/CPackConfig.cmake" -B "$dir/pkg" >/dev/null)
deb=$(ls "$dir"/pkg/namp-vp_*.deb)
echo "package: $(basename "$deb") ($(stat -c %s "$deb") bytes)"
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
for d in libsystemc gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf libelf1; do
  grep -q "$d" <<<"$depends" || { echo "FAIL: $d is not a dependency"; exit 1; }
done
# every dependency (first alternative, version aside) is an installed package here
IFS=',' read -ra deps <<<"$depends"
for d in "${deps[@]}"; do
  name=$(sed -E 's/^ *([^ (|]+).*/\1/' <<<"$d")
  dpkg-query -W -f='${Status}' "$name" 2>/dev/null | grep -q "install ok installed" \
    || { echo "FAIL: dependency $name is not installed"; exit 1; }
done
dpkg-deb -x "$deb" "$dir/root"
for f in bin/namp-vp share/namp-vp/firmware/hello.elf lib/libmpi.a lib/libkernel_freertos.a \
         include/mpi.h lib/cmake/NampFirmware/NampFirmwareConfig.cmake share/namp-vp/examples/sdk_mpi/main.c; do
  [ -e "$dir/root/opt/namp-vp/$f" ] || { echo "FAIL: /opt/namp-vp/$f not in the package"; exit 1; }
done
mkdir "$dir/clean"
out=$(cd "$dir/clean" && "$dir/root/opt/namp-vp/bin/namp-vp" --firmware "$dir/root/opt/namp-vp/share/namp-vp/firmware/hello.elf" 2>&1)
grep -q "hello from tile 15" <<<"$out" && grep -q "exit code 0" <<<"$out" || { echo "$out"; echo "FAIL: hello"; exit 1; }
echo "the package's namp-vp ran hello.elf"
