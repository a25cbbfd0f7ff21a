"""Triton builtins tilescope cannot run are build errors that name the
builtin and the reason, at the user's kernel line in file:line:col form,
never a traceback from tilescope's internals."""
import re

import numpy as np
import pytest

import tilescope
import tilescope.language as tl


def line_of(text):
    return next(i + 1 for i, ln in enumerate(open(__file__).read().splitlines()) if text in ln and "line_of" not in ln)


@tilescope.jit
def asm_kernel(x_ptr, y_ptr, B: tl.constexpr):
    i = tl.arange(0, B)
    x = tl.load(x_ptr + i)
    y = tl.inline_asm_elementwise("cvt.rni.s32.f32 $0, $1;", "=r,r", [x], dtype=tl.int32, is_pure=True, pack=1)
    tl.store(y_ptr + i, y)


def test_inline_asm_is_a_named_error_at_its_line():
    with pytest.raises(tilescope.KernelError) as e:
        asm_kernel[(1,)](np.zeros(4, np.float32), np.zeros(4, np.int32), B=4)
    msg = str(e.value)
    line = line_of("y = tl.inline_asm_elementwise(")
    assert re.search(rf"test_refused_builtins\.py:{line}:9: error: tl\.inline_asm_elementwise cannot run in "
                     r"tilescope: it runs the given PTX assembly", msg), msg
    assert "Traceback" not in msg


@tilescope.jit
def descriptor_kernel(x_ptr, B: tl.constexpr):
    desc = tl.make_tensor_descriptor(x_ptr, shape=[B], strides=[1], block_shape=[B])
    tl.store(x_ptr + tl.arange(0, B), desc.load([0]))


def test_tensor_descriptors_are_a_named_error_at_their_line():
    with pytest.raises(tilescope.KernelError) as e:
        descriptor_kernel[(1,)](np.zeros(4, np.float32), B=4)
    msg = str(e.value)
    assert f"test_refused_builtins.py:{line_of('desc = tl.make_tensor_descriptor(')}:" in msg
    assert "tensor descriptors are not supported by tilescope yet; use tl.make_block_ptr" in msg


@tilescope.jit
def fp8_kernel(x_ptr, B: tl.constexpr):
    i = tl.arange(0, B)
    tl.store(x_ptr + i, tl.load(x_ptr + i).to(tl.float8e5).to(tl.float32))


def test_an_fp8_conversion_is_a_named_error_at_its_line():
    with pytest.raises(tilescope.KernelError) as e:
        fp8_kernel[(1,)](np.zeros(4, np.float32), B=4)
    msg = str(e.value)
    assert f"test_refused_builtins.py:{line_of('.to(tl.float8e5).to(tl.float32)')}:" in msg
    assert "tl.float8e5: fp8 tiles are not supported by tilescope yet" in msg
