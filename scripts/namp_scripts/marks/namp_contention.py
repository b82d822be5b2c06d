"""Marks of sw/apps/namp_contention: id = 14 << 28 | k << 20 | value, k = ((mode * 3 + size index)
* 8 + stream) * 4 + metric, metric 0 g, 1 L. One row per mode, size and stream."""
from . import fields

SIZES = (16, 256, 1024)


def rows(marks):
    out = {}
    for k, value in fields(marks, 14):
        rest, metric = divmod(k, 4)
        rest, stream = divmod(rest, 8)
        mode, si = divmod(rest, 3)
        if metric < 2:
            out.setdefault((mode, si, stream), {"mode": ["msg", "chan"][mode], "size": SIZES[si],
                                                "stream": stream})[["g", "L"][metric]] = value
    return [out[k] for k in sorted(out)]


COLUMNS = {"mode": {"msg", "chan"}, "size": set(SIZES), "stream": set(range(8)), "g": None, "L": None}
