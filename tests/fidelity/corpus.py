"""The differential corpus's cases: which kernel, which arguments, which
inputs. Shared by record_triton.py (real Triton on a GPU), compare.py
(tilescope's interpreter) and run_gpu_threeway.py (tilescope's GPU backend).

A kernels_*.py module imports `triton` and `triton.language as tl` and
defines its kernels once, in Triton's Python; its `cases()` lists Case
objects. Which `triton` that is depends on the caller: the real one when
recording, tilescope's (triton_shim) when comparing. So kernel modules are
imported only through load_modules(), after the caller chose its triton.

Inputs are generated here, deterministically (numpy seeded by the case's
and argument's name), and then recorded with the outputs: the comparison
always reads the recorded inputs, never regenerates them.
"""
import importlib
import zlib

import numpy as np

MODULES = ["kernels_int", "kernels_cast", "kernels_promo", "kernels_reduce", "kernels_where", "kernels_math",
           "kernels_dot", "kernels_mem", "kernels_scan"]

DTYPES = ["i1", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f16", "bf16", "f32", "f64"]
INTS = ["i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64"]
FLOATS = ["f16", "bf16", "f32", "f64"]
TL_NAME = {"i1": "int1", "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64", "u8": "uint8",
           "u16": "uint16", "u32": "uint32", "u64": "uint64", "f16": "float16", "bf16": "bfloat16",
           "f32": "float32", "f64": "float64"}
# How each dtype is held in numpy: bf16 as its raw 16 bits.
STORAGE = {"i1": np.bool_, "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64, "u8": np.uint8,
           "u16": np.uint16, "u32": np.uint32, "u64": np.uint64, "f16": np.float16, "bf16": np.uint16,
           "f32": np.float32, "f64": np.float64}
WIDTH = {"i1": 1, "i8": 8, "i16": 16, "i32": 32, "i64": 64, "u8": 8, "u16": 16, "u32": 32, "u64": 64,
         "f16": 16, "bf16": 16, "f32": 32, "f64": 64}


def is_float(dt):
    return dt in FLOATS


def int_range(dt):
    if dt == "i1":
        return 0, 1
    info = np.iinfo(STORAGE[dt])
    return int(info.min), int(info.max)


# ---- bf16 in numpy ---------------------------------------------------------------
def f32_to_bf16_bits(x):
    """Round to nearest even, NaN kept NaN (quiet)."""
    x = np.asarray(x, dtype=np.float32)
    bits = x.view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    out = rounded.astype(np.uint16)
    nan = np.isnan(x)
    out[nan] = ((bits[nan] >> 16) | 0x40).astype(np.uint16)
    return out


def bf16_bits_to_f32(b):
    return (np.atleast_1d(np.asarray(b, dtype=np.uint16)).astype(np.uint32) << 16).view(np.float32).reshape(np.shape(b))


def to_storage(values, dt):
    """float64/int values -> the dtype's storage array."""
    if dt == "bf16":
        return f32_to_bf16_bits(np.asarray(values, dtype=np.float64).astype(np.float32))
    if dt == "i1":
        return np.asarray(values).astype(bool)
    if is_float(dt):
        with np.errstate(over="ignore", invalid="ignore"):
            return np.asarray(values, dtype=np.float64).astype(STORAGE[dt])
    return np.array([int(v) for v in np.ravel(values)], dtype=object).astype(STORAGE[dt]).reshape(np.shape(values))


def as_float64(a, dt):
    """A float storage array's values as float64 (bf16 decoded)."""
    if dt == "bf16":
        return bf16_bits_to_f32(a).astype(np.float64)
    return np.asarray(a).astype(np.float64)


# ---- special values --------------------------------------------------------------
def float_specials(dt):
    f = {"f16": np.finfo(np.float16), "f32": np.finfo(np.float32), "f64": np.finfo(np.float64)}.get(dt)
    if dt == "bf16":
        tiny, big, sub = 2.0 ** -126, float(bf16_bits_to_f32(np.array([0x7F7F]))[0]), 2.0 ** -133
    else:
        tiny, big, sub = float(f.tiny), float(f.max), float(f.smallest_subnormal)
    return [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5, 3.0, float("nan"), float("inf"), float("-inf"),
            tiny, -tiny, sub, -sub, sub * 3, tiny / 2, -tiny / 2, big, -big, 100.0, -7.25, 1e-3, 0.1]


def int_specials(dt):
    lo, hi = int_range(dt)
    cand = [0, 1, -1, 2, -2, 3, -3, 7, -7, lo, hi, lo + 1, hi - 1, 127, 128, -128, -129, 255, 256, 32767, -32768,
            65535, 2 ** 31 - 1, -2 ** 31, 2 ** 32 - 1, hi // 2, lo // 2, hi // 2 + 1]
    return [v for v in cand if lo <= v <= hi]


def rng_for(*names):
    return np.random.default_rng(zlib.crc32("/".join(names).encode()))


def random_values(dt, n, rng, kind):
    if dt == "i1":
        return rng.integers(0, 2, n).astype(bool)
    if is_float(dt):
        if kind == "positive":
            v = rng.uniform(0.01, 4.0, n)
        elif kind == "small_int":
            v = rng.integers(-4, 5, n).astype(np.float64)
        elif kind == "unit":
            v = rng.uniform(-1.0, 1.0, n)
        else:
            v = rng.standard_normal(n) * np.exp2(rng.integers(-8, 9, n))
        return v
    lo, hi = int_range(dt)
    if kind == "small_int":
        return rng.integers(max(lo, -4), min(hi, 4) + 1, n)
    if kind == "small":
        return rng.integers(max(lo, -100), min(hi, 100) + 1, n)
    # full range: numpy's integers on [lo, hi] in the type itself
    return rng.integers(lo, hi, n, dtype=STORAGE[dt], endpoint=True)


def gen(dt, shape, rng, kind="general"):
    """A deterministic input of `dt`: special values first (general), then random."""
    n = int(np.prod(shape))
    vals = list(random_values(dt, n, rng, kind))
    if kind == "general":
        spec = float_specials(dt) if is_float(dt) else ([0, 1] if dt == "i1" else int_specials(dt))
        spec = list(spec)
        rng.shuffle(spec)
        vals[:len(spec)] = spec[:n]
    elif kind == "finite" and is_float(dt):
        spec = [s for s in float_specials(dt) if np.isfinite(s)]
        vals[:len(spec)] = spec[:n]
    elif kind == "nonzero":
        spec = [s for s in (float_specials(dt) if is_float(dt) else int_specials(dt)) if s != 0]
        vals[:len(spec)] = spec[:n]
        vals = [v if v != 0 else 1 for v in vals]
    return to_storage(np.array(vals, dtype=object if not is_float(dt) else np.float64).reshape(shape), dt)


# ---- cases -----------------------------------------------------------------------
class In:
    """An input buffer; with inout=True its final contents are an output too."""

    def __init__(self, name, dtype, shape, kind="general", values=None, inout=False):
        self.name, self.dtype, self.shape, self.kind, self.values, self.inout = \
            name, dtype, tuple(shape), kind, values, inout


class Out:
    def __init__(self, name, dtype, shape):
        self.name, self.dtype, self.shape = name, dtype, tuple(shape)


class Const:
    """A tl.constexpr argument; DT(...) values become the caller's tl dtype."""

    def __init__(self, name, value):
        self.name, self.value = name, value


class Scalar:
    """A runtime scalar argument (Python int or float)."""

    def __init__(self, name, value):
        self.name, self.value = name, value


class DT:
    def __init__(self, dtype):
        self.dtype = dtype

    def __repr__(self):
        return f"DT({self.dtype})"


class Case:
    """`bound` is a key of compare.ULP_BOUNDS (for float outputs) or a dict
    output name -> key; integer outputs are always compared bit for bit."""

    def __init__(self, name, family, kernel, args, grid=(1,), bound="exact", kwargs=None, ulp_dtype=None):
        self.name, self.family, self.kernel, self.args = name, family, kernel, list(args)
        self.grid, self.bound, self.kwargs = tuple(grid), bound, dict(kwargs or {})
        self.ulp_dtype = ulp_dtype  # the dtype a wide float output's ulps are counted in

    def bound_for(self, out):
        return self.bound.get(out, "exact") if isinstance(self.bound, dict) else self.bound

    def inputs(self):
        return [a for a in self.args if isinstance(a, In)]

    def outputs(self):
        return [a for a in self.args if isinstance(a, Out) or (isinstance(a, In) and a.inout)]


def make_inputs(case):
    out = {}
    for a in case.inputs():
        if a.values is not None:
            arr = a.values(rng_for(case.name, a.name)) if callable(a.values) else a.values
            out[a.name] = to_storage(np.asarray(arr, dtype=object if not is_float(a.dtype) else np.float64)
                                     .reshape(a.shape), a.dtype)
        else:
            out[a.name] = gen(a.dtype, a.shape, rng_for(case.name, a.name), a.kind)
    return out


def load_modules():
    return [importlib.import_module(m) for m in MODULES]


def all_cases(modules=None):
    cases = []
    for m in modules or load_modules():
        cases.extend(m.cases())
    names = [c.name for c in cases]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        raise ValueError(f"duplicate case names: {sorted(dup)}")
    return cases


def launch(case, tl, inputs, to_dev, from_dev, on_result=None):
    """Runs `case` with `inputs` (storage arrays) through `case.kernel`;
    to_dev(array, dtype) makes the launcher's buffer, from_dev(buffer, dtype)
    reads it back. Returns {output name: storage array}; on_result gets
    what the launch returned (tilescope's Result)."""
    args, bufs = [], {}
    for a in case.args:
        if isinstance(a, In):
            bufs[a.name] = to_dev(inputs[a.name].copy(), a.dtype)
            args.append(bufs[a.name])
        elif isinstance(a, Out):
            bufs[a.name] = to_dev(np.zeros(a.shape, dtype=STORAGE[a.dtype]), a.dtype)
            args.append(bufs[a.name])
        elif isinstance(a, Const):
            args.append(getattr(tl, TL_NAME[a.value.dtype]) if isinstance(a.value, DT) else a.value)
        elif isinstance(a, Scalar):
            args.append(a.value)
        else:  # a plain value: a constexpr argument
            args.append(getattr(tl, TL_NAME[a.dtype]) if isinstance(a, DT) else a)
    kwargs = {k: (getattr(tl, TL_NAME[v.dtype]) if isinstance(v, DT) else v) for k, v in case.kwargs.items()}
    result = case.kernel[case.grid](*args, **kwargs)
    if on_result is not None:
        on_result(result)
    return {a.name: from_dev(bufs[a.name], a.dtype) for a in case.outputs()}


# A result dtype, as a kernel stores it (dtype_code in kernels): width * 10
# + 0 signed int, 1 unsigned int (and i1, which Triton counts unsigned),
# 2 float, 3 bf16.
def dtype_of_code(code):
    code = int(code)
    width, kind = divmod(code, 10)
    table = {(1, 1): "i1", (8, 0): "i8", (16, 0): "i16", (32, 0): "i32", (64, 0): "i64", (8, 1): "u8",
             (16, 1): "u16", (32, 1): "u32", (64, 1): "u64", (16, 2): "f16", (16, 3): "bf16", (32, 2): "f32",
             (64, 2): "f64"}
    return table.get((width, kind), f"?{code}")
