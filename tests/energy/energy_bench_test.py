#!/usr/bin/env python3
"""The thesis' comparisons in energy (docs/energy.md, scripts/energy-bench) keep their directions:
the NAMP costs less energy per message than the software protocol's buffer path at every size and
than its RDMA path up to 1 KiB, NAMP-CC multicast less than the software loop from 3 members on
(the saving growing with the members), a NAMP-SV send less than a system call at every size; and
every figure is positive (each run's marginal messages cost something).

energy_bench_test.py ROOT BUILD
"""
import csv
import os
import subprocess
import sys
import tempfile


def main():
    root, build = sys.argv[1:3]
    with tempfile.TemporaryDirectory() as out:
        p = subprocess.run([os.path.join(root, "scripts", "energy-bench"), "--build", build, "--out", out],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=1200)
        print(p.stdout.decode(errors="replace")[-1500:])
        if p.returncode != 0:
            print(f"FAIL: scripts/energy-bench exited {p.returncode}")
            return 1
        with open(os.path.join(out, "energy.csv")) as f:
            rows = list(csv.DictReader(f))
    total = {(r["comparison"], r["variant"], int(r["n"]), int(r["bytes"])): float(r["total"]) for r in rows}
    checks = [(all(v > 0 for v in total.values()), f"every figure positive ({len(total)})")]
    for size in (4, 64, 256, 1024, 4096):
        namp, buf = total[("p2p", "NAMP", 1, size)], total[("p2p", "software, buffer path", 1, size)]
        checks.append((namp < 0.6 * buf, f"{size} B: NAMP {namp:.0f} pJ < 0.6 x buffer path {buf:.0f} pJ"))
        if size <= 1024:
            rdma = total[("p2p", "software, RDMA path", 1, size)]
            checks.append((namp < rdma, f"{size} B: NAMP {namp:.0f} pJ < RDMA path {rdma:.0f} pJ"))
    saved = []
    for n in (3, 7, 15):
        hw, sw = total[("mcast", "NAMP-CC", n, 256)], total[("mcast", "software loop", n, 256)]
        saved.append(1 - hw / sw)
        checks.append((hw < sw, f"N = {n}: NAMP-CC {hw:.0f} pJ < software loop {sw:.0f} pJ"))
    checks.append((saved == sorted(saved), f"the multicast saving grows with N: {[round(s, 2) for s in saved]}"))
    for size in (4, 64, 512):
        vif, sc = total[("sv", "virtual interface", 1, size)], total[("sv", "system call", 1, size)]
        checks.append((vif < sc, f"{size} B: vif {vif:.0f} pJ < system call {sc:.0f} pJ"))
    fails = 0
    for ok, what in checks:
        print(("ok: " if ok else "FAIL: ") + what)
        fails += not ok
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
