"""String annotations (`B: "tl.constexpr"`), tl.where with an integer
condition (converted to i1 as Triton does), and a Python float used as a
tile (`(-float("inf")).to(tl.float32)`)."""
import numpy as np

import tilescope
import tilescope.language as tl


@tilescope.jit
def string_annotation_kernel(x_ptr, y_ptr, B: "tl.constexpr", C: 'constexpr'):
    i = tl.arange(0, B)            # arange needs B compile-time
    tl.store(y_ptr + i, tl.load(x_ptr + i) + C)


def test_string_constexpr_annotations_are_constexpr():
    x = np.arange(8, dtype=np.int32)
    y = np.zeros(8, np.int32)
    r = string_annotation_kernel[(1,)](x, y, B=8, C=5)
    assert r.ok(), r.report()
    np.testing.assert_array_equal(y, x + 5)


@tilescope.jit
def int_condition_kernel(c_ptr, y_ptr, B: tl.constexpr):
    i = tl.arange(0, B)
    c = tl.load(c_ptr + i)                 # i32, not i1
    tl.store(y_ptr + i, tl.where(c, 1.0, -1.0))


def test_where_with_an_integer_condition_tests_nonzero():
    c = np.array([0, 3, -1, 0, 0, 7, 0, 1], np.int32)
    y = np.zeros(8, np.float32)
    assert int_condition_kernel[(1,)](c, y, B=8).ok()
    np.testing.assert_array_equal(y, np.where(c != 0, 1.0, -1.0))


@tilescope.jit
def float_literal_kernel(x_ptr, y_ptr, B: tl.constexpr):
    i = tl.arange(0, B)
    m = (-float("inf")).to(tl.float32)
    x = tl.load(x_ptr + i)
    tl.store(y_ptr + i, tl.maximum(tl.where(x > 0, x, m), (2.5).to(tl.float16).to(tl.float32) * 0))


def test_a_python_float_can_be_converted_like_a_tile():
    x = np.array([-1, 2, -3, 4], np.float32)
    y = np.zeros(4, np.float32)
    r = float_literal_kernel[(1,)](x, y, B=4)
    assert r.ok(), r.report()
    np.testing.assert_array_equal(y, np.maximum(np.where(x > 0, x, -np.inf), 0))
