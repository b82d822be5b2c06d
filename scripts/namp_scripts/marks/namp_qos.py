"""Marks of sw/apps/namp_qos: id = 15 << 28 | metric << 20 | value: metric 0 the urgent messages'
mean latency, 1 their worst (cycles), 2 the bulk throughput in milli-bytes per cycle. One row."""
from . import fields


def rows(marks):
    row = {}
    for metric, value in fields(marks, 15):
        if metric < 3:
            row[["urgent_L", "urgent_L_max", "bulk_bytes_per_cycle"][metric]] = \
                value / 1000.0 if metric == 2 else value
    return [row] if row else []


COLUMNS = {"urgent_L": None, "urgent_L_max": None, "bulk_bytes_per_cycle": None}
