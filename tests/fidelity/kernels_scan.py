"""Scans, sorts and gathers: cumsum/cumprod (result dtype, reverse),
xor_sum, sort (ascending, descending, duplicates, NaN), flip, gather,
histogram, associative_scan with a combine function."""
import triton
import triton.language as tl

from corpus import Case, In, Out
from kernels_common import N, store_code

R, C = 8, 16


@triton.jit
def cumsum_kernel(X, O, CODE, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    r = tl.cumsum(tl.load(X + offs), axis=0)
    tl.store(O + offs, r)
    store_code(CODE, r)


@triton.jit
def cumsum_rev_kernel(X, O, R: tl.constexpr, C: tl.constexpr):
    rows = tl.arange(0, R)
    cols = tl.arange(0, C)
    x = tl.load(X + rows[:, None] * C + cols[None, :])
    tl.store(O + rows[:, None] * C + cols[None, :], tl.cumsum(x, axis=1, reverse=True))


@triton.jit
def cumprod_kernel(X, O, CODE, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    r = tl.cumprod(tl.load(X + offs), axis=0)
    tl.store(O + offs, r)
    store_code(CODE, r)


@triton.jit
def xor_sum_kernel(X, O, R: tl.constexpr, C: tl.constexpr):
    rows = tl.arange(0, R)
    cols = tl.arange(0, C)
    x = tl.load(X + rows[:, None] * C + cols[None, :])
    tl.store(O + rows, tl.xor_sum(x, axis=1))


@triton.jit
def sort_kernel(X, O, R: tl.constexpr, C: tl.constexpr, DESC: tl.constexpr):
    rows = tl.arange(0, R)
    cols = tl.arange(0, C)
    x = tl.load(X + rows[:, None] * C + cols[None, :])
    tl.store(O + rows[:, None] * C + cols[None, :], tl.sort(x, dim=1, descending=DESC))


@triton.jit
def flip_kernel(X, O, R: tl.constexpr, C: tl.constexpr):
    rows = tl.arange(0, R)
    cols = tl.arange(0, C)
    x = tl.load(X + rows[:, None] * C + cols[None, :])
    tl.store(O + rows[:, None] * C + cols[None, :], tl.flip(x, 1))


@triton.jit
def gather_kernel(X, IDX, O, R: tl.constexpr, C: tl.constexpr):
    rows = tl.arange(0, R)
    cols = tl.arange(0, C)
    x = tl.load(X + rows[:, None] * C + cols[None, :])
    i = tl.load(IDX + rows[:, None] * C + cols[None, :])
    tl.store(O + rows[:, None] * C + cols[None, :], tl.gather(x, i, 1))


@triton.jit
def histogram_kernel(X, O, BLOCK: tl.constexpr, BINS: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(O + tl.arange(0, BINS), tl.histogram(tl.load(X + offs), BINS))


@triton.jit
def _max_combine(a, b):
    return tl.maximum(a, b)


@triton.jit
def assoc_scan_kernel(X, O, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(O + offs, tl.associative_scan(tl.load(X + offs), 0, _max_combine))


def cases():
    out = []
    for dt in ("i8", "i16", "i32", "u8", "i64", "f16", "bf16", "f32", "f64", "i1"):
        w = "f64" if dt[0] in "fb" else "i64"
        kind = "small" if dt[0] not in "fb" else "unit"
        out.append(Case(f"cumsum_{dt}", "scan", cumsum_kernel,
                        [In("x", dt, (N,), kind=kind), Out("o", w, (N,)), Out("code", "i32", (1,)), N],
                        bound={"o": "scan"}, ulp_dtype=dt if dt[0] in "fb" else None))
    for dt in ("i32", "f32"):
        out.append(Case(f"cumsum_rev_{dt}", "scan", cumsum_rev_kernel,
                        [In("x", dt, (R, C), kind="small_int"), Out("o", dt, (R, C)), R, C]))
    for dt in ("i8", "i32", "f32", "f16"):
        w = "f64" if dt[0] == "f" else "i64"
        out.append(Case(f"cumprod_{dt}", "scan", cumprod_kernel,
                        [In("x", dt, (N,), kind="small_int"), Out("o", w, (N,)), Out("code", "i32", (1,)), N]))
    for dt in ("i32", "u8", "i64", "i1"):
        out.append(Case(f"xor_sum_{dt}", "scan", xor_sum_kernel,
                        [In("x", dt, (R, C)), Out("o", dt, (R,)), R, C]))
    for dt, kind in (("f32", "general"), ("i32", "small_int"), ("u8", "general"), ("f16", "small_int")):
        for desc in (False, True):
            out.append(Case(f"sort_{dt}_{'desc' if desc else 'asc'}", "sort", sort_kernel,
                            [In("x", dt, (R, C), kind=kind), Out("o", dt, (R, C)), R, C, desc]))
    for dt in ("f32", "i8"):
        out.append(Case(f"flip_{dt}", "sort", flip_kernel, [In("x", dt, (R, C)), Out("o", dt, (R, C)), R, C]))
    for it in ("i32", "i64"):
        out.append(Case(f"gather_f32_{it}", "sort", gather_kernel,
                        [In("x", "f32", (R, C)), In("idx", it, (R, C), values=lambda rng: rng.integers(0, C, R * C)),
                         Out("o", "f32", (R, C)), R, C]))
    out.append(Case("histogram_i32", "sort", histogram_kernel,
                    [In("x", "i32", (N,), values=lambda rng: rng.integers(0, 16, N)), Out("o", "i32", (16,)), N, 16]))
    out.append(Case("assoc_scan_max_f32", "scan", assoc_scan_kernel,
                    [In("x", "f32", (N,), kind="finite"), Out("o", "f32", (N,)), N]))
    return out
