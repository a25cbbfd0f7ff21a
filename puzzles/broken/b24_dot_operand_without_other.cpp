// Broken kernel 24: dot_operand_without_other (borrows puzzle 11, batched_matmul).
#include "broken/broken_defs.h"
#include "tl.h"

namespace puzzles {
namespace {

constexpr const char* kExplanation =
    "Puzzle 11 with x's tile loaded under its mask but without `other`. On a GPU the masked-off lanes "
    "of a load are undefined (whatever the registers held), and here they are the rows and columns "
    "past N0 and MID, which the dot multiplies into the accumulator. tl:: fills them with 0, so the "
    "outputs match here; on hardware the padded products add garbage (NaN included) wherever a tail "
    "exists. The sanitizer follows the undefined lanes and reports them where they reach the dot. "
    "Fix: `other=0.0` on both operand loads, as the solution has.";

void dot_operand_without_other_kernel(tl::Ptr x, tl::Ptr y, tl::Ptr z, tl::Int N0, tl::Int N1, tl::Int N2,
                                      tl::Int MID, tl::Const B0, tl::Const B1, tl::Const B2, tl::Const B_MID) {
  auto off_j = tl::program_id(0) * B0 + tl::arange(0, B0);
  auto off_k = tl::program_id(1) * B1 + tl::arange(0, B1);
  auto off_b = tl::program_id(2) * B2 + tl::arange(0, B2);
  auto b3 = tl::expand_dims(off_b, {1, 2});
  auto j3 = tl::expand_dims(off_j, {0, 2});
  auto k3 = tl::expand_dims(off_k, {0, 1});
  auto acc = tl::zeros({B2, B0, B1}, tl::f32);
  for (auto l : tl::range(0, MID, B_MID)) {
    auto off_l = l + tl::arange(0, B_MID);
    auto lx = tl::expand_dims(off_l, {0, 1});
    auto ly = tl::expand_dims(off_l, {0, 2});
    auto xv = tl::load(x + (b3 * N0 + j3) * MID + lx, (b3 < N2) & (j3 < N0) & (lx < MID));  // BUG: no other
    auto yv = tl::load(y + (b3 * MID + ly) * N1 + k3, (b3 < N2) & (ly < MID) & (k3 < N1), 0.0f);
    acc = tl::dot(xv, yv, acc);
  }
  tl::store(z + (b3 * N0 + j3) * N1 + k3, acc, (b3 < N2) & (j3 < N0) & (k3 < N1));
}

}  // namespace

BrokenKernel make_dot_operand_without_other() {
  static const tl::KernelDef kernel("dot_operand_without_other", dot_operand_without_other_kernel,
                                    {"x", "y", "z", "N0", "N1", "N2", "MID", "B0", "B1", "B2", "B_MID"});
  BrokenKernel b;
  b.name = "dot_operand_without_other";
  b.title = "a masked load without other feeds a dot";
  b.explanation = kExplanation;
  b.puzzle_id = "batched_matmul";
  b.set = "11a";
  b.kernel = &kernel;
  b.expected = "undefined values used at the dot, two lines below the BUG line; outputs match (tl:: fills 0)";
  b.source_file = __FILE__;
  return b;
}

}  // namespace puzzles
