#!/usr/bin/env python3
"""Checks the rule of contract/ (contract/README.md): only C headers (plus its README and
CMakeLists.txt), each of which stands alone, compiles as C11 and as C++17 without warnings, and
includes nothing from outside the folder but the C library.

usage: standalone.py ROOT CC CXX
"""
import pathlib
import re
import subprocess
import sys
import tempfile

ALLOWED_OTHER = {"README.md", "CMakeLists.txt", ".clang-format"}  # .clang-format: the C style (link)
STD_HEADERS = {"stdint.h", "stddef.h", "stdbool.h"}


def main():
    root, cc, cxx = pathlib.Path(sys.argv[1]), sys.argv[2], sys.argv[3]
    folder = root / "contract"
    bad = 0
    headers = sorted(p for p in folder.iterdir() if p.suffix == ".h")
    for p in sorted(folder.iterdir()):
        if p.suffix != ".h" and p.name not in ALLOWED_OTHER:
            print(f"contract/{p.name}: not a header; contract/ holds the contract's headers only")
            bad += 1
    if len(headers) < 6:
        print(f"only {len(headers)} headers in contract/")
        bad += 1
    names = {h.name for h in headers}
    for h in headers:
        for inc in re.findall(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', h.read_text(), re.M):
            if inc not in names and inc not in STD_HEADERS:
                print(f"contract/{h.name} includes {inc}: only the C library and contract/ itself")
                bad += 1
        with tempfile.TemporaryDirectory() as tmp:
            for compiler, lang, std in ((cc, "c", "-std=c11"), (cxx, "c++", "-std=c++17")):
                src = pathlib.Path(tmp) / ("t." + ("c" if lang == "c" else "cpp"))
                src.write_text(f'#include "{h.name}"\n#include "{h.name}"\nint contract_unit;\n')
                cmd = [compiler, "-x", lang, std, "-Wall", "-Wextra", "-Werror", "-fsyntax-only",
                       "-I", str(folder), str(src)]
                r = subprocess.run(cmd, capture_output=True, text=True)
                if r.returncode != 0:
                    print(f"contract/{h.name} does not compile alone as {lang}:\n{r.stderr}")
                    bad += 1
    print(f"{len(headers)} contract headers; {bad} problem(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
