// Broken kernel 6: max_padded_lanes_win (borrows puzzle 8, long_softmax).
#include "broken/broken_defs.h"
#include "tl.h"

#include <cmath>

namespace puzzles {
namespace {

constexpr const char* kExplanation =
    "The first pass loads the row tile with a mask but no `other`. Masked-off lanes (columns 200..223 of "
    "the last step) are undefined on a GPU; the interpreter gives them 0. Padding for a max must be -inf: "
    "a 0 wins the max of any row whose values are all negative, and exp(0 - m) of each padded lane is "
    "added to the row's sum. The sanitizer reports undefined values used at the max reduction (the 24 "
    "padded lanes of each program), then at the sum and the store, which consume the now-undefined row "
    "max. Values: on the canonical inputs the inflated sums make every output wrong; on all-negative rows "
    "(set 8e) the max is 0 and every output is 0. Fix: tl::load(..., mask, -INFINITY), as puzzle 8's "
    "solution does.";

constexpr float kLog2e = 1.44269504f;

// Puzzle 8's solution with `other` left out of the first pass's load.
void max_padded_lanes_win_kernel(tl::Ptr x, tl::Ptr z, tl::Int N0, tl::Int T, tl::Const B0, tl::Const B1) {
  auto off_i = tl::program_id(0) * B0 + tl::arange(0, B0);
  auto mask_i = off_i < N0;
  auto m = tl::full({B0}, -INFINITY, tl::f32);
  auto d = tl::zeros({B0}, tl::f32);
  for (auto j : tl::range(0, T, B1)) {
    auto off_j = j + tl::arange(0, B1);
    auto mask = mask_i.col() & (off_j.row() < T);
    auto xv = tl::load(x + off_i.col() * T + off_j.row(), mask);  // BUG: no other: padded lanes are undefined, not -inf
    auto m_new = tl::maximum(m, tl::max(xv, 1));
    auto p = tl::exp2((xv - m_new.col()) * kLog2e);
    d = d * tl::exp2((m - m_new) * kLog2e) + tl::sum(p, 1);
    m = m_new;
  }
  for (auto j : tl::range(0, T, B1)) {
    auto off_j = j + tl::arange(0, B1);
    auto mask = mask_i.col() & (off_j.row() < T);
    auto off_2d = off_i.col() * T + off_j.row();
    auto xv = tl::load(x + off_2d, mask, -INFINITY);
    auto p = tl::exp2((xv - m.col()) * kLog2e);
    tl::store(z + off_2d, p / d.col(), mask);
  }
}

}  // namespace

BrokenKernel make_max_padded_lanes_win() {
  static const tl::KernelDef kernel("max_padded_lanes_win", max_padded_lanes_win_kernel,
                                    {"x", "z", "N0", "T", "B0", "B1"});
  BrokenKernel b;
  b.name = "max_padded_lanes_win";
  b.title = "a max over a masked load without other = -inf";
  b.explanation = kExplanation;
  b.puzzle_id = "long_softmax";
  b.kernel = &kernel;
  b.expected = "undefined value used at the max reduction (24 padded lanes in each of programs (0..3, 0, 0)), "
               "then at the sum and the store; wrong values on every row";
  b.source_file = __FILE__;
  return b;
}

}  // namespace puzzles
