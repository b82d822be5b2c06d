#!/usr/bin/env python3
"""The kernel's files declare no other file's function themselves (docs/kernel.md "Modules").

A function one file of sw/kernel calls in another is declared once, in a header (kinternal.h or
include/kernel/), where the compiler checks it against its definition. Fails on:
  - any `extern` in a .c file (a hand-written declaration of a function or a variable; the
    linker's and the assembly's symbols are declared in kinternal.h too);
  - a file-scope prototype of a non-static function in a .c file (a declaration by hand that the
    compiler never compares with the definition in another file).
Usage: check_declarations.py <sw/kernel directory>
"""
import pathlib
import re
import sys


def strip(text):
    """The code without comments, strings and character constants (newlines kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def file_scope_statements(code):
    """(line, text) of each file-scope statement that ends with ';' (not a definition)."""
    depth, start, buf = 0, None, []
    for lineno, line in enumerate(code.split("\n"), 1):
        if depth == 0 and line.lstrip().startswith("#"):
            continue
        for ch in line:
            if depth == 0 and start is None and not ch.isspace():
                start, buf = lineno, []
            if start is not None and depth == 0:
                buf.append(ch)
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth == 0:
                    start = None   # a definition (or a struct/initializer) ended
            elif ch == ";" and depth == 0 and start is not None:
                yield start, "".join(buf)
                start = None
        if start is not None and depth == 0:
            buf.append(" ")


def main(root):
    bad = []
    files = sorted(pathlib.Path(root).glob("*.c"))
    if not files:
        print(f"no .c files in {root}")
        return 1
    for path in files:
        code = strip(path.read_text())
        for lineno, line in enumerate(code.split("\n"), 1):
            if re.search(r"\bextern\b", line):
                bad.append(f"{path.name}:{lineno}: extern declaration: {line.strip()}")
        for lineno, stmt in file_scope_statements(code):
            s = " ".join(stmt.split())
            if re.match(r"(static|typedef|struct\s+\w+\s*;|enum|union|extern)\b", s):
                continue
            # a prototype: a name followed by a parameter list, then ';' (attributes allowed)
            if re.search(r"\b\w+\s*\([^()]*(\([^()]*\)[^()]*)*\)\s*(__attribute__\s*\(\(.*\)\))?\s*;$", s) \
                    and "=" not in s:
                bad.append(f"{path.name}:{lineno}: function declared by hand: {s}")
    for b in bad:
        print(b)
    print(f"kernel declarations: {len(files)} files, {len(bad)} declared by hand")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "sw/kernel"))
