# Triton's own interpreter (TRITON_INTERPRET=1, numpy on the CPU) on the
# at-scale cases of tilescope_interp_bench, at the same sizes and blocks, to
# set the two side by side in one run (bench/interp_scaling_run.sh).
# Usage: TRITON_INTERPRET=1 python3 bench/triton_interp_cases.py DIR [--quick]
# where DIR holds triton_puzzles.py (the puzzles in Triton: ../shared/bench,
# or .anchor/ on the lent machines). E1 and E4 are written out here: their
# Triton kernels are not in triton_puzzles.py.
import os, re, sys, tempfile, time
assert os.environ.get("TRITON_INTERPRET") == "1", "run with TRITON_INTERPRET=1"
import torch
import triton
import triton.language as tl

here = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..", "shared", "bench")
quick = "--quick" in sys.argv
# Triton 3.6's interpreter fails on range(0, T, B) with a runtime T under
# numpy 2.x: the loop bounds are made constexpr in a copy (as
# run_triton_interp.sh does).
src = open(os.path.join(here, "triton_puzzles.py")).read()
for n in ["T", "H", "W", "MID"]:
    src = re.sub(r"(def \w+\([^)]*?)\b%s\b(?!:)" % n, r"\1%s: tl.constexpr" % n, src, flags=re.S)
tmp = tempfile.mkdtemp()
open(os.path.join(tmp, "triton_puzzles_interp.py"), "w").write(src)
sys.path.insert(0, tmp)
from triton_puzzles_interp import dot_kernel, softmax_kernel, add_vec_block_kernel, conv2d_kernel  # noqa: E402


@triton.jit
def e1_v1(A, BlT, BrT, D, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
          BK: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.program_id(1) * BN + tl.arange(0, BN)
    acc_l = tl.zeros((BM, BN), dtype=tl.float32)
    acc_r = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        ks = k + tl.arange(0, BK)
        a = tl.load(A + rows[:, None] * K + ks[None, :], mask=(rows < M)[:, None] & (ks < K)[None, :], other=0.0)
        at = cols[None, :] * K + ks[:, None]
        ok = (ks < K)[:, None] & (cols < N)[None, :]
        acc_l = tl.dot(a, tl.load(BlT + at, mask=ok, other=0.0), acc_l)
        acc_r = tl.dot(a, tl.load(BrT + at, mask=ok, other=0.0), acc_r)
    d = tl.sigmoid(acc_l) * (2 * tl.sigmoid(2 * acc_r) - 1)
    tl.store(D + rows[:, None] * N + cols[None, :], d, mask=(rows < M)[:, None] & (cols < N)[None, :])


@triton.jit
def e4_fused(dY, P, S, Mn, dW, K: tl.constexpr, COUT: tl.constexpr, CIN: tl.constexpr, GROUP: tl.constexpr,
             BITS: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    VPW: tl.constexpr = 32 // BITS
    NWORDS: tl.constexpr = GROUP // VPW
    QMAX: tl.constexpr = (1 << BITS) - 1
    outs = tl.program_id(0) * BM + tl.arange(0, BM)
    out_ok = outs < COUT
    first_col = tl.program_id(1) * BN
    group = first_col // GROUP
    words = (first_col % GROUP) // VPW + tl.arange(0, BN // VPW)
    shifts = tl.arange(0, VPW) * BITS
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        ks = k + tl.arange(0, BK)
        k_ok = ks < K
        dy = tl.load(dY + ks[:, None] * COUT + outs[None, :], mask=k_ok[:, None] & out_ok[None, :], other=0.0)
        rows = ks * (CIN // GROUP) + group
        packed = tl.load(P + rows[:, None] * NWORDS + words[None, :], mask=k_ok[:, None], other=0)
        codes = tl.reshape((packed[:, :, None] >> shifts[None, None, :]) & QMAX, (BK, BN))
        scale = tl.load(S + rows, mask=k_ok, other=0.0).to(tl.float32)
        xmin = tl.load(Mn + rows, mask=k_ok, other=0.0).to(tl.float32)
        x = tl.fma(codes.to(tl.float32), scale[:, None], xmin[:, None]).to(tl.bfloat16)
        acc = tl.dot(tl.trans(dy), x, acc)
    cols = tl.program_id(1) * BN + tl.arange(0, BN)
    tl.store(dW + outs[:, None] * CIN + cols[None, :], acc, mask=out_ok[:, None])


def timed(name, fn, programs, warm=True):
    # The start, for a lower bound on a case that is cut off (TRITON_LIMIT).
    print(f"[triton interpret] {name:40s} started at {time.time():.1f}", flush=True)
    if warm:
        fn()  # builds the kernel once (the examples' runs take minutes: not repeated)
    t0 = time.perf_counter()
    fn()
    dt = time.perf_counter() - t0
    print(f"[triton interpret] {name:40s} {dt * 1e3:12.1f} ms  {programs} programs", flush=True)
    return dt


rows = []
M = 256
a = torch.randn(1, M, M); b = torch.randn(1, M, M); c = torch.empty(1, M, M)
rows.append(("matmul 256^3, blocks 32x32x32", timed("matmul 256^3 B=32x32x32",
    lambda: dot_kernel[(M // 32, M // 32, 1)](a, b, c, M, M, 1, M, B0=32, B1=32, B2=1, B_MID=32), 64)))
x = torch.rand(256, 4096); z = torch.empty_like(x)
rows.append(("softmax 256x4096, B0=1 B1=256", timed("softmax 256x4096 B0=1 B1=256",
    lambda: softmax_kernel[(256,)](x, z, 256, 0, 4096, B0=1, B1=256), 256)))
xv = torch.rand(1024); yv = torch.rand(1024); zz = torch.empty(1024, 1024)
rows.append(("outer add 1024^2, blocks 32x32", timed("outer add 1024^2 B=32x32",
    lambda: add_vec_block_kernel[(32, 32)](xv, yv, zz, 1024, 1024, B0=32, B1=32), 1024)))
xi = torch.rand(64, 16, 16); kk = torch.rand(4, 4); zi = torch.empty_like(xi)
# Not warmed: one run takes minutes in the interpreter, and warming costs
# the same again (a run cut off before it ends gives a lower bound).
rows.append(("conv2d 64x16x16, 4x4, B0=1", timed("conv2d 64x16x16 k4x4 B0=1",
    lambda: conv2d_kernel[(64,)](xi, kk, zi, 64, 16, 16, KH=4, KW=4, B0=1), 64, warm=False)))
if not quick:
    Me, Ne, Ke = 1024, 2048, 2048
    A = torch.rand(Me, Ke) - 0.5; BlT = torch.rand(Ne, Ke) - 0.5; BrT = torch.rand(Ne, Ke) - 0.5
    D = torch.empty(Me, Ne)
    rows.append(("E1 v1 1024x2048x2048, 64x64x32", timed("E1 v1 1024x2048x2048 64x64x32",
        lambda: e1_v1[(Me // 64, Ne // 64)](A, BlT, BrT, D, Me, Ne, Ke, 64, 64, 32), (Me // 64) * (Ne // 64), warm=False)))
    K4, C4, GROUP, BITS = 8192, 768, 256, 2
    rows_p = K4 * (C4 // GROUP)
    dY = (torch.rand(K4, C4) - 0.5).to(torch.bfloat16)
    Pk = torch.randint(-2**31, 2**31 - 1, (rows_p, GROUP * BITS // 32), dtype=torch.int32)
    S = (torch.rand(rows_p) + 0.5).to(torch.bfloat16); Mn = (torch.rand(rows_p) - 0.5).to(torch.bfloat16)
    dW = torch.empty(C4, C4)
    rows.append(("E4 fused K=8192 768x768, 64x64x32", timed("E4 fused K=8192 768x768 64x64x32",
        lambda: e4_fused[(C4 // 64, C4 // 64)](dY, Pk, S, Mn, dW, K4, C4, C4, GROUP, BITS, 64, 64, 32), 144, warm=False)))
print("JSON", "[" + ", ".join('{"case": "%s", "triton_interp_s": %.3f}' % (n, t) for n, t in rows) + "]")
