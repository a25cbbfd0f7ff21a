"""Atomics, math, casts with rounding and hints through the Python front end: real `@triton.jit` kernels
(`import triton` provided by tilescope's shim) using atomics, math, casts
with bitcast and rounding, hints and dot dtypes, compared with numpy."""
import inspect
import math

import numpy as np
import pytest

import tilescope
from tilescope import triton_shim

triton_shim.install()
import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from triton.language.extra import libdevice  # noqa: E402


@triton.jit
def atomics_kernel(c_ptr, old_ptr, v_ptr, B: tl.constexpr):
    pid = tl.program_id(0)
    i = tl.arange(0, B)
    v = tl.load(v_ptr + pid * B + i)
    o_max = tl.atomic_max(c_ptr + i, v)
    o_min = tl.atomic_min(c_ptr + B + i, v, mask=i < B - 1, sem="relaxed", scope="cta")
    o_or = tl.atomic_or(c_ptr + 2 * B + i, v & 0xFF)
    o_xor = tl.atomic_xor(c_ptr + 3 * B + i, v, sem="release")
    o_and = tl.atomic_and(c_ptr + 4 * B + i, v | 0xF0F0, scope="gpu")
    o_x = tl.atomic_xchg(c_ptr + 5 * B + i, v, sem="acquire", scope="sys")
    tl.store(old_ptr + pid * 6 * B + i, o_max)
    tl.store(old_ptr + pid * 6 * B + B + i, o_min)
    tl.store(old_ptr + pid * 6 * B + 2 * B + i, o_or)
    tl.store(old_ptr + pid * 6 * B + 3 * B + i, o_xor)
    tl.store(old_ptr + pid * 6 * B + 4 * B + i, o_and)
    tl.store(old_ptr + pid * 6 * B + 5 * B + i, o_x)


def test_atomics_return_old_values_in_program_order():
    B, P = 8, 4
    rng = np.random.default_rng(3)
    v = rng.integers(-1000, 1000, size=P * B).astype(np.int32)
    c = rng.integers(-1000, 1000, size=6 * B).astype(np.int32)
    want_c, want_old = c.copy(), np.zeros(P * 6 * B, np.int32)
    for p in range(P):
        vp = v[p * B:(p + 1) * B]
        blocks = [want_c[k * B:(k + 1) * B] for k in range(6)]
        new = [np.maximum(blocks[0], vp), np.where(np.arange(B) < B - 1, np.minimum(blocks[1], vp), blocks[1]),
               blocks[2] | (vp & 0xFF), blocks[3] ^ vp, blocks[4] & (vp | 0xF0F0), vp]
        for k in range(6):
            old = blocks[k].copy()
            if k == 1:
                old[B - 1] = 0  # a masked lane returns 0
            want_old[p * 6 * B + k * B:p * 6 * B + (k + 1) * B] = old
            want_c[k * B:(k + 1) * B] = new[k]
    old = np.zeros(P * 6 * B, np.int32)
    r = atomics_kernel[(P,)](c, old, v, B=B)
    assert r.ok() and not r.findings, r.report()
    np.testing.assert_array_equal(c, want_c)
    np.testing.assert_array_equal(old, want_old)


@triton.jit
def ticket_kernel(lock_ptr, got_ptr):
    pid = tl.program_id(0)
    tl.store(got_ptr + pid, tl.atomic_cas(lock_ptr, pid, pid + 1))


def test_atomic_cas_hands_out_tickets_in_program_order():
    lock, got = np.zeros(1, np.int32), np.full(16, -1, np.int32)
    r = ticket_kernel[(16,)](lock, got)
    assert r.ok(), r.report()
    assert lock[0] == 16
    np.testing.assert_array_equal(got, np.arange(16))


@triton.jit
def float_max_kernel(c_ptr, v_ptr, B: tl.constexpr):
    i = tl.arange(0, B)
    tl.atomic_max(c_ptr + i, tl.load(v_ptr + i))


def test_float_atomic_max_orders_by_value():
    c = np.array([1.5, -2.0, -7.25, 0.5, 3.0, -1.0, 100.0, -0.125], np.float32)
    v = np.array([-4.0, -1.0, -8.0, 2.5, 3.0, -3.5, -100.0, 0.125], np.float32)
    want = np.maximum(c, v)
    float_max_kernel[(1,)](c, v, B=8)
    np.testing.assert_array_equal(c, want)


def test_atomic_on_f16_other_than_add_is_a_build_error():
    with pytest.raises(tilescope.KernelError, match="atomic_max does not support f16"):
        float_max_kernel[(1,)](np.zeros(8, np.float16), np.zeros(8, np.float16), B=8)


@triton.jit
def bad_sem_kernel(c_ptr):
    tl.atomic_add(c_ptr, 1.0, sem="seq_cst")


def test_an_unknown_sem_is_a_build_error():
    with pytest.raises(tilescope.KernelError, match="memory semantic 'seq_cst' is not supported"):
        bad_sem_kernel[(1,)](np.zeros(1, np.float32))


@triton.jit
def math_kernel(x_ptr, y_ptr, out_ptr, B: tl.constexpr):
    i = tl.arange(0, B)
    x = tl.load(x_ptr + i)
    y = tl.load(y_ptr + i)
    tl.store(out_ptr + 0 * B + i, tl.erf(x))
    tl.store(out_ptr + 1 * B + i, libdevice.log1p(tl.abs(x)))
    tl.store(out_ptr + 2 * B + i, libdevice.expm1(x))
    tl.store(out_ptr + 3 * B + i, libdevice.pow(tl.abs(x), y))
    tl.store(out_ptr + 4 * B + i, tl.clamp(x, -1.0, 1.0))
    tl.store(out_ptr + 5 * B + i, tl.div_rn(x, y))
    tl.store(out_ptr + 6 * B + i, tl.fdiv(x, y))
    tl.store(out_ptr + 7 * B + i, libdevice.rint(x * 2.0))
    tl.store(out_ptr + 8 * B + i, libdevice.round(x * 2.0))
    tl.store(out_ptr + 9 * B + i, tl.math.pow(tl.abs(x), 2.0))
    tl.store(out_ptr + 10 * B + i, tl.floor(x) + tl.ceil(x))


def test_math_matches_numpy():
    B = 16
    x = np.array([-3.25, -1.0, -0.75, -0.25, 0.0, 0.25, 0.5, 0.75, 1.25, 1.75, 2.25, 3.0, -2.25, 0.125, 5.5, -5.5],
                 np.float32)
    y = np.linspace(0.5, 2.0, B).astype(np.float32)
    out = np.zeros(11 * B, np.float32)
    r = math_kernel[(1,)](x, y, out, B=B)
    assert r.ok(), r.report()
    f = np.float32
    want = [np.array([math.erf(v) for v in x], f), np.log1p(np.abs(x)), np.expm1(x), np.power(np.abs(x), y),
            np.clip(x, -1, 1), x / y, x / y, np.rint(x * 2), np.trunc(x * 2 + np.copysign(0.5, x)),
            np.power(np.abs(x), f(2)), np.floor(x) + np.ceil(x)]
    for k, w in enumerate(want):
        np.testing.assert_allclose(out[k * B:(k + 1) * B], w.astype(f), rtol=2e-7, atol=0, err_msg=f"block {k}")


@triton.jit
def sqrt_rn_kernel(x_ptr, out_ptr, B: tl.constexpr):
    i = tl.arange(0, B)
    tl.store(out_ptr + i, tl.sqrt_rn(tl.load(x_ptr + i)))


def test_sqrt_rn_is_the_correctly_rounded_square_root():
    x = np.array([0.0, 1.0, 2.0, 3.0, 1e-30, 7.75, 1e30, 0.5], np.float32)
    out = np.zeros(8, np.float32)
    sqrt_rn_kernel[(1,)](x, out, B=8)
    np.testing.assert_array_equal(out, np.sqrt(x))


def test_sqrt_rn_off_f32_is_a_build_error_at_the_call():
    # The rule is the C++ front end's (tl::sqrt_rn), as for div_rn.
    with pytest.raises(tilescope.KernelError) as e:
        sqrt_rn_kernel[(1,)](np.zeros(8, np.float16), np.zeros(8, np.float16), B=8)
    lines, start = inspect.getsourcelines(sqrt_rn_kernel.fn)
    line = start + next(i for i, t in enumerate(lines) if "tl.sqrt_rn" in t)
    assert f"test_ops_atomics_math.py:{line}:" in str(e.value)
    assert "error: sqrt_rn needs an f32 tile (as Triton's), got f16[8]; convert with .to(tl::f32) first" \
        in str(e.value)


@triton.jit
def umulhi_kernel(a_ptr, b_ptr, out_ptr, B: tl.constexpr):
    i = tl.arange(0, B)
    tl.store(out_ptr + i, tl.umulhi(tl.load(a_ptr + i), tl.load(b_ptr + i)))


def test_umulhi_matches_the_high_word():
    a = np.array([0xFFFFFFFF, 0x12345678, 3, 0x80000000], np.uint32)
    b = np.array([0xFFFFFFFF, 0x9ABCDEF0, 5, 2], np.uint32)
    out = np.zeros(4, np.uint32)
    umulhi_kernel[(1,)](a, b, out, B=4)
    want = ((a.astype(np.uint64) * b.astype(np.uint64)) >> np.uint64(32)).astype(np.uint32)
    np.testing.assert_array_equal(out, want)


@triton.jit
def nan_inf_kernel(x_ptr, out_ptr, B: tl.constexpr):
    i = tl.arange(0, B)
    x = tl.load(x_ptr + i)
    tl.store(out_ptr + i, (x != x).to(tl.int32))
    tl.store(out_ptr + B + i, (tl.abs(x) == float("inf")).to(tl.int32))


def test_isnan_and_isinf_as_comparisons():
    x = np.array([1.0, np.nan, np.inf, -np.inf], np.float32)
    out = np.zeros(8, np.int32)
    nan_inf_kernel[(1,)](x, out, B=4)
    np.testing.assert_array_equal(out, np.concatenate([np.isnan(x), np.isinf(x)]).astype(np.int32))


@triton.jit
def cast_kernel(x_ptr, bits_ptr, h_ptr, hz_ptr, B: tl.constexpr):
    i = tl.multiple_of(tl.arange(0, B), 4)
    i = tl.max_contiguous(tl.max_constancy(i, 1), 4)
    tl.assume(B > 0)
    tl.debug_barrier()
    x = tl.load(x_ptr + i)
    tl.store(bits_ptr + i, x.to(tl.int32, bitcast=True))
    tl.store(h_ptr + i, x.to(tl.float16))
    tl.store(hz_ptr + i, tl.cast(x, tl.float16, fp_downcast_rounding="rtz"))


def test_bitcast_and_rtz_downcast():
    x = np.array([1.0 + 3.0 / 4096, -(1.0 + 3.0 / 4096), 70000.0, 0.1], np.float32)
    bits, h, hz = np.zeros(4, np.int32), np.zeros(4, np.float16), np.zeros(4, np.float16)
    r = cast_kernel[(1,)](x, bits, h, hz, B=4)
    # Only the round-to-nearest cast of 70000 overflows f16 (a warning); rtz gives 65504.
    assert [f.kind for f in r.findings] == ["float conversion overflows to inf"], r.report()
    assert "x.to(tl.float16)" in open(__file__).read().splitlines()[r.findings[0].line - 1]
    np.testing.assert_array_equal(bits, x.view(np.int32))
    with np.errstate(over="ignore"):  # 70000 overflows f16 to inf, as the kernel's cast does
        np.testing.assert_array_equal(h, x.astype(np.float16))
    # Toward zero: never larger in magnitude than x, and the next f16 up is.
    assert np.all(np.abs(hz.astype(np.float32)) <= np.abs(x))
    assert hz[2] == np.float16(65504)
    assert hz[0] == np.float16(1.0) and h[0] == np.float16(1.0 + 1.0 / 1024)  # 1 + 0.75 ulp


@triton.jit
def bad_bitcast_kernel(x_ptr, out_ptr):
    tl.store(out_ptr, tl.load(x_ptr).to(tl.int64, bitcast=True))


def test_bitcast_between_widths_is_a_build_error():
    with pytest.raises(tilescope.KernelError, match="bitcast needs types of the same width"):
        bad_bitcast_kernel[(1,)](np.zeros(1, np.float32), np.zeros(1, np.int64))


@triton.jit
def dot_kernel(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, ALLOW: tl.constexpr):
    m = tl.arange(0, M)
    n = tl.arange(0, N)
    k = tl.arange(0, K)
    a = tl.load(a_ptr + m[:, None] * K + k[None, :])
    b = tl.load(b_ptr + k[:, None] * N + n[None, :])
    tl.store(c_ptr + m[:, None] * N + n[None, :], tl.dot(a, b, allow_tf32=ALLOW))


@pytest.mark.parametrize("dtype,acc", [(np.float16, np.float32), (np.int8, np.int32), (np.float32, np.float32)])
def test_dot_dtypes_match_numpy(dtype, acc):
    M, N, K = 16, 32, 32
    rng = np.random.default_rng(5)
    a = rng.integers(-4, 5, size=(M, K)).astype(dtype)
    b = rng.integers(-4, 5, size=(K, N)).astype(dtype)
    c = np.zeros((M, N), acc)
    r = dot_kernel[(1,)](a, b, c, M=M, N=N, K=K, ALLOW=False)
    assert r.ok(), r.report()
    np.testing.assert_array_equal(c, a.astype(np.int64) @ b.astype(np.int64))


@triton.jit
def dot_out_kernel(a_ptr, c_ptr, M: tl.constexpr):
    m = tl.arange(0, M)
    a = tl.load(a_ptr + m[:, None] * M + m[None, :])
    tl.store(c_ptr + m[:, None] * M + m[None, :], tl.dot(a, a, out_dtype=tl.bfloat16))


def test_dot_out_dtype_bf16_is_a_build_error():
    with pytest.raises(tilescope.KernelError, match="out_dtype=bf16 is not supported"):
        dot_out_kernel[(1,)](np.zeros((16, 16), np.float16), np.zeros((16, 16), np.float32), M=16)
