// Broken kernel 10: loop_bound_one_block_short (borrows puzzle 7, long_sum).
#include "broken/broken_defs.h"
#include "tl.h"

namespace puzzles {
namespace {

constexpr const char* kExplanation =
    "range(0, T - B1, B1) stops one block early: with T = 200 and B1 = 32 it visits columns 0..191 and "
    "never the tail 192..199. (Its cousin T / B1 * B1 drops the same partial block.) The loop is meant to "
    "run to T and let the mask handle the last, partial block. Every access is in bounds and masked, so "
    "the sanitizer's only word is a warning that x[:, 192:200] was never read; the comparison shows the "
    "damage: every row's sum misses its last 8 values, so all "
    "four outputs are wrong. Fix: tl::range(0, T, B1) with the column mask off_j < T.";

// Puzzle 7's solution with its loop ending one block early.
void loop_bound_one_block_short_kernel(tl::Ptr x, tl::Ptr z, tl::Int N0, tl::Int T, tl::Const B0, tl::Const B1) {
  auto off_i = tl::program_id(0) * B0 + tl::arange(0, B0);
  auto mask_i = off_i < N0;
  auto acc = tl::zeros({B0}, tl::f32);
  for (auto j : tl::range(0, T - B1, B1)) {  // BUG: stops before the last (partial) block; the bound is T
    auto off_j = j + tl::arange(0, B1);
    auto mask = mask_i.col() & (off_j.row() < T);
    auto xv = tl::load(x + off_i.col() * T + off_j.row(), mask, 0.0f);
    acc += tl::sum(xv, 1);
  }
  tl::store(z + off_i, acc, mask_i);
}

}  // namespace

BrokenKernel make_loop_bound_one_block_short() {
  static const tl::KernelDef kernel("loop_bound_one_block_short", loop_bound_one_block_short_kernel,
                                    {"x", "z", "N0", "T", "B0", "B1"});
  BrokenKernel b;
  b.name = "loop_bound_one_block_short";
  b.title = "a loop bound one block short";
  b.explanation = kExplanation;
  b.puzzle_id = "long_sum";
  b.kernel = &kernel;
  b.expected = "input never read (a warning): x[:, 192:200]; all 4 outputs wrong (each row misses columns 192..199), "
               "owners (0..3, 0, 0)";
  b.source_file = __FILE__;
  return b;
}

}  // namespace puzzles
