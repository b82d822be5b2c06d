"""Sweep file -> run matrix (points, presets, swept keys, repeats), each run's namp-vp command line,
the columns its CSV will have, and the checks before anything runs (the VP, the firmware, every
configuration through namp-vp --area, every name the file uses)."""
import concurrent.futures
import itertools
import json
import os
import shlex
import subprocess

from . import InputError, saturation
from . import names as sweep_names
from .expr import Expression
from ..marks import DECODER_COLUMNS, DECODERS

TRAFFIC = "traffic"  # the workload that is no firmware: namp-vp --traffic (docs/noc.md)


# ---- sweep file -> run matrix -------------------------------------------------------------------

SWEEP_KEYS = {"name", "preset", "points", "set", "fixed", "firmware", "repeats", "args", "results",
              "plot", "pareto", "description", "derive", "where", "saturation"}
RESULT_KEYS = {"marks", "columns", "derived"}
PLOT_KEYS = {"x", "y", "series", "logx", "logy", "where", "facet", "kind", "title", "errorbars"}
PARETO_KEYS = {"cost", "perf", "maximize", "where", "label", "title", "agg", "logx", "logy"}
AGGREGATIONS = {"sum": sum, "max": max, "min": min, "mean": lambda v: sum(v) / len(v)}


def load_sweep(path):
    try:
        with open(path) as f:
            text = f.read()
    except OSError as e:
        raise InputError(f"{path}: {e.strerror}")
    try:
        if path.endswith((".yaml", ".yml")):
            import yaml  # python3-yaml (scripts/setup)
            doc = yaml.safe_load(text)
        else:
            doc = json.loads(text)
    except Exception as e:  # the parser's own message names the position
        raise InputError(f"{path}: not a valid sweep file: {e}")
    if not isinstance(doc, dict):
        raise InputError(f"{path}: a sweep is a mapping")
    unknown_keys(doc, SWEEP_KEYS, path)
    if not doc.get("firmware") or not isinstance(doc["firmware"], list):
        raise InputError(f"{path}: 'firmware' (a list) is required")
    doc.setdefault("name", os.path.splitext(os.path.basename(path))[0])
    for key, default in (("set", {}), ("fixed", {}), ("repeats", 1), ("args", []), ("results", {})):
        doc.setdefault(key, default)
    res = doc["results"]
    unknown_keys(res, RESULT_KEYS, f"{path}: results")
    marks = res.get("marks")
    for fw, dec in (marks.items() if isinstance(marks, dict) else [(None, marks)] if marks else []):
        if dec not in DECODERS:
            raise InputError(f"{path}: results.marks: unknown decoder '{dec}' "
                             f"(known: {', '.join(sorted(DECODERS))})")
        if fw is not None and fw not in doc["firmware"]:
            raise InputError(f"{path}: results.marks: '{fw}' is not a firmware of the sweep")
    res["columns"] = {name: column_spec(name, spec, path)
                      for name, spec in (res.get("columns") or {}).items()}
    res["derived"] = {name: Expression(expr, f"{path}: results.derived.{name}")
                      for name, expr in (res.get("derived") or {}).items()}
    plots = doc.get("plot")
    doc["plot"] = [] if plots is None else plots if isinstance(plots, list) else [plots]
    for p in doc["plot"]:
        unknown_keys(p, PLOT_KEYS, f"{path}: plot")
        if "x" not in p or "y" not in p:
            raise InputError(f"{path}: plot: 'x' and 'y' are required")
        log_options(p, f"{path}: plot")
    pareto = doc.get("pareto")
    doc["pareto"] = [] if pareto is None else pareto if isinstance(pareto, list) else [pareto]
    for p in doc["pareto"]:
        unknown_keys(p, PARETO_KEYS, f"{path}: pareto")
        if "cost" not in p or "perf" not in p:
            raise InputError(f"{path}: pareto: 'cost' and 'perf' are required")
        if p.get("agg", "mean") not in AGGREGATIONS:
            raise InputError(f"{path}: pareto: agg '{p['agg']}' is not one of {', '.join(AGGREGATIONS)}")
        log_options(p, f"{path}: pareto")
    sat = doc.get("saturation")
    sat = [] if sat is None else sat if isinstance(sat, list) else [sat]
    doc["saturation"] = [saturation.spec_of(s_, f"{path}: saturation") for s_ in sat]
    return doc


def log_options(spec, where):
    """logx, logy: true, false or auto (the default: log where the values span two decades)."""
    for key in ("logx", "logy"):
        if spec.get(key, "auto") not in (True, False, "auto"):
            raise InputError(f"{where}: {key}: true, false or auto, not {spec[key]!r}")


def unknown_keys(doc, known, where):
    if not isinstance(doc, dict):
        raise InputError(f"{where}: a mapping is required")
    unknown = set(doc) - known
    if unknown:
        raise InputError(f"{where}: unknown keys {sorted(unknown)} (known: {sorted(known)})")


def dimensions(sweep):
    """[(column names, list of value tuples)]: the points, 'preset' and every swept key, in file
    order. A key 'a,b' with [[1,2],[3,4]] varies a and b together (e.g. mesh.width,mesh.height).
    points: a list of configurations (mappings of keys, 'preset', 'name' and 'firmware')."""
    dims = []
    points = sweep.get("points")
    if points is not None:
        if not isinstance(points, list) or not points or not all(isinstance(p, dict) for p in points):
            raise InputError("points: a non-empty list of mappings is required")
        names = []
        for p in points:
            names += [k for k in p if k not in names and k != "firmware"]
        dims.append((names, [tuple(p.get(k) for k in names) for p in points]))
        sweep["_point_firmware"] = [p.get("firmware") for p in points]
    presets = sweep.get("preset")
    if isinstance(presets, list):
        dims.append((["preset"], [(p,) for p in presets]))
    for key, values in sweep["set"].items():
        names = [k.strip() for k in key.split(",")]
        if not isinstance(values, list) or not values:
            raise InputError(f"set.{key}: a non-empty list of values is required")
        tuples = [tuple(v) if len(names) > 1 else (v,) for v in values]
        if any(len(t) != len(names) for t in tuples):
            raise InputError(f"set.{key}: every value needs {len(names)} parts")
        dims.append((names, tuples))
    return dims


def matrix(sweep):
    dims = dimensions(sweep)
    columns = [n for names, _ in dims for n in names]
    only = sweep.get("_point_firmware")
    runs = []
    for fw in sweep["firmware"]:
        for combo in itertools.product(*[range(len(vals)) for _, vals in dims]):
            if only and only[combo[0]] is not None and fw not in only[combo[0]]:
                continue  # this point runs only the firmware it names
            values = [v for (_, vals), i in zip(dims, combo) for v in vals[i]]
            config = {k: v for k, v in zip(columns, values) if v is not None}
            for rep in range(int(sweep["repeats"])):
                runs.append({"run": len(runs), "firmware": fw, "repeat": rep, "config": config})
    return columns, runs


def restrict(runs, only):
    """--only KEY=V1,V2: the runs whose KEY (a swept key, preset, name or firmware) has one of the
    values; the reduced form of a sweep that a test runs. Runs are numbered again from 0."""
    for spec in only:
        key, sep, vals = spec.partition("=")
        if not sep or not vals:
            raise InputError(f"--only {spec}: expected KEY=VALUE[,VALUE...]")
        allowed = vals.split(",")
        known = {str(r["firmware"] if key == "firmware" else r["config"].get(key)) for r in runs}
        if key != "firmware" and all(key not in r["config"] for r in runs):
            raise InputError(f"--only {spec}: '{key}' is not a column of the sweep's matrix")
        unknown = [v for v in allowed if v not in known]
        if unknown:
            raise InputError(f"--only {spec}: no run has {key} = {', '.join(unknown)} "
                             f"(values: {', '.join(sorted(known))})")
        runs = [r for r in runs
                if str(r["firmware"] if key == "firmware" else r["config"].get(key)) in allowed]
    return [dict(r, run=i) for i, r in enumerate(runs)]


def sweep_columns(sweep, runs):
    """The columns the sweep's CSV will have and the values they can take where that is known:
    the run's identity, the matrix (swept, point, derived keys), the VP's outcome, the statistics
    columns, the decoders' columns and the derived columns (each checked against those before
    it)."""
    cols = sweep_names.Columns()
    cols.add("run")
    cols.add("firmware", {r["firmware"] for r in runs})
    cols.add("repeat", set(range(int(sweep["repeats"]))))
    for r in runs:
        for k, v in r["config"].items():
            cols.add(k, {v})
    for name in ("exit_code", "end_reason", "simulated_cycles", "instret"):
        cols.add(name)
    res = sweep["results"]
    for name in res["columns"]:
        cols.add(name)
    marks = res.get("marks")
    for dec in set(marks.values()) if isinstance(marks, dict) else {marks} if marks else set():
        for name, values in DECODER_COLUMNS[dec].items():
            cols.add(name, values)
        if dec == "marks":
            cols.dynamic.append("mark_0x")
    for name, spec in res["derived"].items():
        for n in spec.names:
            cols.check(n, f"results.derived.{name} ('{spec.text}')")
        cols.add(name)
    return cols


def check_names(sweep, runs):
    """Every column a plot, Pareto panel, saturation analysis or derived column names, and the
    values of their `where` filters where those are known: before anything runs."""
    sweep_names.check_sweep_names(sweep, sweep_columns(sweep, runs))


def elf_path(fw, fw_dir):
    return fw if os.path.sep in fw else os.path.join(fw_dir, fw + ".elf")


def vp_args(sweep, run, fw_dir):
    """The namp-vp arguments of a run, without --stats (the dry check uses them with --area)."""
    cfg = dict(run["config"])
    cfg.pop("name", None)  # a point's name is a column, not a key
    preset = cfg.pop("preset", sweep.get("preset") if isinstance(sweep.get("preset"), str) else None)
    args = ["--quiet"] + (["--preset", str(preset)] if preset else [])
    for k, v in list(sweep["fixed"].items()) + list(cfg.items()):
        args += ["--set", f"{k}={json.dumps(v) if isinstance(v, bool) else v}"]
    workload = ["--traffic"] if run["firmware"] == TRAFFIC else \
        ["--firmware", elf_path(run["firmware"], fw_dir)]
    return args + [str(a) for a in sweep["args"]] + workload


def run_file(out, run, ext):
    return os.path.join(out, "runs", f"{run['run']}.{ext}")


def command(sweep, run, args):
    return [args.vp] + vp_args(sweep, run, args.firmware_dir) + ["--stats", run_file(args.out, run, "json")]


def shell_line(sweep, run, args):
    """One line of commands.txt: the run, its output in runs/N.log, its exit status in runs/N.exit
    (written last: a run with an .exit file has finished), and that status as the line's."""
    log, ex = (shlex.quote(run_file(args.out, run, e)) for e in ("log", "exit"))
    return (f"{shlex.join(command(sweep, run, args))} >{log} 2>&1; s=$?; echo $s >{ex}; exit $s")


# ---- checks before anything runs ----------------------------------------------------------------

def check(sweep, runs, args):
    vp = args.vp
    if not (os.path.isfile(vp) and os.access(vp, os.X_OK)):
        raise InputError(f"the VP '{vp}' does not exist or is not executable "
                         "(build it: bash scripts/build, or name it with --vp)")
    missing = sorted({fw for fw in sweep["firmware"]
                      if fw != TRAFFIC and not os.path.isfile(elf_path(fw, args.firmware_dir))})
    if missing:
        import difflib
        known = sorted(f[:-4] for f in os.listdir(args.firmware_dir) if f.endswith(".elf")) \
            if os.path.isdir(args.firmware_dir) else []
        close = sorted({c for fw in missing for c in difflib.get_close_matches(fw, known, 3)})
        raise InputError("firmware not found: " + ", ".join(
            f"'{fw}' ({elf_path(fw, args.firmware_dir)})" for fw in missing) +
            (f"; did you mean {', '.join(close)}?" if close else "") +
            ("" if known else f"; {args.firmware_dir} has no firmware (build it: bash scripts/build)"))
    # The VP checks every distinct configuration (and the ELF against it) without running it.
    distinct = {}
    for r in runs:
        distinct.setdefault(tuple(vp_args(sweep, r, args.firmware_dir)), r)
    # With statistics columns, the VP also writes the statistics each configuration would have
    # before a run (namp-vp --area --stats): every statistics path is checked against them.
    want_stats = bool(sweep["results"]["columns"])
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        def dry(item):
            i, a = item
            stats = ["--stats", os.path.join(tmp, f"{i}.json")] if want_stats else []
            p = subprocess.run([vp, "--area"] + stats + list(a), capture_output=True, text=True)
            doc = None
            if p.returncode == 0 and stats:
                with open(stats[1]) as f:
                    doc = json.load(f)
            return a, p.returncode, (p.stderr.strip() or p.stdout.strip()).splitlines(), doc
        with concurrent.futures.ThreadPoolExecutor(max(1, int(args.jobs))) as pool:
            results = list(pool.map(dry, enumerate(distinct)))
    refused = [(a, rc, msg) for a, rc, msg, _ in results if rc != 0]
    if refused:
        lines = [f"  run {distinct[a]['run']} ({describe_run(distinct[a])}): "
                 f"{msg[-1] if msg else f'exit {rc}'}" for a, rc, msg in refused[:10]]
        raise InputError(f"the VP refuses {len(refused)} of {len(distinct)} configurations "
                         "(nothing was run):\n" + "\n".join(lines))
    skeletons = [doc for *_, doc in results if doc is not None]
    for name, spec in sweep["results"]["columns"].items():
        sweep_names.check_stats_path(spec["path"], skeletons, f"results.columns.{name}")
    return len(distinct)


def describe_run(run):
    cfg = ", ".join(f"{k}={v}" for k, v in run["config"].items())
    return run["firmware"] + (", " + cfg if cfg else "")


def column_spec(name, spec, where):
    """results.columns: NAME: PATH or {path: PATH, agg: sum|max|min|mean}. A path is dotted; '*'
    is every element of a list or value of an object, a number an element of a list."""
    if isinstance(spec, str):
        spec = {"path": spec}
    if not isinstance(spec, dict) or not isinstance(spec.get("path"), str):
        raise InputError(f"{where}: results.columns.{name}: a path or {{path, agg}} is required")
    unknown_keys(spec, {"path", "agg"}, f"{where}: results.columns.{name}")
    agg = spec.get("agg", "sum" if "*" in spec["path"].split(".") else None)
    if agg is not None and agg not in AGGREGATIONS:
        raise InputError(f"{where}: results.columns.{name}: agg '{agg}' is not one of "
                         f"{', '.join(AGGREGATIONS)}")
    return {"path": spec["path"].split("."), "agg": agg}
