"""Integer semantics: // and % with negative operands (C's truncation, as
Triton's), >> of negatives (arithmetic for signed, logical for unsigned),
shifts by the width or more, narrow-integer wrap-around, negation and
bitwise operators; float % and //."""
import triton
import triton.language as tl

from corpus import FLOATS, INTS, STORAGE, WIDTH, Case, In, Out, int_range
from kernels_common import N


@triton.jit
def floordiv_kernel(X, Y, O, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(O + offs, tl.load(X + offs) // tl.load(Y + offs))


@triton.jit
def mod_kernel(X, Y, O, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(O + offs, tl.load(X + offs) % tl.load(Y + offs))


@triton.jit
def shr_kernel(X, S, O, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(O + offs, tl.load(X + offs) >> tl.load(S + offs))


@triton.jit
def shl_kernel(X, S, O, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(O + offs, tl.load(X + offs) << tl.load(S + offs))


@triton.jit
def shift_const_kernel(X, L, R, BLOCK: tl.constexpr, SH: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    tl.store(L + offs, x << SH)
    tl.store(R + offs, x >> SH)


@triton.jit
def wrap_kernel(X, Y, A, S, M, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    y = tl.load(Y + offs)
    tl.store(A + offs, x + y)
    tl.store(S + offs, x - y)
    tl.store(M + offs, x * y)


@triton.jit
def neg_kernel(X, O, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(O + offs, -tl.load(X + offs))


@triton.jit
def bitwise_kernel(X, Y, A, B, C, D, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    y = tl.load(Y + offs)
    tl.store(A + offs, x & y)
    tl.store(B + offs, x | y)
    tl.store(C + offs, x ^ y)
    tl.store(D + offs, ~x)


@triton.jit
def compare_kernel(X, Y, LT, EQ, GE, NE, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    y = tl.load(Y + offs)
    tl.store(LT + offs, x < y)
    tl.store(EQ + offs, x == y)
    tl.store(GE + offs, x >= y)
    tl.store(NE + offs, x != y)


def _divisors(dt):
    def values(rng):
        lo, hi = int_range(dt)
        small = [v for v in (1, -1, 2, -2, 3, -3, 7, -7, 10, -10, hi, lo) if lo <= v <= hi]
        out = [small[i % len(small)] for i in range(N // 2)]
        out += list(rng.integers(max(lo, -1000), min(hi, 1000) + 1, N - N // 2))
        return [v if v != 0 else 5 for v in out]
    return values


def _dividends(dt):
    def values(rng):
        lo, hi = int_range(dt)
        base = [v for v in (7, -7, 6, -6, 1, -1, 0, hi, lo + 1, 9, -9, 100, -100) if lo <= v <= hi]
        out = [base[i % len(base)] for i in range(N // 2)]
        out += list(rng.integers(lo, hi, N - N // 2, endpoint=True, dtype=STORAGE[dt]))
        # MIN // -1 overflows (undefined in LLVM): never asked.
        return [v if v != lo else lo + 1 for v in out]
    return values


def _shift_amounts(dt, wide):
    w = WIDTH[dt]

    def values(rng):
        if wide:
            return list(rng.integers(w, w + 8, N))
        return [i % w for i in range(N)]
    return values


def cases():
    out = []
    for dt in INTS:
        # a dividend of MIN is paired with divisors other than -1 (see _divisors: lo only as divisor)
        for name, k in (("floordiv", floordiv_kernel), ("mod", mod_kernel)):
            out.append(Case(f"int_{name}_{dt}", "int_divmod", k,
                            [In("x", dt, (N,), values=_dividends(dt)), In("y", dt, (N,), values=_divisors(dt)),
                             Out("o", dt, (N,)), N]))
        out.append(Case(f"shr_{dt}", "shift", shr_kernel,
                        [In("x", dt, (N,)), In("s", dt, (N,), values=_shift_amounts(dt, False)),
                         Out("o", dt, (N,)), N]))
        out.append(Case(f"shl_{dt}", "shift", shl_kernel,
                        [In("x", dt, (N,)), In("s", dt, (N,), values=_shift_amounts(dt, False)),
                         Out("o", dt, (N,)), N]))
    for dt in ("i8", "i32", "u32", "i64"):
        out.append(Case(f"shr_wide_{dt}", "shift", shr_kernel,
                        [In("x", dt, (N,)), In("s", dt, (N,), values=_shift_amounts(dt, True)),
                         Out("o", dt, (N,)), N]))
    for dt, sh in (("i32", 31), ("u32", 31), ("i8", 7), ("u8", 7), ("i16", 15), ("i64", 63)):
        out.append(Case(f"shift_const_{dt}_{sh}", "shift", shift_const_kernel,
                        [In("x", dt, (N,)), Out("l", dt, (N,)), Out("r", dt, (N,)), N, sh]))
    for dt in ("i8", "i16", "u8", "u16", "i32", "u32"):
        out.append(Case(f"wrap_{dt}", "narrow_int", wrap_kernel,
                        [In("x", dt, (N,)), In("y", dt, (N,)), Out("a", dt, (N,)), Out("s", dt, (N,)),
                         Out("m", dt, (N,)), N]))
    for dt in ("i8", "i16", "i32", "i64", "u8", "u32") + tuple(FLOATS):
        out.append(Case(f"neg_{dt}", "narrow_int" if dt not in FLOATS else "neg_float", neg_kernel,
                        [In("x", dt, (N,)), Out("o", dt, (N,)), N]))
    for dt in ("i1", "i8", "u8", "i32", "i64", "u64"):
        out.append(Case(f"bitwise_{dt}", "bitwise", bitwise_kernel,
                        [In("x", dt, (N,)), In("y", dt, (N,)), Out("a", dt, (N,)), Out("b", dt, (N,)),
                         Out("c", dt, (N,)), Out("d", dt, (N,)), N]))
    for dt in ("i8", "u8", "u32", "i64", "u64", "f16", "bf16", "f32"):
        out.append(Case(f"compare_{dt}", "bitwise", compare_kernel,
                        [In("x", dt, (N,)), In("y", dt, (N,), kind="general"), Out("lt", "i1", (N,)),
                         Out("eq", "i1", (N,)), Out("ge", "i1", (N,)), Out("ne", "i1", (N,)), N]))
    for dt in FLOATS:
        out.append(Case(f"float_mod_{dt}", "float_divmod", mod_kernel,
                        [In("x", dt, (N,)), In("y", dt, (N,)), Out("o", dt, (N,)), N], bound="mod"))
        out.append(Case(f"float_floordiv_{dt}", "float_divmod", floordiv_kernel,
                        [In("x", dt, (N,)), In("y", dt, (N,)), Out("o", dt, (N,)), N], bound="mod"))
    return out
