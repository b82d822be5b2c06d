"""Marks of sw/apps/namp_tput and mp_tput: id = 10 << 28 | cfg << 20 | value, cfg = (scenario * 2
+ mode) * 16 + log2(size), value the aggregate throughput in milli-bytes per cycle."""
from . import fields, power_of_two


def rows(marks):
    out = []
    for cfg, value in fields(marks, 10):
        rest, lg = divmod(cfg, 16)
        out.append({"scenario": ["1to4", "4to1"][rest // 2], "mode": ["msg", "chan"][rest % 2],
                    "size": 1 << lg, "bytes_per_cycle": value / 1000.0})
    return out


COLUMNS = {"scenario": {"1to4", "4to1"}, "mode": {"msg", "chan"}, "size": power_of_two, "bytes_per_cycle": None}
