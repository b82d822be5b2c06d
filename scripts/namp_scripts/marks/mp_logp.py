"""Marks of sw/apps/mp_logp (the software baseline; namp_logp is its NAMP build): id = event << 28
| cfg << 20 | value, cfg = ((pair * 2 + mode) * 3 + path) * 16 + log2(size). Events 5..8 carry
o_s, o_r, g and L in cycles; 1..4 stamp the ping-pong and streaming phases (their cycles); 9
carries the parameters (round trips << 10 | streamed messages)."""
from . import power_of_two, split

# the firmware's enum (main.c)
EV_PP_BEGIN, EV_PP_END, EV_ST_BEGIN, EV_ST_END, EV_O_S, EV_O_R, EV_G, EV_L, EV_PARAM = range(1, 10)
METRICS = {EV_O_S: "o_s", EV_O_R: "o_r", EV_G: "g", EV_L: "L"}
PAIRS, MODES = ("neighbour", "6hop"), ("msg", "chan")
NAMP_PATHS = ("namp", "nampbuf", "nampccm")   # namp_logp: the NAMP's send modes
BASELINE_PATHS = ("buffer", "rma", "rdma")    # mp_logp: the baseline's data paths


def config(cfg):
    """(pair, mode, path, log2 size) of a cfg."""
    rest, lg = divmod(cfg, 16)
    rest, path = divmod(rest, 3)
    pair, mode = divmod(rest, 2)
    return pair, mode, path, lg


def rows(marks, paths=NAMP_PATHS):
    """One row per pair, mode, path and size: its metrics in the order their marks come."""
    out = {}
    for m in marks:
        ev, cfg, value = split(m["id"])
        if ev not in METRICS:
            continue
        pair, mode, path, lg = key = config(cfg)
        out.setdefault(key, {"pair": PAIRS[pair], "mode": MODES[mode], "path": paths[path],
                             "size": 1 << lg})[METRICS[ev]] = value
    return [out[k] for k in sorted(out)]


def rows_baseline(marks):
    return rows(marks, BASELINE_PATHS)


COLUMNS = {"pair": set(PAIRS), "mode": set(MODES), "path": set(NAMP_PATHS), "size": power_of_two,
           "o_s": None, "o_r": None, "g": None, "L": None}
COLUMNS_BASELINE = dict(COLUMNS, path=set(BASELINE_PATHS))
