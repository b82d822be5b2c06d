#!/usr/bin/env python3
"""Fails if firmware writes a network-adapter register outside the two drivers.

The drivers are sw/lib/na (the baseline adapter: DMA, NoC buffers, RMA, interrupts) and sw/lib/namp
(the NAMP: slots, virtual interfaces, OSQM). Every other firmware source reaches the adapter through
them (contract/README.md). The register names are read from the contract itself
(contract/na_registers.h: a #define whose comment starts with R:, W: or R/W: names a register), so
a register added there is covered without touching this test. A line writes the adapter when
 - it calls mmio_write32 with a register name or an adapter base (TILE_NA_BASE, tile_na_base(),
   NA_..._BASE) in it, or assigns (=, |=, &=, ^=, +=, -=) to an expression that names one:
   `*(volatile uint32_t *)(base + DMA_SIZE) = n`, `SLOT(NAMP_SLOT_FLAGS) = f`,
   `v[NAMP_VIF_PARAM1 / 4] = p`;
 - or it defines a macro that dereferences an adapter address (`#define NA(o) (*(volatile
   uint32_t *)(TILE_NA_BASE + (o)))`): a register accessor of its own.
Reads (mmio_read32(...), `x = VREG(NAMP_VIF_STATUS)`) are not writes. A heuristic over source
lines, not a C parser: it finds the forms the firmware has used; the self-check below keeps it
finding them.

usage: adapter_writes.py [ROOT]   (ROOT: the source tree, default: this file's ../..)
"""
import pathlib
import re
import sys

# Firmware that pokes the adapter's registers on purpose, to test the hardware itself.
ALLOWED = {
    "sw/tests/na": "the adapter's own tests: packets, DMA, RMA, bus errors register by register",
    "sw/tests/kernel/sv_attack_task.c": "attack task: hostile values into its vif's registers",
    "sw/tests/kernel/sec_task.c": "attack task: hostile vif writes beside a checksummed victim",
    "sw/tests/kernel/sv_test.c": "checks that a task's store to a slot's physical page faults",
}
DRIVERS = ("sw/lib/na/", "sw/lib/namp/")

ASSIGN = re.compile(r"(?<![=!<>])(?:[|&^+\-]?=)(?!=)")
BASE = re.compile(r"\bTILE_NA_BASE\b|\btile_na_base\(|\bNA_[A-Z_]*BASE\b")
ACCESSOR = re.compile(r"^\s*#\s*define\b.*\*\s*\(\s*volatile\b.*(" + BASE.pattern + ")")

# Lines the detector must flag and lines it must not (run before every scan).
MUST = [
    "mmio_write32(d + DMA_CONTROL, DMA_CTRL_START);",
    "SLOT(s, NAMP_SLOT_FLAGS) = NAMP_FLAG_VALID;",
    "v[NAMP_VIF_PARAM1 / 4] = p1;",
    "NAREG(NA_IRQ_BASE + NA_IRQ_MASK) |= NA_IRQ_SRC_OSQM;",
    "static inline void na_wr(uint32_t off, uint32_t v) { mmio_write32(TILE_NA_BASE + off, v); }",
    "#define NA(off) (*(volatile uint32_t *)(TILE_NA_BASE + (off)))",
]
MUST_NOT = [
    "uint32_t st = VREG(NAMP_VIF_STATUS);",
    "if (mmio_read32(TILE_NA_BASE + NA_NAMP_SLOTS) == 0) {",
    "while ((st = na_dma_take(slot)) == 0)",
    "const uint32_t f = namp_reg_slot_flags(K_SEND_SLOT);",
    "*(volatile uint32_t *)(uintptr_t)RMA_ADDRESS(tile, addr - TILE_SRAM_BASE) = v;",
]


def registers(root):
    names = set()
    text = (root / "contract" / "na_registers.h").read_text()
    # the access kind opens the define's comment: on its line, or in the comment above it
    beside = r"^#define\s+([A-Z0-9_]+)(?:\([^)]*\))?\s+[^/\n]*/\*\s*(?:R/W|R|W):"
    above = r"^/\*\s*(?:R/W|R|W):(?:[^*]|\*(?!/))*\*/\n#define\s+([A-Z0-9_]+)"
    for reg in (beside, above):
        names.update(m.group(1) for m in re.finditer(reg, text, re.M))
    return names


def allowed(rel):
    return any(rel == a or rel.startswith(a + "/") for a in ALLOWED)


def writes(path, regs):
    found = []
    text = path.read_text(errors="replace")
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    # a macro of the file that names an adapter address counts as a register name in it
    local = re.findall(r"^\s*#\s*define\s+(\w+)\b.*(?:" + BASE.pattern + ")", text, re.M)
    word = re.compile(r"\b(" + "|".join(sorted(regs | set(local))) + r")\b")
    for no, line in enumerate(text.splitlines(), 1):
        line = line.split("//")[0]
        if is_write(line, word):
            found.append((no, line.strip()))
    return found


def is_write(line, word):
    if ACCESSOR.search(line):
        return True
    names = lambda text: word.search(text) or BASE.search(text)
    if not names(line) or line.lstrip().startswith("#"):
        return False
    if "mmio_write32(" in line:
        return True
    m = ASSIGN.search(line)
    return bool(m and names(line[:m.start()]))


def self_check(regs):
    word = re.compile(r"\b(" + "|".join(sorted(regs)) + r")\b")
    bad = [l for l in MUST if not is_write(l, word)] + [l for l in MUST_NOT if is_write(l, word)]
    for l in bad:
        print(f"detector self-check failed on: {l}")
    return not bad


def main():
    default = pathlib.Path(__file__).resolve().parents[2]
    root = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else default
    regs = registers(root)
    if len(regs) < 40:
        print(f"only {len(regs)} register names found in contract/na_registers.h: parser broken")
        return 1
    if not self_check(regs):
        return 1
    bad = 0
    used = set()
    for path in sorted((root / "sw").rglob("*")):
        if path.suffix not in (".c", ".h", ".S"):
            continue
        rel = path.relative_to(root).as_posix()
        if rel.startswith(DRIVERS):
            continue
        found = writes(path, regs)
        if found and allowed(rel):
            used.update(a for a in ALLOWED if rel == a or rel.startswith(a + "/"))
            continue
        for no, line in found:
            print(f"{rel}:{no}: adapter register written outside sw/lib/na and sw/lib/namp: {line}")
            bad += 1
    for a in sorted(set(ALLOWED) - used):   # the list stays as short as the exceptions
        print(f"allow-list entry {a} writes no adapter register (any more): remove it")
        bad += 1
    print(f"{len(regs)} adapter registers; {bad} finding(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
