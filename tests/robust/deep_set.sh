#!/usr/bin/env bash
# deep_set.sh VP ELF: a --set value of 5000 nested arrays (it overflowed the host stack in the
# error message) must end in exit 2 and a short message naming the key.
set -uo pipefail
vp=$1 elf=$2
value=$(printf '%*s' 5000 '' | tr ' ' '[')
out=$("$vp" --set "mesh.width=$value" --firmware "$elf" 2>&1)
code=$?
echo "$out"
[ "$code" -eq 2 ] || { echo "FAIL: exit code $code, expected 2"; exit 1; }
grep -q "^namp-vp: error: --set: 'mesh.width' must be an integer in \[1, 64\], got \"\[\[\[" <<<"$out" ||
  { echo "FAIL: no message naming mesh.width"; exit 1; }
[ "${#out}" -lt 300 ] || { echo "FAIL: the message has ${#out} characters"; exit 1; }
