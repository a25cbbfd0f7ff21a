"""tl.ravel and tl.swizzle2d: flattening row-major, and Triton's grouped
ordering of a grid (checked against the mapping computed here in Python)."""
import numpy as np

import tilescope
import tilescope.language as tl


@tilescope.jit
def ravel_kernel(x_ptr, y_ptr, B: tl.constexpr):
    r = tl.arange(0, B)[:, None]
    c = tl.arange(0, B)[None, :]
    x = tl.load(x_ptr + r * B + c)
    tl.store(y_ptr + tl.arange(0, B * B), tl.ravel(x.T))


def test_ravel_flattens_row_major():
    x = np.arange(16, dtype=np.int32)
    y = np.zeros(16, np.int32)
    assert ravel_kernel[(1,)](x, y, B=4).ok()
    np.testing.assert_array_equal(y, x.reshape(4, 4).T.ravel())


@tilescope.jit
def swizzle_kernel(out_ptr, M, N, G: tl.constexpr):
    pid = tl.program_id(0)
    i, j = tl.swizzle2d(pid // N, pid % N, M, N, G)
    tl.store(out_ptr + 2 * pid, i)
    tl.store(out_ptr + 2 * pid + 1, j)


def swizzle_ref(i, j, size_i, size_j, size_g):
    ij = i * size_j + j
    group = ij // (size_g * size_j)
    first = group * size_g
    rows = min(size_i - first, size_g)
    ij = ij % (size_g * size_j)
    return first + ij % rows, ij // rows


def test_swizzle2d_groups_rows():
    M, N, G = 5, 3, 2
    out = np.zeros(2 * M * N, np.int32)
    assert swizzle_kernel[(M * N,)](out, M, N, G=G).ok()
    want = [v for p in range(M * N) for v in swizzle_ref(p // N, p % N, M, N, G)]
    np.testing.assert_array_equal(out, want)
    assert sorted(zip(out[::2], out[1::2])) == [(i, j) for i in range(M) for j in range(N)]  # a permutation
