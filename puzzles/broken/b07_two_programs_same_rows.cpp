// Broken kernel 7: two_programs_same_rows (borrows puzzle 7, long_sum).
#include "broken/broken_defs.h"
#include "tl.h"

namespace puzzles {
namespace {

constexpr const char* kExplanation =
    "Puzzle 7 tiles the rows on grid axis 0: the grid is (4, 1, 1). Taking the row block from "
    "program_id(1), as in a 2-D kernel whose rows lie on axis 1, gives every program block 0, so all four "
    "programs sum row 0 and store it to z[0]. On a GPU those stores race (here they agree, but with any "
    "per-program difference the winner is whoever stores last). The sanitizer reports a write conflict at "
    "the store: programs (1, 0, 0), (2, 0, 0) and (3, 0, 0) each store to z[0] after the previous "
    "program did; rows 1..3 are never written. Fix: program_id(0), the axis the grid tiles the rows on.";

// Puzzle 7's solution taking its row block from the wrong grid axis.
void two_programs_same_rows_kernel(tl::Ptr x, tl::Ptr z, tl::Int N0, tl::Int T, tl::Const B0, tl::Const B1) {
  auto off_i = tl::program_id(1) * B0 + tl::arange(0, B0);  // BUG: the grid has one program on axis 1: all take rows 0..B0-1
  auto mask_i = off_i < N0;
  auto acc = tl::zeros({B0}, tl::f32);
  for (auto j : tl::range(0, T, B1)) {
    auto off_j = j + tl::arange(0, B1);
    auto mask = mask_i.col() & (off_j.row() < T);
    auto xv = tl::load(x + off_i.col() * T + off_j.row(), mask, 0.0f);
    acc += tl::sum(xv, 1);
  }
  tl::store(z + off_i, acc, mask_i);
}

}  // namespace

BrokenKernel make_two_programs_same_rows() {
  static const tl::KernelDef kernel("two_programs_same_rows", two_programs_same_rows_kernel,
                                    {"x", "z", "N0", "T", "B0", "B1"});
  BrokenKernel b;
  b.name = "two_programs_same_rows";
  b.title = "every program stores the same rows";
  b.explanation = kExplanation;
  b.puzzle_id = "long_sum";
  b.kernel = &kernel;
  b.expected = "write conflict on z[0] at the store: programs (1..3, 0, 0), each after the one before; "
               "z[1..3] never written; x[1:4, :] never read";
  b.source_file = __FILE__;
  return b;
}

}  // namespace puzzles
