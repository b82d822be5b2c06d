#!/usr/bin/env python3
"""report.py RESULTS_DIR DOC: writes the fuzzing results table (one row per target, from the
files scripts/fuzz leaves in RESULTS_DIR) between the fuzz-results markers of DOC. A target with
no result file keeps the row it had (a run of one target updates that row only)."""
import pathlib
import sys

BEGIN, END = "<!-- fuzz-results: begin (written by scripts/fuzz --report) -->", "<!-- fuzz-results: end -->"
ORDER = ["elf", "config", "iss", "na", "gdb"]


def rows(results, old):
    out = []
    for target in ORDER:
        f = results / target
        if not f.exists():
            out.append(old.get(target, f"| fuzz_{target} | not run | | | |"))
            continue
        name, inputs, seconds, day, result = f.read_text().rstrip("\n").split("\t", 4)
        rate = f"{int(inputs) / max(float(seconds), 1):,.0f}" if inputs.isdigit() else "?"
        count = f"{int(inputs):,}" if inputs.isdigit() else inputs
        out.append(f"| fuzz_{name} | {count} | {int(float(seconds)):,} s | {rate}/s | {day}: {result} |")
    return out


def main():
    results, doc = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    text = doc.read_text()
    if BEGIN not in text or END not in text:
        sys.exit(f"report.py: {doc} has no fuzz-results markers")
    head, rest = text.split(BEGIN, 1)
    current, tail = rest.split(END, 1)
    old = {line.split("|")[1].strip()[len("fuzz_"):]: line for line in current.splitlines()
           if line.startswith("| fuzz_")}
    table = ["| target | inputs run | time | inputs/s | result |", "|---|---:|---:|---:|---|"] + rows(results, old)
    doc.write_text(head + BEGIN + "\n" + "\n".join(table) + "\n" + END + tail)
    print(f"report.py: wrote the results of {results} into {doc}")


if __name__ == "__main__":
    main()
