# An ordinary Triton script, as a user would run it with `python3 script.py`
# on a GPU machine: nothing in it knows about tilescope. The test runs it
# with `python3 -m tilescope run` where Triton is not installed.
import numpy as np
import triton
import triton.language as tl


@triton.jit
def scale_kernel(x_ptr, y_ptr, n, factor, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(y_ptr + offs, x * factor)  # forgot the mask here


def main():
    n = 1000
    x = np.random.default_rng(0).random(n, dtype=np.float32)
    y = np.zeros(n, dtype=np.float32)
    scale_kernel[(triton.cdiv(n, 128),)](x, y, n, 2.0, BLOCK=128)
    print("max error", float(np.abs(y - 2 * x).max()))


if __name__ == "__main__":
    main()
