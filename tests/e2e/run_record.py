"""One namp-vp run of the suite, kept for tests/engines: written by check_run.py --record, read by
compare_engines.py --records. A record names the simulator and the firmware by size and time, so
a rebuilt binary or firmware makes it stale."""
import json
import os


def stamp(path):
    st = os.stat(path)
    return [st.st_size, st.st_mtime_ns]


def firmware_of(args):
    return args[args.index("--firmware") + 1] if "--firmware" in args[:-1] else None


def _files(vp, args):
    fw = firmware_of(args)
    return {"vp": stamp(vp), "firmware": stamp(fw) if fw and os.path.exists(fw) else None}


def write(path, vp, args, code, stdout, stderr, stats):
    """Keeps the run of `vp args` (bytes stdout, stderr, stats) in `path`, atomically."""
    rec = {"args": args, **_files(vp, args), "exit": code, "stdout": stdout.decode("latin-1"),
           "stderr": stderr.decode("latin-1"), "stats": stats.decode("latin-1")}
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path + ".tmp", "w") as f:
        json.dump(rec, f)
    os.replace(path + ".tmp", path)


def read(path, vp, args):
    """The kept run of `vp args` as (exit, stdout, stderr, stats) bytes, or None when there is none
    or it was made with other arguments, another simulator or another firmware."""
    try:
        with open(path) as f:
            rec = json.load(f)
    except (OSError, ValueError):
        return None
    files = _files(vp, args)
    if rec.get("args") != args or any(rec.get(k) != v for k, v in files.items()):
        return None
    return (rec["exit"], rec["stdout"].encode("latin-1"), rec["stderr"].encode("latin-1"),
            rec["stats"].encode("latin-1"))
