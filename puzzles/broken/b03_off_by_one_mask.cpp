// Broken kernel 3: off_by_one_mask (borrows puzzle 2, add_block).
#include "broken/broken_defs.h"
#include "tl.h"

namespace puzzles {
namespace {

constexpr const char* kExplanation =
    "Valid offsets are 0..N0-1, so the mask must be off_x < N0; off_x <= N0 also lets offset N0 through. "
    "Exactly one lane is wrong: lane 8 of program 6, offset 200, one past the end of both x and z. The "
    "mistake is on the mask line, but the sanitizer reports it where the mask is used: one out-of-bounds "
    "load and one out-of-bounds store, one lane each, program (6, 0, 0), offset 200. The 200 valid outputs "
    "are right, which is why such a bug survives value checks. Fix: off_x < N0.";

// Puzzle 2's solution with `<=` in the mask.
void off_by_one_mask_kernel(tl::Ptr x, tl::Ptr z, tl::Int N0, tl::Const B0) {
  auto off_x = tl::program_id(0) * B0 + tl::arange(0, B0);
  auto mask = off_x <= N0;  // BUG: <= lets offset N0, one past the end, through
  auto xv = tl::load(x + off_x, mask);
  tl::store(z + off_x, xv + 10.0f, mask);
}

}  // namespace

BrokenKernel make_off_by_one_mask() {
  static const tl::KernelDef kernel("off_by_one_mask", off_by_one_mask_kernel, {"x", "z", "N0", "B0"});
  BrokenKernel b;
  b.name = "off_by_one_mask";
  b.title = "a mask written with <= instead of <";
  b.explanation = kExplanation;
  b.puzzle_id = "add_block";
  b.kernel = &kernel;
  b.expected = "out-of-bounds load from x and out-of-bounds store to z: 1 lane each, program (6, 0, 0) lane 8, "
               "offset 200; the output values are right";
  b.source_file = __FILE__;
  return b;
}

}  // namespace puzzles
