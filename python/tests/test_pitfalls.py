"""Mistakes people make in Python itself, caught while building, each with a
message at its line that names the fix (PYTHON.md)."""
import numpy as np
import pytest

import tilescope
import tilescope.language as tl

X = np.zeros((8, 8), dtype=np.float32)


def build_error(kernel, *args, **kwargs):
    with pytest.raises(tilescope.KernelError) as e:
        kernel[(1,)](*args, **kwargs)
    return str(e.value)


def line_of(text):
    """The 1-based line of this file holding `text`."""
    return next(i + 1 for i, ln in enumerate(open(__file__).read().splitlines()) if text in ln and "line_of" not in ln)


def test_chained_comparison_in_a_mask_says_to_parenthesize():
    @tilescope.jit
    def k(z_ptr, N0, N1, B: tl.constexpr):
        r = tl.arange(0, B)[:, None]
        c = tl.arange(0, B)[None, :]
        tl.store(z_ptr + r * B + c, 1.0, mask=(r + 0) < N0 & (c + 0) < N1)

    msg = build_error(k, X, 8, 8, B=8)
    assert f"test_pitfalls.py:{line_of('mask=(r + 0) < N0 & (c + 0) < N1')}:" in msg
    assert "is a chained comparison: in Python '&' binds tighter than '<'" in msg
    assert "parenthesize each comparison: ((r + 0) < N0) & ((c + 0) < N1)" in msg


def test_missing_comma_before_a_parenthesis_says_a_comma_is_missing():
    @tilescope.jit
    def k(x_ptr, N0, B: tl.constexpr):
        mids = tl.arange(0, B)
        v = tl.load(x_ptr + mids, (mids + 1) ((mids + 2) < N0))
        tl.store(x_ptr + mids, v)

    msg = build_error(k, X, 8, B=8)
    assert f":{line_of('(mids + 1) ((mids + 2) < N0)')}:" in msg
    assert "a comma is missing before the parenthesis" in msg
    assert "write '(mids + 1), (mids + 2) < N0'" in msg


def test_floor_division_of_floats_says_to_use_true_division():
    @tilescope.jit
    def k(x_ptr, B: tl.constexpr):
        i = tl.arange(0, B)
        tl.store(x_ptr + i, tl.load(x_ptr + i) // 2.0)

    msg = build_error(k, X, B=8)
    assert f":{line_of('tl.load(x_ptr + i) // 2.0')}:" in msg
    assert "'//' on a float" in msg and "use '/' (true division)" in msg


def test_python_print_says_to_use_device_print():
    @tilescope.jit
    def k(x_ptr, B: tl.constexpr):
        i = tl.arange(0, B)
        print(i)

    msg = build_error(k, X, B=8)
    assert f":{line_of('        print(i)')}:" in msg
    assert "use tl.device_print" in msg


def test_python_assert_says_to_use_device_assert():
    @tilescope.jit
    def k(x_ptr, B: tl.constexpr):
        i = tl.arange(0, B)
        assert i < 8

    msg = build_error(k, X, B=8)
    assert f":{line_of('        assert i < 8')}:" in msg
    assert "use tl.device_assert(cond" in msg and "tl.static_assert" in msg


def test_a_tile_used_as_one_bool_says_to_use_where():
    @tilescope.jit
    def k(x_ptr, B: tl.constexpr):
        v = tl.load(x_ptr + tl.arange(0, B))
        if v > 0:
            tl.store(x_ptr + tl.arange(0, B), v)

    msg = build_error(k, X, B=8)
    assert f":{line_of('        if v > 0:')}:" in msg
    assert "Python needs one bool here; use tl.where(cond, a, b)" in msg


def test_unsupported_constructs_are_named():
    @tilescope.jit
    def k(x_ptr, B: tl.constexpr):
        f = lambda t: t  # noqa: E731
        tl.store(x_ptr + tl.arange(0, B), f(1.0))

    msg = build_error(k, X, B=8)
    assert "a lambda is not supported in a tile kernel" in msg


def test_errors_show_the_line_and_a_caret():
    @tilescope.jit
    def k(x_ptr, B: tl.constexpr):
        tl.store(x_ptr + tl.arange(0, 12), 1.0)

    msg = build_error(k, X, B=8)
    lines = msg.splitlines()
    assert "error: arange(0, 12) has 12 elements; the length must be a power of two" in lines[0]
    assert lines[1].strip() == "tl.store(x_ptr + tl.arange(0, 12), 1.0)"
    assert lines[2].strip() == "^"
