"""A sweep's results: every run's statistics (columns by path, the firmware's marks through their
decoder, derived expressions) as rows and the CSV."""
import csv
import json
import os

from . import InputError
from ..marks import DECODERS
from .sweep import AGGREGATIONS, run_file


# ---- results ------------------------------------------------------------------------------------

def select(node, path):
    """Every value at path below node (lists of them for wildcards)."""
    if not path:
        return [node]
    head, rest = path[0], path[1:]
    if head == "*":
        children = node if isinstance(node, list) else list(node.values()) if isinstance(node, dict) else []
        return [v for c in children for v in select(c, rest)]
    if isinstance(node, dict) and head in node:
        return select(node[head], rest)
    if isinstance(node, list) and head.isdigit() and int(head) < len(node):
        return select(node[int(head)], rest)
    return []


def column_value(stats, spec):
    values = [v for v in select(stats, spec["path"]) if v is not None]  # null: no value
    if not values:
        return None
    if any(isinstance(v, (dict, list)) or isinstance(v, bool) or not isinstance(v, (int, float))
           for v in values):
        if len(values) == 1 and spec["agg"] is None:
            return values[0] if not isinstance(values[0], (dict, list)) else json.dumps(values[0])
        raise ValueError("the path reaches non-numbers: " + ", ".join(
            sorted({type(v).__name__ for v in values})))
    if spec["agg"] is None:
        if len(values) != 1:
            raise ValueError(f"{len(values)} values: name an agg")
        return values[0]
    return AGGREGATIONS[spec["agg"]](values)


def derive(row, spec):
    """A derived column of a row: empty where a column it names has no value (a row of another
    decoder, a run that is missing) or on division by zero."""
    values = {}
    for n in spec.names:
        v = row.get(n, "")
        if v == "" or v is None or isinstance(v, str):
            return ""
        values[n] = v
    try:
        return spec.evaluate(values)
    except (ZeroDivisionError, ValueError, OverflowError):
        return ""


def read_run(run, args):
    """(exit status or None if it never finished, statistics or None, last line of its log)."""
    status = stats = None
    try:
        with open(run_file(args.out, run, "exit")) as f:
            status = int(f.read().strip())
    except (OSError, ValueError):
        pass
    try:
        with open(run_file(args.out, run, "json")) as f:
            stats = json.load(f)
    except (OSError, ValueError):
        pass
    last = ""
    try:
        with open(run_file(args.out, run, "log"), errors="replace") as f:
            lines = [l.strip() for l in f if l.strip()]
            last = lines[-1] if lines else ""
    except OSError:
        pass
    return status, stats, last


def collect(sweep, runs, args):
    """Rows (one per run, or per decoded result of a run), the CSV, and the failed runs."""
    res = sweep["results"]
    marks = res.get("marks")
    decoder_of = (lambda fw: DECODERS.get(marks.get(fw))) if isinstance(marks, dict) else \
        (lambda fw: DECODERS.get(marks))
    rows, failed = [], []
    for r in runs:
        base = {"run": r["run"], "firmware": r["firmware"], "repeat": r["repeat"]}
        base.update(r["config"])
        status, st, last = read_run(r, args)
        if status is None or st is None or status != 0:
            why = ("never finished" if status is None else
                   f"exit {status}: " + (st["simulation"]["end_reason"] if st else last or "no statistics"))
            failed.append((r, status, why))
        if st is None:
            rows.append(dict(base, exit_code="" if status is None else status,
                             end_reason="missing" if status is None else "no statistics"))
            continue
        base.update({"exit_code": status if status is not None else "",
                     "end_reason": st["simulation"]["end_reason"],
                     "simulated_cycles": st["simulation"]["simulated_cycles"],
                     "instret": st["totals"]["instret"]})
        for name, spec in res["columns"].items():
            try:
                v = column_value(st, spec)
            except ValueError as e:
                raise InputError(f"results.columns.{name} ({'.'.join(spec['path'])}): run {r['run']}: {e}")
            base[name] = "" if v is None else v
        decoder = decoder_of(r["firmware"])
        for extra in (decoder(st.get("marks", [])) if decoder else None) or [{}]:
            rows.append(dict(base, **extra))
    # every name was checked before the first run (check_names): a derived column whose inputs
    # no finished run has yet stays empty, so collect works any time on what is there
    for name, spec in res["derived"].items():
        for row in rows:
            row[name] = derive(row, spec)
    fields = []
    for row in rows:
        for k in row:
            if k not in fields:
                fields.append(k)
    csv_path = os.path.join(args.out, f"{sweep['name']}.csv")
    with open(csv_path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    return csv_path, rows, failed
