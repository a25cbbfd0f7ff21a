// Broken kernel 2: load_mask_not_store (borrows puzzle 2, add_block).
#include "broken/broken_defs.h"
#include "tl.h"

namespace puzzles {
namespace {

constexpr const char* kExplanation =
    "The mask guards the load but not the store. Program 6's tile covers offsets 192..223 of a 200-element "
    "output, so lanes 8..31 store to z[200..223], past its end: on a GPU this silently corrupts whatever "
    "lies after z. The masked-off loads are fine; the sanitizer reports one out-of-bounds store at the store "
    "line, 24 lanes of program (6, 0, 0) from offset 200. Fix: every access of the tile needs the mask, "
    "tl::store(z + off_x, xv + 10.0f, mask).";

// Puzzle 2's solution with the store's mask left out.
void load_mask_not_store_kernel(tl::Ptr x, tl::Ptr z, tl::Int N0, tl::Const B0) {
  auto off_x = tl::program_id(0) * B0 + tl::arange(0, B0);
  auto mask = off_x < N0;
  auto xv = tl::load(x + off_x, mask);
  tl::store(z + off_x, xv + 10.0f);  // BUG: no mask: lanes past N0 write outside z
}

}  // namespace

BrokenKernel make_load_mask_not_store() {
  static const tl::KernelDef kernel("load_mask_not_store", load_mask_not_store_kernel, {"x", "z", "N0", "B0"});
  BrokenKernel b;
  b.name = "load_mask_not_store";
  b.title = "a masked load, but an unmasked store";
  b.explanation = kExplanation;
  b.puzzle_id = "add_block";
  b.kernel = &kernel;
  b.expected = "out-of-bounds store to z at the store line: 24 lanes (8..31) of program (6, 0, 0), offsets 200..223";
  b.source_file = __FILE__;
  return b;
}

}  // namespace puzzles
