"""Pointer types as Triton spells them: `ptr.dtype.element_ty`,
`x.type.element_ty`, `tl.pointer_type(...)`, fp8 dtype names in a
compile-time branch, and pointer casts tilescope refuses at the line."""
import numpy as np
import pytest

import tilescope
import tilescope.language as tl


def line_of(text):
    return next(i + 1 for i, ln in enumerate(open(__file__).read().splitlines()) if text in ln and "line_of" not in ln)


@tilescope.jit
def cast_to_output_kernel(x_ptr, y_ptr, B: tl.constexpr):
    i = tl.arange(0, B)
    x = tl.load(x_ptr + i).to(tl.float32) * 1.5
    tl.store(y_ptr + i, x.to(y_ptr.dtype.element_ty))


@pytest.mark.parametrize("out_dtype", [np.float16, np.int32, np.float64])
def test_element_ty_of_a_pointer_argument_is_its_buffer_dtype(out_dtype):
    x = np.arange(8, dtype=np.int16) - 3
    y = np.zeros(8, out_dtype)
    r = cast_to_output_kernel[(1,)](x, y, B=8)
    assert r.ok(), r.report()
    np.testing.assert_array_equal(y, (x.astype(np.float32) * 1.5).astype(out_dtype))


@tilescope.jit
def introspect_kernel(x_ptr, out_ptr, B: tl.constexpr):
    i = tl.arange(0, B)
    ptrs = x_ptr + i
    scalar_is_ptr = x_ptr.type.element_ty == tl.float32 and x_ptr.dtype == tl.pointer_type(tl.float32)
    block = ptrs.type
    tile_ok = block.element_ty == tl.pointer_type(tl.float32) and block.shape == (B,) and ptrs.dtype.is_ptr()
    not_fp8 = x_ptr.dtype.element_ty != tl.float8e4nv
    if x_ptr.dtype.element_ty == tl.float8e4nv:
        tl.store(out_ptr + i, tl.load(ptrs).to(tl.float8e4nv))  # never built: the branch is compile-time False
    v = tl.load(ptrs)
    tl.store(out_ptr + i, v.to(v.type.element_ty) + (scalar_is_ptr + 2 * tile_ok + 4 * not_fp8))


def test_type_and_dtype_introspection_follow_triton():
    x = np.arange(4, dtype=np.float32)
    out = np.zeros(4, np.float32)
    r = introspect_kernel[(1,)](x, out, B=4)
    assert r.ok(), r.report()
    np.testing.assert_array_equal(out, x + 7)


@tilescope.jit
def same_pointer_cast_kernel(x_ptr, y_ptr, B: tl.constexpr):
    i = tl.arange(0, B)
    p = x_ptr.to(tl.pointer_type(x_ptr.dtype.element_ty))
    tl.store(y_ptr + i, tl.load(p + i))


def test_cast_to_the_same_pointer_type_is_the_pointer():
    x = np.arange(4, dtype=np.int32)
    y = np.zeros(4, np.int32)
    assert same_pointer_cast_kernel[(1,)](x, y, B=4).ok()
    np.testing.assert_array_equal(y, x)


@tilescope.jit
def table_of_pointers_kernel(table_ptr, y_ptr, B: tl.constexpr):
    i = tl.arange(0, B)
    a_ptr = tl.load(table_ptr).to(tl.pointer_type(tl.float16))
    tl.store(y_ptr + i, tl.load(a_ptr + i))


def test_integer_to_pointer_cast_is_refused_at_its_line():
    table = np.zeros(1, np.int64)
    with pytest.raises(tilescope.KernelError) as e:
        table_of_pointers_kernel[(1,)](table, np.zeros(4, np.float16), B=4)
    msg = str(e.value)
    assert f"test_pointer_types.py:{line_of('a_ptr = tl.load(table_ptr).to(')}:" in msg
    assert "casting a i64 tile to pointer<tl.float16> is not supported" in msg


def test_pointer_type_objects_compare_by_element_type():
    assert tl.pointer_type(tl.float16) == tl.pointer_type(tl.float16)
    assert tl.pointer_type(tl.float16) != tl.pointer_type(tl.float32)
    assert tl.pointer_type(tl.float16) != tl.float16
    assert tl.pointer_type(tl.int8).element_ty is tl.int8 and tl.pointer_type(tl.int8).is_ptr()
