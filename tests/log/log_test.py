#!/usr/bin/env python3
"""Tests of the instruction and event log (docs/logging.md). Each mode asserts and exits non-zero.

usage: log_test.py MODE VP FIRMWARE_DIR
  insn      --log insn on hello (preset smp): every line is "cycle tN cM insn pc bits text", the
            disassembly agrees with the toolchain's objdump on the first instructions, and
            --log-tiles/--log-cores keep only those cores
  filters   --log-range and --log-window keep only pcs and cycles inside them; --log-limit bounds
            the file and ends it with one line saying so
  events    trap, irq and mmio on test_timer_irq (interrupts, device accesses), namp on namp_micro
  bad       malformed filter values: exit 2 with a message naming the option
  commit    --log commit on the commit probe (sw/tests/commit_probe): every line in Spike's
            --log-commits format (its printf formats); scripts/commit-diff finds it identical to
            QEMU running the same image (registers and CSRs per instruction), stops at the first
            difference of an altered copy, and reads the bare Spike lines of the same log
  cost      outside its window and range the log costs nothing: on mips_bench (10^8 instructions)
            a window of 1000 cycles runs about as many instructions on the per-instruction path,
            a range that matches nothing none; a range's lines equal the unfiltered log's lines in
            that range (the engine runs the rest), with the JIT and the interpreter
"""
import os
import re
import subprocess
import sys
import tempfile

LINE = re.compile(r"^\s*(\d+)  t(\d+) (c\d+|na)  (\w+)\s+(.*)$")


def fail(msg):
    sys.exit("FAIL: " + msg)


def run(vp, args, code=0):
    p = subprocess.run([vp] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    if p.returncode != code:
        fail(f"{args}: exit {p.returncode}, want {code}\n{p.stderr.decode()[-2000:]}")
    return p


def lines(path):
    out = []
    for text in open(path):
        m = LINE.match(text.rstrip("\n"))
        if not m:
            if text.startswith("namp-vp: log limit"):
                out.append(("limit", text))
                continue
            fail(f"malformed log line: {text!r}")
        out.append((int(m.group(1)), int(m.group(2)), m.group(3), m.group(4), m.group(5)))
    return out


def insn(vp, fw, tmp):
    log = os.path.join(tmp, "i.log")
    run(vp, ["--preset", "smp", "--quiet", "--firmware", f"{fw}/hello.elf", "--log", "insn",
             "--log-file", log, "--log-tiles", "1-2", "--log-cores", "3"])
    got = lines(log)
    who = {(t, c) for _, t, c, _, _ in got}
    if who != {(1, "c3"), (2, "c3")}:
        fail(f"--log-tiles 1-2 --log-cores 3 logged {sorted(who)}")
    if any(cat != "insn" for _, _, _, cat, _ in got):
        fail("a line of another category")
    # the first instructions of tile 1 core 3 against objdump's view of the same bits
    first = [text for _, t, _, _, text in got if t == 1][:6]
    dump = subprocess.run(["riscv64-unknown-elf-objdump", "-d", "-M", "no-aliases,numeric",
                           f"{fw}/hello.elf"], stdout=subprocess.PIPE).stdout.decode()
    for text in first:
        pc, bits, asm = text.split(None, 2)
        m = re.search(rf"^\s*{int(pc, 16):x}:\s+([0-9a-f]+)\s+(\S+)", dump, re.M)
        if not m or int(m.group(1), 16) != int(bits, 16):
            fail(f"pc {pc}: log bits {bits}, objdump {m.group(1) if m else None}")
        mnemonic = m.group(2).replace("c.", "") if m.group(2).startswith("c.") else m.group(2)
        ours = asm.split()[0]
        if mnemonic != ours and not (mnemonic in ("li", "mv", "addi") and ours == "addi"):
            fail(f"pc {pc}: log says {asm!r}, objdump {m.group(2)!r}")
    print(f"{len(got)} instruction lines of tiles 1-2 core 3; disassembly agrees with objdump")


def filters(vp, fw, tmp):
    log = os.path.join(tmp, "f.log")
    run(vp, ["--preset", "single", "--quiet", "--firmware", f"{fw}/hello.elf", "--log", "insn",
             "--log-file", log, "--log-range", "80000100:80000200", "--log-window", "1000:50000"])
    got = lines(log)
    if not got:
        fail("nothing logged inside the range and window")
    for cycle, _, _, _, text in got:
        pc = int(text.split()[0], 16)
        if not (0x80000100 <= pc < 0x80000200) or not (1000 <= cycle <= 50000):
            fail(f"line outside the filters: cycle {cycle} pc {pc:x}")
    limited = os.path.join(tmp, "l.log")
    run(vp, ["--preset", "single", "--quiet", "--firmware", f"{fw}/hello.elf", "--log", "insn",
             "--log-file", limited, "--log-limit", "10000"])
    size = os.path.getsize(limited)
    text = open(limited).read()
    if size > 10000 + 200 or "log limit of 10000 bytes reached" not in text.splitlines()[-1]:
        fail(f"--log-limit 10000: {size} bytes, last line {text.splitlines()[-1]!r}")
    # the log changes nothing that is simulated
    a, b = os.path.join(tmp, "a.json"), os.path.join(tmp, "b.json")
    run(vp, ["--preset", "smp", "--quiet", "--firmware", f"{fw}/hello.elf", "--stats", a])
    run(vp, ["--preset", "smp", "--quiet", "--firmware", f"{fw}/hello.elf", "--stats", b, "--log",
             "all", "--log-file", os.path.join(tmp, "all.log")])
    if open(a).read() != open(b).read():
        fail("--log all changed the statistics")
    print(f"{len(got)} lines inside range and window; limited log {size} bytes; statistics unchanged")


def checked(stderr):
    m = re.search(r"namp-vp: log: (\d+) of the (\d+) instructions ran on the per-instruction path",
                  stderr)
    if not m:
        fail(f"no per-instruction path count in the summary:\n{stderr[-1500:]}")
    return int(m.group(1)), int(m.group(2))


def cost(vp, fw, tmp):
    log = os.path.join(tmp, "c.log")
    bench = ["--preset", "single", "--firmware", f"{fw}/mips_bench.elf", "--log", "insn",
             "--log-file", log]
    n, total = checked(run(vp, bench + ["--log-window", "0:1000"]).stderr.decode())
    got = lines(log)
    if total < 10**8 or not got or n > len(got) + 16:
        fail(f"--log-window 0:1000: {len(got)} lines, {n} of {total} instructions on the "
             "per-instruction path (the rest must run on the fast engine)")
    print(f"window: {len(got)} lines, {n} checked instructions of {total}")
    n, total = checked(run(vp, bench + ["--log-range", "10:20"]).stderr.decode())
    if n != 0 or lines(log):
        fail(f"--log-range matching nothing: {n} instructions on the per-instruction path")
    print(f"range matching nothing: {n} checked instructions of {total}")
    # A range runs only its pages on the per-instruction path, and logs what the full log has there.
    for engine in ("jit", "interpreter"):
        full, part = os.path.join(tmp, "full.log"), os.path.join(tmp, "part.log")
        base = ["--preset", "smp", "--set", f"core.engine={engine}", "--firmware",
                f"{fw}/hello.elf", "--log", "insn", "--log-window", "100:400000"]
        run(vp, base + ["--log-file", full])
        n, total = checked(run(vp, base + ["--log-file", part, "--log-range",
                                           "80001000:80001800"]).stderr.decode())
        want = [x for x in lines(full) if 0x80001000 <= int(x[4].split()[0], 16) < 0x80001800]
        have = lines(part)
        if not have or have != want:
            fail(f"{engine}: the range log has {len(have)} lines, the full log {len(want)} there")
        if n > total // 4:
            fail(f"{engine}: {n} of {total} instructions on the per-instruction path for a range")
        print(f"{engine}: range of 2 KiB: {len(have)} lines, {n} of {total} instructions checked")


# Spike's riscv/execute.cc: "core%4d: %1d 0x%08x (0x%08x|0x%04x)", then " x%-2d 0x%08x" and
# " c%d_%s 0x%08x" per register written, " mem 0x%08x" per load, " mem 0x%08x 0x%0Nx" per store.
SPIKE_LINE = re.compile(r"^core +\d+: [013] 0x[0-9a-f]{8} \(0x(?:[0-9a-f]{8}|[0-9a-f]{4})\)"
                        r"(?: x(?:\d |\d\d) 0x[0-9a-f]{8})?(?: c\d+_[a-z0-9]+ 0x[0-9a-f]{8})*"
                        r"(?: mem 0x[0-9a-f]{8}(?! 0x))?(?: mem 0x[0-9a-f]{8} 0x(?:[0-9a-f]{2}|[0-9a-f]{4}|[0-9a-f]{8}))?$")


def commit(vp, fw, tmp):
    probe = f"{fw}/commit_probe.elf"
    log = os.path.join(tmp, "commit.log")
    run(vp, ["--preset", "single", "--quiet", "--firmware", probe, "--log", "commit", "--log-file", log])
    texts = [x[4] for x in lines(log)]
    for t in texts:
        if not SPIKE_LINE.match(t):
            fail(f"not in Spike's commit format: {t!r}")
    for want in (r" x7  0x12345678 mem 0x[0-9a-f]{8} mem 0x[0-9a-f]{8} 0x1234567b$",  # amoadd.w
                 r"^core   0: 3 .* mem 0x[0-9a-f]{8} 0xfff9$",                          # sh
                 r"^core   0: 3 .* x31 0x0000fff9 mem 0x[0-9a-f]{8}$",                  # lhu
                 r" c768_mstatus 0x[0-9a-f]{8}$", r" c833_mepc 0x[0-9a-f]{8}$",
                 r"^core   0: 0 0x[0-9a-f]{8} \(0x[0-9a-f]{4}\) x9  0x"):             # U-mode, RVC
        if not any(re.search(want, t) for t in texts):
            fail(f"no line like /{want}/ in the commit log")
    qlog = os.path.join(tmp, "qemu.log")
    subprocess.run(["qemu-system-riscv32", "-machine", "virt", "-cpu", "rv32,h=false", "-nographic", "-bios", "none",
                    "-kernel", probe, "-singlestep", "-d", "cpu,nochain", "-D", qlog],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120, check=True)
    diff = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "commit-diff")
    p = subprocess.run([diff, log, qlog, "--from", "80000000"], stdout=subprocess.PIPE, text=True)
    if p.returncode != 0 or f"identical for {len(texts)} instructions" not in p.stdout:
        fail(f"namp-vp against QEMU ({len(texts)} commits): exit {p.returncode}\n{p.stdout}")
    print(p.stdout.strip())
    bad = os.path.join(tmp, "bad.log")
    altered = texts[20].rsplit(" ", 1)[0] + " 0xdeadbeef"
    with open(log) as f, open(bad, "w") as out:
        for k, line in enumerate(f):
            out.write(line.replace(texts[20], altered) if k == 20 else line)
    p = subprocess.run([diff, bad, qlog, "--from", "80000000"], stdout=subprocess.PIPE, text=True)
    if p.returncode != 1 or "first difference at instruction 21 " not in p.stdout or altered not in p.stdout:
        fail(f"an altered value at instruction 21: exit {p.returncode}\n{p.stdout}")
    bare = os.path.join(tmp, "spike.log")
    with open(bare, "w") as out:
        out.writelines(t + "\n" for t in texts)
    p = subprocess.run([diff, log, bare], stdout=subprocess.PIPE, text=True)
    if p.returncode != 0 or f"identical for {len(texts)} instructions" not in p.stdout:
        fail(f"the log against its own Spike lines: {p.stdout}")
    print(f"{len(texts)} commit lines in Spike's format, equal to QEMU's results; a difference is found")


def events(vp, fw, tmp):
    log = os.path.join(tmp, "e.log")
    run(vp, ["--preset", "single", "--quiet", "--firmware", f"{fw}/test_timer_irq.elf",
             "--log", "trap,irq,mmio", "--log-file", log])
    got = lines(log)
    cats = {cat for _, _, _, cat, _ in got}
    if not {"irq", "mmio"} <= cats:
        fail(f"categories logged: {cats}")
    irqs = [text for _, _, _, cat, text in got if cat == "irq"]
    if len(irqs) < 5 or not all(t.startswith("interrupt 7 (machine timer) at pc ") for t in irqs):
        fail(f"timer interrupts: {irqs[:3]}")
    if not any(re.match(r"write 0200[0-9a-f]{4}  4 bytes", t) for _, _, _, c, t in got if c == "mmio"):
        fail("no CLINT write among the device accesses")
    faults = os.path.join(tmp, "t.log")
    run(vp, ["--preset", "single", "--quiet", "--firmware", f"{fw}/test_fault_handled.elf",
             "--log", "trap", "--log-file", faults])
    text = open(faults).read()
    for want in (r"exception 5 \(load access fault\) at pc [0-9a-f]{8}, tval 40080000",
                 r"exception 2 \(illegal instruction\) at pc [0-9a-f]{8}, tval c0de000b: illegal 0xc0de000b"):
        if not re.search(want, text):
            fail(f"no /{want}/ in the trap log:\n{text}")
    nl = os.path.join(tmp, "n.log")
    run(vp, ["--preset", "bare", "--quiet", "--firmware", f"{fw}/namp_micro.elf", "--log", "namp",
             "--log-file", nl])
    got = lines(nl)
    if not any(c == "na" and "message alloc request from tile" in t for _, _, c, _, t in got):
        fail("no NAMP message in the namp log")
    if not any(re.match(r"slot \d+ \w+ -> \w+", t) for _, _, _, _, t in got):
        fail("no slot state change in the namp log")
    print(f"irq, mmio, trap and namp lines as expected ({len(got)} namp lines)")


def bad(vp, fw, tmp):
    base = ["--preset", "single", "--firmware", f"{fw}/hello.elf"]
    for args, message in ((["--log", "insn,bogus"], "--log: unknown category 'bogus'"),
                          (["--log", "insn", "--log-tiles", "3-1"], "--log-tiles: '3-1'"),
                          (["--log", "insn", "--log-range", "zz:10"], "--log-range: 'zz:10'"),
                          (["--log", "insn", "--log-window", "9:5"], "--log-window: '9:5'"),
                          (["--log", "insn", "--log-limit", "12"], "--log-limit: a whole number")):
        p = run(vp, base + args, code=2)
        if message not in p.stderr.decode():
            fail(f"{args}: no {message!r} in {p.stderr.decode()!r}")
    print("malformed log options refused")


def main():
    mode, vp, fw = sys.argv[1:4]
    with tempfile.TemporaryDirectory() as tmp:
        {"insn": insn, "filters": filters, "events": events, "bad": bad, "cost": cost, "commit": commit}[mode](vp, fw, tmp)


if __name__ == "__main__":
    main()
