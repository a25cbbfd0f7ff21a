// Broken kernel 11: arange_not_power_of_two (borrows puzzle 2, add_block).
#include "broken/broken_defs.h"
#include "tl.h"

namespace puzzles {
namespace {

constexpr const char* kExplanation =
    "arange's end is exclusive, like Python's range: tl::arange(0, B0) already gives 0..B0-1. Writing "
    "B0 - 1 (as for an inclusive range) asks for 31 lanes, and tile dimensions must be powers of two, so "
    "the kernel does not build: the error names the arange, its 31 elements and the power-of-two rule, "
    "and points at the line. (Had it built, lane 31 of every block would never be computed.) "
    "Fix: tl::arange(0, B0).";

// Puzzle 2's solution with an inclusive-range arange.
void arange_not_power_of_two_kernel(tl::Ptr x, tl::Ptr z, tl::Int N0, tl::Const B0) {
  auto off_x = tl::program_id(0) * B0 + tl::arange(0, B0 - 1);  // BUG: the end is exclusive: this is 31 lanes
  auto mask = off_x < N0;
  auto xv = tl::load(x + off_x, mask);
  tl::store(z + off_x, xv + 10.0f, mask);
}

}  // namespace

BrokenKernel make_arange_not_power_of_two() {
  static const tl::KernelDef kernel("arange_not_power_of_two", arange_not_power_of_two_kernel,
                                    {"x", "z", "N0", "B0"});
  BrokenKernel b;
  b.name = "arange_not_power_of_two";
  b.title = "arange(0, B0 - 1): a tile of 31 lanes";
  b.explanation = kExplanation;
  b.puzzle_id = "add_block";
  b.kernel = &kernel;
  b.expected = "build error at the arange line: arange(0, 31) has 31 elements; the length must be a power of two";
  b.source_file = __FILE__;
  return b;
}

}  // namespace puzzles
