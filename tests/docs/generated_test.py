#!/usr/bin/env python3
"""The numbers in docs/ are what the scripts produce: each generator regenerates a copy of its
document (or, for scripts/explore-docs, checks the documents in place: --check-sweeps runs every
sweep) and the copy must equal the committed document. A document that differs names the command
that regenerates it. docs/mpi.md (scripts/mpi-bench, a few minutes), docs/mpi-model.md (its OSU
comparison needs the fetched OSU suite; e2e.mpi.model.fit bounds its fit error) and
docs/evaluation.md (checked within its bands by the claims.* tests) are not rerun here.

generated_test.py ROOT BUILD
"""
import os
import shutil
import subprocess
import sys
import tempfile

# (document, generators run on its copy in this order)
GENERATED = [
    ("namp-benchmarks.md", ["namp-bench", "cc-bench"]),
    ("namp-osqm-bench.md", ["osqm-bench"]),
    ("namp-sv-bench.md", ["sv-bench"]),
    ("namp-ps-bench.md", ["ps-bench"]),
    ("sockets.md", ["sock-bench"]),
    ("energy.md", ["energy-bench"]),
]


def main():
    root, build = sys.argv[1:3]
    fails = []
    with tempfile.TemporaryDirectory() as d:
        for doc, gens in GENERATED:
            copy = os.path.join(d, doc)
            shutil.copy(os.path.join(root, "docs", doc), copy)
            failed = False
            for g in gens:
                # run as the documentation says (from the root, by the script's own interpreter,
                # the build named relative to the root): the commands it writes name the build so
                p = subprocess.run([os.path.join(root, "scripts", g), "--build", os.path.relpath(build, root),
                                    "--out", os.path.join(d, g), "--docs", copy], cwd=root,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=1200)
                if p.returncode != 0:
                    print(p.stdout.decode(errors="replace")[-2000:])
                    fails.append(f"scripts/{g} failed (exit {p.returncode})")
                    failed = True
            if failed:
                continue
            with open(copy) as f, open(os.path.join(root, "docs", doc)) as g_:
                new, old = f.read(), g_.read()
            if new != old:
                diff = subprocess.run(["diff", os.path.join(root, "docs", doc), copy],
                                      stdout=subprocess.PIPE).stdout.decode()
                print(diff[:3000])
                fails.append(f"docs/{doc} differs from what " + " and ".join(
                    f"scripts/{g} --docs docs/{doc}" for g in gens) + " write")
            else:
                print(f"ok: docs/{doc}")
    p = subprocess.run([os.path.join(root, "scripts", "explore-docs"), "--check-sweeps",
                        "--vp", os.path.join(build, "vp", "namp-vp"),
                        "--firmware-dir", os.path.join(build, "firmware")] +
                       [os.path.join(root, "docs", x) for x in ("area.md", "exploration.md", "design-space.md",
                                                                 "noc.md", "energy.md")],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=1800)
    out = p.stdout.decode(errors="replace")
    print(out[-2000:])
    if p.returncode != 0:
        fails.append("scripts/explore-docs --check-sweeps docs/area.md docs/exploration.md docs/design-space.md "
                     "docs/noc.md docs/energy.md")
    for f in fails:
        print(f"FAIL: {f}")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
