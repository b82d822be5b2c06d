"""Decoders of the benchmark firmware's statistics marks (`sim_mark`, the "marks" of namp-vp
--stats): one module per firmware, named as its directory in sw/apps, beside the description of
the encoding its main.c writes. A decoder turns a run's marks into rows (dicts); COLUMNS names the
columns a decoder writes and the values they can take where that is known before a run (None:
only a run can tell), for scripts/explore's checks of every name a sweep uses."""


def power_of_two(v):
    return isinstance(v, int) and not isinstance(v, bool) and v > 0 and v & (v - 1) == 0


def split(mark_id):
    """(event, cfg, value) of a mark id: the benchmark firmware's common layout
    event << 28 | cfg << 20 | value."""
    return mark_id >> 28, (mark_id >> 20) & 0xFF, mark_id & 0xFFFFF


def fields(marks, event):
    """(cfg, value) of every mark of the event, in order."""
    for m in marks:
        ev, cfg, value = split(m["id"])
        if ev == event:
            yield cfg, value


def by_id(marks):
    """Any firmware: one column per mark id (hex), its cycle."""
    return [{f"mark_{m['id']:#010x}": m["cycle"] for m in marks}]


# the firmware modules use the helpers above: imported after them
from . import mp_lambda, mp_logp, namp_contention, namp_qos, namp_tput  # noqa: E402

# scripts/explore's results.marks names (docs/exploration.md) -> (decoder, its columns)
DECODERS = {"tput": namp_tput.rows, "logp": mp_logp.rows, "logp_baseline": mp_logp.rows_baseline,
            "marks": by_id, "lambda": mp_lambda.rows, "contention": namp_contention.rows,
            "qos": namp_qos.rows}
DECODER_COLUMNS = {"tput": namp_tput.COLUMNS, "logp": mp_logp.COLUMNS, "logp_baseline": mp_logp.COLUMNS_BASELINE,
                   "lambda": mp_lambda.COLUMNS, "contention": namp_contention.COLUMNS, "qos": namp_qos.COLUMNS,
                   "marks": {}}  # mark_0x... columns: any id (dynamic)
