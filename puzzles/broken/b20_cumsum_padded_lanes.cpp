// Broken kernel 20: cumsum_padded_lanes (borrows puzzle 7, long_sum).
#include "broken/broken_defs.h"
#include "tl.h"

namespace puzzles {
namespace {

constexpr const char* kExplanation =
    "Each row's total is read off a running sum: the block is scanned with cumsum along its columns and the "
    "last column, the whole block's sum, is added to the accumulator. The load is masked but has no `other`, "
    "so the padded lanes of the last step (columns 200..223, and whole rows past N0) are undefined on a GPU; "
    "the interpreter gives them 0, which happens to be the right padding for a sum, so every value comes out "
    "right here and wrong on a GPU. The sanitizer reports undefined values used at the cumsum (the 24 padded "
    "lanes of each program's last step), then at the sum that picks the last column and at the store. Fix: "
    "tl::load(..., mask, 0.0f), as puzzle 7's solution does.";

// Puzzle 7 computed through a scan, with `other` left out of the load.
void cumsum_padded_lanes_kernel(tl::Ptr x, tl::Ptr z, tl::Int N0, tl::Int T, tl::Const B0, tl::Const B1) {
  auto off_i = tl::program_id(0) * B0 + tl::arange(0, B0);
  auto mask_i = off_i < N0;
  auto last = (tl::arange(0, B1) == B1 - 1).row();
  auto acc = tl::zeros({B0}, tl::f32);
  for (auto j : tl::range(0, T, B1)) {
    auto off_j = j + tl::arange(0, B1);
    auto mask = mask_i.col() & (off_j.row() < T);
    auto xv = tl::load(x + off_i.col() * T + off_j.row(), mask);  // BUG: no other: padded lanes are undefined, not 0
    auto running = tl::cumsum(xv, 1);
    acc += tl::sum(tl::where(last, running, 0.0f), 1);
  }
  tl::store(z + off_i, acc, mask_i);
}

}  // namespace

BrokenKernel make_cumsum_padded_lanes() {
  static const tl::KernelDef kernel("cumsum_padded_lanes", cumsum_padded_lanes_kernel,
                                    {"x", "z", "N0", "T", "B0", "B1"});
  BrokenKernel b;
  b.name = "cumsum_padded_lanes";
  b.title = "a cumsum over a masked load without other";
  b.explanation = kExplanation;
  b.puzzle_id = "long_sum";
  b.kernel = &kernel;
  b.expected = "undefined value used at the cumsum (24 padded lanes in each of programs (0..3, 0, 0)), then at "
               "the sum and the store; the values happen to be right (the interpreter pads with 0)";
  b.source_file = __FILE__;
  return b;
}

}  // namespace puzzles
