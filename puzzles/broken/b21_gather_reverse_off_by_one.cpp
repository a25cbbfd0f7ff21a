// Broken kernel 21: gather_reverse_off_by_one (borrows puzzle 2, add_block).
#include "broken/broken_defs.h"
#include "tl.h"

namespace puzzles {
namespace {

constexpr const char* kExplanation =
    "The block is read back to front (element B0 - 1 - i of the block in lane i) and put back in order "
    "with a gather. The gather's index is written B0 - i instead of B0 - 1 - i: lane i asks for element "
    "B0 - i of the reversed tile, one too far, so lane 0 asks for element B0, one past the tile's end. "
    "The sanitizer reports the index out of range at the gather, lane 0 of every program; a GPU reads "
    "whatever lies there (the interpreter gives 0). Every other lane gets its left neighbour's value, "
    "so every output is wrong. Fix: tl::gather(xr, B0 - 1 - i, 0).";

// Puzzle 2's solution through a reversed load and a gather that undoes it.
void gather_reverse_off_by_one_kernel(tl::Ptr x, tl::Ptr z, tl::Int N0, tl::Const B0) {
  auto i = tl::arange(0, B0);
  auto off_x = tl::program_id(0) * B0 + i;
  auto mask = off_x < N0;
  auto rev = tl::program_id(0) * B0 + (B0 - 1 - i);
  auto xr = tl::load(x + rev, rev < N0, 0.0f);
  auto xv = tl::gather(xr, B0 - i, 0);  // BUG: B0 - i: lane 0 asks for element B0, one past the tile
  tl::store(z + off_x, xv + 10.0f, mask);
}

}  // namespace

BrokenKernel make_gather_reverse_off_by_one() {
  static const tl::KernelDef kernel("gather_reverse_off_by_one", gather_reverse_off_by_one_kernel,
                                    {"x", "z", "N0", "B0"});
  BrokenKernel b;
  b.name = "gather_reverse_off_by_one";
  b.title = "a gather that undoes a reversal with N - i instead of N - 1 - i";
  b.explanation = kExplanation;
  b.puzzle_id = "add_block";
  b.kernel = &kernel;
  b.expected = "index out of range at the gather (lane 0 of each of programs (0..6, 0, 0)); every output wrong";
  b.source_file = __FILE__;
  return b;
}

}  // namespace puzzles
