"""`None` arguments specialize a kernel as Triton's compile-time None:
`if b_ptr is not None:` and `if b_ptr is None:` pick a branch while
building; a tile is never None."""
import numpy as np

import tilescope
import tilescope.language as tl


@tilescope.jit
def bias_kernel(x_ptr, b_ptr, y_ptr, scale_ptr, B: tl.constexpr):
    i = tl.arange(0, B)
    x = tl.load(x_ptr + i)
    if b_ptr is not None:
        x += tl.load(b_ptr + i)
    if scale_ptr is None:
        x = x * 2.0
    else:
        x = x * tl.load(scale_ptr)
    tl.store(y_ptr + i, x)


def test_none_and_array_arguments_build_different_kernels():
    x = np.arange(4, dtype=np.float32)
    b = np.full(4, 10.0, np.float32)
    s = np.array([3.0], np.float32)
    y = np.zeros(4, np.float32)
    assert bias_kernel[(1,)](x, None, y, None, B=4).ok()
    np.testing.assert_array_equal(y, x * 2)
    assert bias_kernel[(1,)](x, b, y, None, B=4).ok()
    np.testing.assert_array_equal(y, (x + 10) * 2)
    assert bias_kernel[(1,)](x, b, y, s, B=4).ok()
    np.testing.assert_array_equal(y, (x + 10) * 3)
    assert bias_kernel[(1,)](x, None, y, s, B=4).ok()
    np.testing.assert_array_equal(y, x * 3)


@tilescope.jit
def default_none_kernel(x_ptr, y_ptr, w_ptr=None, HAS_W: tl.constexpr = False):
    v = tl.load(x_ptr)
    if HAS_W and w_ptr is not None:
        v = v * tl.load(w_ptr)
    tl.store(y_ptr, v)


def test_a_defaulted_none_parameter_is_compile_time_none():
    x, y, w = np.array([5], np.int32), np.zeros(1, np.int32), np.array([7], np.int32)
    assert default_none_kernel[(1,)](x, y).ok()
    assert y[0] == 5
    assert default_none_kernel[(1,)](x, y, w, HAS_W=True).ok()
    assert y[0] == 35
