"""How long one inline picture takes to render, at the puzzles' sizes.

For each puzzle, the solution of notebooks/solutions.py is traced on its
canonical sizes; then the picture a notebook shows for it (every buffer of
the last program: build the panes, rasterize on the CPU, encode PNG) is made
`--reps` times, and the full HTML of a Result (picture, legend, the events
table with a picture per event) once more per rep. Prints the median and the
worst, in milliseconds. Not a test: numbers depend on the machine.

    PYTHONPATH=python:build/python python3 bench/notebook_render.py [--reps 20]
"""
import argparse
import os
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "notebooks"))

from tilescope import triton_shim  # noqa: E402

triton_shim.install()
import _tilescope as ts  # noqa: E402
import solutions  # noqa: E402
from tilescope import notebook  # noqa: E402
from tilescope.puzzle_test import NAMES  # noqa: E402
from tilescope.puzzles import puzzle_kernel  # noqa: E402

EXTRA = {7: {"N1": 32}, 8: {"N1": 32}}


def timed(fn, reps, clock=time.process_time):
    """Median and worst of `reps` calls, in ms of this process's CPU time by
    default (on a shared machine wall time also counts other processes)."""
    out = []
    for _ in range(reps):
        t = clock()
        fn()
        out.append((clock() - t) * 1e3)
    return statistics.median(out), max(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=20)
    args = ap.parse_args()
    print(f"{'puzzle':>6} {'grid':>10} {'panes':>5} {'picture CPU ms (median / max)':>30} {'wall ms':>8} "
          f"{'result HTML CPU ms':>19}")
    worst = 0.0
    for number, (kernel_name, _) in NAMES.items():
        kdef = puzzle_kernel(str(number), getattr(solutions, kernel_name), EXTRA.get(number))
        passed, _, trace = ts.traced_puzzle_run(str(number), kdef, "canonical", 0)
        assert passed, f"puzzle {number}'s solution failed"
        pic = lambda: notebook.Picture(trace, dim_earlier=False)  # noqa: E731
        med, top = timed(pic, args.reps)
        wall, _ = timed(pic, args.reps, time.perf_counter)
        html_med, _ = timed(lambda: pic()._repr_html_(), max(1, args.reps // 4))
        worst = max(worst, med)
        grid = "x".join(str(g) for g in trace.grid)
        print(f"{number:>6} {grid:>10} {len(pic().panes):>5} {med:>20.2f} / {top:>6.2f} {wall:>8.2f} {html_med:>19.2f}")
    print(f"slowest puzzle's picture: {worst:.2f} ms CPU (median)")


if __name__ == "__main__":
    main()
