"""E1's 128x64x32 configuration in Triton, launched a few times, for Nsight
Compute to profile beside tilescope's kernel:
D = sigmoid(A @ BlT^T) * tanh(A @ BrT^T) at M = 1024, N = 2048, K = 2048,
Triton's default warps and stages, as bench/README.md's Triton column runs it."""
import os

import torch
import triton
import triton.language as tl


@triton.jit
def split_activation(A, BlT, BrT, D, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
                     BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.program_id(1) * BN + tl.arange(0, BN)
    left = tl.zeros((BM, BN), dtype=tl.float32)
    right = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        ks = k + tl.arange(0, BK)
        a = tl.load(A + rows[:, None] * K + ks[None, :])
        at = cols[None, :] * K + ks[:, None]
        left += tl.dot(a, tl.load(BlT + at))
        right += tl.dot(a, tl.load(BrT + at))
    tl.store(D + rows[:, None] * N + cols[None, :], tl.sigmoid(left) * (2 * tl.sigmoid(2 * right) - 1))


# E1_MODE: "loop" launches back to back on
# three input copies in turn, as tilescope's bench does; "memset" zeroes
# 256 MB before each launch, as do_bench's cache flush does; otherwise
# launches back to back on one copy ("dobench": then times it with do_bench).
mode = os.environ.get("E1_MODE", "")
M, N, K = 1024, 2048, 2048
copies = [(torch.randn(M, K, device="cuda"), torch.randn(N, K, device="cuda"), torch.randn(N, K, device="cuda"))
          for _ in range(3 if mode == "loop" else 1)]
D = torch.empty(M, N, device="cuda")
flush = torch.empty(256 * 1024 * 1024 // 4, dtype=torch.int32, device="cuda") if mode == "memset" else None
for i in range(50):
    if flush is not None:
        flush.zero_()
    A, BlT, BrT = copies[i % len(copies)]
    compiled = split_activation[(M // 128, N // 64)](A, BlT, BrT, D, M, N, K, 128, 64, 32)
torch.cuda.synchronize()
if mode == "dobench":  # the Triton column's own timing, for nsys to see its kernels
    import triton.testing
    A, BlT, BrT = copies[0]
    ms = triton.testing.do_bench(lambda: split_activation[(M // 128, N // 64)](A, BlT, BrT, D, M, N, K, 128, 64, 32),
                                 warmup=50, rep=300, return_mode="median")
    print("do_bench median ms", ms)
print("num_warps", compiled.metadata.num_warps, "num_stages", compiled.metadata.num_stages,
      "shared", compiled.metadata.shared, "registers", getattr(compiled, "n_regs", "?"))
