"""The examples' Triton kernels (E1-E3), copied unchanged from
shared/bench/triton_at_scale.py, whose module body runs GPU benchmarks at
import and so cannot be imported here."""
import triton
import triton.language as tl


@triton.jit
def splacc_v1(A_ptr, BlT_ptr, BrT_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
              BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    i = tl.program_id(0); j = tl.program_id(1)
    Mi = tl.arange(0, BM) + i * BM
    Ni = tl.arange(0, BN) + j * BN
    al = tl.zeros((BM, BN), dtype=tl.float32)
    ar = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        Ki = tl.arange(0, BK) + k * BK
        a = tl.load(A_ptr + Mi[:, None] * K + Ki[None, :])
        bidx = Ni[None, :] * K + Ki[:, None]
        al += tl.dot(a, tl.load(BlT_ptr + bidx))
        ar += tl.dot(a, tl.load(BrT_ptr + bidx))
    out = tl.sigmoid(al) * (2 * tl.sigmoid(2 * ar) - 1)
    tl.store(out_ptr + Mi[:, None] * N + Ni[None, :], out)


@triton.jit
def quant_pack_kernel(X_ptr, P_ptr, S_ptr, M_ptr, sx0: tl.constexpr, sx1: tl.constexpr, sp0: tl.constexpr,
                      sp1: tl.constexpr, BITS: tl.constexpr, VPW: tl.constexpr, NWORDS: tl.constexpr, QMAX: tl.constexpr):
    pid = tl.program_id(0)
    w = tl.arange(0, NWORDS)[:, None]; j = tl.arange(0, VPW)[None, :]
    x = tl.load(X_ptr + pid * sx0 + (w * VPW + j) * sx1).to(tl.float32)
    xmin = tl.min(tl.min(x, axis=1), axis=0)
    xmax = tl.max(tl.max(x, axis=1), axis=0)
    rng = xmax - xmin
    scale = tl.where(rng > 0.0, rng / QMAX, 1.0)
    tl.store(S_ptr + pid, scale); tl.store(M_ptr + pid, xmin)
    qi = ((x - xmin) * (1.0 / scale) + (0.5 - 1e-6)).to(tl.int32)
    qi = tl.minimum(tl.maximum(qi, 0), QMAX)
    words = tl.sum(qi << (j * BITS), axis=1)
    tl.store(P_ptr + pid * sp0 + tl.arange(0, NWORDS) * sp1, words.to(tl.int32))


@triton.jit
def dequant_unpack_kernel(P_ptr, S_ptr, M_ptr, Y_ptr, sp0: tl.constexpr, sp1: tl.constexpr, sy0: tl.constexpr,
                          sy1: tl.constexpr, BITS: tl.constexpr, VPW: tl.constexpr, NWORDS: tl.constexpr):
    pid = tl.program_id(0)
    word = tl.load(P_ptr + pid * sp0 + tl.arange(0, NWORDS) * sp1)
    scale = tl.load(S_ptr + pid).to(tl.float32); xmin = tl.load(M_ptr + pid).to(tl.float32)
    j = tl.arange(0, VPW)
    q = ((word[:, None] >> (j * BITS)[None, :]) & ((1 << BITS) - 1)).to(tl.float32)
    q = q * scale + xmin
    tl.store(Y_ptr + pid * sy0 + (tl.arange(0, NWORDS)[:, None] * VPW + j[None, :]) * sy1, q.to(tl.bfloat16))
