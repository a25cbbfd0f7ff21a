"""On a GPU machine: the 12 Triton puzzles (triton_puzzles.py, unchanged)
launched through tilescope's Python front end with gpu_compare: each runs in
the interpreter and, through tilescope's CUDA backend, on the GPU from the
same inputs, and every buffer is compared. Also checks each output against
the file's own torch reference. Prints one line per puzzle and a total.

    PYTHONPATH=python:build/python python3 python/tests/gpu/puzzles_gpu_compare.py
"""
import os
import sys
import time

os.environ["TRITON_INTERPRET"] = "1"  # the file's inputs on the CPU (DEV = "cpu")
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from tilescope import triton_shim  # noqa: E402

provider = triton_shim.install()
import torch  # noqa: E402
import triton_puzzles as tp  # noqa: E402
import tilescope  # noqa: E402

tilescope.configure(gpu_compare=True)
matches = 0
for name, kern, spec, shapes, oshape, nelem, blocks, grid in tp.P:
    torch.manual_seed(0)
    ins = tp.make_inputs(shapes)
    z = torch.zeros(oshape)
    t0 = time.perf_counter()
    r = kern[grid](*ins, z, **nelem, **blocks)
    dt = time.perf_counter() - t0
    ref = spec(*ins)
    tol = dict(rtol=1e-2, atol=1e-1) if name.startswith(("11", "12")) else dict(rtol=1e-3, atol=1e-3)
    good = torch.allclose(z, ref.to(z.dtype), **tol)
    gpu = r.gpu or {}
    ok = bool(gpu.get("ran") and gpu.get("matches")) and good and not r.findings
    matches += ok
    detail = "; ".join(f"{b[0]}: {b[2]}" for b in gpu.get("buffers", [])) or gpu.get("error", "no GPU report")
    print(f"{name:30s} {'match' if ok else 'DIFFERS'}  reference {'ok' if good else 'WRONG'}  "
          f"findings {len(r.findings)}  {dt * 1e3:8.1f} ms  {gpu.get('device', '')}  {detail}", flush=True)
print(f"{matches}/{len(tp.P)} Triton puzzles match between the interpreter and the GPU (triton from {provider})")
sys.exit(0 if matches == len(tp.P) else 1)
