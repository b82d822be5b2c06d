#!/usr/bin/env python3
"""RISC-V semihosting (docs/semihosting.md): test_semihosting reads and writes files beneath
semihosting.root, and every way out of it fails (.., an absolute name, a symbolic link, a rename);
off by default (the ebreak is a breakpoint exception, exit 131); a root that is no directory is an
input error (exit 2).

usage: semihosting_test.py VP FIRMWARE_DIR
"""
import os
import subprocess
import sys
import tempfile


def fail(msg):
    sys.exit("FAIL: " + msg)


def run(vp, args):
    p = subprocess.run([vp] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def main():
    vp, fw = sys.argv[1:3]
    elf = os.path.join(fw, "test_semihosting.elf")
    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.join(tmp, "root")
        os.makedirs(os.path.join(root, "subdir"))
        with open(os.path.join(root, "in.txt"), "w") as f:
            f.write("hello from the host\n")
        secret = os.path.join(tmp, "secret.txt")
        with open(secret, "w") as f:
            f.write("outside\n")
        target = os.path.join(tmp, "target.txt")
        with open(target, "w") as f:
            f.write("outside too\n")
        os.symlink(target, os.path.join(root, "out_link"))
        code, out, err = run(vp, ["--preset", "single", "--firmware", elf, "--args", "alpha beta",
                                  "--set", "semihosting.enabled=true", "--set", f"semihosting.root={root}",
                                  "--set", "semihosting.epoch=1700000000"])
        print(out + err)
        if code != 0 or "semihosting ok:" not in out:
            fail(f"exit {code}")
        for line in ("[0,0:0] semihosting console line", "[0,0:0] write0 line"):
            if line not in out:
                fail(f"no console line {line!r}")
        moved = os.path.join(root, "subdir", "moved.txt")
        if not os.path.exists(moved) or open(moved).read() != "written by firmware\nappended\n":
            fail("subdir/moved.txt does not hold what the firmware wrote")
        if open(secret).read() != "outside\n" or open(target).read() != "outside too\n":
            fail("a file outside the root changed")
        for name in ("new.txt", "escaped.txt"):
            if os.path.exists(os.path.join(tmp, name)):
                fail(f"{name} was created outside the root")
        if sorted(os.listdir(root)) != ["in.txt", "out_link", "subdir"]:
            fail(f"the root holds {sorted(os.listdir(root))}")
        # off by default: the sequence's ebreak is a breakpoint exception
        code, out, err = run(vp, ["--preset", "single", "--firmware", elf])
        if code != 131 or "FATAL TRAP: cause=3" not in out:
            fail(f"without semihosting.enabled: exit {code}\n{out}{err}")
        code, out, err = run(vp, ["--preset", "single", "--firmware", elf, "--set",
                                  "semihosting.enabled=true", "--set",
                                  f"semihosting.root={os.path.join(tmp, 'nothere')}"])
        if code != 2 or "semihosting.root: cannot open the directory" not in err or "cycles simulated" in err:
            fail(f"a missing root: exit {code}\n{err}")
    print("semihosting: files beneath the root, no way out, off by default, a bad root refused")


if __name__ == "__main__":
    main()
