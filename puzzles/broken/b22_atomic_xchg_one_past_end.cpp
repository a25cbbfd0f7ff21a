// Broken kernel 22: atomic_xchg_one_past_end (borrows puzzle 2, add_block).
#include "broken/broken_defs.h"
#include "tl.h"

namespace puzzles {
namespace {

constexpr const char* kExplanation =
    "Puzzle 2 written with atomic_xchg instead of store (as a kernel that publishes each result for "
    "another program to pick up might), and its mask written `off <= N0`. The load is masked right, so "
    "every value is correct; but the exchange's mask lets offset N0, one past the end of z, through. On "
    "a GPU that atomic writes whatever lies after z (or faults). The sanitizer checks atomics lane by "
    "lane like stores: the out-of-bounds write names the program, the lane and offset N0, and the "
    "exchange never touches memory there. Fix: `off < N0`.";

void atomic_xchg_one_past_end_kernel(tl::Ptr x, tl::Ptr z, tl::Int N0, tl::Const B0) {
  auto off_x = tl::program_id(0) * B0 + tl::arange(0, B0);
  auto xv = tl::load(x + off_x, off_x < N0);
  tl::atomic_xchg(z + off_x, xv + 10.0f, off_x <= N0);  // BUG: <= lets offset N0, one past the end of z, through
}

}  // namespace

BrokenKernel make_atomic_xchg_one_past_end() {
  static const tl::KernelDef kernel("atomic_xchg_one_past_end", atomic_xchg_one_past_end_kernel,
                                    {"x", "z", "N0", "B0"});
  BrokenKernel b;
  b.name = "atomic_xchg_one_past_end";
  b.title = "atomic_xchg masked with <= writes one past the end";
  b.explanation = kExplanation;
  b.puzzle_id = "add_block";
  b.set = "canonical";
  b.kernel = &kernel;
  b.expected = "out-of-bounds store at the BUG line (the atomic), one lane at offset 200 in the last program";
  b.source_file = __FILE__;
  return b;
}

}  // namespace puzzles
