#!/bin/sh
# strip_elf_seeds.sh DIR STRIP: removes the debug sections of the ELF seeds in DIR.
set -e
for f in "$1"/*.elf; do "$2" --strip-debug "$f"; done
