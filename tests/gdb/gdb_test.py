#!/usr/bin/env python3
"""GDB tests of namp-vp (docs/debugging.md). Each mode asserts and exits non-zero on failure.

usage: gdb_test.py MODE VP ELF [GDB]
  session      gdb-multiarch in batch mode: break on tile 5, step, read a local and CSRs, a
               watchpoint that fires on another core, continue to exit code 0
  detach       GDB connects and detaches at once: console and statistics equal a run without GDB
  garbage      raw protocol abuse (bad checksums, garbage, unknown and malformed packets): error
               replies, then a clean detach and exit 0
  port_in_use  --gdb on a port that is taken: exit 2 with a message
  unreachable  --gdb on an address of no local interface, a malformed address, --gdb-wait alone:
               exit 2 with a message
  interrupt    connect to a running platform (no --gdb-wait), continue, Ctrl-C stops it with
               SIGINT, kill ends the run with exit code 137
  sched_lock   test_smp on preset smp: the scheduler-locking sequence of issue 22 (break, lock,
               select another thread, stepi: the step returns, the held threads' pcs stay), then a
               core stepped through _exit with the others held (the exit is reported, the run
               goes on), a step of that exited core (answered at once), and a normal end
  held_time    cores held while another runs alone: after a detach, the summary's exit cycle
               and the simulated cycles agree (held time counts as the cores' stall cycles)
  reset_quit   monitor reset (the breakpoint at main hits again, the pc is the entry, the run
               ends normally), monitor cores as a table, then monitor quit (exit 0, connection closed)
  second       a second client is refused with an error reply while the first goes on
  input_bound  megabytes of an unterminated packet while the target runs: memory stays bounded,
               Ctrl-C still stops the target
  sched_lock_wfi  test_smp: with scheduler-locking on, stepping core 1 into the wfi that waits for
               the held core 0's IPI: GDB gets a stop at once (the simulation is out of events),
               not a hang
  watch_tiles  a watchpoint on a global every core writes (the same value, each into its tile's
               copy): one stop per tile, each naming its thread and tile (issue 35)
  sched_lock_recv  test_mpi_ring (preset smp): `next` over a blocking MPI_Recv of the last rank
               with scheduler-locking on (it waits with timed sleeps for a held rank): GDB gets a
               stop with a line saying why after the hold limit, not a session that never returns;
               a core that sleeps with nothing to wake it (starved) the same at once; then the run
               ends normally (issue 35)
Every network wait has a timeout; ports are chosen by the system (--gdb 127.0.0.1:0).
"""
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time

TIMEOUT = int(os.environ.get("GDB_TEST_TIMEOUT", "120"))
MESH = ["--set", "mesh.width=3", "--set", "mesh.height=2", "--set", "tile.cores=2"]


def fail(msg):
    sys.exit("FAIL: " + msg)


def start_vp(vp, elf, extra, tmp, mesh=MESH):
    # The simulator writes through its own open files; the test reads through others. One shared
    # file (w+) would share the offset too: a seek to read moved where the simulator's next line
    # went, and a line could land over another (seen under load: a lost "listening" line).
    with open(os.path.join(tmp, "vp.err"), "w") as err_w, open(os.path.join(tmp, "vp.out"), "w") as out_w:
        proc = subprocess.Popen([vp] + mesh + ["--firmware", elf] + extra, stdout=out_w, stderr=err_w)
    err = open(os.path.join(tmp, "vp.err"))
    out = open(os.path.join(tmp, "vp.out"))
    deadline = time.time() + 30
    while time.time() < deadline:
        err.seek(0)
        m = re.search(r"gdb server listening on 127\.0\.0\.1:(\d+)", err.read())
        if m:
            return proc, int(m.group(1)), out, err
        if proc.poll() is not None:
            break
        time.sleep(0.05)
    proc.kill()
    err.seek(0)
    fail("namp-vp did not report a gdb port:\n" + err.read())


def finish_vp(proc, out, err):
    try:
        code = proc.wait(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        proc.kill()
        fail("namp-vp did not finish")
    out.seek(0)
    err.seek(0)
    return code, out.read(), err.read()


def expect(text, patterns, what):
    for p in patterns:
        if not re.search(p, text, re.M):
            fail(f"{what}: no match for /{p}/ in:\n{text}")


def run_gdb(gdb, elf, port, cmds, proc):
    args = [gdb, "-batch", "-nx", "-ex", "set pagination off", "-ex", "set confirm off",
            "-ex", f"file {elf}", "-ex", f"target remote 127.0.0.1:{port}"]
    args += [x for c in cmds for x in ("-ex", c)]
    try:
        g = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        proc.kill()
        fail("gdb did not finish (a step or continue never returned)")
    text = g.stdout.decode(errors="replace")
    print(text)
    return text


def session(vp, elf, gdb, tmp):
    proc, port, out, err = start_vp(vp, elf, ["--gdb", "127.0.0.1:0", "--gdb-wait"], tmp)
    cmds = ["info threads",
            "break gdb_target", "continue",
            "thread",
            "next", "print local", "print $mhartid", "print/x $mtvec", "print/x $pc",
            "stepi", "print/x $pc",
            "watch gdb_shared", "continue",
            "thread", "print gdb_shared", "print $priv",
            "monitor cores",
            "delete", "continue"]
    text = run_gdb(gdb, elf, port, cmds, proc)
    code, _, vp_err = finish_vp(proc, out, err)
    expect(text, [
        r'Thread 12 "tile 5 core 1"',                               # every core is a thread
        r'Thread 11 "tile 5 core 0" hit Breakpoint 1, gdb_target \(n=.*13\)',
        r'\[Current thread is 11 ',
        r'^\$1 = 40$',                                              # the local after one step
        r'^\$2 = 0$',                                               # mhartid of core 0
        r'^\$3 = 0x8',                                              # mtvec points into the SRAM
        r'Thread 6 "tile 2 core 1" hit Hardware watchpoint 2: gdb_shared',
        r'Old value = 0\s+New value = 23130',
        r'\[Current thread is 6 ',
        r'^\$7 = 3$',                                            # priv: machine mode
        r"^\s+11\s+5\s+0\s+exited \(0\)",                           # monitor output
        r'exited normally',
    ], "gdb session")
    pcs = [int(x, 16) for x in re.findall(r'^\$[45] = (0x[0-9a-f]+)$', text, re.M)]
    if len(pcs) != 2 or not 2 <= pcs[1] - pcs[0] <= 4:
        fail(f"stepi did not advance the pc by one instruction: {pcs}")
    if code != 0:
        fail(f"namp-vp exit code {code}:\n{vp_err}")


def run_plain(vp, elf, tmp):
    stats = os.path.join(tmp, "plain.json")
    p = subprocess.run([vp] + MESH + ["--firmware", elf, "--stats", stats], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=TIMEOUT)
    return p.returncode, p.stdout.decode(), json.load(open(stats))


class Raw:
    """A minimal RSP client for the abuse test."""

    def __init__(self, port):
        self.s = socket.create_connection(("127.0.0.1", port), timeout=20)
        self.buf = b""

    def send(self, raw):
        self.s.sendall(raw)

    def packet(self, payload):
        body = payload.encode()
        self.send(b"$" + body + b"#%02x" % (sum(body) & 0xFF))

    def read_until(self, pred):
        while True:
            r = pred(self.buf)
            if r is not None:
                return r
            chunk = self.s.recv(4096)
            if not chunk:
                fail("server closed the connection")
            self.buf += chunk

    def reply(self):
        def get(buf):
            m = re.search(rb"\$([^#]*)#[0-9a-f]{2}", buf)
            if m:
                self.buf = buf[m.end():]
                return m.group(1).decode()
            return None
        return self.read_until(get)

    def ack(self):
        def get(buf):
            for i, c in enumerate(buf):
                if c in b"+-":
                    self.buf = buf[i + 1:]
                    return chr(c)
            return None
        return self.read_until(get)


def detach(vp, elf, gdb, tmp):
    code0, out0, stats0 = run_plain(vp, elf, tmp)
    stats = os.path.join(tmp, "gdb.json")
    proc, port, out, err = start_vp(vp, elf, ["--gdb", "127.0.0.1:0", "--gdb-wait",
                                              "--stats", stats], tmp)
    args = [gdb, "-batch", "-nx", "-ex", f"file {elf}", "-ex", f"target remote 127.0.0.1:{port}",
            "-ex", "detach"]
    g = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=TIMEOUT)
    text = g.stdout.decode(errors="replace")
    code, out1, vp_err = finish_vp(proc, out, err)
    print(text)
    expect(text, [r"Inferior 1 \(Remote target\) detached"], "gdb detach")
    if code != 0 or code0 != 0:
        fail(f"exit codes {code0} (plain) and {code} (detached):\n{vp_err}")
    if out1 != out0:
        fail("console output differs after a detach")
    if json.load(open(stats)) != stats0:
        fail("statistics differ after a detach")
    print("detached run identical to the plain run")


def garbage(vp, elf, gdb, tmp):
    proc, port, out, err = start_vp(vp, elf, ["--gdb", "127.0.0.1:0", "--gdb-wait"], tmp)
    c = Raw(port)
    c.send(b"\x00\xffhello world+++---")          # noise outside packets is ignored
    c.send(b"$g#00")                               # bad checksum: NAK
    if c.ack() != "-":
        fail("no NAK for a bad checksum")
    checks = [("qThisDoesNotExist", lambda r: r == ""),
              ("m80000000", lambda r: r.startswith("E")),       # no length
              ("mzz,4", lambda r: r.startswith("E")),
              ("m0,4", lambda r: r.startswith("E")),            # unmapped memory
              ("Hg99", lambda r: r.startswith("E")),            # no such thread
              ("Z9,0,0", lambda r: r == ""),
              ("Z2,80000000,0", lambda r: r.startswith("E")),
              ("P1=zz", lambda r: r.startswith("E")),
              ("vCont;x", lambda r: r.startswith("E")),
              ("vCont;c:99", lambda r: r.startswith("E")),       # no such thread
              ("qXfer:features:read:nothere.xml:0,100", lambda r: r.startswith("E")),
              ("m80000000,4", lambda r: re.fullmatch(r"[0-9a-f]{8}", r) is not None),
              ("?", lambda r: r.startswith("T05thread:")),
              ("qRcmd," + b"bogus".hex(), lambda r: r.startswith("O"))]
    # every command letter cut short, and a few more malformed ones: some reply, no crash
    for pkt in ["H", "Hg", "Hc", "Hx1", "p", "pzz", "P", "P1", "P1=", "m", "m,", "M", "M1,1", "M1,1:zz",
                "X", "X1,2:a", "Z", "Z0", "z0,", "Z2,1", "T", "Tzz", "G", "G00", "qXfer:",
                "qXfer:features:read:target.xml:zz", "qRcmd,", "qRcmd,zz", "qThreadExtraInfo,",
                "qThreadExtraInfo,ffff", "vCont;c:zz;q", "v", "q", "Q", "\x7f\x01"]:
        checks.append((pkt, lambda r: True))
    for pkt, ok in checks:
        c.packet(pkt)
        if c.ack() != "+":
            fail(f"no ack for {pkt}")
        r = c.reply()
        if not ok(r):
            fail(f"unexpected reply {r!r} to {pkt}")
    c.send(b"$" + b"A" * 70000)                   # an endless packet is dropped
    c.packet("D")
    while c.reply() != "OK":
        pass
    code, _, vp_err = finish_vp(proc, out, err)
    if code != 0:
        fail(f"namp-vp exit code {code} after garbage:\n{vp_err}")
    print("garbage answered with errors; run completed")


def interrupt(vp, elf, gdb, tmp):
    spin = os.path.join(os.path.dirname(elf), "test_watchdog.elf")  # spins until the watchdog
    with open(os.path.join(tmp, "vp.err"), "w") as err_w:   # its own offset: see start_vp
        proc = subprocess.Popen([vp, "--preset", "single", "--max-cycles", "2000000000", "--firmware",
                                 spin, "--gdb", "127.0.0.1:0"], stdout=subprocess.DEVNULL, stderr=err_w)
    err = open(os.path.join(tmp, "vp.err"))
    port = None
    for _ in range(600):
        err.seek(0)
        m = re.search(r"listening on 127\.0\.0\.1:(\d+)", err.read())
        if m:
            port = int(m.group(1))
            break
        time.sleep(0.05)
    if port is None:
        proc.kill()
        fail("no gdb port")
    c = Raw(port)
    c.packet("?")                      # the platform stopped when we connected
    if not c.reply().startswith("T05thread:1;"):
        fail("no stop reply after connecting to a running platform")
    c.packet("qRcmd," + b"cores".hex())
    out = ""
    while True:
        r = c.reply()
        if r == "OK":
            break
        out += bytes.fromhex(r[1:]).decode()
    if not re.search(r"^\s+1\s+0\s+0\s+stopped", out, re.M):
        fail(f"monitor cores: {out!r}")
    for cmd, want in (("na 0", "register_accesses  "), ("na 0 json", '"register_accesses"'),
                      ("tile 0", "core  state"), ("tile 0 json", '"cores"'), ("na 7", "no tile 7"),
                      ("stats", "tile  x,y"), ("stats json", '"simulation"')):
        c.packet("qRcmd," + cmd.encode().hex())
        text = ""
        while True:
            r = c.reply()
            if r == "OK":
                break
            text += bytes.fromhex(r[1:]).decode()
        if want not in text:
            fail(f"monitor {cmd}: no {want} in {text[:300]!r}")
    c.packet("vCont;c")
    time.sleep(0.3)
    c.send(b"\x03")
    r = c.reply()
    if not r.startswith("T02thread:1;"):
        fail(f"no SIGINT stop after Ctrl-C: {r!r}")
    c.packet("vKill;1")
    if c.reply() != "OK":
        fail("vKill not acknowledged")
    try:
        code = proc.wait(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        proc.kill()
        fail("namp-vp did not end after kill")
    err.seek(0)
    text = err.read()
    if code != 137 or "killed by the debugger" not in text:
        fail(f"exit {code} after kill:\n{text}")
    print("connected mid-run, interrupted, killed (137)")


SMP = ["--preset", "smp"]


def thread_pcs(block):
    """{thread: pc} from the output of `thread apply all p/x $pc`."""
    pcs = {}
    for m in re.finditer(r'^Thread (\d+) .*\n\$\d+ = (0x[0-9a-f]+)', block, re.M):
        pcs[int(m.group(1))] = int(m.group(2), 16)
    return pcs


def sched_lock(vp, elf, gdb, tmp):
    proc, port, out, err = start_vp(vp, elf, ["--gdb", "127.0.0.1:0", "--gdb-wait"], tmp, SMP)
    text = run_gdb(gdb, elf, port, [
        "break test_smp.c:62", "continue",
        "set scheduler-locking on", "thread 3",
        "echo ==before==\\n", "thread apply all p/x $pc", "echo ==step==\\n",
        "stepi",
        "echo ==after==\\n", "thread apply all p/x $pc", "echo ==exit==\\n",
        "delete", "set scheduler-locking off", "break _exit", "continue",
        "set scheduler-locking on", "delete",
        "stepi", "stepi", "stepi", "stepi", "stepi", "stepi",
        "echo ==exited==\\n", "monitor cores", "stepi", "echo ==end==\\n",
        "set scheduler-locking off", "continue"], proc)
    code, vp_out, vp_err = finish_vp(proc, out, err)
    before = thread_pcs(text.split("==before==")[1].split("==step==")[0])
    after = thread_pcs(text.split("==after==")[1].split("==exit==")[0])
    if len(before) != 16 or set(before) != set(after):
        fail(f"thread pcs not read for all 16 threads: {before} {after}")
    moved = [t for t in before if before[t] != after[t]]
    if moved != [3]:
        fail(f"stepi of thread 3 with scheduler-locking moved threads {moved} (want [3])")
    step = text.split("==step==")[1].split("==after==")[0]
    if "Switching to Thread" in step:
        fail(f"another thread reported the stop of the step:\n{step}")
    exited = text.split("==exit==")[1].split("==exited==")[0]
    m = re.search(r"namp-vp: thread (\d+) \(tile \d+ core \d+\) exited with code 0; the other "
                  r"threads are held", exited)
    if not m:
        fail("stepping a core through _exit did not report its exit")
    who = m.group(1)
    table = text.split("==exited==")[1].split("==end==")[0]
    if not re.search(rf"^\s*{who}\s+\d+\s+\d+\s+exited \(0\)", table, re.M):
        fail(f"monitor cores does not show thread {who} as exited:\n{table}")
    if not re.search(rf"thread {who} .* has exited: it does not run", table):
        fail("a step of the exited core was not answered at once with a notice")
    expect(text, [r"exited normally"], "sched_lock")
    if code != 0 or "smp ok" not in vp_out:
        fail(f"namp-vp exit code {code}:\n{vp_err}")
    print("scheduler-locking held every other thread; the exited core was reported; run ended 0")


def held_time(vp, elf, gdb, tmp):
    proc, port, out, err = start_vp(vp, elf, ["--gdb", "127.0.0.1:0", "--gdb-wait"], tmp)
    run_gdb(gdb, elf, port, [
        "break gdb_target", "continue", "set scheduler-locking on", "delete",
        "watch gdb_shared", "thread 6", "continue", "delete", "detach"], proc)
    code, _, vp_err = finish_vp(proc, out, err)
    exit_cycle = re.search(r"all cores exited at cycle (\d+)", vp_err)
    simulated = re.search(r"namp-vp: (\d+) cycles simulated", vp_err)
    if code != 0 or not exit_cycle or not simulated:
        fail(f"exit {code}, summary:\n{vp_err}")
    x, y = int(exit_cycle.group(1)), int(simulated.group(1))
    if y < 50000 or abs(y - x) > 2000:  # thread 6 ran ~100k cycles alone; a quantum is 1000
        fail(f"summary inconsistent: last exit at cycle {x}, {y} cycles simulated")
    print(f"last exit at cycle {x}, {y} cycles simulated")


def reset_quit(vp, elf, gdb, tmp):
    proc, port, out, err = start_vp(vp, elf, ["--gdb", "127.0.0.1:0", "--gdb-wait"], tmp, SMP)
    text = run_gdb(gdb, elf, port, [
        "break main", "continue", "monitor cores", "monitor reset",
        "maintenance flush register-cache", "thread 1", "print/x $pc", "print/x &_start",
        "continue", "delete", "monitor stats", "monitor tile 0", "monitor na 0", "continue"], proc)
    code, vp_out, vp_err = finish_vp(proc, out, err)
    pcs = re.findall(r'^\$[12] = (0x[0-9a-f]+)', text, re.M)
    if len(pcs) != 2 or pcs[0] != pcs[1]:
        fail(f"after monitor reset thread 1 is not at _start: {pcs}")
    if len(re.findall(r"hit Breakpoint 1, main", text)) != 2:
        fail("the breakpoint at main did not hit again after monitor reset")
    expect(text, [r"^thread\s+tile\s+core\s+state\s+resume\s+pc\s+cycles\s+instret",
                  r"^\s+1\s+0\s+0\s+stopped", r"platform reset: every core restarts",
                  r"^tile\s+x,y\s+cores\s+exited\s+instret", r"^core\s+state\s+exit\s+cycles",
                  r"exited normally"], "monitor reset")
    if code != 0 or vp_out.count("smp ok") != 4:
        fail(f"exit {code} after reset, output:\n{vp_out}\n{vp_err}")
    # monitor quit: the run ends at once with 0 and GDB loses the connection
    proc, port, out, err = start_vp(vp, elf, ["--gdb", "127.0.0.1:0", "--gdb-wait"], tmp, SMP)
    text = run_gdb(gdb, elf, port, ["monitor quit", "info registers pc"], proc)
    code, _, vp_err = finish_vp(proc, out, err)
    expect(text, [r"the run ends now", r"Remote connection closed|Target disconnected|not being run"],
           "monitor quit")
    if code != 0 or "ended by the debugger (monitor quit)" not in vp_err:
        fail(f"monitor quit: exit {code}:\n{vp_err}")
    print("monitor reset restarted the run; monitor quit ended it with 0")


def second(vp, elf, gdb, tmp):
    proc, port, out, err = start_vp(vp, elf, ["--gdb", "127.0.0.1:0", "--gdb-wait"], tmp)
    first = Raw(port)
    first.packet("?")
    first.ack()
    if not first.reply().startswith("T05"):
        fail("first client: no stop reply")
    other = Raw(port)
    other.packet("qSupported:multiprocess+")
    r = other.reply()
    if not r.startswith("E.namp-vp: another GDB is already connected"):
        fail(f"second client: reply {r!r}")
    if other.s.recv(100) != b"":
        fail("second client: the connection stays open")
    first.packet("qC")
    first.ack()
    if not first.reply().startswith("QC"):
        fail("first client lost its session")
    first.packet("D")
    while first.reply() != "OK":
        pass
    code, _, vp_err = finish_vp(proc, out, err)
    if code != 0 or "refused a second connection" not in vp_err:
        fail(f"exit {code}:\n{vp_err}")
    print("second client refused; first detached normally")


def watch_tiles(vp, elf, gdb, tmp):
    proc, port, out, err = start_vp(vp, elf, ["--gdb", "127.0.0.1:0", "--gdb-wait"], tmp)
    text = run_gdb(gdb, elf, port, ["watch gdb_every"] + ["continue"] * 7, proc)
    code, _, vp_err = finish_vp(proc, out, err)
    stops = re.findall(r'Thread \d+ "tile (\d+) core \d+" hit Hardware watchpoint 1: gdb_every', text)
    others = re.findall(r"namp-vp: thread \d+ \(tile (\d+) core \d+\) wrote 4 bytes at 0x[0-9a-f]+ "
                        r"\(write watchpoint at 0x[0-9a-f]+, 4 bytes\): tile \d+'s copy 0x00000000 -> "
                        r"0x00000007", text)
    signals = re.findall(r'Thread \d+ "tile (\d+) core \d+" received signal SIGTRAP', text)
    tiles = stops + others
    if sorted(tiles) != [str(t) for t in range(6)] or sorted(signals) != sorted(others):
        fail(f"one stop per tile wanted: watchpoint stops in tiles {stops}, named writes in {others}, "
             f"SIGTRAP stops in {signals}")
    if "Old value = 0" not in text or "New value = 7" not in text:
        fail("the first stop does not show the tile's old and new value")
    expect(text, [r"exited normally"], "watch_tiles")
    if code != 0:
        fail(f"namp-vp exit code {code}:\n{vp_err}")
    print(f"one stop per tile: {len(stops)} as watchpoint hits, {len(others)} with a line naming the tile")


def sched_lock_recv(vp, elf, gdb, tmp):
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "sw", "examples",
                       "sdk_mpi", "main.c")
    line = next(i + 1 for i, t in enumerate(open(src)) if "MPI_Recv" in t and "rank - 1" in t)
    proc, port, out, err = start_vp(vp, elf, ["--gdb", "127.0.0.1:0", "--gdb-wait"], tmp, SMP)
    text = run_gdb(gdb, elf, port, [
        f"break main.c:{line} thread 16", "continue", "set scheduler-locking on", "next",
        "echo ==after==\\n", "info threads", "set scheduler-locking off", "delete", "continue"], proc)
    code, vp_out, vp_err = finish_vp(proc, out, err)
    expect(text, [r'Thread 16 "tile 3 core 3" hit Breakpoint 1',
                  r"namp-vp: thread 16 \(tile 3 core 3\) ran \d+ cycles without reaching a stop while "
                  r"the other threads are held \(scheduler-locking\)",
                  r'Thread 16 "tile 3 core 3" received signal SIGTRAP',
                  r"exited normally"], "sched_lock_recv")
    if "==after==" not in text:
        fail("the session did not go on after the step")
    if code != 0 or "sdk_mpi: 16 ranks, ring token 120" not in vp_out or "hang" in vp_err:
        fail(f"namp-vp exit code {code}:\n{vp_out}\n{vp_err}")
    print("a scheduler-locked step over a blocking MPI_Recv stopped with a reason; the run ended 0")


def sched_lock_wfi(vp, elf, gdb, tmp):
    # the wfi of ipi_receiver's loop (inlined into main), found after the store of ipi_ready
    dump = subprocess.run(["riscv64-unknown-elf-objdump", "-d", elf], stdout=subprocess.PIPE).stdout.decode()
    after = dump[dump.index("<ipi_ready>"):]
    wfi = re.search(r"^\s*([0-9a-f]+):\s+10500073\s+wfi", after, re.M).group(1)
    proc, port, out, err = start_vp(vp, elf, ["--gdb", "127.0.0.1:0", "--gdb-wait"], tmp, SMP)
    text = run_gdb(gdb, elf, port, [
        f"break *0x{wfi} thread 2", "continue", "set scheduler-locking on", "delete",
        "stepi", "stepi", "echo ==after==\\n", "set scheduler-locking off", "delete",
        "continue"], proc)
    code, vp_out, vp_err = finish_vp(proc, out, err)
    expect(text, [r'Thread 2 "tile 0 core 1" hit Breakpoint 1',
                  r"namp-vp: thread 2 \(tile 0 core 1\) sleeps in wfi and no thread that runs can wake "
                  r"it: the others are held \(scheduler-locking\)",
                  r"==after==", r"exited normally"], "sched_lock_wfi")
    if code != 0 or "smp ok" not in vp_out or "hang" in vp_err:
        fail(f"namp-vp exit code {code}:\n{vp_out}\n{vp_err}")
    print("a scheduler-locked step into a wfi nothing can end stopped with a reason; the run ended 0")


def rss_kib(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def input_bound(vp, elf, gdb, tmp):
    spin = os.path.join(os.path.dirname(elf), "test_watchdog.elf")
    proc, port, out, err = start_vp(vp, spin, ["--max-cycles", "100000000000", "--gdb",
                                               "127.0.0.1:0", "--gdb-wait"], tmp, ["--preset", "single"])
    c = Raw(port)
    c.packet("vCont;c")
    c.ack()
    time.sleep(0.2)
    base = rss_kib(proc.pid)
    c.send(b"$")
    chunk = b"A" * 65536
    for _ in range(256):  # 16 MiB without '#'
        c.send(chunk)
    time.sleep(0.5)
    grown = rss_kib(proc.pid) - base
    c.send(b"\x03")
    r = c.reply()
    if not r.startswith("T02"):
        fail(f"no SIGINT stop after the stream: {r!r}")
    if grown > 4096:
        fail(f"memory grew by {grown} KiB while 16 MiB of packet bytes arrived")
    c.packet("vKill;1")
    c.reply()
    code, _, _ = finish_vp(proc, out, err)
    if code != 137:
        fail(f"exit {code} after vKill")
    print(f"16 MiB of an unterminated packet: memory grew {grown} KiB; Ctrl-C still stopped")


def bad_address(vp, elf, address, tmp):
    p = subprocess.run([vp] + MESH + ["--firmware", elf, "--gdb", address], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=60)
    text = p.stderr.decode()
    print(text)
    if p.returncode != 2 or "cannot listen on" not in text:
        fail(f"--gdb {address}: exit {p.returncode}, want 2 and a message")


def main():
    mode, vp, elf = sys.argv[1:4]
    gdb = sys.argv[4] if len(sys.argv) > 4 else "gdb-multiarch"
    with tempfile.TemporaryDirectory() as tmp:
        if mode == "session":
            session(vp, elf, gdb, tmp)
        elif mode == "detach":
            detach(vp, elf, gdb, tmp)
        elif mode == "garbage":
            garbage(vp, elf, gdb, tmp)
        elif mode == "port_in_use":
            s = socket.socket()
            s.bind(("127.0.0.1", 0))
            s.listen(1)
            bad_address(vp, elf, f"127.0.0.1:{s.getsockname()[1]}", tmp)
        elif mode == "interrupt":
            interrupt(vp, elf, gdb, tmp)
        elif mode in ("sched_lock", "held_time", "reset_quit", "second", "input_bound", "watch_tiles",
                      "sched_lock_recv", "sched_lock_wfi"):
            globals()[mode](vp, elf, gdb, tmp)
        elif mode == "unreachable":
            bad_address(vp, elf, "192.0.2.1:0", tmp)  # TEST-NET-1: on no interface of this host
            for bad in (["--gdb", "localhost:x"], ["--gdb", "99999"], ["--gdb-wait"]):
                p = subprocess.run([vp] + MESH + ["--firmware", elf] + bad, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, timeout=60)
                if p.returncode != 2 or "--gdb" not in p.stderr.decode():
                    fail(f"{bad}: exit {p.returncode}, want 2 and a message: {p.stderr.decode()!r}")
        else:
            fail("unknown mode " + mode)


if __name__ == "__main__":
    main()
