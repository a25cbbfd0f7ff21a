// Broken kernel 17: f16_exponentials (borrows puzzle 8, long_softmax).
#include <cmath>

#include "broken/broken_defs.h"
#include "tl.h"

namespace puzzles {
namespace {

constexpr const char* kExplanation =
    "A softmax that keeps its exponentials in f16 (half the registers) and, since exp(x) / sum exp(x) is "
    "the definition, does not subtract the row max first. On inputs near 0 it passes. On set 8d, inputs "
    "in [-200, 200), every exp(x) with x above 11.09 exceeds f16's largest value, 65504, and the "
    "conversion turns it into inf (those above 88.7 are inf in f32 already); the sums become inf and the "
    "outputs 0 or NaN. The float-overflow warning names the conversion, the program, the lane and the "
    "value before it became inf. Fix: subtract the running max (puzzle 8's online softmax) and keep p "
    "in f32, or convert only values known to fit.";

constexpr float kLog2e = 1.44269504f;

// Puzzle 8 as exp(x) / sum exp(x), the exponentials in f16.
void f16_exponentials_kernel(tl::Ptr x, tl::Ptr z, tl::Int N0, tl::Int T, tl::Const B0, tl::Const B1) {
  auto off_i = tl::program_id(0) * B0 + tl::arange(0, B0);
  auto mask_i = off_i < N0;
  auto d = tl::zeros({B0}, tl::f32);
  for (auto j : tl::range(0, T, B1)) {
    auto off_j = j + tl::arange(0, B1);
    auto mask = mask_i.col() & (off_j.row() < T);
    auto xv = tl::load(x + off_i.col() * T + off_j.row(), mask, -INFINITY);
    auto p = tl::exp2(xv * kLog2e).to(tl::f16);  // BUG: exp(x) passes f16's 65504 from x = 11.09; subtract the max
    d += tl::sum(p.to(tl::f32), 1);
  }
  for (auto j : tl::range(0, T, B1)) {
    auto off_j = j + tl::arange(0, B1);
    auto mask = mask_i.col() & (off_j.row() < T);
    auto off_2d = off_i.col() * T + off_j.row();
    auto xv = tl::load(x + off_2d, mask, -INFINITY);
    tl::store(z + off_2d, tl::exp2(xv * kLog2e) / d.col(), mask);
  }
}

}  // namespace

BrokenKernel make_f16_exponentials() {
  static const tl::KernelDef kernel("f16_exponentials", f16_exponentials_kernel, {"x", "z", "N0", "T", "B0", "B1"});
  BrokenKernel b;
  b.name = "f16_exponentials";
  b.title = "softmax exponentials kept in f16 without subtracting the max";
  b.explanation = kExplanation;
  b.puzzle_id = "long_softmax";
  b.set = "8d";
  b.kernel = &kernel;
  b.expected = "float conversion overflows to inf (a warning) at the BUG line on set 8d, every program; "
               "outputs 0 or NaN";
  b.source_file = __FILE__;
  return b;
}

}  // namespace puzzles
