"""Scans, sorts and permutations written as real @triton.jit
kernels (triton_shim where Triton is not installed), run through the
Python front end and compared with numpy. Combine functions are @triton.jit
functions whose bodies the front end visits once, into the op's block."""
import numpy as np
import pytest

from tilescope import triton_shim

triton_shim.install()
import triton  # noqa: E402
import triton.language as tl  # noqa: E402


@triton.jit
def _add(a, b):
    return a + b


@triton.jit
def _max_and_index(v0, i0, v1, i1):
    take = v1 > v0
    return tl.where(take, v1, v0), tl.where(take, i1, i0)


@triton.jit
def _minus(a, b):
    return a - b


@triton.jit
def cumsum_kernel(x_ptr, y_ptr, z_ptr, N: tl.constexpr):
    i = tl.arange(0, N)
    x = tl.load(x_ptr + i)
    tl.store(y_ptr + i, tl.cumsum(x, 0))
    tl.store(z_ptr + i, x.cumsum(0, reverse=True))


def test_cumsum_forward_and_reverse_match_numpy():
    x = (np.arange(64) % 9 - 4).astype(np.int32)
    y = np.zeros(64, np.int32)
    z = np.zeros(64, np.int32)
    r = cumsum_kernel[(1,)](x, y, z, N=64)
    assert r.ok() and not r.findings, r.report()
    np.testing.assert_array_equal(y, np.cumsum(x))
    np.testing.assert_array_equal(z, np.cumsum(x[::-1])[::-1])


@triton.jit
def cumsum_2d(x_ptr, y_ptr, R: tl.constexpr, C: tl.constexpr, AXIS: tl.constexpr):
    off = tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]
    tl.store(y_ptr + off, tl.cumsum(tl.load(x_ptr + off), AXIS))


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_cumsum_along_an_axis_of_a_float_tile_adds_in_order(axis):
    x = np.random.default_rng(0).standard_normal((8, 16)).astype(np.float32)
    y = np.zeros_like(x)
    cumsum_2d[(1,)](x, y, R=8, C=16, AXIS=axis)
    # numpy's float32 cumsum also adds left to right, one rounding per add.
    np.testing.assert_array_equal(y, np.cumsum(x, axis=axis, dtype=np.float32))


@triton.jit
def cumsum_i8(x_ptr, y_ptr, N: tl.constexpr):
    i = tl.arange(0, N)
    tl.store(y_ptr + i, tl.cumsum(tl.load(x_ptr + i)))


def test_cumsum_of_i8_widens_to_i32_before_it_could_wrap():
    x = np.full(16, 100, np.int8)
    y = np.zeros(16, np.int32)
    cumsum_i8[(1,)](x, y, N=16)
    np.testing.assert_array_equal(y, np.cumsum(x.astype(np.int32)))


@triton.jit
def cumprod_kernel(x_ptr, y_ptr, N: tl.constexpr):
    i = tl.arange(0, N)
    tl.store(y_ptr + i, tl.load(x_ptr + i).cumprod(0))


def test_cumprod_wraps_like_numpy_int32():
    x = (np.arange(16) % 5 + 3).astype(np.int32)
    y = np.zeros(16, np.int32)
    cumprod_kernel[(1,)](x, y, N=16)
    np.testing.assert_array_equal(y, np.cumprod(x, dtype=np.int32))


@triton.jit
def scan_user_combine(x_ptr, y_ptr, z_ptr, N: tl.constexpr):
    i = tl.arange(0, N)
    x = tl.load(x_ptr + i)
    tl.store(y_ptr + i, tl.associative_scan(x, 0, _add))
    v, at = tl.associative_scan((x, i), 0, _max_and_index)
    tl.store(z_ptr + i, at)


def test_associative_scan_visits_the_jit_combine_function():
    x = np.array([3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 9, 7, 9, 3, 2], np.int32)
    y = np.zeros(16, np.int32)
    z = np.zeros(16, np.int32)
    r = scan_user_combine[(1,)](x, y, z, N=16)
    assert r.ok(), r.report()
    np.testing.assert_array_equal(y, np.cumsum(x))
    running_argmax = [int(np.argmax(x[:k + 1])) for k in range(16)]
    np.testing.assert_array_equal(z, running_argmax)


@triton.jit
def reduce_kernel(x_ptr, y_ptr, z_ptr, R: tl.constexpr, C: tl.constexpr):
    off = tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]
    t = tl.load(x_ptr + off)
    tl.store(y_ptr + tl.arange(0, R), tl.reduce(t, 1, _minus))
    tl.store(z_ptr + tl.arange(0, C), t.xor_sum(0))


def test_reduce_folds_left_to_right_and_xor_sum():
    x = (np.arange(32).reshape(4, 8) * 37 % 101).astype(np.int32)
    y = np.zeros(4, np.int32)
    z = np.zeros(8, np.int32)
    reduce_kernel[(1,)](x, y, z, R=4, C=8)
    np.testing.assert_array_equal(y, x[:, 0] - x[:, 1:].sum(axis=1))
    np.testing.assert_array_equal(z, np.bitwise_xor.reduce(x, axis=0))


@triton.jit
def sort_kernel(x_ptr, y_ptr, z_ptr, R: tl.constexpr, C: tl.constexpr):
    off = tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]
    t = tl.load(x_ptr + off)
    tl.store(y_ptr + off, tl.sort(t))
    tl.store(z_ptr + off, t.sort(descending=True))


def test_sort_rows_like_numpy_nan_last():
    x = np.random.default_rng(1).integers(-5, 5, (4, 16)).astype(np.float32)
    x[1, 3] = np.nan
    y = np.zeros_like(x)
    z = np.zeros_like(x)
    sort_kernel[(1,)](x, y, z, R=4, C=16)
    np.testing.assert_array_equal(y, np.sort(x, axis=1))
    np.testing.assert_array_equal(np.isnan(z[:, 0]), [False, True, False, False])
    np.testing.assert_array_equal(z[0], np.sort(x[0])[::-1])


@triton.jit
def permute_kernel(x_ptr, y_ptr, z_ptr, N: tl.constexpr):
    i = tl.arange(0, N)
    a = tl.load(x_ptr + i)
    b = tl.load(x_ptr + N + i)
    tl.store(y_ptr + tl.arange(0, 2 * N), tl.interleave(a, b))
    lo, hi = tl.split(tl.join(a, b))
    tl.store(z_ptr + i, tl.flip(hi - lo))


def test_flip_join_split_interleave():
    x = np.arange(32, dtype=np.float32) ** 2
    y = np.zeros(32, np.float32)
    z = np.zeros(16, np.float32)
    permute_kernel[(1,)](x, y, z, N=16)
    np.testing.assert_array_equal(y, np.stack([x[:16], x[16:]], axis=1).reshape(-1))
    np.testing.assert_array_equal(z, (x[16:] - x[:16])[::-1])


@triton.jit
def gather_kernel(x_ptr, i_ptr, y_ptr, R: tl.constexpr, C: tl.constexpr):
    off = tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]
    tl.store(y_ptr + off, tl.gather(tl.load(x_ptr + off), tl.load(i_ptr + off), 1))


def test_gather_matches_take_along_axis():
    x = np.arange(32, dtype=np.float32).reshape(4, 8) * 1.5
    idx = (np.arange(32).reshape(4, 8) * 5 % 8).astype(np.int32)
    y = np.zeros_like(x)
    r = gather_kernel[(1,)](x, idx, y, R=4, C=8)
    assert not r.findings
    np.testing.assert_array_equal(y, np.take_along_axis(x, idx, axis=1))


def test_gather_out_of_range_is_reported_at_the_lane():
    x = np.arange(32, dtype=np.float32).reshape(4, 8)
    idx = np.zeros((4, 8), np.int32)
    idx[2, 5] = 8
    y = np.zeros_like(x)
    r = gather_kernel[(1,)](x, idx, y, R=4, C=8)
    assert [f.kind for f in r.findings] == ["index out of range"]
    f = r.findings[0]
    assert f.lanes == 1 and f.examples[0]["lane"] == 21
    assert "tl.gather(" in open(__file__).read().splitlines()[f.line - 1]
    assert y[2, 5] == 0


@triton.jit
def histogram_kernel(x_ptr, y_ptr, z_ptr, N: tl.constexpr, B: tl.constexpr):
    i = tl.arange(0, N)
    x = tl.load(x_ptr + i)
    tl.store(y_ptr + tl.arange(0, B), tl.histogram(x, B))
    tl.store(z_ptr + tl.arange(0, B), tl.histogram(x, B, mask=i < N // 2))


def test_histogram_with_and_without_mask():
    x = np.random.default_rng(2).integers(-2, 10, 64).astype(np.int32)
    y = np.zeros(8, np.int32)
    z = np.zeros(8, np.int32)
    histogram_kernel[(1,)](x, y, z, N=64, B=8)
    np.testing.assert_array_equal(y, np.bincount(x[(x >= 0) & (x < 8)], minlength=8))
    h = x[:32]
    np.testing.assert_array_equal(z, np.bincount(h[(h >= 0) & (h < 8)], minlength=8))


@triton.jit
def cumsum_padded(x_ptr, y_ptr, N, B: tl.constexpr):
    i = tl.arange(0, B)
    x = tl.load(x_ptr + i, mask=i < N)
    c = tl.cumsum(x, 0)
    tl.store(y_ptr + i, c, mask=i < N)


def test_undefined_lanes_reaching_a_cumsum_are_reported_at_its_line():
    x = np.ones(32, np.float32)
    y = np.zeros(32, np.float32)
    r = cumsum_padded[(1,)](x, y, 20, B=32)
    f = [f for f in r.findings if f.kind == "undefined value used"]
    assert len(f) == 1
    assert "c = tl.cumsum(x, 0)" in open(__file__).read().splitlines()[f[0].line - 1]
    assert f[0].lanes == 12 and f[0].examples[0]["lane"] == 20


@triton.jit
def bad_axis(x_ptr, N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    tl.store(x_ptr + tl.arange(0, N), tl.cumsum(x, 1))


def test_a_scan_axis_out_of_range_is_a_compiler_style_error():
    import tilescope
    with pytest.raises(tilescope.KernelError) as e:
        bad_axis[(1,)](np.zeros(8, np.float32), N=8)
    line = next(i + 1 for i, ln in enumerate(open(__file__).read().splitlines()) if "tl.cumsum(x, 1))" in ln)
    assert "cumsum: axis 1 is out of range for a tile f32[8]" in str(e.value)
    assert f"test_scans.py:{line}:" in str(e.value)
