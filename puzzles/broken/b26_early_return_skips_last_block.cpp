// Broken kernel 26: early_return_skips_last_block (borrows puzzle 2, add_block).
#include "broken/broken_defs.h"
#include "tl.h"

namespace puzzles {
namespace {

constexpr const char* kExplanation =
    "Puzzle 2 with the early exit real kernels start with (`if pid >= n_blocks: return`), written as \"return "
    "when this block does not fit\": (pid + 1) * B0 > N0. The last block is partial (N0 = 200, B0 = 32: "
    "elements 192..199), so its program returns before its load and store: no access goes out of bounds, "
    "but z[192..199] is never written and x[192..199] never read. The sanitizer reports both, at the store "
    "and at the load the returned program skipped, and the value check finds the 8 outputs missing. Fix: "
    "return only when the block starts past the end, pid * B0 >= N0 (the mask handles the partial block).";

// C++ has no return out of a runtime if: the rest of the kernel is the
// else branch, which is what the Python front end builds for `return`.
void early_return_skips_last_block_kernel(tl::Ptr x, tl::Ptr z, tl::Int N0, tl::Const B0) {
  auto pid = tl::program_id(0);
  tl::if_((pid + 1) * B0 > N0, [&] {  // BUG: the partial last block returns too
  }, [&] {
    auto off_x = pid * B0 + tl::arange(0, B0);
    auto mask = off_x < N0;
    auto xv = tl::load(x + off_x, mask);
    tl::store(z + off_x, xv + 10.0f, mask);
  });
}

}  // namespace

BrokenKernel make_early_return_skips_last_block() {
  static const tl::KernelDef kernel("early_return_skips_last_block", early_return_skips_last_block_kernel,
                                    {"x", "z", "N0", "B0"});
  BrokenKernel b;
  b.name = "early_return_skips_last_block";
  b.title = "an early return that skips the partial last block's store";
  b.explanation = kExplanation;
  b.puzzle_id = "add_block";
  b.kernel = &kernel;
  b.expected = "z[192..199] never written (at the store) and x[192..199] never read (at the load), 4 and 3 "
               "statements below the BUG line; 8 outputs missing";
  b.source_file = __FILE__;
  return b;
}

}  // namespace puzzles
