# The unfused baseline of example E4 (docs/gpu.md: E4 is to beat the
# unfused dequantize + cuBLAS path): the matrix product dW = dY^T @ X of the
# already dequantized bf16 activation, through cuBLAS (torch.mm), at the
# sizes of tilescope's e4 bench cases. The dequantize half is E3 at the same
# size (K * CIN / 256 rows of 256 values: 302592 rows for K = 100864), timed
# by `tilescope bench --gpu --case e3` and by Triton's E3 row in
# triton_at_scale.py; the unfused time is E3 + this product.
# Usage on a GPU machine with PyTorch: python3 bench/e4_unfused_baseline.py
import torch
from triton.testing import do_bench

torch.manual_seed(0)
COUT = CIN = 768
for K in (8192, 100864):
    dY = torch.randn(K, COUT, device="cuda", dtype=torch.bfloat16)
    X = torch.randn(K, CIN, device="cuda", dtype=torch.bfloat16)
    out = torch.empty(COUT, CIN, device="cuda", dtype=torch.bfloat16)
    f = lambda: torch.mm(dY.t(), X, out=out)
    ms = do_bench(f, warmup=50, rep=300, return_mode="median")
    flops = 2.0 * K * COUT * CIN
    print(f"E4 unfused product (cuBLAS bf16, dY^T @ X) K={K} {COUT}x{CIN}: {ms:.4f} ms  {flops / ms / 1e9:.1f} TFLOP/s",
          flush=True)
