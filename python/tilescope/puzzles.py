"""The puzzle checker (PUZZLES.md) for kernels written in Python: the same
inputs, size sets, seeds and thresholds as the C++ solutions get.

A Triton puzzle kernel's parameters may be named and ordered unlike the
puzzle's C++ signature (x_ptr for x; puzzle 7's Triton kernel takes an N1
the puzzle does not have): pointers are matched in order, sizes and
blocks by name, and `extra` gives values for parameters the puzzle lacks.
"""
import inspect

from ._core import ts
from .source import source_of
from .visitor import KernelBuilder, is_constexpr_annotation, jit_function


def _python_function(kernel):
    fn = jit_function(kernel)
    return fn if fn is not None else kernel


def puzzle_kernel(key, kernel, extra=None):
    """A C++ KernelDef with the puzzle's parameters whose body is `kernel`'s."""
    fn = _python_function(kernel)
    params = ts.puzzle_params(key)
    if params is None:
        raise ValueError(f"no puzzle or example named '{key}'")
    extra = dict(extra or {})
    src = source_of(fn)
    constexpr = {a.arg for a in src.tree.args.args if is_constexpr_annotation(a.annotation, src)}
    py_names = list(inspect.signature(fn).parameters)
    pointers = [i for i, (_, kind, _) in enumerate(params) if kind == "pointer"]
    by_name = {name: i for i, (name, kind, _) in enumerate(params) if kind != "pointer"}
    source = {}  # python name -> ("param", index) or ("extra", value)
    for pos, name in enumerate(py_names):
        if pos < len(pointers):
            source[name] = ("param", pointers[pos])
        elif name in by_name:
            source[name] = ("param", by_name[name])
        elif name in extra:
            source[name] = ("extra", extra[name])
        else:
            raise ValueError(f"{fn.__name__}: parameter '{name}' matches nothing of puzzle '{key}' "
                             f"(its parameters: {', '.join(n for n, _, _ in params)}); give it with extra=")

    def build(regs, consts):
        env = {}
        for name, (where, what) in source.items():
            if where == "extra":
                env[name] = what if name in constexpr else ts.scalar(what)
            elif params[what][1] == "constant":
                env[name] = consts[what]
            else:
                if name in constexpr:
                    raise ts.BuildError(src.file, src.position(src.tree)[0], 1,
                                        f"parameter '{name}' is tl.constexpr, but puzzle '{key}' passes it as a "
                                        "runtime value")
                env[name] = ts.Tensor.wrap(regs[what])
        KernelBuilder(fn, env).run_body()

    return ts.KernelDef(fn.__name__, params, src.file, src.position(src.tree)[0], build)


def check_puzzle(key, kernel, seeds=None, sets=None, extra=None, json=False):
    """Checks a Python kernel as `tilescope check` checks a C++ solution.
    Returns (passed, report text or JSON)."""
    kdef = puzzle_kernel(str(key), kernel, extra)
    return ts.check_puzzle(str(key), kdef, list(seeds or []), list(sets or []), bool(json))


def run_puzzle(key, kernel, set_name="canonical", seed=0, extra=None):
    """One run on a puzzle's (set, seed): a dict of passed, error, findings, text."""
    kdef = puzzle_kernel(str(key), kernel, extra)
    return ts.run_puzzle(str(key), kdef, set_name, seed)


# The notebook helper, `tilescope.puzzles.test` (puzzle_test.py).
from .puzzle_test import test  # noqa: E402,F401
