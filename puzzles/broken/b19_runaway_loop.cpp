// Broken kernel 14: runaway_loop (borrows puzzle 7, long_sum). Hidden from
// `tilescope list` and from the loops over every broken kernel: it runs
// until the step budget stops it (seconds), which is its whole point. The
// tests use it to check the budget and Ctrl-C on a long launch.
#include "broken/broken_defs.h"
#include "tl.h"

namespace puzzles {
namespace {

constexpr const char* kExplanation =
    "The loop bound is T * 10000000 = 2·10^9 instead of T, in steps of 1 instead of B1: each program would "
    "run two billion iterations (all but the first few fully masked, so every access stays in bounds) and "
    "the launch would run for hours with no output. The interpreter counts the steps each program takes; "
    "past the step budget (--max-steps, 2^27 by default) it stops the launch with a finding naming the "
    "loop, its line and how many iterations it had run. Ctrl-C stops it sooner and still prints the "
    "findings. Fix: tl::range(0, T, B1).";

void runaway_loop_kernel(tl::Ptr x, tl::Ptr z, tl::Int N0, tl::Int T, tl::Const B0, tl::Const B1) {
  auto off_i = tl::program_id(0) * B0 + tl::arange(0, B0);
  auto mask_i = off_i < N0;
  auto acc = tl::zeros({B0}, tl::f32);
  for (auto j : tl::range(0, T * 10000000, 1)) {  // BUG: 2·10^9 iterations; the loop is range(0, T, B1)
    auto off_j = j + tl::arange(0, B1);
    auto mask = mask_i.col() & (off_j.row() < T);
    auto xv = tl::load(x + off_i.col() * T + off_j.row(), mask, 0.0f);
    acc += tl::sum(xv, 1);
  }
  tl::store(z + off_i, acc, mask_i);
}

}  // namespace

BrokenKernel make_runaway_loop() {
  static const tl::KernelDef kernel("runaway_loop", runaway_loop_kernel, {"x", "z", "N0", "T", "B0", "B1"});
  BrokenKernel b;
  b.name = "runaway_loop";
  b.title = "a loop that would run 2·10^9 iterations";
  b.explanation = kExplanation;
  b.puzzle_id = "long_sum";
  b.kernel = &kernel;
  b.expected = "step budget exceeded at the loop's line, the launch stopped; outputs never written";
  b.source_file = __FILE__;
  return b;
}

}  // namespace puzzles
