"""On the GPU machine, with Triton itself: the Triton puzzle 12 kernel
(triton_puzzles.py) at the puzzle's size sets 12b and 12c, to see what
Triton makes of the sets tilescope's checker rejects as build errors."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import torch  # noqa: E402
import triton_puzzles as tp  # noqa: E402

for name, n0, n1, mid, b0, b1, bmid in [("12b", 40, 24, 192, 16, 16, 128), ("12c", 33, 50, 128, 32, 32, 32)]:
    scale = torch.rand(n0, mid // 8, device="cuda")
    offset = torch.randint(-100000, 100000, (n0, mid // 64), dtype=torch.int32, device="cuda")
    weight = torch.randint(-100000, 100000, (n0, mid // 8), dtype=torch.int32, device="cuda")
    act = torch.rand(mid, n1, device="cuda")
    z = torch.zeros(n0, n1, device="cuda")
    grid = ((n0 + b0 - 1) // b0, (n1 + b1 - 1) // b1)
    try:
        tp.quant_dot_kernel[grid](scale, offset, weight, act, z, n0, n1, mid, B0=b0, B1=b1, B_MID=bmid)
        torch.cuda.synchronize()
        print(name, "compiled and ran")
    except Exception as e:  # what Triton says
        print(name, type(e).__name__, str(e).strip().splitlines()[-1][:300])
