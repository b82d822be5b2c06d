#!/usr/bin/python3
"""The plots' axes (scripts/explore, docs/exploration.md "Outputs"): a linear axis of large values
(simulated cycles around 3.36e7) shows them as they are, with no offset such as +3.36e7; values
that span two decades or more get a log axis unless the sweep says otherwise; a whole Pareto plot
of such values says so in its axis labels and legend. Fails if any of these is undone.

axes_test.py ROOT
"""
import os
import sys
import tempfile


def load_explore(root):
    """scripts/explore's plots and report (scripts/namp_scripts/explore/report.py)."""
    sys.path.insert(0, os.path.join(root, "scripts"))
    from namp_scripts.explore import report
    return report


def main():
    explore = load_explore(sys.argv[1])
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    checks = []
    cycles = [33600324, 33653570, 33668438, 33683979, 33932224]
    checks.append((explore.axis_scale(cycles, "auto") == "linear", "cycles within 1 % of each other: linear"))
    checks.append((explore.axis_scale([4, 64, 4096], "auto") == "log", "4 .. 4096: log (three decades)"))
    checks.append((explore.axis_scale([4, 64, 4096], False) == "linear", "logy: false keeps it linear"))
    checks.append((explore.axis_scale([10, 40, 90], True) == "log", "logy: true forces it"))
    checks.append((explore.axis_scale([0, 10, 10000], "auto") == "linear", "a zero cannot go on a log axis"))
    fig, ax = plt.subplots()
    ax.plot([1, 2, 3, 4, 5], cycles)
    explore.plain_ticks(ax, ("linear", "linear"))
    fig.canvas.draw()
    offset = ax.yaxis.get_major_formatter().get_offset()
    labels = [t.get_text() for t in ax.get_yticklabels()]
    checks.append((offset == "", f"no offset on the cycles axis (got '{offset}')"))
    checks.append((any(l.startswith("336") for l in labels), f"tick labels are the values: {labels[:3]}"))
    plt.close(fig)
    # a whole Pareto plot: cycles (linear) against a cost spanning three decades (log)
    rows = [{"exit_code": 0, "name": f"c{i}", "cost": c, "simulated_cycles": s}
            for i, (c, s) in enumerate(zip([1, 10, 100, 1000, 5000], cycles))]
    spec = {"cost": "cost", "perf": "simulated_cycles", "maximize": False, "label": ["name"]}
    with tempfile.TemporaryDirectory() as out:
        captured = {}
        real_close = plt.close
        plt.close = lambda f=None: captured.setdefault("fig", f)  # keep the figure to inspect it
        try:
            path = explore.plot_pareto({"name": "axes"}, [spec], rows, out)
        finally:
            plt.close = real_close
        checks.append((path is not None and os.path.exists(path), "the Pareto plot is written"))
    ax = captured["fig"].axes[0]
    checks.append((ax.get_xscale() == "log" and "log scale" in ax.get_xlabel(),
                   f"cost spanning decades: log x axis, labelled '{ax.get_xlabel()}'"))
    checks.append((ax.get_yscale() == "linear" and ax.yaxis.get_major_formatter().get_offset() == "",
                   "cycles: linear y axis without offset"))
    title = ax.get_legend().get_title().get_text()
    checks.append((title == "log x axis", f"the legend says which axis is log: '{title}'"))
    fails = 0
    for ok, what in checks:
        print(("ok: " if ok else "FAIL: ") + what)
        fails += not ok
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
