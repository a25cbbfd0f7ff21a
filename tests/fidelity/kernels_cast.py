"""Every cast pair among the 13 dtypes (x.to(dtype)), bitcasts between
types of one width, and f32 -> f16/bf16 with rounding toward zero.
Float -> int is only asked for values whose truncation fits the target:
Triton (LLVM's fptosi/fptoui) leaves the rest undefined. Float -> i1 is
`x != 0`, defined for every value, NaN included."""
import numpy as np
import triton
import triton.language as tl

from corpus import DT, DTYPES, Case, In, Out, as_float64, gen, int_range, is_float, to_storage
from kernels_common import N


@triton.jit
def cast_kernel(X, Y, BLOCK: tl.constexpr, DST: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(Y + offs, tl.load(X + offs).to(DST))


@triton.jit
def bitcast_kernel(X, Y, BLOCK: tl.constexpr, DST: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(Y + offs, tl.load(X + offs).to(DST, bitcast=True))


@triton.jit
def cast_rtz_kernel(X, Y, BLOCK: tl.constexpr, DST: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(Y + offs, tl.load(X + offs).to(DST, fp_downcast_rounding="rtz"))


def _in_range_floats(src, dst):
    """Float inputs of `src` whose truncation fits integer `dst`."""
    lo, hi = int_range(dst)

    def values(rng):
        base = gen(src, (N,), rng, "finite")
        v = as_float64(base, src)
        v = np.where(np.isfinite(v), v, 0.0)
        extra = rng.uniform(max(lo, -1e6), min(hi, 1e6), N // 2)
        v[N // 2:] = extra
        edges = [0.0, -0.0, 0.9, -0.9, 0.5, 1.5, float(hi), float(lo), float(hi) + 0.5, float(lo) - 0.5]
        v[N // 2 - len(edges):N // 2] = edges
        # round to the source type, then keep only what truncates into range
        stored = as_float64(to_storage(v, src), src)
        ok = np.isfinite(stored) & (np.trunc(stored) >= lo) & (np.trunc(stored) <= hi)
        return np.where(ok, stored, 0.0)
    return values


def cases():
    out = []
    for src in DTYPES:
        for dst in DTYPES:
            vals = _in_range_floats(src, dst) if is_float(src) and not is_float(dst) and dst != "i1" else None
            out.append(Case(f"cast_{src}_{dst}", "cast", cast_kernel,
                            [In("x", src, (N,), values=vals), Out("y", dst, (N,)), N, DT(dst)]))
    for src, dst in (("f32", "i32"), ("i32", "f32"), ("f16", "i16"), ("i16", "f16"), ("bf16", "i16"),
                     ("u16", "bf16"), ("f64", "u64"), ("i64", "f64"), ("u32", "f32"), ("f16", "bf16"),
                     ("i8", "u8")):
        out.append(Case(f"bitcast_{src}_{dst}", "bitcast", bitcast_kernel,
                        [In("x", src, (N,)), Out("y", dst, (N,)), N, DT(dst)]))
    for dst in ("f16", "bf16"):
        out.append(Case(f"cast_rtz_f32_{dst}", "cast", cast_rtz_kernel,
                        [In("x", "f32", (N,)), Out("y", dst, (N,)), N, DT(dst)]))
    return out


