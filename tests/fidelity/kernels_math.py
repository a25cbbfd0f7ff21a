"""Math functions on every float dtype (special values included):
tl.exp ... tl.erf, libdevice's tanh/log1p/expm1/pow; maximum/minimum with
NaN and +-0 (and propagate_nan), division (/, div_rn, fdiv), fma, clamp,
umulhi, abs/maximum on integers, and f16/bf16 storage rounding."""
import triton
import triton.language as tl
from triton.language.extra import libdevice

from corpus import FLOATS, Case, In, Out
from kernels_common import N


@triton.jit
def exp_kernel(X, O, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(O + offs, tl.exp(tl.load(X + offs)))


@triton.jit
def exp2_kernel(X, O, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(O + offs, tl.exp2(tl.load(X + offs)))


@triton.jit
def log_kernel(X, O, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(O + offs, tl.log(tl.load(X + offs)))


@triton.jit
def log2_kernel(X, O, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(O + offs, tl.log2(tl.load(X + offs)))


@triton.jit
def sqrt_kernel(X, O, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(O + offs, tl.sqrt(tl.load(X + offs)))


@triton.jit
def sqrt_rn_kernel(X, O, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(O + offs, tl.sqrt_rn(tl.load(X + offs)))


@triton.jit
def rsqrt_kernel(X, O, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(O + offs, tl.rsqrt(tl.load(X + offs)))


@triton.jit
def sin_kernel(X, O, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(O + offs, tl.sin(tl.load(X + offs)))


@triton.jit
def cos_kernel(X, O, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(O + offs, tl.cos(tl.load(X + offs)))


@triton.jit
def sigmoid_kernel(X, O, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(O + offs, tl.sigmoid(tl.load(X + offs)))


@triton.jit
def floor_kernel(X, O, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(O + offs, tl.floor(tl.load(X + offs)))


@triton.jit
def ceil_kernel(X, O, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(O + offs, tl.ceil(tl.load(X + offs)))


@triton.jit
def abs_kernel(X, O, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(O + offs, tl.abs(tl.load(X + offs)))


@triton.jit
def erf_kernel(X, O, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(O + offs, tl.erf(tl.load(X + offs)))


@triton.jit
def tanh_kernel(X, O, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(O + offs, libdevice.tanh(tl.load(X + offs)))


@triton.jit
def log1p_kernel(X, O, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(O + offs, libdevice.log1p(tl.load(X + offs)))


@triton.jit
def expm1_kernel(X, O, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(O + offs, libdevice.expm1(tl.load(X + offs)))


@triton.jit
def pow_kernel(X, Y, O, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(O + offs, libdevice.pow(tl.load(X + offs), tl.load(Y + offs)))


@triton.jit
def maxmin_kernel(X, Y, MX, MN, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    y = tl.load(Y + offs)
    tl.store(MX + offs, tl.maximum(x, y))
    tl.store(MN + offs, tl.minimum(x, y))


@triton.jit
def maxmin_nan_kernel(X, Y, MX, MN, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    y = tl.load(Y + offs)
    tl.store(MX + offs, tl.maximum(x, y, propagate_nan=tl.PropagateNan.ALL))
    tl.store(MN + offs, tl.minimum(x, y, propagate_nan=tl.PropagateNan.ALL))


@triton.jit
def div_kernel(X, Y, O, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(O + offs, tl.load(X + offs) / tl.load(Y + offs))


@triton.jit
def div_rn_kernel(X, Y, O, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(O + offs, tl.div_rn(tl.load(X + offs), tl.load(Y + offs)))


@triton.jit
def fdiv_kernel(X, Y, O, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(O + offs, tl.fdiv(tl.load(X + offs), tl.load(Y + offs)))


@triton.jit
def fma_kernel(X, Y, Z, O, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(O + offs, tl.fma(tl.load(X + offs), tl.load(Y + offs), tl.load(Z + offs)))


@triton.jit
def mul_add_kernel(X, Y, Z, O, BLOCK: tl.constexpr):
    # Two operations in the source: Triton may contract them into one fma.
    offs = tl.arange(0, BLOCK)
    tl.store(O + offs, tl.load(X + offs) * tl.load(Y + offs) + tl.load(Z + offs))


@triton.jit
def clamp_kernel(X, LO, HI, O, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(O + offs, tl.clamp(tl.load(X + offs), tl.load(LO + offs), tl.load(HI + offs)))


@triton.jit
def umulhi_kernel(X, Y, O, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(O + offs, tl.umulhi(tl.load(X + offs), tl.load(Y + offs)))


@triton.jit
def roundtrip_kernel(X, O, BLOCK: tl.constexpr, DT: tl.constexpr):
    # f32 values stored through a narrow type and back: storage rounding.
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    tl.store(O + offs, (x.to(DT) * 3).to(tl.float32))


UNARY = {"exp": exp_kernel, "exp2": exp2_kernel, "log": log_kernel, "log2": log2_kernel, "sqrt": sqrt_kernel,
         "sqrt_rn": sqrt_rn_kernel, "rsqrt": rsqrt_kernel, "sin": sin_kernel, "cos": cos_kernel,
         "sigmoid": sigmoid_kernel, "floor": floor_kernel, "ceil": ceil_kernel, "abs": abs_kernel,
         "erf": erf_kernel, "tanh": tanh_kernel, "log1p": log1p_kernel, "expm1": expm1_kernel}


def _pm_zero(rng):
    # +-0, NaN and equal values paired both ways with the other operand
    import numpy as np
    v = rng.standard_normal(N)
    v[:8] = [0.0, -0.0, 0.0, -0.0, np.nan, 1.0, np.nan, -np.inf]
    return v


def _pm_zero_other(rng):
    import numpy as np
    v = rng.standard_normal(N)
    v[:8] = [-0.0, 0.0, 0.0, -0.0, 1.0, np.nan, np.nan, np.nan]
    return v


def cases():
    from corpus import DT
    out = []
    for op, k in UNARY.items():
        for dt in FLOATS:
            out.append(Case(f"{op}_{dt}", "math", k, [In("x", dt, (N,)), Out("o", dt, (N,)), N], bound=op))
    for dt in ("i8", "i32", "i64"):
        out.append(Case(f"abs_{dt}", "math_int", abs_kernel, [In("x", dt, (N,)), Out("o", dt, (N,)), N]))
    for dt in FLOATS:
        out.append(Case(f"pow_{dt}", "math", pow_kernel, [In("x", dt, (N,)), In("y", dt, (N,), kind="small_int"),
                                                            Out("o", dt, (N,)), N], bound="pow"))
        out.append(Case(f"maxmin_{dt}", "maxmin", maxmin_kernel,
                        [In("x", dt, (N,), values=_pm_zero), In("y", dt, (N,), values=_pm_zero_other),
                         Out("mx", dt, (N,)), Out("mn", dt, (N,)), N]))
        out.append(Case(f"maxmin_nan_{dt}", "maxmin", maxmin_nan_kernel,
                        [In("x", dt, (N,), values=_pm_zero), In("y", dt, (N,), values=_pm_zero_other),
                         Out("mx", dt, (N,)), Out("mn", dt, (N,)), N]))
        out.append(Case(f"div_{dt}", "div", div_kernel,
                        [In("x", dt, (N,)), In("y", dt, (N,)), Out("o", dt, (N,)), N], bound="div"))
        out.append(Case(f"div_rn_{dt}", "div", div_rn_kernel,
                        [In("x", dt, (N,)), In("y", dt, (N,)), Out("o", dt, (N,)), N], bound="div_rn"))
        out.append(Case(f"fma_{dt}", "fma", fma_kernel,
                        [In("x", dt, (N,)), In("y", dt, (N,)), In("z", dt, (N,)), Out("o", dt, (N,)), N]))
        out.append(Case(f"mul_add_{dt}", "fma", mul_add_kernel,
                        [In("x", dt, (N,), kind="unit"), In("y", dt, (N,), kind="unit"),
                         In("z", dt, (N,), kind="unit"), Out("o", dt, (N,)), N], bound="mul_add"))
        out.append(Case(f"clamp_{dt}", "maxmin", clamp_kernel,
                        [In("x", dt, (N,)), In("lo", dt, (N,), values=lambda rng: -abs(rng.standard_normal(N))),
                         In("hi", dt, (N,), values=lambda rng: abs(rng.standard_normal(N))), Out("o", dt, (N,)), N]))
    for dt in ("f32", "f64"):
        out.append(Case(f"fdiv_{dt}", "div", fdiv_kernel,
                        [In("x", dt, (N,)), In("y", dt, (N,)), Out("o", dt, (N,)), N], bound="fdiv"))
    for dt in ("i8", "u8", "i32", "u32", "i64"):
        out.append(Case(f"maxmin_{dt}", "maxmin", maxmin_kernel,
                        [In("x", dt, (N,)), In("y", dt, (N,)), Out("mx", dt, (N,)), Out("mn", dt, (N,)), N]))
        out.append(Case(f"clamp_{dt}", "maxmin", clamp_kernel,
                        [In("x", dt, (N,)), In("lo", dt, (N,), values=lambda rng: [0] * N),
                         In("hi", dt, (N,), values=lambda rng: [50] * N), Out("o", dt, (N,)), N]))
    for dt in ("i32", "u32", "i64", "u64"):
        out.append(Case(f"umulhi_{dt}", "math_int", umulhi_kernel,
                        [In("x", dt, (N,)), In("y", dt, (N,)), Out("o", dt, (N,)), N]))
    for dt in ("f16", "bf16"):
        out.append(Case(f"roundtrip_{dt}", "storage_rounding", roundtrip_kernel,
                        [In("x", "f32", (N,)), Out("o", "f32", (N,)), N, DT(dt)]))
    return out
