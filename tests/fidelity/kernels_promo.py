"""Type promotion: every ordered pair of the 13 dtypes through + * -,
and each dtype with Python literals (int, large int, float), runtime
scalars and tl.maximum's literal. Each case stores the values (into a
wide buffer: f64 for float results, i64 for integer ones, both exact)
and the result dtype as Triton computed it (kernels_common.store_code)."""
import triton
import triton.language as tl

from corpus import DTYPES, Case, In, Out, Scalar, is_float
from kernels_common import N, store_code


@triton.jit
def store_with_code(ptr, code_ptr, offs, r):
    # Every kernel here stores its result r and r's dtype as Triton computed it.
    tl.store(ptr + offs, r)
    store_code(code_ptr, r)


@triton.jit
def promo_kernel(X, Y, S, P, D, C, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    y = tl.load(Y + offs)
    store_with_code(S, C, offs, x + y)
    store_with_code(P, C + 1, offs, x * y)
    store_with_code(D, C + 2, offs, x - y)


@triton.jit
def lit_add_int_kernel(X, O, C, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    store_with_code(O, C, offs, tl.load(X + offs) + 3)


@triton.jit
def lit_rsub_int_kernel(X, O, C, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    store_with_code(O, C, offs, 1 - tl.load(X + offs))


@triton.jit
def lit_mul_neg_kernel(X, O, C, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    store_with_code(O, C, offs, tl.load(X + offs) * -2)


@triton.jit
def lit_add_big_kernel(X, O, C, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    store_with_code(O, C, offs, tl.load(X + offs) + 4294967296)


@triton.jit
def lit_add_float_kernel(X, O, C, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    store_with_code(O, C, offs, tl.load(X + offs) + 1.5)


@triton.jit
def lit_div_int_kernel(X, O, C, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    store_with_code(O, C, offs, tl.load(X + offs) / 2)


@triton.jit
def lit_maximum_kernel(X, O, C, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    store_with_code(O, C, offs, tl.maximum(tl.load(X + offs), 2))


@triton.jit
def scalar_int_kernel(X, O, C, s, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    store_with_code(O, C, offs, tl.load(X + offs) + s)


@triton.jit
def scalar_float_kernel(X, O, C, s, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    store_with_code(O, C, offs, tl.load(X + offs) * s)


def _wide(*dts, float_result=False):
    return "f64" if float_result or any(is_float(d) for d in dts) else "i64"


def cases():
    out = []
    for a in DTYPES:
        for b in DTYPES:
            w = _wide(a, b)
            out.append(Case(f"promo_{a}_{b}", "promotion", promo_kernel,
                            [In("x", a, (N,)), In("y", b, (N,)), Out("s", w, (N,)), Out("p", w, (N,)),
                             Out("d", w, (N,)), Out("code", "i32", (3,)), N]))
    lits = [("add_int", lit_add_int_kernel, False), ("rsub_int", lit_rsub_int_kernel, False),
            ("mul_neg", lit_mul_neg_kernel, False), ("add_big", lit_add_big_kernel, False),
            ("add_float", lit_add_float_kernel, True), ("div_int", lit_div_int_kernel, True),
            ("maximum", lit_maximum_kernel, False)]
    for a in DTYPES:
        for name, k, fl in lits:
            out.append(Case(f"lit_{name}_{a}", "promotion_literal", k,
                            [In("x", a, (N,)), Out("o", _wide(a, float_result=fl), (N,)),
                             Out("code", "i32", (1,)), N]))
        out.append(Case(f"lit_scalar_int_{a}", "promotion_literal", scalar_int_kernel,
                        [In("x", a, (N,)), Out("o", _wide(a), (N,)), Out("code", "i32", (1,)), Scalar("s", 5), N]))
        out.append(Case(f"lit_scalar_float_{a}", "promotion_literal", scalar_float_kernel,
                        [In("x", a, (N,)), Out("o", "f64", (N,)), Out("code", "i32", (1,)), Scalar("s", 0.3),
                         N]))
    return out
