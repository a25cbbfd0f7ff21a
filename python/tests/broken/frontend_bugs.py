"""Front-end bugs found while writing the broken-kernel twins (twins.py),
each as a small correct kernel that should pass its puzzle.
python/tests/test_broken_twins.py runs them; each passes since its fix.

Bug 1: a module constant written `X = tl.constexpr(2)` (one of Triton's two
spellings of a global constexpr) is refused inside a shape tuple:
builtins._shape (python/tilescope/builtins.py) passes the tuple's items to
the C++ layer without _core.unwrap, so tl.reshape / tl.zeros / tl.full /
tl.broadcast_to fail with "a tile shape holds compile-time integers
(tl.constexpr), got a constexpr". The same constant works where a builtin
unwraps it (tl.arange, expand_dims's axes, arithmetic).
"""
import tilescope.language as tl
from tilescope import jit

TWO = tl.constexpr(2)


# add_block, correct: the tile is reshaped to [B0 // TWO, TWO] and back.
@jit
def reshape_with_constexpr_global(x_ptr, z_ptr, N0, B0: tl.constexpr):
    off_x = tl.program_id(0) * B0 + tl.arange(0, B0)
    mask = off_x < N0
    xv = tl.load(x_ptr + off_x, mask=mask)
    xv = tl.reshape(tl.reshape(xv, (B0 // TWO, TWO)), (B0,))
    tl.store(z_ptr + off_x, xv + 10.0, mask=mask)


# add_block, correct: a [TWO, B0] zero tile summed over axis 0 adds nothing.
@jit
def zeros_with_constexpr_global(x_ptr, z_ptr, N0, B0: tl.constexpr):
    off_x = tl.program_id(0) * B0 + tl.arange(0, B0)
    mask = off_x < N0
    xv = tl.load(x_ptr + off_x, mask=mask)
    xv = xv + tl.sum(tl.zeros((TWO, B0), dtype=tl.float32), axis=0)
    tl.store(z_ptr + off_x, xv + 10.0, mask=mask)
