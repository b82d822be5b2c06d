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
}


def rows_where(rows, **kv):
    return [r for r in rows if all(r.get(k) == str(v) for k, v in kv.items())]


def one(rows, col, **kv):
    r = rows_where(rows, **kv)
    if len(r) != 1 or r[0].get(col, "") == "":
        raise SystemExit(f"FAIL: expected one row with {col} for {kv}, got {len(r)}")
    return float(r[0][col])


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
    fails = 0
    for ok, what in checks:
        print(("ok: " if ok else "FAIL: ") + what)
        fails += not ok
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
