"""`return` inside a runtime `if`: the program stops there, and its later
loads and stores are skipped; a helper returning values from both
branches joins them; `return` inside a runtime loop is an error at its
line, as in Triton's compiler."""
import numpy as np
import pytest

import tilescope
import tilescope.language as tl


def line_of(text):
    return next(i + 1 for i, ln in enumerate(open(__file__).read().splitlines()) if text in ln and "line_of" not in ln)


@tilescope.jit
def rows_kernel(x_ptr, y_ptr, n_rows, B: tl.constexpr):
    row = tl.program_id(0)
    if row >= n_rows:
        return
    SCALE = 2                      # a compile-time name after the early return stays one
    SCALE = SCALE * 3
    i = tl.arange(0, B)
    x = tl.load(x_ptr + row * B + i)
    tl.store(y_ptr + row * B + i, x * SCALE)


def test_programs_past_the_end_return_before_their_loads_and_stores():
    B, rows, grid = 8, 3, 5
    x = np.arange(rows * B, dtype=np.float32)
    y = np.zeros(grid * B, np.float32)
    r = rows_kernel[(grid,)](x, y, rows, B=B)
    assert r.ok() and not r.findings, r.report()     # programs 3, 4 would read past x
    np.testing.assert_array_equal(y[:rows * B], x * 6)
    np.testing.assert_array_equal(y[rows * B:], 0)


@tilescope.jit
def nested_kernel(y_ptr, a, B: tl.constexpr):
    pid = tl.program_id(0)
    i = tl.arange(0, B)
    v = tl.zeros([B], tl.int32) + pid
    if pid % 2 == 0:
        if pid > a:
            tl.store(y_ptr + pid * B + i, v + 100)
            return
        v = v + 10
    elif pid == 3:
        return
    tl.store(y_ptr + pid * B + i, v)


def test_nested_returns_skip_exactly_the_code_after_them():
    B, grid = 4, 6
    y = np.full(grid * B, -1, np.int32)
    r = nested_kernel[(grid,)](y, 2, B=B)
    assert r.ok(), r.report()
    want = {0: 10, 1: 1, 2: 12, 3: -1, 4: 104, 5: 5}
    np.testing.assert_array_equal(y, np.repeat([want[p] for p in range(grid)], B).astype(np.int32))


@tilescope.jit
def pick(x, t):
    if t > 0:
        return x * 2.0
    return x - 1.0


@tilescope.jit
def helper_value_kernel(x_ptr, y_ptr, t, B: tl.constexpr):
    i = tl.arange(0, B)
    tl.store(y_ptr + i, pick(tl.load(x_ptr + i), t))


@pytest.mark.parametrize("t", [1, -1])
def test_a_helper_returning_from_both_branches_joins_its_values(t):
    x = np.arange(4, dtype=np.float32)
    y = np.zeros(4, np.float32)
    assert helper_value_kernel[(1,)](x, y, t, B=4).ok()
    np.testing.assert_array_equal(y, x * 2 if t > 0 else x - 1)


@tilescope.jit
def loop_return_kernel(y_ptr, n):
    for k in range(n):
        if k > 2:
            return  # out of the loop
        tl.store(y_ptr + k, k)


def test_return_inside_a_runtime_loop_is_an_error_at_its_line():
    with pytest.raises(tilescope.KernelError) as e:
        loop_return_kernel[(1,)](np.zeros(8, np.int32), 8)
    msg = str(e.value)
    assert f"test_early_return.py:{line_of('return  # out of the loop')}:" in msg
    assert "return inside a runtime loop is not supported" in msg


@tilescope.jit
def constexpr_return_kernel(y_ptr, FLAG: tl.constexpr):
    if FLAG:
        return
    tl.store(y_ptr, 1)


def test_return_under_a_compile_time_if_removes_the_rest():
    y = np.zeros(1, np.int32)
    assert constexpr_return_kernel[(1,)](y, FLAG=True).ok()
    assert y[0] == 0
    assert constexpr_return_kernel[(1,)](y, FLAG=False).ok()
    assert y[0] == 1
