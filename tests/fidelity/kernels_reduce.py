"""Reductions along an axis of an 8 x 16 tile: sum (and its result
dtype), max/min (with NaN, ties, narrow integers), argmax/argmin (ties go
to the lowest index), max/min with return_indices, and full reductions."""
import numpy as np
import triton
import triton.language as tl

from corpus import Case, In, Out, int_range, is_float
from kernels_common import store_code

R, C = 8, 16


@triton.jit
def reduce_kernel(X, SUM, MAX, MIN, AMAX, AMIN, CODE, R: tl.constexpr, C: tl.constexpr):
    rows = tl.arange(0, R)
    cols = tl.arange(0, C)
    x = tl.load(X + rows[:, None] * C + cols[None, :])
    s = tl.sum(x, axis=1)
    mx = tl.max(x, axis=1)
    mn = tl.min(x, axis=1)
    tl.store(SUM + rows, s)
    tl.store(MAX + rows, mx)
    tl.store(MIN + rows, mn)
    tl.store(AMAX + rows, tl.argmax(x, axis=1))
    tl.store(AMIN + rows, tl.argmin(x, axis=1))
    store_code(CODE, s)
    store_code(CODE + 1, mx)


@triton.jit
def reduce_idx_kernel(X, MAX, IMAX, MIN, IMIN, CODE, R: tl.constexpr, C: tl.constexpr):
    rows = tl.arange(0, R)
    cols = tl.arange(0, C)
    x = tl.load(X + rows[:, None] * C + cols[None, :])
    mx, imx = tl.max(x, axis=1, return_indices=True)
    mn, imn = tl.min(x, axis=1, return_indices=True)
    tl.store(MAX + rows, mx)
    tl.store(IMAX + rows, imx)
    tl.store(MIN + rows, mn)
    tl.store(IMIN + rows, imn)
    store_code(CODE, mx)
    store_code(CODE + 1, imx)


@triton.jit
def reduce_axis0_kernel(X, SUM, MAX, R: tl.constexpr, C: tl.constexpr):
    rows = tl.arange(0, R)
    cols = tl.arange(0, C)
    x = tl.load(X + rows[:, None] * C + cols[None, :])
    tl.store(SUM + cols, tl.sum(x, axis=0))
    tl.store(MAX + cols, tl.max(x, axis=0))


@triton.jit
def reduce_all_kernel(X, SUM, MAX, ARG, CODE, R: tl.constexpr, C: tl.constexpr):
    rows = tl.arange(0, R)
    cols = tl.arange(0, C)
    x = tl.load(X + rows[:, None] * C + cols[None, :])
    flat = tl.reshape(x, (R * C,))
    s = tl.sum(flat, axis=0)
    tl.store(SUM, s)
    tl.store(MAX, tl.max(flat, axis=0))
    tl.store(ARG, tl.argmax(flat, axis=0))
    store_code(CODE, s)


@triton.jit
def sum_dtype_kernel(X, O, CODE, R: tl.constexpr, C: tl.constexpr):
    rows = tl.arange(0, R)
    cols = tl.arange(0, C)
    x = tl.load(X + rows[:, None] * C + cols[None, :])
    s = tl.sum(x, axis=1, dtype=tl.float32)
    tl.store(O + rows, s)
    store_code(CODE, s)


def _tie_rows(dt):
    """Rows of small integers (ties), one row with extremes; for floats rows
    with NaN, +-inf, +-0 and a row of random values."""
    def values(rng):
        v = rng.integers(-3, 4, (R, C)).astype(np.float64)
        if dt.startswith("u") or dt == "i1":
            v = np.abs(v)
        if is_float(dt):
            v[1, 5] = np.nan
            v[2, :] = 0.0
            v[2, 3] = -0.0
            v[2, 9] = -0.0
            v[3, 0] = np.inf
            v[3, 7] = -np.inf
            v[4, :] = np.nan
            v[5, :] = rng.uniform(0.01, 8.0, C)
            v[6, 2] = np.nan
            v[6, 0] = 100.0
            v[7, :] = rng.standard_normal(C)
        elif dt != "i1":
            lo, hi = int_range(dt)
            v = v.astype(object)
            v[5, :] = [hi] * C
            v[6, 3] = lo
            v[6, 9] = lo
            v[7, :] = list(rng.integers(lo, hi, C, endpoint=True, dtype=np.int64 if hi < 2 ** 63 else np.uint64))
        return v
    return values


def cases():
    out = []
    for dt in ("i1", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f16", "bf16", "f32", "f64"):
        w = "f64" if is_float(dt) else "i64"
        out.append(Case(f"reduce_{dt}", "reduce", reduce_kernel,
                        [In("x", dt, (R, C), values=_tie_rows(dt)), Out("sum", w, (R,)), Out("max", dt, (R,)),
                         Out("min", dt, (R,)), Out("amax", "i32", (R,)), Out("amin", "i32", (R,)),
                         Out("code", "i32", (2,)), R, C], bound={"sum": "sum"},
                        ulp_dtype=dt if is_float(dt) else None))
        out.append(Case(f"reduce_idx_{dt}", "reduce", reduce_idx_kernel,
                        [In("x", dt, (R, C), values=_tie_rows(dt)), Out("max", w, (R,)), Out("imax", "i32", (R,)),
                         Out("min", w, (R,)), Out("imin", "i32", (R,)), Out("code", "i32", (2,)), R, C]))
    for dt in ("i8", "u8", "i32", "f16", "f32"):
        w = "f64" if is_float(dt) else "i64"
        out.append(Case(f"reduce_axis0_{dt}", "reduce", reduce_axis0_kernel,
                        [In("x", dt, (R, C), values=_tie_rows(dt)), Out("sum", w, (C,)), Out("max", dt, (C,)), R, C],
                        bound={"sum": "sum"}, ulp_dtype=dt if is_float(dt) else None))
    for dt in ("i8", "i32", "u32", "f16", "bf16", "f32"):
        w = "f64" if is_float(dt) else "i64"
        kind = "positive" if is_float(dt) else "small"
        out.append(Case(f"reduce_all_{dt}", "reduce", reduce_all_kernel,
                        [In("x", dt, (R, C), kind=kind), Out("sum", w, (1,)), Out("max", dt, (1,)),
                         Out("arg", "i32", (1,)), Out("code", "i32", (1,)), R, C], bound={"sum": "sum"},
                        ulp_dtype=dt if is_float(dt) else None))
    for dt in ("f16", "bf16", "i8", "i32"):
        out.append(Case(f"sum_dtype_f32_{dt}", "reduce", sum_dtype_kernel,
                        [In("x", dt, (R, C), kind="small_int" if not is_float(dt) else "unit"),
                         Out("o", "f64", (R,)), Out("code", "i32", (1,)), R, C], bound={"o": "sum"}, ulp_dtype="f32"))
    return out


