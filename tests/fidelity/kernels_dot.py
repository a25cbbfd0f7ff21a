"""tl.dot on 16 x 16 x 16 tiles: f32 in each input_precision (tf32,
tf32x3, ieee), f16 and bf16 (f32 accumulation, and out_dtype=f16), int8
(i32 accumulation), with and without an accumulator."""
import triton
import triton.language as tl

from corpus import Case, In, Out

M = 16


@triton.jit
def dot_kernel(A, B, O, M: tl.constexpr, PREC: tl.constexpr):
    r = tl.arange(0, M)
    a = tl.load(A + r[:, None] * M + r[None, :])
    b = tl.load(B + r[:, None] * M + r[None, :])
    tl.store(O + r[:, None] * M + r[None, :], tl.dot(a, b, input_precision=PREC))


@triton.jit
def dot_default_kernel(A, B, O, M: tl.constexpr):
    r = tl.arange(0, M)
    a = tl.load(A + r[:, None] * M + r[None, :])
    b = tl.load(B + r[:, None] * M + r[None, :])
    tl.store(O + r[:, None] * M + r[None, :], tl.dot(a, b))


@triton.jit
def dot_acc_kernel(A, B, C, O, M: tl.constexpr):
    r = tl.arange(0, M)
    a = tl.load(A + r[:, None] * M + r[None, :])
    b = tl.load(B + r[:, None] * M + r[None, :])
    c = tl.load(C + r[:, None] * M + r[None, :])
    tl.store(O + r[:, None] * M + r[None, :], tl.dot(a, b, c))


@triton.jit
def dot_out_kernel(A, B, O, M: tl.constexpr, OUT: tl.constexpr):
    r = tl.arange(0, M)
    a = tl.load(A + r[:, None] * M + r[None, :])
    b = tl.load(B + r[:, None] * M + r[None, :])
    tl.store(O + r[:, None] * M + r[None, :], tl.dot(a, b, out_dtype=OUT))


def cases():
    from corpus import DT
    out = []
    sq = (M, M)
    for prec in ("tf32", "tf32x3", "ieee"):
        out.append(Case(f"dot_f32_{prec}", "dot", dot_kernel,
                        [In("a", "f32", sq, kind="unit"), In("b", "f32", sq, kind="unit"), Out("o", "f32", sq), M,
                         prec], bound=f"dot_{prec}"))
    for dt in ("f16", "bf16"):
        out.append(Case(f"dot_{dt}", "dot", dot_default_kernel,
                        [In("a", dt, sq, kind="unit"), In("b", dt, sq, kind="unit"), Out("o", "f32", sq), M],
                        bound="dot_half"))
        out.append(Case(f"dot_acc_{dt}", "dot", dot_acc_kernel,
                        [In("a", dt, sq, kind="unit"), In("b", dt, sq, kind="unit"), In("c", "f32", sq, kind="unit"),
                         Out("o", "f32", sq), M], bound="dot_half"))
    out.append(Case("dot_f16_out_f16", "dot", dot_out_kernel,
                    [In("a", "f16", sq, kind="unit"), In("b", "f16", sq, kind="unit"), Out("o", "f16", sq), M,
                     DT("f16")], bound="dot_half"))
    out.append(Case("dot_i8", "dot", dot_default_kernel,
                    [In("a", "i8", sq), In("b", "i8", sq), Out("o", "i32", sq), M]))
    out.append(Case("dot_i8_k32", "dot", dot_default_kernel,
                    [In("a", "i8", (32, 32)), In("b", "i8", (32, 32)), Out("o", "i32", (32, 32)), 32]))
    out.append(Case("dot_acc_i8", "dot", dot_acc_kernel,
                    [In("a", "i8", sq), In("b", "i8", sq), In("c", "i32", sq), Out("o", "i32", sq), M]))
    out.append(Case("dot_f32_small_ints", "dot", dot_default_kernel,
                    [In("a", "f32", sq, kind="small_int"), In("b", "f32", sq, kind="small_int"),
                     Out("o", "f32", sq), M]))
    return out
