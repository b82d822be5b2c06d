"""Running a sweep's runs on the local cores, or other hosts, through GNU parallel: resumable
(a run with results for the same command line and files is not run again), a progress line, a
clean stop on Ctrl-C."""
import hashlib
import json
import os
import shlex
import subprocess
import sys
import time

from .sweep import TRAFFIC, command, elf_path, run_file, shell_line


# ---- local and ssh execution --------------------------------------------------------------------

def fingerprint(sweep, run, args):
    """Resume key: the command line and the VP and firmware files it runs (size, mtime)."""
    h = hashlib.sha256(shlex.join(command(sweep, run, args)).encode())
    files = [args.vp] + ([] if run["firmware"] == TRAFFIC else [elf_path(run["firmware"], args.firmware_dir)])
    for f in files:
        st = os.stat(f)
        h.update(f"{f}:{st.st_size}:{st.st_mtime_ns}".encode())
    return h.hexdigest()


def succeeded(run, args, key=None):
    """The run finished with exit status 0, its statistics are there and, with key, it was run
    with the same command line and files."""
    try:
        with open(run_file(args.out, run, "exit")) as f:
            if f.read().strip() != "0":
                return False
        with open(run_file(args.out, run, "json")) as f:
            json.load(f)
        if key is not None:
            with open(run_file(args.out, run, "key")) as f:
                return f.read().strip() == key
        return True
    except (OSError, ValueError):
        return False


def prepare(sweep, runs, args, todo):
    """commands.txt with every run; the runs in todo lose their old results and get their key."""
    os.makedirs(os.path.join(args.out, "runs"), exist_ok=True)
    with open(os.path.join(args.out, "commands.txt"), "w") as f:
        for r in runs:
            f.write(shell_line(sweep, r, args) + "\n")
    for r in todo:
        for ext in ("exit", "json", "log"):
            try:
                os.remove(run_file(args.out, r, ext))
            except FileNotFoundError:
                pass
        with open(run_file(args.out, r, "key"), "w") as f:
            f.write(fingerprint(sweep, r, args) + "\n")


class Progress:
    """One status line on stderr: runs done, failed, remaining time (rewritten in place on a
    terminal, a line every 10 s otherwise)."""

    def __init__(self, total, label="explore"):
        self.total, self.label, self.start = total, label, time.monotonic()
        self.tty, self.last, self.done = sys.stderr.isatty(), 0.0, None

    def update(self, done, failed, extra="", final=False):
        now = time.monotonic()
        text = f"{self.label}: {done}/{self.total} runs done, {failed} failed"
        if extra:
            text += ", " + extra
        if 0 < done < self.total:
            text += f", ~{(now - self.start) / done * (self.total - done):.0f} s left"
        elif done == self.total:
            text += f", {now - self.start:.1f} s"
        if self.tty:
            sys.stderr.write("\r\033[K" + text + ("\n" if final else ""))
        elif final or (done != self.done and now - self.last >= 10) or now - self.last >= 60:
            sys.stderr.write(text + "\n")
            self.last = now
        else:
            return
        self.done = done
        sys.stderr.flush()


def count_finished(runs, args):
    done = failed = 0
    for r in runs:
        try:
            with open(run_file(args.out, r, "exit")) as f:
                status = f.read().strip()
        except OSError:
            continue
        done += 1
        failed += status != "0"
    return done, failed


def run_local(sweep, runs, args):
    todo = [r for r in runs if args.rerun or not succeeded(r, args, fingerprint(sweep, r, args))]
    prepare(sweep, runs, args, todo)
    if len(todo) < len(runs):
        print(f"explore: {len(runs) - len(todo)} of {len(runs)} runs have results for the same "
              "command line (resumed; --rerun runs them again)", flush=True)
    if not todo:
        return
    # --termseq: parallel's default gives a killed job's process group 375 ms to be gone; on a
    # busy machine a run outlived that (CI: a run still there after Ctrl-C). KILL's 5 s is the
    # time parallel waits for the group to be empty after the last signal.
    par = ["parallel", "--will-cite", "--jobs", str(args.jobs),
           "--halt", "never" if args.keep_going else "soon,fail=1",
           "--termseq", "TERM,2000,TERM,1000,KILL,5000"]
    if args.sshlogin:
        # other hosts must see the same paths (a shared file system) and have namp-vp built
        par += ["--sshlogin", args.sshlogin, "--workdir", os.getcwd()]
    print(f"explore: {len(todo)} runs ({' '.join(par[1:])})", flush=True)
    lines = "".join(shell_line(sweep, r, args) + "\n" for r in todo)
    progress = Progress(len(todo))
    proc = subprocess.Popen(par, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    try:
        proc.stdin.write(lines)
        proc.stdin.close()
        while proc.poll() is None:
            progress.update(*count_finished(todo, args))
            time.sleep(0.5)
    except KeyboardInterrupt:
        # parallel ends its running jobs on SIGINT; what finished stays and is resumed from
        stop_parallel(proc)
        wait_runs_gone(args.out)
        done, failed = count_finished(todo, args)
        raise Interrupted(f"interrupted: {done} of {len(todo)} runs finished ({failed} failed); "
                          f"the same command resumes, scripts/explore collect {args.sweep} --out "
                          f"{args.out} reports what is there")
    progress.update(*count_finished(todo, args), final=True)


class Interrupted(Exception):
    """Ctrl-C during the runs."""


def wait_runs_gone(out, timeout=10.0):
    """After parallel is gone, its jobs' processes (shells and VPs naming out/runs) can still be
    on their way out for a moment: return once none is left (or after timeout), so that a sweep
    reported as interrupted has no run left running."""
    pattern = os.path.join(out, "runs") + os.sep
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if subprocess.run(["pgrep", "-f", pattern], stdout=subprocess.DEVNULL).returncode != 0:
            return
        time.sleep(0.1)


def stop_parallel(proc):
    import signal
    for sig, wait in ((signal.SIGINT, 15), (signal.SIGTERM, 10), (signal.SIGKILL, 5)):
        if proc.poll() is not None:
            return
        try:
            proc.send_signal(sig)
            proc.wait(wait)
        except subprocess.TimeoutExpired:
            continue
        except KeyboardInterrupt:  # a second Ctrl-C: harder
            continue
