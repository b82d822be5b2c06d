"""Saturation points of load-latency curves, as Noxim and scripts/noc-load-latency report them
(docs/noc.md): per series (e.g. mesh and traffic pattern) the zero-load latency (the latency at
the lowest offered load), the offered load at which the network saturates (the first point whose
latency exceeds `factor` x the zero-load latency, or whose accepted load falls more than
`tolerance` behind the load the sources really offered) and the saturation throughput (the
highest accepted load of the series).

    saturation:
      x: traffic.rate             # the offered load swept
      latency: latency            # columns: average latency, accepted and really offered load
      accepted: accepted
      offered: offered
      series: [mesh.width, traffic.pattern]
      factor: 3                   # default 3
      tolerance: 0.05             # default 0.05
"""
import math
import os

from . import InputError

KEYS = {"x", "latency", "accepted", "offered", "series", "factor", "tolerance", "where", "title"}


def spec_of(s, where):
    if not isinstance(s, dict):
        raise InputError(f"{where}: a mapping is required")
    unknown = set(s) - KEYS
    if unknown:
        raise InputError(f"{where}: unknown keys {sorted(unknown)} (known: {sorted(KEYS)})")
    for key in ("x", "latency", "accepted"):
        if key not in s:
            raise InputError(f"{where}: '{key}' is required")
    s = dict(s)
    s.setdefault("offered", s["x"])
    s.setdefault("series", [])
    s.setdefault("factor", 3)
    s.setdefault("tolerance", 0.05)
    for key in ("factor", "tolerance"):
        if not isinstance(s[key], (int, float)) or isinstance(s[key], bool) or s[key] < 0:
            raise InputError(f"{where}: {key}: a number >= 0 is required")
    if not isinstance(s["series"], list):
        raise InputError(f"{where}: series: a list of columns is required")
    return s


def number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def points(spec, rows):
    """{series key: [rows sorted by x]} of the rows that have every value."""
    curves = {}
    cols = (spec["x"], spec["latency"], spec["accepted"], spec["offered"])
    for r in rows:
        if all(number(r.get(c)) for c in cols):
            curves.setdefault(tuple(r.get(s) for s in spec["series"]), []).append(r)
    return {k: sorted(v, key=lambda r: r[spec["x"]]) for k, v in curves.items()}


def analyse(spec, rows):
    """[(series key, zero-load latency, saturation x or None, highest accepted)], by series."""
    out = []
    for key, curve in points(spec, rows).items():
        zero = curve[0][spec["latency"]]
        knee = None
        for r in curve:
            if r[spec["latency"]] > spec["factor"] * zero or \
                    r[spec["accepted"]] < (1 - spec["tolerance"]) * r[spec["offered"]]:
                knee = r[spec["x"]]
                break
        out.append((key, zero, knee, max(r[spec["accepted"]] for r in curve)))
    return sorted(out, key=lambda t: tuple((isinstance(v, str), v) for v in t[0]))


def table(spec, rows):
    """Markdown lines of the analysis (the report's)."""
    series = spec["series"]
    lines = [f"saturation ({spec['latency']} above {spec['factor']} x zero-load, or {spec['accepted']} "
             f"more than {spec['tolerance'] * 100:g} % behind {spec['offered']}):", "",
             "| " + " | ".join(series + ["zero-load " + spec["latency"], f"saturates at {spec['x']}",
                                         "highest " + spec["accepted"]]) + " |",
             "|" + "---|" * len(series) + "---:|---:|---:|"]
    for key, zero, knee, top in analyse(spec, rows):
        lines.append("| " + " | ".join([str(k) for k in key] + [
            f"{zero:.1f}", "beyond the sweep" if knee is None else f"{knee:g}", f"{top:.3f}"]) + " |")
    return lines


def plot(sweep, spec, rows, out, index):
    """<name>-saturation[-N].png: latency against x (log axis when it spans two decades, said in
    the legend) with each series' saturation point marked, and accepted against offered load;
    more than 8 series get one row of panels per value of the first series column."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    curves = points(spec, rows)
    if not curves:
        return None
    knees = {key: knee for key, _, knee, _ in analyse(spec, rows)}
    series = spec["series"]
    facet = len(curves) > 8 and len(series) > 1
    groups = sorted({k[0] for k in curves}, key=lambda v: (isinstance(v, str), v)) if facet else [None]
    fig, axes = plt.subplots(len(groups), 2, figsize=(13, 4.4 * len(groups)), squeeze=False)
    colours = matplotlib.colormaps["tab10"].colors
    lats = [r[spec["latency"]] for c in curves.values() for r in c if r[spec["latency"]] > 0]
    log = bool(lats) and max(lats) / min(lats) >= 100
    names = series[1:] if facet else series
    legend = {}
    for g, group in enumerate(groups):
        ax, ax2 = axes[g]
        keys = sorted((k for k in curves if not facet or k[0] == group), key=str)
        for i, key in enumerate(keys):
            shown = key[1:] if facet else key
            label = ", ".join(f"{s}={v}" for s, v in zip(names, shown)) or spec["latency"]
            colour, style = colours[i % 10], ["-", "--", ":", "-."][(i // 10) % 4]
            curve = curves[key]
            h, = ax.plot([r[spec["x"]] for r in curve], [r[spec["latency"]] for r in curve],
                         color=colour, linestyle=style, marker="o", ms=3, label=label)
            legend.setdefault(label, h)
            if knees[key] is not None:
                r = next(r for r in curve if r[spec["x"]] == knees[key])
                ax.plot([knees[key]], [r[spec["latency"]]], color=colour, marker="X", ms=10, zorder=4)
            ax2.plot([r[spec["offered"]] for r in curve], [r[spec["accepted"]] for r in curve],
                     color=colour, linestyle=style, marker="o", ms=3)
        if log:
            ax.set_yscale("log")
        where = f"{series[0]}={group}: " if facet else ""
        ax.set_xlabel(spec["x"])
        ax.set_ylabel(spec["latency"] + (" (log scale)" if log else ""))
        ax.set_title(where + "latency; X = saturation point", fontsize=9)
        top = max(max(r[spec["offered"]] for r in curves[k]) for k in keys)
        ax2.plot([0, top], [0, top], "k:", lw=0.8)
        ax2.set_xlabel(spec["offered"])
        ax2.set_ylabel(spec["accepted"])
        ax2.set_title(where + "throughput (dotted: accepted = offered)", fontsize=9)
        for a_ in (ax, ax2):
            a_.grid(True, alpha=0.3)
            a_.ticklabel_format(axis="x", useOffset=False, style="plain")
        ax2.ticklabel_format(axis="y", useOffset=False, style="plain")
    fig.legend(legend.values(), legend.keys(), fontsize=7, loc="upper left",
               bbox_to_anchor=(1.0, 0.95), title="log latency axis" if log else None,
               title_fontsize=7)
    fig.suptitle(spec.get("title") or sweep.get("description", sweep["name"]), fontsize=10)
    fig.tight_layout()
    path = os.path.join(out, f"{sweep['name']}-saturation{'' if index == 0 else '-' + str(index + 1)}.png")
    fig.savefig(path, dpi=90, bbox_inches="tight")
    plt.close(fig)
    return path
