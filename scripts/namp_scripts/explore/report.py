"""A sweep's plots (lines, grouped bars, facets, Pareto fronts, saturation points) and markdown
report, and the end of a sweep: collect, plot, report, the exit status."""
import itertools
import math
import os
import sys

from . import EXIT_FAILED, saturation, slurm
from ..marks import power_of_two
from .results import collect
from .sweep import AGGREGATIONS, describe_run


# ---- plots and report ---------------------------------------------------------------------------

def natural(key):
    """Sort key: numbers by value before strings."""
    return tuple((0, v, "") if isinstance(v, (int, float)) and not isinstance(v, bool) else (1, 0, str(v))
                 for v in key)


def selected(spec, rows):
    """Successful rows (exit status 0) matching where (column -> allowed values)."""
    where = spec.get("where", {})
    return [r for r in rows if r.get("exit_code") == 0 and all(r.get(k) in v for k, v in where.items())]


def number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def styles():
    """Distinct (colour, marker, line style) per series: 10 colours x 8 markers."""
    import matplotlib
    colours = matplotlib.colormaps["tab10"].colors
    markers = "osD^vP*X"
    dashes = ["-", "--", ":", "-."]
    for i in itertools.count():
        yield colours[i % 10], markers[(i // 10 + i) % len(markers)], dashes[(i // 10) % len(dashes)]


def axis_scale(values, option):
    """'log' or 'linear': logx/logy true or false as the sweep says, or (auto, the default) log
    where the positive values span two decades or more, so that small values do not flatten."""
    if option is True or option is False:
        return "log" if option else "linear"
    vals = [v for v in values if number(v)]
    return "log" if vals and min(vals) > 0 and max(vals) / min(vals) >= 100 else "linear"


def plain_ticks(ax, scales):
    """Linear axes show their values as they are: no offset (+3.36e7) and no scientific factor."""
    for name, scale in zip("xy", scales):
        if scale == "linear":
            try:
                ax.ticklabel_format(axis=name, useOffset=False, style="plain")
            except AttributeError:  # a categorical axis has no scalar formatter
                pass


def log_note(scales):
    """The legend's title naming the log axes, or None."""
    logs = [n for n, sc in zip("xy", scales) if sc == "log"]
    return f"log {' and '.join(logs)} axis" if logs else None


def integer_axis(axis, values):
    from matplotlib.ticker import MaxNLocator
    if values and all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        axis.set_major_locator(MaxNLocator(integer=True))


def plot(sweep, spec, rows, out, index):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    x, y = spec["x"], spec["y"]
    series = list(spec.get("series", []))
    data = [r for r in selected(spec, rows) if r.get(x, "") != "" and number(r.get(y))]
    if not data:
        return None
    facet = spec.get("facet")
    keys = sorted({tuple(r.get(s) for s in series) for r in data}, key=natural)
    if facet is None and len(keys) > 8 and len(series) > 1:
        facet, series = series[0], series[1:]  # many series: one panel per value of the first
    panels = sorted({r.get(facet) for r in data}, key=lambda v: natural((v,))) if facet else [None]
    cols = min(3, len(panels))
    nrows = math.ceil(len(panels) / cols)
    fig, axes = plt.subplots(nrows, cols, figsize=(5.5 * cols + 2.5, 3.8 * nrows), squeeze=False,
                             sharey=True)
    categorical = spec.get("kind") == "bars" or not all(number(r[x]) for r in data)
    # categories in the order of the sweep file, numbers by value
    xs = list(dict.fromkeys(r[x] for r in data)) if categorical else sorted({r[x] for r in data})
    keys = sorted({tuple(r.get(s) for s in series) for r in data}, key=natural)
    style = dict(zip(keys, styles()))
    xscale = "linear" if categorical else axis_scale(xs, spec.get("logx", "auto"))
    yscale = axis_scale([r[y] for r in data], spec.get("logy", "auto"))
    handles = {}
    for n, panel in enumerate(panels):
        ax = axes[n // cols][n % cols]
        prows = [r for r in data if facet is None or r.get(facet) == panel]
        for i, key in enumerate(keys):
            pts = {}
            for r in prows:
                if tuple(r.get(s) for s in series) == key:
                    pts.setdefault(r[x], []).append(float(r[y]))
            if not pts:
                continue
            label = ", ".join(f"{s}={v}" for s, v in zip(series, key)) or y
            colour, marker, dash = style[key]
            if categorical:  # grouped bars: one group per category, one bar per series
                width = 0.8 / len(keys)
                h = ax.bar([xs.index(v) - 0.4 + width * (i + 0.5) for v in pts],
                           [sum(v) / len(v) for v in pts.values()], width, color=colour, label=label)
            else:
                order = sorted(pts)
                means = [sum(pts[v]) / len(pts[v]) for v in order]
                if spec.get("errorbars"):  # mean, and the spread (min to max) of its rows
                    h = ax.errorbar(order, means, yerr=[[m - min(pts[v]) for v, m in zip(order, means)],
                                                        [max(pts[v]) - m for v, m in zip(order, means)]],
                                    color=colour, marker=marker, linestyle=dash, capsize=3,
                                    label=label)
                else:
                    h, = ax.plot(order, means, color=colour, marker=marker, linestyle=dash,
                                 label=label)
            handles.setdefault(label, h)
        if categorical:
            ax.set_xticks(range(len(xs)))
            ax.set_xticklabels([str(v) for v in xs], rotation=30 if len(xs) > 4 else 0, ha="right" if len(xs) > 4 else "center")
        elif xscale == "log":
            # powers of two (sizes, slot counts) on a base-2 axis with a tick at every value
            ax.set_xscale("log", base=2 if all(power_of_two(v) for v in xs) else 10)
            if len(xs) <= 16:
                ax.set_xticks(xs)
                ax.set_xticklabels([str(v) for v in xs])
                ax.minorticks_off()
        else:
            integer_axis(ax.xaxis, xs)
        if yscale == "log":
            ax.set_yscale("log")
        else:
            integer_axis(ax.yaxis, [r[y] for r in prows])
        plain_ticks(ax, ("categorical" if categorical else xscale, yscale))
        ax.set_xlabel(x + (" (log scale)" if xscale == "log" and not categorical else ""))
        if n % cols == 0:
            ax.set_ylabel(y + (" (log scale)" if yscale == "log" else ""))
        if facet is not None:
            ax.set_title(f"{facet}={panel}", fontsize=9)
        ax.grid(True, alpha=0.3)
    for n in range(len(panels), nrows * cols):
        axes[n // cols][n % cols].set_visible(False)
    fig.suptitle(spec.get("title") or sweep.get("description", sweep["name"]), fontsize=10)
    note = log_note(("categorical" if categorical else xscale, yscale))
    if len(handles) > 1 or note:
        fig.legend(handles.values(), handles.keys(), fontsize=7, loc="upper left",
                   bbox_to_anchor=(1.0, 0.95), title=note, title_fontsize=7)
    fig.tight_layout()
    path = os.path.join(out, f"{sweep['name']}{'' if index == 0 else '-' + str(index + 1)}.png")
    fig.savefig(path, dpi=90, bbox_inches="tight")
    plt.close(fig)
    return path


def pareto_front(points, maximize):
    """Indices of the non-dominated points (cost down, performance up or down)."""
    better = (lambda a, b: a > b) if maximize else (lambda a, b: a < b)
    front = []
    for i, (c, p, _) in enumerate(points):
        dominated = any((c2 <= c and (better(p2, p) or p2 == p)) and (c2 < c or better(p2, p))
                        for j, (c2, p2, _) in enumerate(points) if j != i)
        if not dominated:
            front.append(i)
    return front


def same_or_mean(values):
    """The value of identical repeats as it is (no rounding noise), else the mean."""
    return values[0] if all(v == values[0] for v in values) else sum(values) / len(values)


def pareto_points(spec, rows):
    """One point per configuration (the label columns): (cost, performance, label); its rows'
    performance combined by agg (default mean; max or min: the best row, e.g. the best mode)."""
    labels = spec.get("label", [])
    agg = AGGREGATIONS[spec.get("agg", "mean")]
    groups = {}
    for r in selected(spec, rows):
        if number(r.get(spec["cost"])) and number(r.get(spec["perf"])):
            groups.setdefault(tuple(r.get(l) for l in labels), []).append((r[spec["cost"]], r[spec["perf"]]))
    pts = []
    for key, v in groups.items():
        pts.append((same_or_mean([c for c, _ in v]), agg([p for _, p in v]),
                    ", ".join(str(k) for k in key)))
    return sorted(pts, key=lambda t: (t[0], t[2]))


def plot_pareto(sweep, specs, rows, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    panels = [(s, pareto_points(s, rows)) for s in specs]
    panels = [(s, p) for s, p in panels if p]
    if not panels:
        return None
    cols = min(2, len(panels))
    nrows = math.ceil(len(panels) / cols)
    fig, axes = plt.subplots(nrows, cols, figsize=(6.5 * cols, 4.6 * nrows), squeeze=False)
    for n in range(len(panels), nrows * cols):
        axes[n // cols][n % cols].set_visible(False)
    for n, (spec, pts) in enumerate(panels):
        ax = axes[n // cols][n % cols]
        maximize = spec.get("maximize", True)
        front = pareto_front(pts, maximize)
        ax.scatter([c for c, _, _ in pts], [p for _, p, _ in pts], color="0.6", marker="o",
                   label="dominated", zorder=2)
        fp = sorted((pts[i] for i in front), key=lambda t: t[0])
        ax.plot([c for c, _, _ in fp], [p for _, p, _ in fp], color="tab:red", marker="D",
                linestyle="-", drawstyle="steps-post", label="Pareto front (not dominated)", zorder=3)
        for c, p, label in fp:
            ax.annotate(label, (c, p), textcoords="offset points", xytext=(5, 5 if maximize else -10),
                        fontsize=7, color="tab:red")
        scales = (axis_scale([c for c, _, _ in pts], spec.get("logx", "auto")),
                  axis_scale([p for _, p, _ in pts], spec.get("logy", "auto")))
        if scales[0] == "log":
            ax.set_xscale("log")
        if scales[1] == "log":
            ax.set_yscale("log")
        plain_ticks(ax, scales)
        ax.set_xlabel(spec["cost"] + (" (log scale)" if scales[0] == "log" else ""))
        ax.set_ylabel(spec["perf"] + (" (higher is better" if maximize else " (lower is better") +
                      ("; log scale)" if scales[1] == "log" else ")"))
        ax.set_title(spec.get("title", f"{spec['perf']} against {spec['cost']}"), fontsize=9)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7, loc="best",
                  title=log_note(scales), title_fontsize=7)
    fig.suptitle(sweep.get("description", sweep["name"]), fontsize=10)
    fig.tight_layout()
    path = os.path.join(out, f"{sweep['name']}-pareto.png")
    fig.savefig(path, dpi=90, bbox_inches="tight")
    plt.close(fig)
    return path


def fmt(v):
    """Full precision: integers as they are, floats by their shortest exact representation."""
    if isinstance(v, float):
        return str(int(v)) if v.is_integer() and abs(v) < 1e15 else repr(v)
    return str(v)


def report(sweep, runs, csv_path, pngs, pareto_png, rows, failed, args, not_run_hint=""):
    n_fw = len(sweep["firmware"])
    lines = [f"# Sweep {sweep['name']}", ""]
    if sweep.get("description"):
        lines += [sweep["description"], ""]
    lines += [f"- runs: {len(runs)} ({n_fw} firmware x "
              f"{len(runs) // max(1, n_fw * int(sweep['repeats']))} configurations x "
              f"{sweep['repeats']} repeats)",
              f"- failed or missing runs: {len(failed)}",
              f"- CSV: `{os.path.basename(csv_path)}` ({len(rows)} rows)"]
    constraints = sweep.get("_constraints")
    if constraints:
        for key, e, _ in constraints.derive:
            lines.append(f"- derived key `{key}`: `{e.text}`")
        for e, _ in constraints.where:
            lines.append(f"- constraint `{e.text}`")
        if constraints.dropped:
            points = sorted({describe_run(dict(r, firmware="")).lstrip(", ") for r, _ in constraints.dropped})
            lines.append(f"- points the constraints drop: {len(points)} ({'; '.join(points)})")
    for p in [pareto_png] + pngs:
        if p:
            lines += ["", f"![{os.path.basename(p)}]({os.path.basename(p)})"]
    for spec in sweep["plot"]:
        x, y, series = spec["x"], spec["y"], list(spec.get("series", []))
        if spec.get("facet"):
            series = [spec["facet"]] + series
        data = [r for r in selected(spec, rows) if number(r.get(y)) and r.get(x, "") != ""]
        xs = sorted({r[x] for r in data}) if all(number(r[x]) for r in data) else \
            list(dict.fromkeys(r[x] for r in data))  # categories in the order of the sweep
        keys = sorted({tuple(r.get(s) for s in series) for r in data}, key=natural)
        lines += ["", f"{y} by {x}:", "", "| " + " | ".join(series + [str(v) for v in xs]) + " |",
                  "|" + "---|" * len(series) + "---:|" * len(xs)]
        for k in keys:
            cells = []
            for v in xs:
                vals = [r[y] for r in data if r[x] == v and tuple(r.get(s) for s in series) == k]
                if vals and spec.get("errorbars") and len(vals) > 1:
                    cells.append(f"{fmt(round(sum(vals) / len(vals), 3))} "
                                 f"({fmt(min(vals))}..{fmt(max(vals))})")
                else:
                    cells.append(fmt(same_or_mean(vals)) if vals else "")
            lines.append("| " + " | ".join([str(c) for c in k] + cells) + " |")
    for spec in sweep["pareto"]:
        pts = pareto_points(spec, rows)
        if not pts:
            continue
        front = set(pareto_front(pts, spec.get("maximize", True)))
        label = ", ".join(spec.get("label", [])) or "configuration"
        lines += ["", f"{spec['perf']} against {spec['cost']} (* = on the Pareto front):", "",
                  f"| {label} | {spec['cost']} | {spec['perf']} | front |", "|---|---:|---:|---|"]
        for i, (c, p, name) in enumerate(pts):
            lines.append(f"| {name} | {fmt(c)} | {fmt(p)} | {'*' if i in front else ''} |")
    for spec in sweep["saturation"]:
        lines += [""] + saturation.table(spec, selected(spec, rows))
    if failed:
        lines += ["", "Failed or missing runs (left out of the tables and the plots):", ""]
        lines += [f"- run {r['run']} ({describe_run(r)}): {why}" for r, _, why in failed[:100]]
        if not_run_hint:
            lines += ["", not_run_hint]
    path = os.path.join(args.out, f"{sweep['name']}.md")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


def finish(sweep, runs, args, not_run_hint=""):
    """Collect, plot, report; list the failed runs (with their Slurm tasks' states when the runs
    went to Slurm); the exit status."""
    csv_path, rows, failed = collect(sweep, runs, args)
    if failed and slurm.submissions(args):
        said = slurm.slurm_reasons(args)
        failed = [(r, status, f"{why}; {said[r['run']][1]}" if r["run"] in said else why)
                  for r, status, why in failed]
    pngs = [p for i, spec in enumerate(sweep["plot"]) if (p := plot(sweep, spec, rows, args.out, i))]
    pngs += [p for i, spec in enumerate(sweep["saturation"])
             if (p := saturation.plot(sweep, spec, selected(spec, rows), args.out, i))]
    pareto_png = plot_pareto(sweep, sweep["pareto"], rows, args.out) if sweep["pareto"] else None
    md = report(sweep, runs, csv_path, pngs, pareto_png, rows, failed, args, not_run_hint)
    print(f"explore: wrote {', '.join([csv_path, md] + pngs + ([pareto_png] if pareto_png else []))}")
    if failed:
        print(f"explore: {len(failed)} of {len(runs)} runs failed or are missing:", file=sys.stderr)
        for r, _, why in failed[:20]:
            print(f"  run {r['run']} ({describe_run(r)}): {why}", file=sys.stderr)
        if len(failed) > 20:
            print(f"  ... and {len(failed) - 20} more (see {md})", file=sys.stderr)
        if not_run_hint:
            print("explore: " + not_run_hint, file=sys.stderr)
        return EXIT_FAILED
    return 0
