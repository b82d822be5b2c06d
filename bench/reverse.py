#!/usr/bin/env python3
"""Reverse execution's speed (docs/debugging.md, "Reverse execution"): a 16-tile run of
mips_bench (every tile's core 0 runs the workload, about 1.6 G instructions in all) under GDB.
GDB goes forward to about 10^8 and then about 10^9 instructions of all cores (`monitor goto`);
at each point it times reverse-stepi (the first and the median of the next ones), stepi, and
reverse-continue to the last hit of a breakpoint in the heap sort; it reports the checkpoints
kept and the memory they hold of their own (the pages that differ from the live process), and
the time to get to 10^9 instructions with and without checkpoints.

usage: bench/reverse.py [--build build] [--engine jit] [--docs docs/debugging.md]

Times are the host's (GDB's wall clock around each command, the whole round trip); a shared
2-core host shows them with a spread of tens of per cent. Not a test: it measures the host.
"""
import argparse
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402

CPI = 1.74  # mips_bench: cycles per instruction of core 0 (docs/benchmarks.md), to aim the gotos


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def session(vp, elf, engine, checkpoints, targets, tmp, reverse=True):
    port = free_port()
    err = open(os.path.join(tmp, f"vp{checkpoints}.err"), "w")
    proc = subprocess.Popen([vp, "--firmware", elf, "--set", f"core.engine={engine}", "--set",
                             f"host.checkpoints={checkpoints}", "--gdb", f"127.0.0.1:{port}", "--gdb-wait"],
                            stdout=subprocess.DEVNULL, stderr=err)
    time.sleep(0.5)
    script = os.path.join(tmp, "s.gdb")
    lines = ["set pagination off", "set confirm off", f"file {elf}", f"target remote 127.0.0.1:{port}",
             "python import time"]

    def timed(tag, cmd):
        lines.extend(["python t = time.perf_counter()", cmd,
                      f"python print('TIME {tag} %.6f' % (time.perf_counter() - t))"])

    for n, cycle in enumerate(targets):
        timed(f"goto{n}", f"monitor goto {cycle}")
        lines += ["maintenance flush register-cache", f"echo WHERE{n}\\n", "monitor where"]
        if checkpoints and reverse:
            lines += [f"echo MEM{n}\\n", "monitor checkpoints"]
            for k in range(5):
                timed(f"rsi{n}_{k}", "reverse-stepi")
            timed(f"si{n}", "stepi")
            lines.append("break sift_down.constprop.0")
            timed(f"rc{n}", "reverse-continue")
            lines += ["delete", f"echo CKPT{n}\\n", "monitor checkpoints"]
    lines.append("kill")
    with open(script, "w") as f:
        f.write("\n".join(lines) + "\n")
    out = subprocess.run(["gdb-multiarch", "-batch", "-nx", "-x", script], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, timeout=1800).stdout.decode(errors="replace")
    mem = {}
    for n in range(len(targets)):
        block = out.split(f"MEM{n}")[1] if f"MEM{n}" in out else ""
        m = re.search(r"together they hold (\d+) MiB", block)
        if m:
            mem[n] = (len(re.findall(r"^\s*\d+\s+\d+\s+\d+\s+\d+\s+(?:periodic|barrier)", block.split("taken so far")[0], re.M)),
                      int(m.group(1)) * 1024)
    _, _, usage = os.wait4(proc.pid, 0)
    cpu = usage.ru_utime + usage.ru_stime
    times = {m.group(1): float(m.group(2)) for m in re.finditer(r"^TIME (\S+) ([0-9.]+)$", out, re.M)}
    instret = {}
    for n in range(len(targets)):
        block = out.split(f"WHERE{n}")[1] if f"WHERE{n}" in out else ""
        rows = re.findall(r"^\s+\d+\s+\d+\s+\d+\s+\S+.*?\s(\d+)\s+(\d+)\s+(\d+)$", block, re.M)
        instret[n] = sum(int(r[1]) for r in rows[:16])
    return out, times, instret, mem, cpu


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(os.path.dirname(__file__), "..", "build"))
    ap.add_argument("--engine", default="jit")
    ap.add_argument("--docs", help="write the table into this file's generated part")
    a = ap.parse_args()
    vp = os.path.join(a.build, "vp", "namp-vp")
    elf = os.path.join(a.build, "firmware", "mips_bench.elf")
    host = benchlib.machine()
    # about 10^8 and 10^9 instructions of the 16 cores together
    targets = [int(1e8 / 16 * CPI), int(1e9 / 16 * CPI)]
    with tempfile.TemporaryDirectory() as tmp:
        # forward only, without and with checkpoints: the cost of taking them
        _, t_off, _, _, cpu_off = session(vp, elf, a.engine, 0, targets[1:], tmp, reverse=False)
        _, t_on, _, _, cpu_on = session(vp, elf, a.engine, 32, targets[1:], tmp, reverse=False)
        out, t, instret, mem, _ = session(vp, elf, a.engine, 32, targets, tmp)
    if any(k not in t for k in ("rsi0_0", "rsi1_0", "rc0", "rc1")):
        sys.exit("a timing is missing:\n" + out[-4000:])
    ckpts = re.findall(r"(\d+) taken so far, at most (\d+) kept, one every (\d+) steps of all cores; "
                       r"a fork took ([0-9.]+) ms", out)
    rows = []
    for n, label in enumerate(["10^8", "10^9"]):
        rest = [t[f"rsi{n}_{k}"] for k in range(1, 5)]
        count, kib = mem.get(n, (0, 0))
        rows.append([f"about {label}: {benchlib.number(instret[n])}",
                     f"{t[f'goto{n}']:.2f} s",
                     f"{t[f'rsi{n}_0'] * 1000:.0f} ms", f"{statistics.median(rest) * 1000:.0f} ms",
                     f"{t[f'si{n}'] * 1000:.0f} ms", f"{t[f'rc{n}'] * 1000:.0f} ms",
                     f"{count}, {kib // 1024} MiB"])
    body = [f"Measured by `bench/reverse.py` on {host}; engine `{a.engine}`; "
            "16 tiles (4x4), `mips_bench` on every tile's core 0; `host.checkpoints` 32, "
            f"`host.checkpoint_interval` {benchlib.number(int(ckpts[-1][2]))} (the defaults).", "",
            benchlib.table(["instructions of all cores", "goto forward (from the last point)",
                            "reverse-stepi (first)", "reverse-stepi (median of the next 4)", "stepi",
                            "reverse-continue to the last breakpoint hit",
                            "checkpoints alive, their own memory"], rows), "",
            f"Forward to 10^9 instructions (`monitor goto`, GDB attached): without checkpoints "
            f"(`host.checkpoints=0`) {t_off['goto0']:.2f} s wall, {cpu_off:.2f} s CPU of namp-vp; "
            f"with them (about {ckpts[-1][0]} taken, a fork {ckpts[-1][3]} ms on average) "
            f"{t_on['goto0']:.2f} s wall, {cpu_on:.2f} s CPU. The wall-time difference beyond the "
            "forks is the host's scheduler: on a loaded host the live process waits behind other "
            "work once it has woken its new child."]
    text = "\n".join(body)
    print(text)
    if a.docs:
        benchlib.write_docs(a.docs, "bench/reverse.py", text)


if __name__ == "__main__":
    main()
