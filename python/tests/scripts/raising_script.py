# A script that launches one kernel that builds, one that does not (its
# error is caught, as test suites do), then raises.
import numpy as np
import triton
import triton.language as tl


@triton.jit
def fill_kernel(out_ptr, BLOCK: tl.constexpr):
    tl.store(out_ptr + tl.arange(0, BLOCK), 1.0)


@triton.jit
def broken_kernel(out_ptr, BLOCK: tl.constexpr):
    tl.store(out_ptr + tl.arange(0, BLOCK), undefined_name)  # noqa: F821


out = np.zeros(16, dtype=np.float32)
fill_kernel[(1,)](out, BLOCK=16)
try:
    broken_kernel[(1,)](out, BLOCK=16)
except Exception as e:
    print("caught:", type(e).__name__)
raise ValueError("the script's own error")
