// Broken kernel 25: clamp_index_to_n (borrows puzzle 2, add_block).
#include "broken/broken_defs.h"
#include "tl.h"

namespace puzzles {
namespace {

constexpr const char* kExplanation =
    "Puzzle 2 written the way an edge-replicating kernel (a resampler, a padded convolution) reads its "
    "source: the index is clamped into the buffer with tl.clamp instead of masking the load. The upper "
    "bound is N0 where the last element is N0 - 1, so every lane past the end reads x[N0], one past the "
    "end of x. The store is masked right and every stored value is correct, so comparing outputs says "
    "nothing; on a GPU the load reads whatever lies after x. The sanitizer reports the out-of-bounds "
    "loads at the load's line: the last program's lanes 8..31, all at offset 200. Fix: clamp to N0 - 1.";

void clamp_index_to_n_kernel(tl::Ptr x, tl::Ptr z, tl::Int N0, tl::Const B0) {
  auto off_x = tl::program_id(0) * B0 + tl::arange(0, B0);
  auto src = tl::clamp(off_x.to(tl::f32), 0.0f, N0.to(tl::f32)).to(tl::i32);  // BUG: the last element is N0 - 1
  auto xv = tl::load(x + src);
  tl::store(z + off_x, xv + 10.0f, off_x < N0);
}

}  // namespace

BrokenKernel make_clamp_index_to_n() {
  static const tl::KernelDef kernel("clamp_index_to_n", clamp_index_to_n_kernel, {"x", "z", "N0", "B0"});
  BrokenKernel b;
  b.name = "clamp_index_to_n";
  b.title = "an index clamped to [0, N0] instead of [0, N0 - 1]";
  b.explanation = kExplanation;
  b.puzzle_id = "add_block";
  b.set = "canonical";
  b.kernel = &kernel;
  b.expected = "out-of-bounds load on the line after the BUG line: 24 lanes of the last program, all at offset 200";
  b.source_file = __FILE__;
  return b;
}

}  // namespace puzzles
