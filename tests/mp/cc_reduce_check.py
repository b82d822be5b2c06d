#!/usr/bin/env python3
"""Reduction e2e check (namp_cc_reduce firmware): runs namp-vp and compares every op x type result
(FNV-1a of the 96-byte vector, printed by tile 0) with the reduction computed here on the host,
independently of the firmware and of the adapter model.

cc_reduce_check.py --hw N -- VP-ARGS...   (N: the root path the run must take, 1 adapter, 0 software)
"""
import re
import struct
import subprocess
import sys

NCONTRIB, VSIZE = 4, 96
OPS = ["sum", "min", "max", "band", "bor", "bxor", "land", "lor"]
TYPES = [("b", 1), ("h", 2), ("i", 4), ("B", 1), ("H", 2), ("I", 4)]  # int8/16/32, uint8/16/32
M32 = 0xFFFFFFFF


def gen(t, op, ty, i):
    x = ((t * 0x9E3779B1) & M32) ^ (((op * 8 + ty) * 0x85EBCA77) & M32) ^ ((i * 0xC2B2AE3D) & M32)
    x ^= x >> 15
    x = (x * 0x2C1B3C6D) & M32
    x ^= x >> 12
    return 0 if x % 3 == 0 else x >> 24


def combine(op, a, b, fmt, size):
    if op == 0:
        r = a + b
    elif op == 1:
        r = min(a, b)
    elif op == 2:
        r = max(a, b)
    elif op == 3:
        r = a & b
    elif op == 4:
        r = a | b
    elif op == 5:
        r = a ^ b
    elif op == 6:
        r = int(a != 0 and b != 0)
    else:
        r = int(a != 0 or b != 0)
    bits = 8 * size
    r &= (1 << bits) - 1                       # wrap, then back to the type's range
    if fmt.islower() and r >= 1 << (bits - 1):
        r -= 1 << bits
    return r


def expected(op, ty):
    fmt, size = TYPES[ty]
    n = VSIZE // size
    vecs = [struct.unpack(f"<{n}{fmt}", bytes(gen(t, op, ty, i) for i in range(VSIZE)))
            for t in range(1, NCONTRIB + 1)]
    acc = list(vecs[0])
    for v in vecs[1:]:
        acc = [combine(op, a, b, fmt, size) for a, b in zip(acc, v)]
    data = struct.pack(f"<{n}{fmt}", *acc)
    h = 2166136261
    for c in data:
        h = ((h ^ c) * 16777619) & M32
    return h


def main():
    args = sys.argv[1:]
    hw = int(args[args.index("--hw") + 1])
    cmd = args[args.index("--") + 1:]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600)
    out = p.stdout.decode(errors="replace")
    got = {(int(m.group(1)), int(m.group(2))): int(m.group(3), 16)
           for m in re.finditer(r"reduce op=(\d+) type=(\d+) fnv=([0-9a-f]{8})", out)}
    fails = []
    if p.returncode != 0 or "FAIL" in out:
        fails.append(f"run exited {p.returncode}")
    if not re.search(rf"reduce ok: 48 reductions of 4 contributions, hw={hw} ", out):
        fails.append(f"no 'reduce ok ... hw={hw}' line (wrong path or preset)")
    if len(re.findall(r"reduce contributor \d ok", out)) != NCONTRIB:
        fails.append("not every contributor finished")
    for op in range(len(OPS)):
        for ty in range(len(TYPES)):
            want = expected(op, ty)
            if got.get((op, ty)) != want:
                fails.append(f"{OPS[op]} on type {ty}: got {got.get((op, ty))}, host computed {want:08x}")
    if fails:
        print(out[-2000:])
        for f in fails:
            print("FAIL", f)
        sys.exit(1)
    print(f"cc reduce ok: 48 op x type results equal the host's (hw={hw})")


if __name__ == "__main__":
    main()
