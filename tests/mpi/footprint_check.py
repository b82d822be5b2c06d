#!/usr/bin/env python3
"""What seed 001's function sets link of the MPI library (docs/mpi.md "Library footprint"): a
program that only sends, receives and synchronizes must not carry the one-sided part or the
reduction operators (the progress loop reaches them only through weak stand-ins, sw/lib/mpi/
mpi_p2p.c), and the collective set carries the operators but still no one-sided part; the same
for both sets with the library at a fixed 32-bit instruction width (mpi_rv32ima).

footprint_check.py ROOT BUILD
"""
import os
import sys


def main():
    root, build = sys.argv[1:3]
    sys.path.insert(0, os.path.join(root, "scripts"))
    from namp_scripts.footprint import FIXED_WIDTH, MPI_SETS, linked_sizes
    fails = []
    expect = {"basic": ({"mpi_core", "mpi_p2p", "mpi_node", "coll_api"}, {"mpi_win", "mpi_ops"}),
              "collectives": ({"mpi_core", "mpi_p2p", "mpi_ops", "coll_sw"}, {"mpi_win"})}
    # each set as linked, and with the library at a fixed 32-bit instruction width
    for (name, (must, must_not)), (suffix, lib) in [(e, v) for e in expect.items()
                                                    for v in (("", "libmpi.a"), FIXED_WIDTH)]:
        kept = linked_sizes(os.path.join(build, "firmware", MPI_SETS[name] + suffix + ".map"), lib)
        code = {o for o, (t, d, _) in kept.items() if t + d > 0}
        name += suffix
        print(f"{name}: {sum(t + d for t, d, _ in kept.values())} B: " +
              ", ".join(f"{o} {t + d} B" for o, (t, d, _) in sorted(kept.items())))
        if must - code:
            fails.append(f"{name}: missing {sorted(must - code)}")
        if must_not & code:
            fails.append(f"{name}: links {sorted(must_not & code)}")
    for f in fails:
        print("FAIL: " + f)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
