"""Every name a sweep file uses, checked before the first run: the columns its plots, Pareto
panels, saturation analyses and derived columns name, the values their `where` filters name where
the values are known before a run, and the statistics paths of results.columns (against the
statistics the VP writes for a configuration without running it). A name that is not there stops
the sweep with exit status 2 and the closest known names ("did you mean")."""
import difflib

from . import InputError


def did_you_mean(name, known, n=3):
    close = difflib.get_close_matches(str(name), [str(k) for k in known], n, 0.6)
    return f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""


class Columns:
    """The columns a sweep's CSV will have: name -> the values they can take (a set, a predicate,
    or None when only a run can tell). `dynamic` are name prefixes any suffix of which is a column
    (the `marks` decoder's mark_0x... columns)."""

    def __init__(self):
        self.values, self.dynamic = {}, []

    def add(self, name, values=None):
        """A column and the values it can take; added twice, the union (None wins)."""
        if name in self.values:
            old = self.values[name]
            values = old | values if isinstance(old, set) and isinstance(values, set) else None
        self.values[name] = values

    def known(self, name):
        return name in self.values or any(name.startswith(p) for p in self.dynamic)

    def check(self, name, where):
        if not isinstance(name, str):
            raise InputError(f"{where}: {name!r} is not a column name")
        if not self.known(name):
            raise InputError(f"{where}: '{name}' is not a column of the sweep" +
                             did_you_mean(name, self.values) +
                             f" (columns: {', '.join(sorted(self.values))})")

    def check_values(self, name, allowed, where):
        """where: {column: [values]}: each value must be one the column can take, if that is known."""
        self.check(name, where)
        if not isinstance(allowed, list) or not allowed:
            raise InputError(f"{where}: {name}: a non-empty list of values is required")
        domain = self.values.get(name)
        for v in allowed:
            if isinstance(domain, set) and v not in domain:
                shown = sorted(domain, key=lambda x: (isinstance(x, str), x))
                raise InputError(f"{where}: no row can have {name} = {v!r}" +
                                 did_you_mean(v, shown) + f" (values: {', '.join(map(str, shown))})")
            if callable(domain) and not domain(v):
                raise InputError(f"{where}: no row can have {name} = {v!r}")


def check_sweep_names(sweep, cols):
    """Plots, Pareto panels, saturation analyses and derived columns against the columns."""
    for i, p in enumerate(sweep["plot"]):
        where = f"plot {i + 1}"
        for key in ("x", "y"):
            cols.check(p[key], f"{where}: {key}")
        series = p.get("series", [])
        if not isinstance(series, list):
            raise InputError(f"{where}: series: a list of columns is required")
        for s in series:
            cols.check(s, f"{where}: series")
        if p.get("facet") is not None:
            cols.check(p["facet"], f"{where}: facet")
        check_where(p, cols, where)
    for i, p in enumerate(sweep["pareto"]):
        where = f"pareto {i + 1}"
        for key in ("cost", "perf"):
            cols.check(p[key], f"{where}: {key}")
        label = p.get("label", [])
        if not isinstance(label, list):
            raise InputError(f"{where}: label: a list of columns is required")
        for name in label:
            cols.check(name, f"{where}: label")
        check_where(p, cols, where)
    for i, s in enumerate(sweep.get("saturation", [])):
        where = f"saturation {i + 1}"
        for key in ("x", "latency", "accepted", "offered"):
            cols.check(s[key], f"{where}: {key}")
        for name in s.get("series", []):
            cols.check(name, f"{where}: series")
        check_where(s, cols, where)


def check_where(spec, cols, where):
    w = spec.get("where", {})
    if not isinstance(w, dict):
        raise InputError(f"{where}: where: a mapping column -> values is required")
    for name, allowed in w.items():
        cols.check_values(name, allowed, f"{where}: where")


def check_stats_path(path, skeletons, where):
    """path: the dotted parts of a results.columns path. skeletons: statistics documents of the
    sweep's configurations (no run yet). The path must lead somewhere in one of them; a list that
    is empty before a run (marks, a slot list) stops the check there (only a run fills it)."""
    problems = []
    for doc in skeletons:
        problem = walk(doc, path)
        if problem is None:
            return
        problems.append(problem)
    if problems:
        at, key, known = problems[0]
        raise InputError(f"{where}: '{'.'.join(path)}': the statistics have no '{key}' under "
                         f"'{'.'.join(path[:at]) or '(top)'}'" + did_you_mean(key, known) +
                         f" (there: {', '.join(map(str, known[:20]))}{', ...' if len(known) > 20 else ''};"
                         " docs/statistics.md)")


def walk(node, path, depth=0):
    """None if path can lead somewhere below node, else (depth, key, keys there)."""
    if depth == len(path):
        return None
    head = path[depth]
    if isinstance(node, list):
        if not node:
            return None  # filled by a run
        if head == "*":
            results = [walk(c, path, depth + 1) for c in node]
            return None if any(r is None for r in results) else results[0]
        if head.isdigit():
            return walk(node[int(head)], path, depth + 1) if int(head) < len(node) else None
        return depth, head, ["*", "0"]
    if isinstance(node, dict):
        if not node:
            return None  # filled by a run (e.g. exceptions_by_cause)
        if head == "*":
            if not node:
                return None
            results = [walk(c, path, depth + 1) for c in node.values()]
            return None if any(r is None for r in results) else results[0]
        if head in node:
            return walk(node[head], path, depth + 1)
        return depth, head, list(node)
    return depth, head, []  # a number or string has nothing below it
