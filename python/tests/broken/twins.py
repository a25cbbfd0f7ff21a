"""Python (Triton-syntax) twins of the C++ broken kernels in puzzles/broken/.

Each twin is the C++ kernel of puzzles/broken/bNN_<name>.cpp written as a
@triton.jit kernel would be, statement for statement and in the same order
(one statement a line, so a finding k statements below the C++ BUG line is k
statements below the twin's; only C++'s lone `}` lines have no twin), with
the same deliberate mistake on the line marked `# BUG`.
C++ spellings map onto Triton's: x.col() is x[:, None], x.row() is
x[None, :], integer `/` is `//`, tl::f32 is tl.float32, tl::load(p, mask,
other) is tl.load(p, mask=mask, other=other), and tl::dot(a, b, acc) is
tl.dot(a, b, acc=acc). python/tests/test_broken_twins.py runs each twin on
its puzzle beside the C++ kernel and compares the findings.

TWINS maps each C++ broken kernel's name to its twin.
"""
import numpy as np

import tilescope.language as tl
from tilescope import jit

# Module constants as Triton accepts globals in a kernel: annotated tl.constexpr.
# (Written `X = tl.constexpr(8)` instead, a constant inside a shape tuple is
# refused by the front end; frontend_bugs.py records that.)

# b06: log2(e), as puzzle 8's solution has it.
LOG2E: tl.constexpr = 1.44269504

# b09: puzzle 12's packing constants.
BITS: tl.constexpr = 4
FPINT: tl.constexpr = 32 // BITS
GROUP: tl.constexpr = 8
NIBBLE_MASK: tl.constexpr = (1 << BITS) - 1


# b01 (add_block): the store is masked, the load is not.
@jit
def missing_load_mask(x_ptr, z_ptr, N0, B0: tl.constexpr):
    off_x = tl.program_id(0) * B0 + tl.arange(0, B0)
    mask = off_x < N0
    xv = tl.load(x_ptr + off_x)  # BUG: no mask: lanes past N0 read outside x
    tl.store(z_ptr + off_x, xv + 10.0, mask=mask)


# b02 (add_block): the load is masked, the store is not.
@jit
def load_mask_not_store(x_ptr, z_ptr, N0, B0: tl.constexpr):
    off_x = tl.program_id(0) * B0 + tl.arange(0, B0)
    mask = off_x < N0
    xv = tl.load(x_ptr + off_x, mask=mask)
    tl.store(z_ptr + off_x, xv + 10.0)  # BUG: no mask: lanes past N0 write outside z


# b03 (add_block): `<=` in the mask.
@jit
def off_by_one_mask(x_ptr, z_ptr, N0, B0: tl.constexpr):
    off_x = tl.program_id(0) * B0 + tl.arange(0, B0)
    mask = off_x <= N0  # BUG: <= lets offset N0, one past the end, through
    xv = tl.load(x_ptr + off_x, mask=mask)
    tl.store(z_ptr + off_x, xv + 10.0, mask=mask)


# b04 (outer_add_block): z's row stride taken as N1 instead of N0.
@jit
def wrong_row_stride(x_ptr, y_ptr, z_ptr, N0, N1, B0: tl.constexpr, B1: tl.constexpr):
    off_x = tl.program_id(0) * B0 + tl.arange(0, B0)  # columns
    off_y = tl.program_id(1) * B1 + tl.arange(0, B1)  # rows
    mask_x = off_x < N0
    mask_y = off_y < N1
    xv = tl.load(x_ptr + off_x, mask=mask_x)
    yv = tl.load(y_ptr + off_y, mask=mask_y)
    off_z = off_y[:, None] * N1 + off_x[None, :]  # BUG: the row stride of z is N0 (the row length), not N1
    tl.store(z_ptr + off_z, yv[:, None] + xv[None, :], mask=mask_y[:, None] & mask_x[None, :])


# b05 (outer_add_block): program_id axes swapped.
@jit
def wrong_program_id_axis(x_ptr, y_ptr, z_ptr, N0, N1, B0: tl.constexpr, B1: tl.constexpr):
    off_x = tl.program_id(1) * B0 + tl.arange(0, B0)  # BUG: columns are tiled by grid axis 0, not 1
    off_y = tl.program_id(0) * B1 + tl.arange(0, B1)  # rows: axis 0 here, swapped with the line above
    mask_x = off_x < N0
    mask_y = off_y < N1
    xv = tl.load(x_ptr + off_x, mask=mask_x)
    yv = tl.load(y_ptr + off_y, mask=mask_y)
    off_z = off_y[:, None] * N0 + off_x[None, :]
    tl.store(z_ptr + off_z, yv[:, None] + xv[None, :], mask=mask_y[:, None] & mask_x[None, :])


# b06 (long_softmax): the first pass's load has no other=-inf.
@jit
def max_padded_lanes_win(x_ptr, z_ptr, N0, T, B0: tl.constexpr, B1: tl.constexpr):
    off_i = tl.program_id(0) * B0 + tl.arange(0, B0)
    mask_i = off_i < N0
    m = tl.full((B0,), float("-inf"), tl.float32)
    d = tl.zeros((B0,), dtype=tl.float32)
    for j in range(0, T, B1):
        off_j = j + tl.arange(0, B1)
        mask = mask_i[:, None] & (off_j[None, :] < T)
        xv = tl.load(x_ptr + off_i[:, None] * T + off_j[None, :], mask=mask)  # BUG: no other: padded lanes are undefined, not -inf
        m_new = tl.maximum(m, tl.max(xv, axis=1))
        p = tl.exp2((xv - m_new[:, None]) * LOG2E)
        d = d * tl.exp2((m - m_new) * LOG2E) + tl.sum(p, axis=1)
        m = m_new
    for j in range(0, T, B1):
        off_j = j + tl.arange(0, B1)
        mask = mask_i[:, None] & (off_j[None, :] < T)
        off_2d = off_i[:, None] * T + off_j[None, :]
        xv = tl.load(x_ptr + off_2d, mask=mask, other=float("-inf"))
        p = tl.exp2((xv - m[:, None]) * LOG2E)
        tl.store(z_ptr + off_2d, p / d[:, None], mask=mask)


# b07 (long_sum): the row block taken from grid axis 1, which has one program.
@jit
def two_programs_same_rows(x_ptr, z_ptr, N0, T, B0: tl.constexpr, B1: tl.constexpr):
    off_i = tl.program_id(1) * B0 + tl.arange(0, B0)  # BUG: the grid has one program on axis 1: all take rows 0..B0-1
    mask_i = off_i < N0
    acc = tl.zeros((B0,), dtype=tl.float32)
    for j in range(0, T, B1):
        off_j = j + tl.arange(0, B1)
        mask = mask_i[:, None] & (off_j[None, :] < T)
        xv = tl.load(x_ptr + off_i[:, None] * T + off_j[None, :], mask=mask, other=0.0)
        acc += tl.sum(xv, axis=1)
    tl.store(z_ptr + off_i, acc, mask=mask_i)


# b08 (long_sum): the accumulator starts from the never-written output.
@jit
def read_output_before_write(x_ptr, z_ptr, N0, T, B0: tl.constexpr, B1: tl.constexpr):
    off_i = tl.program_id(0) * B0 + tl.arange(0, B0)
    mask_i = off_i < N0
    acc = tl.load(z_ptr + off_i, mask=mask_i)  # BUG: z is the output: nothing has written it, it is not zero
    for j in range(0, T, B1):
        off_j = j + tl.arange(0, B1)
        mask = mask_i[:, None] & (off_j[None, :] < T)
        xv = tl.load(x_ptr + off_i[:, None] * T + off_j[None, :], mask=mask, other=0.0)
        acc += tl.sum(xv, axis=1)
    tl.store(z_ptr + off_i, acc, mask=mask_i)


# b09 (quant_matmul): the packed words shifted without & 15 after the shift.
@jit
def signed_shift_no_mask(scale_ptr, offset_ptr, weight_ptr, activation_ptr, z_ptr, N0, N1, MID,
                         B0: tl.constexpr, B1: tl.constexpr, B_MID: tl.constexpr):
    off_j = tl.program_id(0) * B0 + tl.arange(0, B0)
    off_k = tl.program_id(1) * B1 + tl.arange(0, B1)
    mask_j = off_j < N0
    mask_k = off_k < N1
    nibble_shifts = tl.arange(0, FPINT) * BITS
    acc = tl.zeros((B0, B1), dtype=tl.float32)
    for l in range(0, MID, B_MID):
        off_w = l // FPINT + tl.arange(0, B_MID // FPINT)
        mask_w = mask_j[:, None] & (off_w[None, :] < MID // FPINT)
        words = tl.load(weight_ptr + off_j[:, None] * (MID // FPINT) + off_w[None, :], mask=mask_w, other=0)
        unpacked = tl.expand_dims(words, 2) >> nibble_shifts  # BUG: no & 15: higher codes (and the sign) stay
        codes = tl.reshape(unpacked, (B0, B_MID))

        off_g = l // GROUP + tl.arange(0, B_MID // GROUP)
        mask_g = mask_j[:, None] & (off_g[None, :] < MID // GROUP)
        sc = tl.load(scale_ptr + off_j[:, None] * (MID // GROUP) + off_g[None, :], mask=mask_g, other=0.0)
        shift_words = tl.load(offset_ptr + off_j[:, None] * (MID // (GROUP * FPINT)) + (off_g // FPINT)[None, :], mask=mask_g, other=0)
        shifts = (shift_words >> ((off_g % FPINT) * BITS)[None, :]) & NIBBLE_MASK

        grouped = tl.reshape(codes, (B0, B_MID // GROUP, GROUP))
        dq = tl.expand_dims(sc, 2) * (grouped - tl.expand_dims(shifts, 2)).to(tl.float32)
        w_tile = tl.reshape(dq, (B0, B_MID))

        off_l = l + tl.arange(0, B_MID)
        a_mask = (off_l[:, None] < MID) & mask_k[None, :]
        av = tl.load(activation_ptr + off_l[:, None] * N1 + off_k[None, :], mask=a_mask, other=0.0)
        acc = tl.dot(w_tile, av, acc=acc)
    tl.store(z_ptr + off_j[:, None] * N1 + off_k[None, :], acc, mask=mask_j[:, None] & mask_k[None, :])


# b10 (long_sum): the loop ends one block early.
@jit
def loop_bound_one_block_short(x_ptr, z_ptr, N0, T, B0: tl.constexpr, B1: tl.constexpr):
    off_i = tl.program_id(0) * B0 + tl.arange(0, B0)
    mask_i = off_i < N0
    acc = tl.zeros((B0,), dtype=tl.float32)
    for j in range(0, T - B1, B1):  # BUG: stops before the last (partial) block; the bound is T
        off_j = j + tl.arange(0, B1)
        mask = mask_i[:, None] & (off_j[None, :] < T)
        xv = tl.load(x_ptr + off_i[:, None] * T + off_j[None, :], mask=mask, other=0.0)
        acc += tl.sum(xv, axis=1)
    tl.store(z_ptr + off_i, acc, mask=mask_i)


# b11 (add_block): arange(0, B0 - 1), as if its end were inclusive.
@jit
def arange_not_power_of_two(x_ptr, z_ptr, N0, B0: tl.constexpr):
    off_x = tl.program_id(0) * B0 + tl.arange(0, B0 - 1)  # BUG: the end is exclusive: this is 31 lanes
    mask = off_x < N0
    xv = tl.load(x_ptr + off_x, mask=mask)
    tl.store(z_ptr + off_x, xv + 10.0, mask=mask)


# b12 (batched_matmul): the y tile's reduction axis in the wrong place.
@jit
def dot_shape_mismatch(x_ptr, y_ptr, z_ptr, N0, N1, N2, MID, B0: tl.constexpr, B1: tl.constexpr,
                       B2: tl.constexpr, B_MID: tl.constexpr):
    off_j = tl.program_id(0) * B0 + tl.arange(0, B0)
    off_k = tl.program_id(1) * B1 + tl.arange(0, B1)
    off_b = tl.program_id(2) * B2 + tl.arange(0, B2)
    b3 = tl.expand_dims(off_b, (1, 2))
    j3 = tl.expand_dims(off_j, (0, 2))
    k3 = tl.expand_dims(off_k, (0, 1))
    acc = tl.zeros((B2, B0, B1), dtype=tl.float32)
    for l in range(0, MID, B_MID):
        off_l = l + tl.arange(0, B_MID)
        lx = tl.expand_dims(off_l, (0, 1))  # [1, 1, B_MID]: columns of x
        ly = tl.expand_dims(off_l, (0, 1))  # BUG: copied from lx; rows of y need axes (0, 2): [1, B_MID, 1]
        xv = tl.load(x_ptr + (b3 * N0 + j3) * MID + lx, mask=(b3 < N2) & (j3 < N0) & (lx < MID), other=0.0)
        yv = tl.load(y_ptr + (b3 * MID + ly) * N1 + k3, mask=(b3 < N2) & (ly < MID) & (k3 < N1), other=0.0)
        acc = tl.dot(xv, yv, acc=acc)
    tl.store(z_ptr + (b3 * N0 + j3) * N1 + k3, acc, mask=(b3 < N2) & (j3 < N0) & (k3 < N1))


# b13 (example e1_v2): BiT's row stride taken as M instead of K.
@jit
def interleaved_wrong_row_stride(a_ptr, bit_ptr, d_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
                                 BK: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.program_id(1) * BN + tl.arange(0, BN)
    bi_rows = tl.program_id(1) * (2 * BN) + tl.arange(0, 2 * BN)
    row_ok = rows < M
    bi_ok = bi_rows < 2 * N
    acc = tl.zeros((BM, 2 * BN), dtype=tl.float32)
    for k in range(0, K, BK):
        ks = k + tl.arange(0, BK)
        k_ok = ks < K
        a = tl.load(a_ptr + rows[:, None] * K + ks[None, :], mask=row_ok[:, None] & k_ok[None, :], other=0.0)
        b = tl.load(bit_ptr + bi_rows[None, :] * M + ks[:, None], mask=k_ok[:, None] & bi_ok[None, :], other=0.0)  # BUG: BiT's row stride is K, not M
        acc = tl.dot(a, b, acc=acc)
    pairs = tl.reshape(acc, (BM, BN, 2))
    parity = tl.arange(0, 2)
    left = tl.sum(tl.where(parity == 0, pairs, 0.0), axis=2)
    right = tl.sum(tl.where(parity == 1, pairs, 0.0), axis=2)
    tl.store(d_ptr + rows[:, None] * N + cols[None, :], tl.sigmoid(left) * tl.tanh(right), mask=row_ok[:, None] & (cols < N)[None, :])


# b14 (puzzle 2): a fixed-point index scale whose i32 product wraps.
@jit
def fixed_point_index_overflow(x_ptr, z_ptr, N0, B0: tl.constexpr):
    off_z = tl.program_id(0) * B0 + tl.arange(0, B0)
    mask = off_z < N0
    off_x = (off_z * (N0 << 16) // N0) >> 16  # BUG: off_z * (N0 << 16) wraps in i32 once off_z * N0 >= 2^15
    xv = tl.load(x_ptr + off_x, mask=mask)
    tl.store(z_ptr + off_z, xv + 10.0, mask=mask)


# b15 (puzzle 12): 8-bit shifts for 4-bit codes.
@jit
def nibble_shift_in_bytes(scale_ptr, offset_ptr, weight_ptr, activation_ptr, z_ptr, N0, N1, MID,
                          B0: tl.constexpr, B1: tl.constexpr, B_MID: tl.constexpr):
    off_j = tl.program_id(0) * B0 + tl.arange(0, B0)
    off_k = tl.program_id(1) * B1 + tl.arange(0, B1)
    mask_j = off_j < N0
    mask_k = off_k < N1
    nibble_shifts = tl.arange(0, FPINT) * 8  # BUG: 8 bits a code, but the codes are BITS = 4 bits wide
    acc = tl.zeros((B0, B1), dtype=tl.float32)
    for l in range(0, MID, B_MID):
        off_w = l // FPINT + tl.arange(0, B_MID // FPINT)
        mask_w = mask_j[:, None] & (off_w[None, :] < MID // FPINT)
        words = tl.load(weight_ptr + off_j[:, None] * (MID // FPINT) + off_w[None, :], mask=mask_w, other=0)
        unpacked = (tl.expand_dims(words, 2) >> nibble_shifts) & NIBBLE_MASK
        codes = tl.reshape(unpacked, (B0, B_MID))

        off_g = l // GROUP + tl.arange(0, B_MID // GROUP)
        mask_g = mask_j[:, None] & (off_g[None, :] < MID // GROUP)
        sc = tl.load(scale_ptr + off_j[:, None] * (MID // GROUP) + off_g[None, :], mask=mask_g, other=0.0)
        shift_words = tl.load(offset_ptr + off_j[:, None] * (MID // (GROUP * FPINT)) + (off_g // FPINT)[None, :],
                              mask=mask_g, other=0)
        shifts = (shift_words >> ((off_g % FPINT) * BITS)[None, :]) & NIBBLE_MASK

        grouped = tl.reshape(codes, (B0, B_MID // GROUP, GROUP))
        dq = tl.expand_dims(sc, 2) * (grouped - tl.expand_dims(shifts, 2)).to(tl.float32)
        w_tile = tl.reshape(dq, (B0, B_MID))

        off_l = l + tl.arange(0, B_MID)
        a_mask = (off_l[:, None] < MID) & mask_k[None, :]
        av = tl.load(activation_ptr + off_l[:, None] * N1 + off_k[None, :], mask=a_mask, other=0.0)
        acc = tl.dot(w_tile, av, acc)
    tl.store(z_ptr + off_j[:, None] * N1 + off_k[None, :], acc, mask=mask_j[:, None] & mask_k[None, :])


# 0.5f - 1e-6f as C++ computes it in float (a double 0.5 - 1e-6 may round
# to another f32).
ROUND_BIAS: tl.constexpr = float(np.float32(0.5) - np.float32(1e-6))


# b16 (example e2): two-bit fields summed into an i8.
@jit
def pack_into_i8(X, P, S, Mn, R, GROUP: tl.constexpr, BITS: tl.constexpr):
    VPW: tl.constexpr = 32 // BITS
    NWORDS: tl.constexpr = GROUP // VPW
    QMAX: tl.constexpr = (1 << BITS) - 1
    row = tl.program_id(0)
    w = tl.arange(0, NWORDS)
    j = tl.arange(0, VPW)
    # The row as [NWORDS, VPW]: element (w, j) is value j of word w.
    x = tl.load(X + row * GROUP + w[:, None] * VPW + j[None, :]).to(tl.float32)
    xmin = tl.min(x)
    range_ = tl.max(x) - xmin
    scale = tl.where(range_ > 0.0, range_ / QMAX, 1.0)
    tl.store(S + row, scale)
    tl.store(Mn + row, xmin)
    q = ((x - xmin) / scale + ROUND_BIAS).to(tl.int32)
    q = tl.minimum(tl.maximum(q, 0), QMAX)
    fields = (q << (j * BITS)[None, :]).to(tl.int8)  # BUG: an i8 holds 4 two-bit codes, the word has 16
    words = tl.sum(fields, axis=1)
    tl.store(P + row * NWORDS + w, words)


# b17 (puzzle 8, set 8d): exponentials kept in f16 overflow to inf.
@jit
def f16_exponentials(x_ptr, z_ptr, N0, T, B0: tl.constexpr, B1: tl.constexpr):
    off_i = tl.program_id(0) * B0 + tl.arange(0, B0)
    mask_i = off_i < N0
    d = tl.zeros((B0,), dtype=tl.float32)
    for j in range(0, T, B1):
        off_j = j + tl.arange(0, B1)
        mask = mask_i[:, None] & (off_j[None, :] < T)
        xv = tl.load(x_ptr + off_i[:, None] * T + off_j[None, :], mask=mask, other=-float("inf"))
        p = tl.exp2(xv * LOG2E).to(tl.float16)  # BUG: exp(x) passes f16's 65504 from x = 11.09; subtract the max
        d += tl.sum(p.to(tl.float32), axis=1)
    for j in range(0, T, B1):
        off_j = j + tl.arange(0, B1)
        mask = mask_i[:, None] & (off_j[None, :] < T)
        off_2d = off_i[:, None] * T + off_j[None, :]
        xv = tl.load(x_ptr + off_2d, mask=mask, other=-float("inf"))
        tl.store(z_ptr + off_2d, tl.exp2(xv * LOG2E) / d[:, None], mask=mask)


# b18 (example e2, set 8bit): 8-bit codes through an i8.
@jit
def codes_in_i8(X, P, S, Mn, R, GROUP: tl.constexpr, BITS: tl.constexpr):
    VPW: tl.constexpr = 32 // BITS
    NWORDS: tl.constexpr = GROUP // VPW
    QMAX: tl.constexpr = (1 << BITS) - 1
    row = tl.program_id(0)
    w = tl.arange(0, NWORDS)
    j = tl.arange(0, VPW)
    # The row as [NWORDS, VPW]: element (w, j) is value j of word w.
    x = tl.load(X + row * GROUP + w[:, None] * VPW + j[None, :]).to(tl.float32)
    xmin = tl.min(x)
    range_ = tl.max(x) - xmin
    scale = tl.where(range_ > 0.0, range_ / QMAX, 1.0)
    tl.store(S + row, scale)
    tl.store(Mn + row, xmin)
    q = ((x - xmin) / scale + ROUND_BIAS).to(tl.int8).to(tl.int32)  # BUG: 8-bit codes run to 255; an i8 stops at 127
    q = tl.minimum(tl.maximum(q, 0), QMAX)
    words = tl.sum(q << (j * BITS)[None, :], axis=1)  # disjoint bits: the sum is an OR
    tl.store(P + row * NWORDS + w, words)


# b20 (long_sum): the row total read off a cumsum, over a load without `other`.
@jit
def cumsum_padded_lanes(x_ptr, z_ptr, N0, T, B0: tl.constexpr, B1: tl.constexpr):
    off_i = tl.program_id(0) * B0 + tl.arange(0, B0)
    mask_i = off_i < N0
    last = (tl.arange(0, B1) == B1 - 1)[None, :]
    acc = tl.zeros([B0], dtype=tl.float32)
    for j in range(0, T, B1):
        off_j = j + tl.arange(0, B1)
        mask = mask_i[:, None] & (off_j[None, :] < T)
        xv = tl.load(x_ptr + off_i[:, None] * T + off_j[None, :], mask=mask)  # BUG: no other: padded lanes are undefined, not 0
        running = tl.cumsum(xv, 1)
        acc += tl.sum(tl.where(last, running, 0.0), 1)
    tl.store(z_ptr + off_i, acc, mask=mask_i)


# b21 (add_block): a reversed load put back in order by a gather, one off.
@jit
def gather_reverse_off_by_one(x_ptr, z_ptr, N0, B0: tl.constexpr):
    i = tl.arange(0, B0)
    off_x = tl.program_id(0) * B0 + i
    mask = off_x < N0
    rev = tl.program_id(0) * B0 + (B0 - 1 - i)
    xr = tl.load(x_ptr + rev, mask=rev < N0, other=0.0)
    xv = tl.gather(xr, B0 - i, 0)  # BUG: B0 - i: lane 0 asks for element B0, one past the tile
    tl.store(z_ptr + off_x, xv + 10.0, mask=mask)


# b22 (add_block): the atomic exchange's mask is `<=`.
@jit
def atomic_xchg_one_past_end(x_ptr, z_ptr, N0, B0: tl.constexpr):
    off_x = tl.program_id(0) * B0 + tl.arange(0, B0)
    xv = tl.load(x_ptr + off_x, mask=off_x < N0)
    tl.atomic_xchg(z_ptr + off_x, xv + 10.0, mask=off_x <= N0)  # BUG: <= lets offset N0, one past the end of z, through


# b23 (add_block): float offsets bitcast instead of converted.
@jit
def bitcast_float_offsets(x_ptr, z_ptr, N0, B0: tl.constexpr):
    off_x = tl.program_id(0) * B0 + tl.arange(0, B0)
    mask = off_x < N0
    src = off_x.to(tl.float32).to(tl.int32, bitcast=True)  # BUG: a bitcast keeps the float's bits (1.0 is 1065353216)
    xv = tl.load(x_ptr + src, mask=mask)
    tl.store(z_ptr + off_x, xv + 10.0, mask=mask)


# b24 (batched_matmul): x's operand loaded without other.
@jit
def dot_operand_without_other(x_ptr, y_ptr, z_ptr, N0, N1, N2, MID, B0: tl.constexpr, B1: tl.constexpr,
                              B2: tl.constexpr, B_MID: tl.constexpr):
    off_j = tl.program_id(0) * B0 + tl.arange(0, B0)
    off_k = tl.program_id(1) * B1 + tl.arange(0, B1)
    off_b = tl.program_id(2) * B2 + tl.arange(0, B2)
    b3 = off_b[:, None, None]
    j3 = off_j[None, :, None]
    k3 = off_k[None, None, :]
    acc = tl.zeros((B2, B0, B1), dtype=tl.float32)
    for l in range(0, MID, B_MID):
        off_l = l + tl.arange(0, B_MID)
        lx = off_l[None, None, :]
        ly = off_l[None, :, None]
        xv = tl.load(x_ptr + (b3 * N0 + j3) * MID + lx, mask=(b3 < N2) & (j3 < N0) & (lx < MID))  # BUG: no other
        yv = tl.load(y_ptr + (b3 * MID + ly) * N1 + k3, mask=(b3 < N2) & (ly < MID) & (k3 < N1), other=0.0)
        acc = tl.dot(xv, yv, acc=acc)
    tl.store(z_ptr + (b3 * N0 + j3) * N1 + k3, acc, mask=(b3 < N2) & (j3 < N0) & (k3 < N1))


# b25 (add_block): the source index clamped to [0, N0] instead of [0, N0 - 1].
@jit
def clamp_index_to_n(x_ptr, z_ptr, N0, B0: tl.constexpr):
    off_x = tl.program_id(0) * B0 + tl.arange(0, B0)
    src = tl.clamp(off_x.to(tl.float32), 0.0, N0.to(tl.float32)).to(tl.int32)  # BUG: the last element is N0 - 1
    xv = tl.load(x_ptr + src)
    tl.store(z_ptr + off_x, xv + 10.0, mask=off_x < N0)


# b26 (add_block): the early exit also returns for the partial last block.
@jit
def early_return_skips_last_block(x_ptr, z_ptr, N0, B0: tl.constexpr):
    pid = tl.program_id(0)
    if (pid + 1) * B0 > N0:  # BUG: the partial last block returns too
        return
    off_x = pid * B0 + tl.arange(0, B0)
    mask = off_x < N0
    xv = tl.load(x_ptr + off_x, mask=mask)
    tl.store(z_ptr + off_x, xv + 10.0, mask=mask)


TWINS = {k.__name__: k for k in [
    missing_load_mask, load_mask_not_store, off_by_one_mask, wrong_row_stride, wrong_program_id_axis,
    max_padded_lanes_win, two_programs_same_rows, read_output_before_write, signed_shift_no_mask,
    loop_bound_one_block_short, arange_not_power_of_two, dot_shape_mismatch, interleaved_wrong_row_stride,
    fixed_point_index_overflow, nibble_shift_in_bytes, pack_into_i8, f16_exponentials, codes_in_i8,
    cumsum_padded_lanes, gather_reverse_off_by_one,
    atomic_xchg_one_past_end, bitcast_float_offsets, dot_operand_without_other, clamp_index_to_n,
    early_return_skips_last_block]}
