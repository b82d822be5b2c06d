#!/usr/bin/env python3
"""Reverse execution with gdb-multiarch (docs/debugging.md, "Reverse execution"). Every state
reached backwards is compared byte by byte with the same state reached forwards: `monitor state
FILE` writes every tile's memory and every core's registers, CSRs, counters and the simulated
time. Each mode asserts and exits non-zero on failure.

usage: reverse_test.py MODE VP FIRMWARE_DIR GDB [ENGINE]
  namp     a 4x4 NAMP run (preset bare, mp_e2e_chan_namp_unbuf; a checkpoint every 10^5 steps):
           forward to the 3rd, then the 7th hit of a breakpoint, reverse-continue 4 times: the 3rd
           hit again, the same state file; 12 stepi forward recording each pc and state, then 12
           reverse-stepi: the same pcs in reverse and the same state at the start; then the run
           goes on to its end: console output and statistics equal a run without GDB (nothing
           printed twice, nothing simulated differently), exit 0
  source   test_gdb (3x2, two cores per tile): reverse-next, reverse-step, reverse-finish land on
           the lines and frames of the forward run; reverse-continue to a watchpoint stops at the
           store that wrote it (old and new value swapped); to a breakpoint; "No more
           reverse-execution history" at the beginning; a register written by GDB stays written
           when the run goes back to that point (a barrier checkpoint)
  off      host.checkpoints=0: reverse-stepi is refused with a message, the session goes on
"""
import filecmp
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gdb_test import expect, fail, finish_vp, run_gdb, start_vp  # noqa: E402


def state(tmp, name):
    return os.path.join(tmp, name + ".state")


def same_state(a, b, what):
    if not os.path.exists(a) or not os.path.exists(b):
        fail(f"{what}: a state file is missing ({a}, {b})")
    if os.path.getsize(a) < 16 << 20:
        fail(f"{what}: the state file has {os.path.getsize(a)} bytes (16 tiles of 1 MiB expected)")
    if not filecmp.cmp(a, b, shallow=False):
        fail(f"{what}: the state reached backwards differs from the one reached forwards")


def pcs(text, tag):
    return [int(x, 16) for x in re.findall(rf"^{tag} (0x[0-9a-f]+)$", text, re.M)]


def namp(vp, fw, gdb, engine, tmp):
    elf = os.path.join(fw, "mp_e2e_chan_namp_unbuf.elf")
    base = ["--preset", "bare", "--set", f"core.engine={engine}"]
    plain_stats = os.path.join(tmp, "plain.json")
    p = subprocess.run([vp] + base + ["--firmware", elf, "--stats", plain_stats],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    if p.returncode != 0:
        fail(f"plain run: exit {p.returncode}")
    stats = os.path.join(tmp, "rev.json")
    proc, port, out, err = start_vp(vp, elf, ["--set", "host.checkpoint_interval=100000", "--stats",
                                              stats, "--gdb", "127.0.0.1:0", "--gdb-wait"], tmp, base)
    steps = 12
    cmds = ["break mcapi_pktchan_send", "continue", "continue", "continue",
            f"monitor state {state(tmp, 'hit3')}", "echo ==regs3==\\n", "info registers",
            "continue", "continue", "continue", "continue",
            f"monitor state {state(tmp, 'hit7')}",
            "reverse-continue", "reverse-continue", "reverse-continue", "reverse-continue",
            f"monitor state {state(tmp, 'back3')}", "echo ==regsback==\\n", "info registers",
            "echo ==end==\\n", "delete"]
    for i in range(steps):
        cmds += ["stepi", 'printf "FWD %#x\\n", $pc']
    cmds += [f"monitor state {state(tmp, 'stepped')}"]
    for i in range(steps):
        cmds += ["reverse-stepi", 'printf "REV %#x\\n", $pc']
    cmds += [f"monitor state {state(tmp, 'unstepped')}", "monitor checkpoints", "continue"]
    text = run_gdb(gdb, elf, port, cmds, proc)
    code, vp_out, vp_err = finish_vp(proc, out, err)
    hits = re.findall(r'Thread (\d+) "[^"]+" hit Breakpoint 1, mcapi_pktchan_send \(ep=[^,]+, '
                      r'buffer=buffer@entry=(0x[0-9a-f]+)', text)
    if len(hits) != 11 or hits[2] != hits[10]:
        fail(f"breakpoint hits forward and backward: {hits}")
    if [h[1] for h in hits[7:11]] != [hits[5][1], hits[4][1], hits[3][1], hits[2][1]]:
        fail(f"reverse-continue did not visit the hits in reverse order: {hits}")
    regs3 = text.split("==regs3==")[1].split("Thread")[0]
    regsback = text.split("==regsback==")[1].split("==end==")[0]
    if regs3.strip() != regsback.strip() or "pc" not in regs3:
        fail(f"registers at the 3rd hit differ:\n{regs3}\n---\n{regsback}")
    same_state(state(tmp, "hit3"), state(tmp, "back3"), "the 3rd hit")
    fwd = [int(x, 16) for x in re.findall(r"FWD (0x[0-9a-f]+)", text)]
    rev = [int(x, 16) for x in re.findall(r"REV (0x[0-9a-f]+)", text)]
    start = int(re.search(r"^pc\s+(0x[0-9a-f]+)", regs3, re.M).group(1), 16)
    if len(fwd) != steps or len(rev) != steps or rev != ([start] + fwd[:-1])[::-1]:
        fail(f"stepi forward {[hex(x) for x in fwd]}, reverse-stepi {[hex(x) for x in rev]}")
    same_state(state(tmp, "hit3"), state(tmp, "unstepped"), f"{steps} stepi and as many reverse-stepi")
    if filecmp.cmp(state(tmp, "hit3"), state(tmp, "stepped"), shallow=False):
        fail("stepi changed nothing (the comparison would not see a difference)")
    expect(text, [r"exited normally", r"periodic"], "reverse namp")
    plain_out = p.stdout.decode()
    if code != 0 or vp_out != plain_out:
        fail(f"exit {code}; console after going back:\n{vp_out}\nwithout GDB:\n{plain_out}")
    if json.load(open(stats)) != json.load(open(plain_stats)):
        fail("the statistics of the run with reverse execution differ from a run without GDB")
    print(f"{engine}: 4 reverse-continue and {steps} reverse-stepi on a 4x4 NAMP run: the same "
          "states byte for byte; output and statistics as without GDB")


def source(vp, fw, gdb, tmp):
    elf = os.path.join(fw, "test_gdb.elf")
    proc, port, out, err = start_vp(vp, elf, ["--gdb", "127.0.0.1:0", "--gdb-wait"], tmp)
    text = run_gdb(gdb, elf, port, [
        "reverse-stepi",                                # at the very beginning
        "break gdb_target", "continue", "next", "next", "print local",
        "echo ==rnext==\\n", "reverse-next", "reverse-next", "frame",
        "echo ==rfinish==\\n", "reverse-finish", "frame", "x/i $pc",
        "echo ==rstep==\\n", "step", "reverse-step", "frame",
        "watch gdb_shared", "continue", "continue", "echo ==rwatch==\\n", "reverse-continue",
        "print/x $pc", "x/i $pc", "print gdb_shared",
        "echo ==rbreak==\\n", "reverse-continue",
        "echo ==write==\\n", "set var $a2 = 0x1234", "delete", "stepi", "stepi", "reverse-stepi",
        "reverse-stepi", "print/x $a2",
        "echo ==begin==\\n", "delete", "reverse-continue", "reverse-continue",
        "monitor where", "continue"], proc)
    code, _, vp_err = finish_vp(proc, out, err)
    expect(text, [r"No more reverse-execution history"], "the beginning")
    rnext = text.split("==rnext==")[1].split("==rfinish==")[0]
    expect(rnext, [r"gdb_target \(n=.*13\) at .*test_gdb\.c:18"], "reverse-next")
    rfinish = text.split("==rfinish==")[1].split("==rstep==")[0]
    expect(rfinish, [r"#0 .* in main \(\) at .*test_gdb\.c:\d+", r"\s(jal|call)\s.*<gdb_target>"],
           "reverse-finish: at the call in main")
    rstep = text.split("==rstep==")[1].split("Hardware watchpoint")[0]
    expect(rstep, [r"main \(\) at .*test_gdb\.c:\d+"], "reverse-step")
    rwatch = text.split("==rwatch==")[1].split("==rbreak==")[0]
    expect(rwatch, [r'Thread 6 "tile 2 core 1" hit Hardware watchpoint 2: gdb_shared',
                    r"Old value = 23130\s+New value = 0", r"\ssw\s", r"^\$\d+ = 0$"], "reverse watch")
    rbreak = text.split("==rbreak==")[1].split("==write==")[0]
    expect(rbreak, [r'Thread 11 "tile 5 core 0" hit Breakpoint 1, gdb_target'], "reverse to a breakpoint")
    write = text.split("==write==")[1].split("==begin==")[0]
    expect(write, [r"^\$\d+ = 0x1234$"], "a written register after going back to its write")
    begin = text.split("==begin==")[1]
    expect(begin, [r"No more reverse-execution history", r"^thread\s+tile\s+core\s+state\s+pc\s+function"],
           "back to the beginning")
    expect(text, [r"exited normally"], "reverse source")
    if code != 0:
        fail(f"namp-vp exit code {code}:\n{vp_err}")
    print("reverse-next, -step, -finish, a watchpoint and a breakpoint backwards; a written register "
          "kept; the beginning of the history")


def off(vp, fw, gdb, tmp):
    elf = os.path.join(fw, "test_gdb.elf")
    proc, port, out, err = start_vp(vp, elf, ["--set", "host.checkpoints=0", "--gdb", "127.0.0.1:0",
                                              "--gdb-wait"], tmp)
    text = run_gdb(gdb, elf, port, ["break gdb_target", "continue", "reverse-stepi", "print/x $pc",
                                    "monitor checkpoints", "delete", "continue"], proc)
    code, _, vp_err = finish_vp(proc, out, err)
    expect(text, [r"reverse execution is off \(host.checkpoints is 0", r"exited normally"], "off")
    if code != 0:
        fail(f"namp-vp exit code {code}:\n{vp_err}")
    print("reverse execution off: refused with a reason, the session went on")


def main():
    mode, vp, fw, gdb = sys.argv[1:5]
    engine = sys.argv[5] if len(sys.argv) > 5 else "jit"
    with tempfile.TemporaryDirectory() as tmp:
        if mode == "namp":
            namp(vp, fw, gdb, engine, tmp)
        elif mode == "source":
            source(vp, fw, gdb, tmp)
        elif mode == "off":
            off(vp, fw, gdb, tmp)
        else:
            fail("unknown mode " + mode)


if __name__ == "__main__":
    main()
