"""The tests' block-pointer kernels (tests/block_ptr_kernels.h) written as
Triton kernels: the same kernels through the Python front end, so that the
two front ends' traces can be compared event for event."""
import tilescope
import tilescope.language as tl


@tilescope.jit
def pack2(codes, words, R, W, BR: tl.constexpr, BW: tl.constexpr):
    r0 = tl.program_id(0) * BR
    w0 = tl.program_id(1) * BW
    src = tl.make_block_ptr(codes, (R, W, 16), (W * 16, 16, 1), (r0, w0, 0), (BR, BW, 16), (2, 1, 0))
    c = tl.load(src, boundary_check=(0, 1), padding_option="zero").to(tl.int32)
    shift = tl.reshape(tl.arange(0, 16) * 2, (1, 1, 16))
    packed = tl.sum(c << shift, axis=2)
    dst = tl.make_block_ptr(words, (R, W), (W, 1), (r0, w0), (BR, BW), (1, 0))
    tl.store(dst, packed, boundary_check=(0, 1))


@tilescope.jit
def unpack2(words, codes, R, W, BR: tl.constexpr, BW: tl.constexpr):
    r0 = tl.program_id(0) * BR
    w0 = tl.program_id(1) * BW
    src = tl.make_block_ptr(words, (R, W), (W, 1), (r0, w0), (BR, BW), (1, 0))
    w = tl.reshape(tl.load(src, boundary_check=(0, 1), padding_option="zero"), (BR, BW, 1))
    shift = tl.reshape(tl.arange(0, 16) * 2, (1, 1, 16))
    c = ((w >> shift) & 3).to(tl.int8)
    dst = tl.make_block_ptr(codes, (R, W, 16), (W * 16, 16, 1), (r0, w0, 0), (BR, BW, 16), (2, 1, 0))
    tl.store(dst, c, boundary_check=(0, 1))


@tilescope.jit
def bp_matmul(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    a_bp = tl.make_block_ptr(a, (M, K), (K, 1), (pm * BM, 0), (BM, BK), (1, 0))
    b_bp = tl.make_block_ptr(b, (K, N), (N, 1), (0, pn * BN), (BK, BN), (1, 0))
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        av = tl.load(a_bp, boundary_check=(0, 1), padding_option="zero")
        bv = tl.load(b_bp, boundary_check=(0, 1), padding_option="zero")
        acc = tl.dot(av, bv, acc)
        a_bp = tl.advance(a_bp, (0, BK))
        b_bp = tl.advance(b_bp, (BK, 0))
    c_bp = tl.make_block_ptr(c, (M, N), (N, 1), (pm * BM, pn * BN), (BM, BN), (1, 0))
    tl.store(c_bp, acc, boundary_check=(0, 1))


@tilescope.jit
def tail_copy(src, dst, R, C, BR: tl.constexpr, BC: tl.constexpr):
    offs = (tl.program_id(0) * BR, tl.program_id(1) * BC)
    in_ = tl.make_block_ptr(src, (R, C), (C, 1), offs, (BR, BC), (1, 0))
    out = tl.make_block_ptr(dst, (R, C), (C, 1), offs, (BR, BC), (1, 0))
    tl.store(out, tl.load(in_, boundary_check=(0, 1)), boundary_check=(0, 1))


@tilescope.jit
def tail_copy_broken(src, dst, R, C, BR: tl.constexpr, BC: tl.constexpr):
    offs = (tl.program_id(0) * BR, tl.program_id(1) * BC)
    in_ = tl.make_block_ptr(src, (R, C), (C, 1), offs, (BR, BC), (1, 0))
    out = tl.make_block_ptr(dst, (R, C), (C, 1), offs, (BR, BC), (1, 0))
    v = tl.load(in_)  # BUG: no boundary_check
    tl.store(out, v, boundary_check=(0, 1))
