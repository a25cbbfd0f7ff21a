"""A dropout kernel whose random offsets forget the program id: every program
draws the same random stream, so every block keeps the same lanes. Triton
gives the same bits on the GPU; tilescope shows the repeated pattern, and
the fixed kernel (offsets pid * B + arange) draws one stream per element."""
import numpy as np

import tilescope
import tilescope.language as tl


@tilescope.jit
def dropout_reused(x_ptr, y_ptr, seed, p, B: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * B + tl.arange(0, B)
    r = tl.rand(seed, tl.arange(0, B))  # BUG: the same offsets in every program
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr + offs, tl.where(r > p, x / (1 - p), 0.0))


@tilescope.jit
def dropout_fixed(x_ptr, y_ptr, seed, p, B: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * B + tl.arange(0, B)
    r = tl.rand(seed, offs)
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr + offs, tl.where(r > p, x / (1 - p), 0.0))


def test_reused_offsets_repeat_one_mask_in_every_block():
    B, P = 64, 8
    x = np.ones(B * P, np.float32)
    bad, good = np.zeros_like(x), np.zeros_like(x)
    assert dropout_reused[(P,)](x, bad, 123, 0.5, B=B).ok()
    assert dropout_fixed[(P,)](x, good, 123, 0.5, B=B).ok()
    bad_keep = (bad != 0).reshape(P, B)
    good_keep = (good != 0).reshape(P, B)
    assert all((bad_keep[k] == bad_keep[0]).all() for k in range(P))      # one pattern, P times
    assert not all((good_keep[k] == good_keep[0]).all() for k in range(P))
    np.testing.assert_array_equal(bad_keep[0], good_keep[0])               # block 0 is right in both
    assert 0.3 < good_keep.mean() < 0.7
