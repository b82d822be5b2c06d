"""Expressions of a sweep file, checked when the file is read and evaluated per row or per point:
results.derived (arithmetic on columns) and the derive and where keys (arithmetic, comparisons,
and/or/not, `a if c else b`, strings and `in [...]` on configuration keys). Names are dotted, as
the columns and keys are (`bytes_per_cycle / namp_kgates`, `namp.slots - 1`); they become
placeholders before Python parses the text, and only the node types listed below are accepted,
so nothing but these operations can run."""
import ast
import keyword
import math
import re

from . import InputError

FUNCTIONS = {"min": min, "max": max, "abs": abs, "log2": math.log2, "log10": math.log10,
             "sqrt": math.sqrt, "int": int, "round": round}
ARITHMETIC = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Constant, ast.Name, ast.Load, ast.Call,
              ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow, ast.USub, ast.UAdd)
LOGIC = ARITHMETIC + (ast.FloorDiv, ast.Mod, ast.Compare, ast.Lt, ast.LtE, ast.Gt, ast.GtE,
                      ast.Eq, ast.NotEq, ast.In, ast.NotIn, ast.BoolOp, ast.And, ast.Or, ast.Not,
                      ast.IfExp, ast.List, ast.Tuple)
# a string literal, a number (kept whole: 1e3 is no name), or a dotted name
TOKEN = re.compile(r"'[^']*'|\"[^\"]*\"|\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|"
                   r"[A-Za-z_][A-Za-z0-9_.]*")


class Expression:
    """A checked expression: `names` in order of appearance, evaluated with a mapping name -> value."""

    def __init__(self, text, where, logic=False):
        if not isinstance(text, str) or not text.strip():
            raise InputError(f"{where}: an expression (a string) is required")
        self.text, self.where, self.names = text, where, []
        allowed_funcs = FUNCTIONS if logic else {k: FUNCTIONS[k] for k in
                                                 ("min", "max", "abs", "log2", "log10", "sqrt", "round")}

        def placeholder(m):
            tok = m.group(0)
            if tok[0] in "'\"0123456789." or keyword.iskeyword(tok) or tok in allowed_funcs:
                return tok
            if tok not in self.names:
                self.names.append(tok)
            return f"_c{self.names.index(tok)}"
        code = TOKEN.sub(placeholder, text)
        try:
            tree = ast.parse(code, mode="eval")
        except SyntaxError as e:
            raise InputError(f"{where}: '{text}': {e.msg}")
        allowed = LOGIC if logic else ARITHMETIC
        for node in ast.walk(tree):
            bad = not isinstance(node, allowed) or (isinstance(node, ast.Constant) and not logic and
                                                   not isinstance(node.value, (int, float)))
            if isinstance(node, ast.Call):
                bad = bad or not isinstance(node.func, ast.Name) or node.func.id not in allowed_funcs \
                    or node.keywords
            if bad:
                what = ("numbers, strings, keys, + - * / // % **, comparisons, and/or/not, "
                        "`a if c else b`, `in [...]` and " if logic else
                        "numbers, columns, + - * / ** and ")
                raise InputError(f"{where}: '{text}': only {what}{', '.join(allowed_funcs)} are allowed")
        self.functions = allowed_funcs
        self.code = compile(tree, where, "eval")

    def evaluate(self, values):
        """values: name -> value for every name; the exceptions of a bad operation propagate."""
        env = dict(self.functions)
        for i, n in enumerate(self.names):
            env[f"_c{i}"] = values[n]
        return eval(self.code, {"__builtins__": {}}, env)
