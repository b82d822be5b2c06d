#!/usr/bin/env python3
"""The shipped design-space sweeps (docs/design-space.md) in a reduced form: a few points of each
(scripts/explore run --only), every run exit 0, and the property the sweep shows, checked on the
CSV (simulated quantities only):

  arbitration     namp_qos under lrs, qos, map: QoS gives the urgent messages a lower latency than LRS
  lambda          lambda 0 and 1: the NAMP's o_s does not change, RDMA's grows and stays above
  packet-length   16 and 32 flits: the buffer path's o_s at 4 KiB is larger with shorter packets
  contention      seeds 1 and 2: the crossing streams' latencies differ between the seeds
  retry-backoff   3,000 messages all to one: the default limit sends under 0.5 M NoC packets,
                  fewer than the old 4096, and completes no later
  table42-presets baremsg and barechan: namp_tput and namp_micro run (exit 0)
  energy          bare with 1 and 2 slots, svfull with 2 (its vifs derived: 1): the energy columns
                  add up to the total, two slots cost less energy per byte than one, the plots exist
  noc-load-latency 4x4, uniform and transpose, every rate: explore's saturation points are those
                  scripts/noc-load-latency computes from noc-traffic (the same simulation)

sweeps_test.py NAME ROOT VP FIRMWARE_DIR
"""
import csv
import os
import subprocess
import sys
import tempfile

ONLY = {
    "arbitration": ["name=qos"],
    "lambda": ["tile.arg=0,100"],
    "packet-length": ["noc.max_packet_flits=16,32"],
    "contention": ["tile.arg=1,2", "firmware=namp_contention_cross"],
    "retry-backoff": ["namp.retry_max_cycles=4096,8192", "firmware=namp_stress_15to1_nack"],
    "table42-presets": ["preset=baremsg,barechan", "firmware=namp_tput,namp_micro"],
    "energy": ["preset=bare,svfull", "namp.slots=1,2"],
    "noc-load-latency": ["mesh.width=4", "traffic.pattern=uniform,transpose"],
}


def rows_where(rows, **kv):
    return [r for r in rows if all(r.get(k) == str(v) for k, v in kv.items())]


def one(rows, col, **kv):
    r = rows_where(rows, **kv)
    if len(r) != 1 or r[0].get(col, "") == "":
        raise SystemExit(f"FAIL: expected one row with {col} for {kv}, got {len(r)}")
    return float(r[0][col])


def noc_reference(root, vp, out):
    """{pattern: (zero-load latency, saturation rate, highest accepted)} of 4x4 uniform and
    transpose from scripts/noc-load-latency, which drives the noc-traffic tool."""
    tool = os.path.join(os.path.dirname(os.path.dirname(vp)), "noc", "noc-traffic")
    ref = os.path.join(out, "reference")
    subprocess.run([os.path.join(root, "scripts", "noc-load-latency"), "--tool", tool, "--out", ref,
                    "--meshes", "4x4", "--patterns", "uniform,transpose"], check=True,
                   stdout=subprocess.DEVNULL, timeout=900)
    import json
    with open(os.path.join(ref, "load_latency.json")) as f:
        sat = json.load(f)["saturation"]
    return {s["pattern"]: (s["zero_load_latency"], s["saturates_at_offered"], s["max_accepted"]) for s in sat}


def main():
    name, root, vp, fw = sys.argv[1:5]
    with tempfile.TemporaryDirectory() as out:
        cmd = [os.path.join(root, "scripts", "explore"), "run",
               os.path.join(root, "scripts", "sweeps", name + ".yaml"), "--out", out, "--vp", vp,
               "--firmware-dir", fw, "--jobs", "2"]
        for o in ONLY[name]:
            cmd += ["--only", o]
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=900)
        print(p.stdout.decode(errors="replace")[-3000:])
        if p.returncode != 0:
            print(f"FAIL: the reduced sweep exited {p.returncode}")
            return 1
        with open(os.path.join(out, name.replace("_", "-") + ".csv")) as f:
            rows = list(csv.DictReader(f))
        with open(os.path.join(out, name + ".md")) as f:
            report = f.read()
        pngs = sorted(f for f in os.listdir(out) if f.endswith(".png"))
        if name == "noc-load-latency":
            reference = noc_reference(root, vp, out)
    bad = [r for r in rows if r["exit_code"] != "0"]
    if not rows or bad:
        print(f"FAIL: {len(bad)} failed rows of {len(rows)}")
        return 1
    checks = []
    if name == "arbitration":
        lrs = one(rows, "urgent_L", **{"namp.arbitration": "lrs"})
        qos = one(rows, "urgent_L", **{"namp.arbitration": "qos"})
        checks.append((qos < 0.7 * lrs, f"urgent latency under QoS {qos} < 0.7 x under LRS {lrs}"))
    elif name == "lambda":
        for size in (4, 4096):
            n0 = one(rows, "o_s", name="namp", size=size, **{"tile.arg": 0})
            n1 = one(rows, "o_s", name="namp", size=size, **{"tile.arg": 100})
            r0 = one(rows, "o_s", name="rdma", size=size, **{"tile.arg": 0})
            r1 = one(rows, "o_s", name="rdma", size=size, **{"tile.arg": 100})
            checks.append((n0 == n1, f"{size} B: NAMP o_s {n0} at lambda 0 = {n1} at lambda 1"))
            checks.append((r1 > r0 > n0, f"{size} B: RDMA o_s {r1} (lambda 1) > {r0} (lambda 0) > NAMP {n0}"))
    elif name == "packet-length":
        kv = dict(path="buffer", mode="msg", pair="neighbour", size=4096)
        s16 = one(rows, "o_s", **kv, **{"noc.max_packet_flits": 16})
        s32 = one(rows, "o_s", **kv, **{"noc.max_packet_flits": 32})
        checks.append((s16 > s32, f"buffer o_s at 4 KiB: {s16} with 16 flits > {s32} with 32"))
    elif name == "contention":
        l1 = [float(r["L"]) for r in rows_where(rows, **{"tile.arg": 1}) if r.get("L")]
        l2 = [float(r["L"]) for r in rows_where(rows, **{"tile.arg": 2}) if r.get("L")]
        checks.append((len(l1) == len(l2) == 48, f"{len(l1)} and {len(l2)} latency rows (48 each)"))
        checks.append((l1 != l2, "the two seeds give different latencies"))
    elif name == "retry-backoff":
        c_old = one(rows, "simulated_cycles", **{"namp.retry_max_cycles": 4096})
        c_new = one(rows, "simulated_cycles", **{"namp.retry_max_cycles": 8192})
        p_old = one(rows, "noc_packets", **{"namp.retry_max_cycles": 4096})
        p_new = one(rows, "noc_packets", **{"namp.retry_max_cycles": 8192})
        checks.append((p_new < 500000, f"{p_new:.0f} NoC packets for 3,000 messages < 0.5 M"))
        checks.append((p_new < 0.8 * p_old, f"{p_new:.0f} packets < 0.8 x {p_old:.0f} with 4096"))
        checks.append((c_new <= c_old, f"completion {c_new:.0f} <= {c_old:.0f} with 4096"))
    elif name == "table42-presets":
        checks.append((len(rows) == 4, f"{len(rows)} runs of 4 (namp_tput, namp_micro x 2 presets)"))
    elif name == "energy":
        runs = {(r["preset"], r["namp.slots"]): r for r in rows}
        checks.append((sorted(runs) == [("bare", "1"), ("bare", "2"), ("svfull", "2")],
                       f"points {sorted(runs)} (svfull with one slot dropped by the constraint)"))
        checks.append((runs[("svfull", "2")]["namp.slots_virt"] == "1", "svfull, 2 slots: 1 vif derived"))
        for key, r in runs.items():
            parts = sum(float(r[c]) for c in ("cores_pj", "sram_pj", "adapter_pj", "noc_pj", "leakage_pj"))
            total = float(r["energy_pj"])
            checks.append((0 < parts <= total < parts * 1.01 + 1, f"{key}: groups {parts:.0f} pJ ~ total {total:.0f} pJ (+ bus)"))
        b1 = one(rows, "pj_per_byte", preset="bare", scenario="1to4", mode="chan", size=1024, **{"namp.slots": 1})
        b2 = one(rows, "pj_per_byte", preset="bare", scenario="1to4", mode="chan", size=1024, **{"namp.slots": 2})
        checks.append((b2 < b1, f"bare: {b2} pJ/byte with 2 slots < {b1} with 1"))
        checks.append((pngs == ["energy-pareto.png", "energy.png"], f"plots {pngs}"))
    elif name == "noc-load-latency":
        got = {}
        for line in report.splitlines():
            cells = [c.strip() for c in line.strip("|").split("|")]
            if len(cells) == 5 and cells[0] == "4" and cells[1] in ("uniform", "transpose"):
                got[cells[1]] = cells[2:]
        for pattern, (zero, knee, top) in reference.items():
            mine = got.get(pattern)
            checks.append((mine == [f"{zero:.1f}", f"{knee:g}", f"{top:.3f}"],
                           f"4x4 {pattern}: explore {mine}, noc-load-latency "
                           f"[{zero:.1f}, {knee:g}, {top:.3f}]"))
        checks.append(("noc-load-latency-saturation.png" in pngs, f"plots {pngs}"))
    fails = 0
    for ok, what in checks:
        print(("ok: " if ok else "FAIL: ") + what)
        fails += not ok
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
