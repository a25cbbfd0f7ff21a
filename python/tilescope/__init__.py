"""tilescope for Python: run a Triton kernel as it is written, on the CPU,
with every load and store bounds-checked and recorded.

    import tilescope
    import triton.language as tl          # or: import tilescope.language as tl

    @tilescope.jit                        # or a @triton.jit kernel: tilescope.jit(kernel)
    def add(x_ptr, z_ptr, N, B: tl.constexpr):
        off = tl.program_id(0) * B + tl.arange(0, B)
        tl.store(z_ptr + off, tl.load(x_ptr + off, mask=off < N) + 1, mask=off < N)

    result = add[(triton.cdiv(N, 32),)](x, z, N, B=32)    # numpy arrays or CPU torch tensors
    print(result.report())                # findings as compiler-style diagnostics

`python3 -m tilescope run script.py` runs an unmodified script with every
triton.jit kernel launched through tilescope. Design: PYTHON.md.
"""
from . import language
from .jit import JITFunction, jit, trace
from .options import configure
from .result import Finding, KernelError, Result, save_trace, view
from .puzzles import check_puzzle
from .notebook import Picture as picture

__all__ = ["jit", "trace", "view", "save_trace", "configure", "Result", "Finding", "KernelError", "JITFunction",
           "language", "check_puzzle", "picture"]
