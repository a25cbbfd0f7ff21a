// Broken kernel 8: read_output_before_write (borrows puzzle 7, long_sum).
#include "broken/broken_defs.h"
#include "tl.h"

namespace puzzles {
namespace {

constexpr const char* kExplanation =
    "The accumulator starts from the output itself, as if z were zero-filled. Nothing says it is: a fresh "
    "output holds whatever was in memory (torch.empty), and here the harness fills it with NaN so the "
    "mistake shows. The sanitizer reports an uninitialized read of z at that load: one lane in each of "
    "programs (0..3, 0, 0), reading z[0..3] before any program wrote them; every sum then starts from "
    "NaN and every output is non-finite. Fix: start from tl::zeros({B0}, tl::f32) and only store to z.";

// Puzzle 7's solution accumulating on top of the output's old contents.
void read_output_before_write_kernel(tl::Ptr x, tl::Ptr z, tl::Int N0, tl::Int T, tl::Const B0, tl::Const B1) {
  auto off_i = tl::program_id(0) * B0 + tl::arange(0, B0);
  auto mask_i = off_i < N0;
  auto acc = tl::load(z + off_i, mask_i);  // BUG: z is the output: nothing has written it, it is not zero
  for (auto j : tl::range(0, T, B1)) {
    auto off_j = j + tl::arange(0, B1);
    auto mask = mask_i.col() & (off_j.row() < T);
    auto xv = tl::load(x + off_i.col() * T + off_j.row(), mask, 0.0f);
    acc += tl::sum(xv, 1);
  }
  tl::store(z + off_i, acc, mask_i);
}

}  // namespace

BrokenKernel make_read_output_before_write() {
  static const tl::KernelDef kernel("read_output_before_write", read_output_before_write_kernel,
                                    {"x", "z", "N0", "T", "B0", "B1"});
  BrokenKernel b;
  b.name = "read_output_before_write";
  b.title = "an accumulator loaded from the never-written output";
  b.explanation = kExplanation;
  b.puzzle_id = "long_sum";
  b.kernel = &kernel;
  b.expected = "uninitialized read of z at the load: 1 lane in each of programs (0..3, 0, 0); "
               "all 4 outputs non-finite (NaN)";
  b.source_file = __FILE__;
  return b;
}

}  // namespace puzzles
