// Broken kernel 4: wrong_row_stride (borrows puzzle 4, outer_add_block).
#include "broken/broken_defs.h"
#include "tl.h"

namespace puzzles {
namespace {

constexpr const char* kExplanation =
    "z is [N1, N0] row-major, so row j starts at j * N0: the row stride is the row length N0, not the "
    "number of rows N1. With N1 = 90 < N0 = 100 every row is placed 90 elements after the previous one, "
    "so columns 90..99 of row j land on columns 0..9 of row j + 1, which another program (column block 0) "
    "also stores: a write conflict, whose winner on a GPU depends on scheduling. The sanitizer reports "
    "write conflicts at the store for the programs of column blocks 2 and 3 (they store after block 0 in "
    "program order), and the last 890 elements of z are never written. All offsets stay inside z, so "
    "nothing is out of bounds: only the conflicts and the unwritten tail give the bug away. "
    "Fix: off_y.col() * N0 + off_x.row().";

// Puzzle 4's solution with the row stride N1 instead of N0.
void wrong_row_stride_kernel(tl::Ptr x, tl::Ptr y, tl::Ptr z, tl::Int N0, tl::Int N1, tl::Const B0, tl::Const B1) {
  auto off_x = tl::program_id(0) * B0 + tl::arange(0, B0);  // columns
  auto off_y = tl::program_id(1) * B1 + tl::arange(0, B1);  // rows
  auto mask_x = off_x < N0;
  auto mask_y = off_y < N1;
  auto xv = tl::load(x + off_x, mask_x);
  auto yv = tl::load(y + off_y, mask_y);
  auto off_z = off_y.col() * N1 + off_x.row();  // BUG: the row stride of z is N0 (the row length), not N1
  tl::store(z + off_z, yv.col() + xv.row(), mask_y.col() & mask_x.row());
}

}  // namespace

BrokenKernel make_wrong_row_stride() {
  static const tl::KernelDef kernel("wrong_row_stride", wrong_row_stride_kernel,
                                    {"x", "y", "z", "N0", "N1", "B0", "B1"});
  BrokenKernel b;
  b.name = "wrong_row_stride";
  b.title = "a 2-D offset with the wrong row stride";
  b.explanation = kExplanation;
  b.puzzle_id = "outer_add_block";
  b.kernel = &kernel;
  b.expected = "write conflicts on z at the store: 890 lanes in programs (2..3, 0..2, 0), each with a program of "
               "column block 0; 890 elements of z never written; wrong values";
  b.source_file = __FILE__;
  return b;
}

}  // namespace puzzles
