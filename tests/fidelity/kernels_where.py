"""tl.where: broadcasting of condition and branches, promotion between
branches of different dtypes and with literals, NaN in the branches."""
import triton
import triton.language as tl

from corpus import Case, In, Out
from kernels_common import N, store_code

R, C = 8, 16


@triton.jit
def where_bcast_kernel(CND, X, Y, O, R: tl.constexpr, C: tl.constexpr):
    rows = tl.arange(0, R)
    cols = tl.arange(0, C)
    c = tl.load(CND + rows)[:, None]
    x = tl.load(X + cols)[None, :]
    y = tl.load(Y + rows * C)[:, None]
    tl.store(O + rows[:, None] * C + cols[None, :], tl.where(c, x, y))


@triton.jit
def where_mixed_kernel(CND, X, Y, O, CODE, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    r = tl.where(tl.load(CND + offs), tl.load(X + offs), tl.load(Y + offs))
    tl.store(O + offs, r)
    store_code(CODE, r)


@triton.jit
def where_literal_kernel(CND, X, O, P, CODE, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    c = tl.load(CND + offs)
    x = tl.load(X + offs)
    r = tl.where(c, x, 0)
    q = tl.where(c, 1.5, x)
    tl.store(O + offs, r)
    tl.store(P + offs, q)
    store_code(CODE, r)
    store_code(CODE + 1, q)


@triton.jit
def where_cmp_kernel(X, O, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    tl.store(O + offs, tl.where(x > 0, x, -x))


def cases():
    out = []
    for dt in ("f32", "i8", "f16"):
        out.append(Case(f"where_bcast_{dt}", "where", where_bcast_kernel,
                        [In("c", "i1", (R,)), In("x", dt, (C,)), In("y", dt, (R * C,)), Out("o", dt, (R, C)), R, C]))
    for a, b in (("i8", "f32"), ("i32", "i64"), ("u8", "i8"), ("f16", "bf16"), ("i1", "i32"), ("u32", "f16"),
                 ("f16", "f32")):
        w = "f64" if a[0] in "fb" or b[0] in "fb" else "i64"
        out.append(Case(f"where_mixed_{a}_{b}", "where", where_mixed_kernel,
                        [In("c", "i1", (N,)), In("x", a, (N,)), In("y", b, (N,)), Out("o", w, (N,)),
                         Out("code", "i32", (1,)), N]))
    for dt in ("i8", "u16", "f16", "i64", "f32"):
        w = "f64" if dt[0] in "fb" else "i64"
        out.append(Case(f"where_literal_{dt}", "where", where_literal_kernel,
                        [In("c", "i1", (N,)), In("x", dt, (N,)), Out("o", w, (N,)), Out("p", "f64", (N,)),
                         Out("code", "i32", (2,)), N]))
    for dt in ("f32", "i32", "f16"):
        out.append(Case(f"where_cmp_{dt}", "where", where_cmp_kernel, [In("x", dt, (N,)), Out("o", dt, (N,)), N]))
    return out
