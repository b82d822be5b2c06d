"""Code and data sizes of the firmware libraries: an archive's objects (riscv64-unknown-elf-size -t)
and what a program's link keeps of an archive (its map). Seed 001's two MPI function sets (its
Table I) are programs that call exactly those functions (sw/apps/mpi_footprint); their footprint is
what the linker keeps of the library, counted by scripts/mpi-bench (docs/mpi.md) and scripts/claims
(docs/evaluation.md) alike."""
import os
import subprocess

# seed 001's set -> the program that calls exactly its functions
MPI_SETS = {"basic": "mpi_footprint_basic", "collectives": "mpi_footprint_coll"}
# the same programs with the library compiled without compressed instructions, at MicroBlaze's
# fixed 32-bit instruction width: the programs' name suffix and the library's archive
FIXED_WIDTH = ("_rv32ima", "libmpi_rv32ima.a")


def object_sizes(lib):
    """Object name -> (text, data, bss) bytes of each object of the archive lib."""
    p = subprocess.run(["riscv64-unknown-elf-size", "-t", lib], stdout=subprocess.PIPE)
    sizes = {}
    for line in p.stdout.decode().splitlines()[1:]:
        f = line.split()
        if len(f) >= 6 and f[5].endswith(".obj"):
            sizes[os.path.basename(f[5]).split(".")[0]] = (int(f[0]), int(f[1]), int(f[2]))
    return sizes


def linked_sizes(map_path, archive):
    """Object name -> (text, data, bss) bytes of the input sections of `archive` (e.g. libmpi.a)
    that the linker kept in the program whose map is map_path (ld -Map; the firmware is built
    with -ffunction-sections -fdata-sections and --gc-sections, so a section is a function or an
    object). text: .text*; data: .rodata*, .srodata*, .data*, .sdata*, .tdata*; bss: .bss*,
    .sbss*, .tbss*, COMMON (.tdata and .tbss: a rank's _Thread_local state, once per core).
    Discarded sections (listed before the memory map), fill and debug sections are not counted."""
    kinds = ((".text", 0), (".rodata", 1), (".srodata", 1), (".data", 1), (".sdata", 1),
             (".tdata", 1), (".bss", 2), (".sbss", 2), (".tbss", 2), ("COMMON", 2))
    sizes = {}
    marker = archive + "("
    in_map, pending = False, None
    with open(map_path) as f:
        for line in f:
            if not in_map:
                in_map = line.startswith("Linker script and memory map")
                continue
            # In the memory map an input section starts in column 1 ("name address size file"),
            # a long name alone on its line with the rest on the next; output sections start in
            # column 0, symbols further in.
            if line.startswith(" ") and not line.startswith("  "):
                fields = line.split()
                pending = fields[0] if len(fields) == 1 else None
                if pending:
                    continue
            elif pending and line.startswith("  "):
                fields, pending = [pending] + line.split(), None
            else:
                pending = None
                continue
            if len(fields) < 4 or marker not in fields[3]:
                continue
            kind = next((k for prefix, k in kinds if fields[0].startswith(prefix)), None)
            if kind is None:
                continue
            obj = os.path.basename(fields[3].split("(", 1)[1].rstrip(")")).split(".")[0]
            sizes.setdefault(obj, [0, 0, 0])[kind] += int(fields[2], 16)
    return {k: tuple(v) for k, v in sizes.items()}


def set_footprint(build, program, archive="libmpi.a"):
    """(code + data, bss) bytes of `archive` that the firmware `program` of build links."""
    path = os.path.join(build, "firmware", program + ".map")
    sizes = linked_sizes(path, archive)
    if not sizes:
        raise RuntimeError(f"nothing of {archive} in {path}")
    return sum(t + d for t, d, _ in sizes.values()), sum(b for _, _, b in sizes.values())
