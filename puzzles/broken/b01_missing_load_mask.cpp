// Broken kernel 1: missing_load_mask (borrows puzzle 2, add_block).
#include "broken/broken_defs.h"
#include "tl.h"

namespace puzzles {
namespace {

constexpr const char* kExplanation =
    "The last program's tile runs past the end of the vector: with N0 = 200 and B0 = 32, program 6 covers "
    "offsets 192..223 and only 192..199 exist. The store is masked, but the load is not, so lanes 8..31 of "
    "program 6 read x[200..223], memory that is not part of x (on a GPU: a neighbour's data or a fault). "
    "The sanitizer reports one out-of-bounds load at the load line: 24 lanes of program (6, 0, 0), the first "
    "at offset 200. Fix: pass the same mask to the load, tl::load(x + off_x, mask).";

// Puzzle 2's solution with the load's mask left out.
void missing_load_mask_kernel(tl::Ptr x, tl::Ptr z, tl::Int N0, tl::Const B0) {
  auto off_x = tl::program_id(0) * B0 + tl::arange(0, B0);
  auto mask = off_x < N0;
  auto xv = tl::load(x + off_x);  // BUG: no mask: lanes past N0 read outside x
  tl::store(z + off_x, xv + 10.0f, mask);
}

}  // namespace

BrokenKernel make_missing_load_mask() {
  static const tl::KernelDef kernel("missing_load_mask", missing_load_mask_kernel, {"x", "z", "N0", "B0"});
  BrokenKernel b;
  b.name = "missing_load_mask";
  b.title = "a load without the mask its store has";
  b.explanation = kExplanation;
  b.puzzle_id = "add_block";
  b.kernel = &kernel;
  b.expected = "out-of-bounds load from x at the load line: 24 lanes (8..31) of program (6, 0, 0), offsets 200..223";
  b.source_file = __FILE__;
  return b;
}

}  // namespace puzzles
