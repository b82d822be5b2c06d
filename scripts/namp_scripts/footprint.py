"""Code and data sizes of the firmware libraries (riscv64-unknown-elf-size -t on an archive), and
the MPI library's sets of seed 001's Table I, counted by scripts/mpi-bench (docs/mpi.md) and
scripts/claims (docs/evaluation.md) alike."""
import os
import subprocess

MPI_BASIC = ["mpi_core", "mpi_p2p", "mpi_node"]        # init, rank/size, point-to-point, probe, split
MPI_COLLECTIVES = MPI_BASIC + ["mpi_ops", "coll_api", "coll_select", "coll_sw", "coll_cc"]


def object_sizes(lib):
    """Object name -> (text, data, bss) bytes of each object of the archive lib."""
    p = subprocess.run(["riscv64-unknown-elf-size", "-t", lib], stdout=subprocess.PIPE)
    sizes = {}
    for line in p.stdout.decode().splitlines()[1:]:
        f = line.split()
        if len(f) >= 6 and f[5].endswith(".obj"):
            sizes[os.path.basename(f[5]).split(".")[0]] = (int(f[0]), int(f[1]), int(f[2]))
    return sizes
