"""Derived configuration keys and constraints of a sweep (docs/exploration.md, "Derived keys and
constraints"):

    derive:                       # a key computed per point, in file order, from the point
      namp.slots_virt: "min(slots_virt, slots - 1)"
    where: "preset not in ['svbase', 'svfull'] or slots_virt >= 1"   # or a list: all must hold

A name is a configuration key (a unique last part is enough: `slots` is namp.slots), `preset`,
`name` or `firmware`. Its value at a point is the point's own (swept, a point's, fixed or derived
before it), else the preset's, else the default: the VP says what a preset sets (namp-vp
--print-config). Every name, the derived key itself and every expression are checked when the
sweep is read; a point that fails a constraint is not run; a constraint no point meets, or an
expression that fails on a point, stops the sweep (exit status 2)."""
import json
import subprocess

from . import InputError
from .expr import Expression
from .names import did_you_mean

SPECIAL = ("preset", "name", "firmware")


def flatten(doc, prefix=""):
    out = {}
    for k, v in doc.items():
        path = f"{prefix}.{k}" if prefix else k
        if isinstance(v, dict):
            out.update(flatten(v, path))
        else:
            out[path] = v
    return out


class EffectiveConfigs:
    """The VP's effective configuration of a preset (None: the defaults) under the sweep's own
    --config file, if its args name one; asked once each."""

    def __init__(self, vp, args=()):
        self.vp, self.cache = vp, {}
        args = [str(a) for a in args]
        self.config = []
        for i, a in enumerate(args):
            if a in ("--config", "-c") and i + 1 < len(args):
                self.config = [a, args[i + 1]]
            elif a.startswith("--config="):
                self.config = [a]

    def __call__(self, preset):
        if preset not in self.cache:
            cmd = [self.vp, "--print-config"] + (["--preset", str(preset)] if preset else []) + \
                self.config
            try:
                p = subprocess.run(cmd, capture_output=True, text=True)
            except OSError as e:
                raise InputError(f"the VP '{self.vp}' cannot be run ({e.strerror}): derive and "
                                 "where need it (build it: bash scripts/build, or name it with --vp)")
            if p.returncode != 0:
                raise InputError(f"{' '.join(cmd[1:])}: {(p.stderr or p.stdout).strip()}")
            self.cache[preset] = flatten(json.loads(p.stdout))
        return self.cache[preset]


def resolve(name, keys, where):
    """A name of an expression -> the configuration key (or special name) it stands for."""
    if name in keys or name in SPECIAL:
        return name
    ends = [k for k in keys if k.endswith("." + name)]
    if len(ends) == 1:
        return ends[0]
    if len(ends) > 1:
        raise InputError(f"{where}: '{name}' could be {', '.join(sorted(ends))}: name one")
    raise InputError(f"{where}: '{name}' is not a configuration key" +
                     did_you_mean(name, list(keys) + list(SPECIAL)) + " (namp-vp --list-config)")


class Constraints:
    def __init__(self, sweep, configs):
        derive, where = sweep.get("derive") or {}, sweep.get("where")
        if not isinstance(derive, dict):
            raise InputError("derive: a mapping key -> expression is required")
        if where is None:
            where = []
        if not isinstance(where, list):
            where = [where]
        self.configs = configs
        keys = configs(None)
        set_keys = {k.strip() for key in sweep.get("set", {}) for k in key.split(",")}
        point_keys = {k for p in sweep.get("points") or [] for k in p}
        self.derive = []
        for key, text in derive.items():
            if key not in keys:
                raise InputError(f"derive: '{key}' is not a configuration key" + did_you_mean(key, keys))
            if key in set_keys or key in point_keys or key in sweep.get("fixed", {}):
                raise InputError(f"derive: '{key}' is also set by the sweep (set, points or fixed): "
                                 "one of the two")
            e = Expression(text, f"derive.{key}", logic=True)
            self.derive.append((key, e, [resolve(n, keys, f"derive.{key}") for n in e.names]))
        self.where = []
        for i, text in enumerate(where):
            e = Expression(text, f"where {i + 1}", logic=True)
            self.where.append((e, [resolve(n, keys, f"where {i + 1}") for n in e.names]))
        self.dropped = []

    def __bool__(self):
        return bool(self.derive or self.where)

    def columns(self):
        return [k for k, _, _ in self.derive]

    def apply(self, sweep, runs, describe):
        """The runs whose points meet every constraint, with the derived keys in their config,
        numbered again from 0."""
        kept = []
        preset_of_sweep = sweep.get("preset") if isinstance(sweep.get("preset"), str) else None
        for r in runs:
            cfg = dict(r["config"])
            preset = cfg.get("preset", preset_of_sweep)
            env = dict(self.configs(preset))
            env.update(sweep.get("fixed", {}))
            env.update({k: v for k, v in cfg.items() if k not in SPECIAL})
            env.update(preset=preset or "", name=cfg.get("name", ""), firmware=r["firmware"])
            for key, e, names in self.derive:
                value = self.evaluate(e, names, env, r, describe)
                if isinstance(value, float) and value.is_integer():
                    value = int(value)
                if not isinstance(value, (bool, int, float, str)):
                    raise InputError(f"derive.{key}: '{e.text}' gives {value!r} for "
                                     f"{describe(r)}: not a value of a key")
                env[key] = cfg[key] = value
            failed = [e.text for e, names in self.where if not self.evaluate(e, names, env, r, describe)]
            if failed:
                self.dropped.append((r, failed))
                continue
            kept.append(dict(r, config=cfg))
        if self.where and not kept:
            raise InputError("where: no point of the sweep meets " +
                             " and ".join(f"'{e.text}'" for e, _ in self.where))
        return [dict(r, run=i) for i, r in enumerate(kept)]

    @staticmethod
    def evaluate(e, names, env, run, describe):
        try:
            return e.evaluate({n: env[k] for n, k in zip(e.names, names)})
        except Exception as x:  # a type or arithmetic error of the user's expression
            raise InputError(f"{e.where}: '{e.text}' fails for {describe(run)}: {x}")
