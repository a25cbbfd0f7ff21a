// Broken kernel 14: fixed_point_index_overflow (borrows puzzle 2, add_block).
#include "broken/broken_defs.h"
#include "tl.h"

namespace puzzles {
namespace {

constexpr const char* kExplanation =
    "A resize kernel's habit: the source index of output element i is computed in 16.16 fixed point, "
    "(i * (N_in << 16) / N_out) >> 16, here from N0 elements to N0 so it should give i back. The product "
    "i * (N0 << 16) is an i32: with N0 = 200 it passes 2^31 at i = 164 and wraps to -2145386496, so from "
    "program 5, lane 4 on the source index is -164. The out-of-bounds load shows where the damage lands; the "
    "integer-overflow finding shows where it starts: the multiply, its operands and the wrapped value (a wrap "
    "that landed back in bounds would show nothing else). Fix: compute the product in i64 "
    "(off_z.to(tl::i64) * ...), or scale after dividing.";

// Puzzle 2's solution reading x through a 16.16 fixed-point source index.
void fixed_point_index_overflow_kernel(tl::Ptr x, tl::Ptr z, tl::Int N0, tl::Const B0) {
  auto off_z = tl::program_id(0) * B0 + tl::arange(0, B0);
  auto mask = off_z < N0;
  auto off_x = (off_z * (N0 << 16) / N0) >> 16;  // BUG: off_z * (N0 << 16) wraps in i32 once off_z * N0 >= 2^15
  auto xv = tl::load(x + off_x, mask);
  tl::store(z + off_z, xv + 10.0f, mask);
}

}  // namespace

BrokenKernel make_fixed_point_index_overflow() {
  static const tl::KernelDef kernel("fixed_point_index_overflow", fixed_point_index_overflow_kernel,
                                    {"x", "z", "N0", "B0"});
  BrokenKernel b;
  b.name = "fixed_point_index_overflow";
  b.title = "an i32 fixed-point index product that wraps";
  b.explanation = kExplanation;
  b.puzzle_id = "add_block";
  b.kernel = &kernel;
  b.expected = "integer overflow at the BUG line from program (5, 0, 0), lane [4]: 164 * 13107200 = 2149580800, "
               "wraps to -2145386496; then out-of-bounds loads and poison stored";
  b.source_file = __FILE__;
  return b;
}

}  // namespace puzzles
