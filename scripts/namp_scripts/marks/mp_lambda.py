"""Marks of sw/apps/mp_lambda: id = 12 << 28 | (log2(size) * 2 + metric) << 20 | value, metric 0
o_s, 1 t (mean duration of the send). One row per size."""
from . import fields, power_of_two


def rows(marks):
    out = {}
    for k, value in fields(marks, 12):
        out.setdefault(k // 2, {"size": 1 << (k // 2)})[["o_s", "t_send"][k % 2]] = value
    return [out[k] for k in sorted(out)]


COLUMNS = {"size": power_of_two, "o_s": None, "t_send": None}
