"""Programs that wait on each other, timed in the interpreter: a grid of
10^4 programs each spinning on a flag that program K raises
(python/tests/coop_kernels.py's wait_for_k), for K near the start and at
the end (every other program waiting at once).

    PYTHONPATH=python:build/python python3 bench/spin_wait_bench.py
"""
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python", "tests"))
from tilescope import triton_shim  # noqa: E402

triton_shim.install()
import coop_kernels  # noqa: E402
import tilescope  # noqa: E402

PROGRAMS = 10_000


def main():
    kernel = tilescope.jit(coop_kernels.wait_for_k)
    for k in (100, PROGRAMS - 1):
        times = []
        for _ in range(3):
            flag = np.zeros(1, dtype=np.int32)
            out = np.zeros(PROGRAMS, dtype=np.int32)
            t0 = time.perf_counter()
            r = kernel[(PROGRAMS,)](flag, out, k)
            times.append(time.perf_counter() - t0)
        kinds = sorted({f.kind for f in r.findings})
        print(f"spin on program {k}'s flag, {PROGRAMS} programs: median {sorted(times)[1]:.2f} s "
              f"(findings: {', '.join(kinds) or 'none'})")


if __name__ == "__main__":
    main()
