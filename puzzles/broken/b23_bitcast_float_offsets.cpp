// Broken kernel 23: bitcast_float_offsets (borrows puzzle 2, add_block).
#include "broken/broken_defs.h"
#include "tl.h"

namespace puzzles {
namespace {

constexpr const char* kExplanation =
    "Offsets computed in f32 (as a kernel that scales its indices might) and turned back into integers "
    "with a bitcast, `.to(tl::i32, bitcast=True)`, where a conversion was meant. A bitcast keeps the "
    "float's bits: 0.0 stays 0, but 1.0 becomes 1065353216 and every other lane is as far off, so the "
    "load reads about 4 GB past x. The sanitizer reports the out-of-bounds loads at the load, each "
    "with its huge offset; the outputs are poison. Fix: `.to(tl::i32)` converts the value.";

void bitcast_float_offsets_kernel(tl::Ptr x, tl::Ptr z, tl::Int N0, tl::Const B0) {
  auto off_x = tl::program_id(0) * B0 + tl::arange(0, B0);
  auto mask = off_x < N0;
  auto src = off_x.to(tl::f32).to(tl::i32, true);  // BUG: a bitcast keeps the float's bits (1.0 is 1065353216)
  auto xv = tl::load(x + src, mask);
  tl::store(z + off_x, xv + 10.0f, mask);
}

}  // namespace

BrokenKernel make_bitcast_float_offsets() {
  static const tl::KernelDef kernel("bitcast_float_offsets", bitcast_float_offsets_kernel, {"x", "z", "N0", "B0"});
  BrokenKernel b;
  b.name = "bitcast_float_offsets";
  b.title = "float offsets bitcast to i32 instead of converted";
  b.explanation = kExplanation;
  b.puzzle_id = "add_block";
  b.set = "canonical";
  b.kernel = &kernel;
  b.expected = "out-of-bounds loads at the line after the BUG line, every lane but offset 0; the poison "
               "stored the line after; x almost never read";
  b.source_file = __FILE__;
  return b;
}

}  // namespace puzzles
