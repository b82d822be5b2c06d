#!/usr/bin/env python3
"""Timeline trace and --progress tests of namp-vp (docs/tracing.md). Exit non-zero on failure.

usage: trace_test.py MODE VP FIRMWARE_DIR
  namp        trace of a NAMP firmware: valid JSON, one track per core, run/wfi/irq slices properly
              nested, bounded size with the default categories
  marks       sim_mark stamps become instants, as many as the statistics list
  window      --trace-window keeps every event inside the window
  categories  --trace-categories marks drops the core slices
  noc         --trace-categories noc: one async slice per delivered packet (as many as the
              statistics count), "packets in flight" counter samples, statistics unchanged, none
              of it with the default categories
  bad_input   unknown category, unwritable file, inverted window: exit 2 with a message
  progress_tty --progress on a terminal (a pty): console lines never glued to the status line
  progress    --progress prints a status line, does not change the statistics, and a hang still ends
"""
import json
import os
import re
import subprocess
import sys
import tempfile

CYCLE_US = 0.01  # 100 MHz default clock
SIZE_BOUND = 1 << 20  # bytes, default categories, the NAMP e2e firmware


def fail(msg):
    sys.exit("FAIL: " + msg)


def run(vp, args, expect_code=0):
    try:
        p = subprocess.run([vp] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    except subprocess.TimeoutExpired:
        fail(f"namp-vp did not end: {' '.join(args)}")
    if expect_code is not None and p.returncode != expect_code:
        fail(f"exit {p.returncode}, want {expect_code}: {' '.join(args)}\n{p.stderr.decode()}")
    return p


def load(path):
    try:
        with open(path) as f:
            doc = json.load(f)
    except ValueError as e:
        fail(f"{path} is not valid JSON: {e}")
    return doc["traceEvents"]


def tracks(events):
    procs = {e["pid"]: e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "process_name"}
    return {(e["pid"], e["tid"]): procs[e["pid"]] + "/" + e["args"]["name"]
            for e in events if e["ph"] == "M" and e["name"] == "thread_name"}


def check_nesting(events):
    by_track = {}
    for e in events:
        if e["ph"] == "X":
            by_track.setdefault((e["pid"], e["tid"]), []).append((e["ts"], e["ts"] + e["dur"], e["name"]))
    eps = 1e-6
    for key, slices in by_track.items():
        slices.sort(key=lambda s: (s[0], -s[1]))
        stack = []
        for s in slices:
            while stack and stack[-1][1] <= s[0] + eps:
                stack.pop()
            if stack and s[1] > stack[-1][1] + eps:
                fail(f"slices overlap without nesting on track {key}: {stack[-1]} and {s}")
            stack.append(s)
    return by_track


def namp(vp, fw, tmp):
    out = os.path.join(tmp, "t.json")
    run(vp, ["--preset", "bare", "--quiet", "--firmware", f"{fw}/mp_e2e_chan_namp_unbuf.elf", "--trace", out])
    size = os.path.getsize(out)
    ev = load(out)
    names = tracks(ev)
    for t in range(16):
        if f"tile {t}/core 0" not in names.values():
            fail(f"no track for tile {t} core 0: {sorted(names.values())}")
        for k in range(8):
            if f"tile {t}/namp slot {k}" not in names.values():
                fail(f"no track for tile {t} namp slot {k}")
        for k in range(4):
            if f"tile {t}/dma ctx {k}" not in names.values():
                fail(f"no track for tile {t} dma ctx {k}")
    by_track = check_nesting(ev)
    for key, name in names.items():
        if "/core " in name and not any(s[2] == "run" for s in by_track.get(key, [])):
            fail(f"track {name} has no run slice")
    # the sender's (tile 0) slots go through the channel fast path: DATA, DMA, FINALIZE slices;
    # its data engine shows transfers to tile 15
    slot_names = {s[2] for key, sl in by_track.items() if names[key].startswith("tile 0/namp slot") for s in sl}
    for want in ("ready", "data", "dma", "finalize", "done"):
        if want not in slot_names:
            fail(f"tile 0's slots have no '{want}' slice: {sorted(slot_names)}")
    dma_names = {s[2] for key, sl in by_track.items() if names[key].startswith("tile 0/dma ctx") for s in sl}
    if not any(n.endswith("-> tile 15") for n in dma_names):
        fail(f"tile 0's DMA contexts show no transfer to tile 15: {sorted(dma_names)[:5]}")
    counts = {}
    for e in ev:
        if e["ph"] == "X":
            counts[e["name"]] = counts.get(e["name"], 0) + 1
    # the NAMP completes transfers through its interrupt (MEIP, cause 11); cores sleep in wfi
    for want in ("run", "wfi", "irq 11"):
        if counts.get(want, 0) == 0:
            fail(f"no '{want}' slices: {counts}")
    # handlers end at mret: every interrupt slice closes before its core's run slice does
    for key, slices in by_track.items():
        if "/core " not in names[key]:
            continue
        run_end = max(s[1] for s in slices if s[2] == "run")
        late = [s for s in slices if s[2].startswith("irq") and s[1] >= run_end - 1e-6]
        if late:
            fail(f"interrupt slices not closed by mret on {names[key]}: {late[:3]}")
    uncategorized = [e for e in ev if e["ph"] != "M" and not e.get("cat")]
    if uncategorized:
        fail(f"{len(uncategorized)} events without a category, e.g. {uncategorized[:2]}")
    meta = [e for e in ev if e["name"] == "namp_vp_trace"]
    if not meta or meta[0]["args"]["truncated"]:
        fail("trace truncated or without its closing record")
    if size > SIZE_BOUND:
        fail(f"trace is {size} bytes, bound {SIZE_BOUND}")
    print(f"trace: {size} bytes, {len(ev)} events, {len(names)} tracks, slices {counts}")


def marks(vp, fw, tmp):
    out, stats = os.path.join(tmp, "t.json"), os.path.join(tmp, "s.json")
    run(vp, ["--preset", "bare", "--quiet", "--firmware", f"{fw}/namp_micro.elf", "--trace", out, "--stats", stats])
    ev = load(out)
    got = sorted((e["ts"], e["name"]) for e in ev if e["ph"] == "i" and e["name"].startswith("mark "))
    want = sorted((round(m["cycle"] * CYCLE_US, 6), "mark 0x%08x" % m["id"])
                  for m in json.load(open(stats))["marks"])
    if not want:
        fail("the firmware made no marks")
    if [(round(t, 6), n) for t, n in got] != want:
        fail(f"mark instants {got} differ from the statistics {want}")
    print(f"{len(got)} marks traced")


def window(vp, fw, tmp):
    out = os.path.join(tmp, "t.json")
    lo, hi = 100000, 300000
    run(vp, ["--preset", "bare", "--quiet", "--firmware", f"{fw}/mp_e2e_chan_namp_unbuf.elf", "--trace", out,
             "--trace-window", f"{lo}:{hi}"])
    ev = [e for e in load(out) if e["ph"] in "Xi"]
    if not ev:
        fail("nothing traced inside the window")
    for e in ev:
        end = e["ts"] + e.get("dur", 0)
        if e["ts"] < lo * CYCLE_US - 1e-6 or end > hi * CYCLE_US + 1e-6:
            fail(f"event outside the window: {e}")
    check_nesting(ev)
    print(f"{len(ev)} events inside the window")


def categories(vp, fw, tmp):
    out = os.path.join(tmp, "t.json")
    run(vp, ["--preset", "bare", "--quiet", "--firmware", f"{fw}/namp_micro.elf", "--trace", out,
             "--trace-categories", "marks"])
    ev = load(out)
    if any(e["ph"] == "X" for e in ev):
        fail("core slices traced although only marks were asked for")
    if not any(e["ph"] == "i" for e in ev):
        fail("no marks traced")
    print("only marks traced")


def noc(vp, fw, tmp):
    out, stats, default = (os.path.join(tmp, n) for n in ("t.json", "s.json", "d.json"))
    base = ["--preset", "bare", "--quiet", "--firmware", f"{fw}/mp_e2e_chan_namp_unbuf.elf"]
    run(vp, base + ["--trace", out, "--trace-categories", "noc", "--stats", stats])
    ev = load(out)
    begins = {e["id"]: e for e in ev if e["ph"] == "b"}
    ends = {e["id"]: e for e in ev if e["ph"] == "e"}
    delivered = json.load(open(stats))["noc"]["packets"]["delivered"]
    if not delivered or len(begins) != delivered or set(begins) != set(ends):
        fail(f"{len(begins)} packet slices ({len(ends)} ends) for {delivered} delivered packets")
    for i, b in begins.items():
        if ends[i]["ts"] < b["ts"] or not re.match(r"to tile \d+ ch \d \(\d+ flits\)$", b["name"]):
            fail(f"bad packet slice {b} / {ends[i]}")
    if any(e["ph"] == "X" for e in ev):
        fail("core slices traced with only noc asked for")
    counters = [e for e in ev if e["ph"] == "C" and e["name"] == "packets in flight"]
    if not counters or not any(e["args"]["value"] > 0 for e in counters):
        fail(f"no 'packets in flight' samples above zero ({len(counters)} samples)")
    # sampling must not change the simulation
    plain = os.path.join(tmp, "plain.json")
    run(vp, base + ["--stats", plain])
    if open(plain).read() != open(stats).read():
        fail("tracing the NoC changed the statistics")
    run(vp, base + ["--trace", default])
    if any(e["ph"] in "beC" for e in load(default)):
        fail("packets traced with the default categories")
    print(f"{delivered} packets traced")


def bad_input(vp, fw, tmp):
    elf = f"{fw}/namp_micro.elf"
    cases = [(["--trace", os.path.join(tmp, "t.json"), "--trace-categories", "cores,bogus"], "unknown trace category"),
             (["--trace", os.path.join(tmp, "no", "such", "dir.json")], "cannot write"),
             (["--trace", os.path.join(tmp, "t.json"), "--trace-window", "500:100"], "--trace-window"),
             (["--trace", os.path.join(tmp, "t.json"), "--trace-window", "x:"], "--trace-window"),
             (["--trace", ""], "--trace: the file name is empty"),
             (["--trace-categories", "cores"], "--trace-categories needs --trace"),
             (["--trace-window", "0:100"], "--trace-window needs --trace")]
    for args, message in cases:
        p = run(vp, ["--preset", "bare", "--firmware", elf] + args, expect_code=2)
        if message not in p.stderr.decode():
            fail(f"{args}: no '{message}' in {p.stderr.decode()!r}")
    print("bad trace options rejected")


def progress_tty(vp, fw, tmp):
    """On a terminal, console lines never share a line with the status line."""
    import pty
    master, slave = pty.openpty()
    p = subprocess.Popen([vp, "--preset", "smp", "--progress", "--firmware", f"{fw}/hello.elf"],
                         stdout=slave, stderr=slave, close_fds=True)
    os.close(slave)
    data = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        data += chunk
    if p.wait(timeout=60) != 0:
        fail("hello with --progress on a terminal failed")
    text = data.decode(errors="replace")
    if "MIPS" not in text or "\r" not in text:
        fail(f"no status line redrawn in place: {text[:300]!r}")
    # every console line starts a line: after a newline, or after the status line was erased
    for m in re.finditer(r"\[\d+,\d+:\d+\]", text):
        before = text[max(0, m.start() - 4):m.start()]
        if not (before.endswith("\n") or before.endswith("\r\x1b[K") or m.start() == 0):
            fail(f"a console line glued to other output: {text[max(0, m.start() - 80):m.end() + 20]!r}")
    print(f"{text.count('[')} console lines, none glued to the status line")


def progress(vp, fw, tmp):
    a, b = os.path.join(tmp, "a.json"), os.path.join(tmp, "b.json")
    base = ["--preset", "bare", "--quiet", "--firmware", f"{fw}/mp_e2e_chan_namp_unbuf.elf"]
    run(vp, base + ["--stats", a])
    p = run(vp, base + ["--stats", b, "--progress"])
    if not re.search(r"namp-vp: [0-9.]+ ms simulated \([0-9]+ cycles\), host [0-9.]+ s, [0-9.]+ MIPS",
                     p.stderr.decode()):
        fail(f"no status line: {p.stderr.decode()!r}")
    if open(a).read() != open(b).read():
        fail("--progress changed the statistics")
    # a hang still ends: neither the status line nor the NoC samples keep the kernel busy
    run(vp, ["--preset", "single", "--quiet", "--progress", "--firmware", f"{fw}/test_hang.elf"], expect_code=125)
    run(vp, ["--preset", "single", "--quiet", "--progress", "--trace", os.path.join(tmp, "h.json"),
             "--trace-categories", "all", "--firmware", f"{fw}/test_hang.elf"], expect_code=125)
    load(os.path.join(tmp, "h.json"))
    print("status line shown; statistics unchanged; hang still detected")


def main():
    mode, vp, fw = sys.argv[1:4]
    with tempfile.TemporaryDirectory() as tmp:
        {"namp": namp, "marks": marks, "window": window, "categories": categories, "noc": noc,
         "bad_input": bad_input, "progress": progress, "progress_tty": progress_tty}[mode](vp, fw, tmp)


if __name__ == "__main__":
    main()
