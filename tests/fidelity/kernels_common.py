"""Helpers the corpus's kernels share (written in Triton's Python)."""
import triton
import triton.language as tl

N = 64  # elements of a 1-D case: one block, no mask


@triton.jit
def store_code(ptr, x):
    # The dtype of `x` as a number (corpus.dtype_of_code decodes it): the
    # result dtype of an expression, as Triton itself computed it. Only
    # dtype comparisons and primitive_bitwidth: both front ends have them.
    d = x.dtype
    unsigned = (d == tl.int1) + (d == tl.uint8) + (d == tl.uint16) + (d == tl.uint32) + (d == tl.uint64)
    floating = (d == tl.float16) + (d == tl.float32) + (d == tl.float64)
    tl.store(ptr, d.primitive_bitwidth * 10 + unsigned + floating * 2 + (d == tl.bfloat16) * 3)
