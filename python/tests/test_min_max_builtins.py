"""Python's min and max in a kernel: folded on compile-time values, and
Triton's tl.minimum / tl.maximum on tiles."""
import numpy as np

import tilescope
import tilescope.language as tl


@tilescope.jit
def clamp_kernel(x_ptr, y_ptr, lo, N, B: tl.constexpr, CAP: tl.constexpr):
    i = tl.arange(0, min(B, CAP))          # compile-time: Python's min
    x = tl.load(x_ptr + i, mask=i < N, other=0.0)
    y = max(min(x, 2.0), lo)               # tiles: tl.minimum / tl.maximum
    z = max(y, -5.0, lo * 2)               # three values fold left to right
    tl.store(y_ptr + i, z, mask=i < N)


def test_min_and_max_on_tiles_and_constexprs():
    x = np.linspace(-4, 4, 16).astype(np.float32)
    y = np.full(16, 99.0, np.float32)
    r = clamp_kernel[(1,)](x, y, -1.5, 16, B=32, CAP=16)
    assert r.ok(), r.report()
    want = np.maximum(np.maximum(np.maximum(np.minimum(x, 2.0), -1.5), -5.0), np.float32(-3.0))
    np.testing.assert_array_equal(y, want)


@tilescope.jit
def int_max_kernel(x_ptr, y_ptr, B: tl.constexpr):
    i = tl.arange(0, B)
    tl.store(y_ptr + i, max(tl.load(x_ptr + i), 0))


def test_max_of_an_int_tile_and_a_literal_keeps_the_int_dtype():
    x = np.array([-3, 5, -1, 7], np.int32)
    y = np.zeros(4, np.int32)
    assert int_max_kernel[(1,)](x, y, B=4).ok()
    np.testing.assert_array_equal(y, np.maximum(x, 0))
