"""On a GPU machine: one Python kernel with gpu_compare, numpy buffers only
(no torch, no Triton imported), to tell tilescope's GPU path apart from
what other libraries loaded into the process do to it.
    PYTHONPATH=python:build/python python3 python/tests/gpu/gpu_compare_numpy.py [torch]
"""
import sys

if "torch" in sys.argv[1:]:
    import torch  # noqa: F401
import numpy as np

import tilescope
import tilescope.language as tl


@tilescope.jit
def add_block(x_ptr, z_ptr, N, B: tl.constexpr):
    off = tl.program_id(0) * B + tl.arange(0, B)
    m = off < N
    tl.store(z_ptr + off, tl.load(x_ptr + off, mask=m) + 10.0, mask=m)


x = np.arange(200, dtype=np.float32)
z = np.zeros(200, dtype=np.float32)
tilescope.configure(gpu_compare=True)
r = add_block[(7,)](x, z, 200, B=32)
print("imports:", sorted(m for m in ("torch", "triton") if m in sys.modules), "gpu:", r.gpu)
sys.exit(0 if r.gpu and r.gpu["matches"] else 1)
