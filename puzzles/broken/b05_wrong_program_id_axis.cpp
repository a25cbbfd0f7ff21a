// Broken kernel 5: wrong_program_id_axis (borrows puzzle 4, outer_add_block).
#include "broken/broken_defs.h"
#include "tl.h"

namespace puzzles {
namespace {

constexpr const char* kExplanation =
    "The grid is (cdiv(N0, B0), cdiv(N1, B1)) = (4, 3): axis 0 tiles the columns, axis 1 the rows. Reading "
    "program_id(1) for the columns and program_id(0) for the rows swaps them, so the columns reached are "
    "0..95 (3 column blocks) and the rows 0..127 (4 row blocks). Masks keep every access in bounds and "
    "every element is written at most once, so there is no out-of-bounds access and no conflict; but "
    "columns 96..99 of every row are never written (360 elements) and program (3, *, 0) has no valid row "
    "at all. The sanitizer reports the unwritten elements, and the check lists them as never written, "
    "owned by programs (3, 0..2, 0). Fix: columns from program_id(0), rows from program_id(1), matching "
    "the grid.";

// Puzzle 4's solution with the two program_id axes swapped.
void wrong_program_id_axis_kernel(tl::Ptr x, tl::Ptr y, tl::Ptr z, tl::Int N0, tl::Int N1, tl::Const B0,
                                  tl::Const B1) {
  auto off_x = tl::program_id(1) * B0 + tl::arange(0, B0);  // BUG: columns are tiled by grid axis 0, not 1
  auto off_y = tl::program_id(0) * B1 + tl::arange(0, B1);  // rows: axis 0 here, swapped with the line above
  auto mask_x = off_x < N0;
  auto mask_y = off_y < N1;
  auto xv = tl::load(x + off_x, mask_x);
  auto yv = tl::load(y + off_y, mask_y);
  auto off_z = off_y.col() * N0 + off_x.row();
  tl::store(z + off_z, yv.col() + xv.row(), mask_y.col() & mask_x.row());
}

}  // namespace

BrokenKernel make_wrong_program_id_axis() {
  static const tl::KernelDef kernel("wrong_program_id_axis", wrong_program_id_axis_kernel,
                                    {"x", "y", "z", "N0", "N1", "B0", "B1"});
  BrokenKernel b;
  b.name = "wrong_program_id_axis";
  b.title = "program_id(0) and program_id(1) swapped";
  b.explanation = kExplanation;
  b.puzzle_id = "outer_add_block";
  b.kernel = &kernel;
  b.expected = "360 elements of z never written (columns 96..99), owned by programs (3, 0..2, 0); "
               "x[96:100] never read (a warning); no out-of-bounds access, no conflict";
  b.source_file = __FILE__;
  return b;
}

}  // namespace puzzles
