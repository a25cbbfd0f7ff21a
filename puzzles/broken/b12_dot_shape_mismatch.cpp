// Broken kernel 12: dot_shape_mismatch (borrows puzzle 11, batched_matmul).
#include "broken/broken_defs.h"
#include "tl.h"

namespace puzzles {
namespace {

constexpr const char* kExplanation =
    "The reduction index l must lie along x's last axis ([1, 1, B_MID], for x's columns) but along y's "
    "middle axis ([1, B_MID, 1], for y's rows). Copying the lx line for ly keeps axes {0, 1}, so the y "
    "tile comes out [B2, 1, B_MID]: l and the output column k share one axis, and the tile is no longer "
    "[B2, B_MID, B1]. dot then sees a [1, 16, 16] tile times a [1, 1, 16] tile and the kernel does not "
    "build: the error, at the dot, names both shapes and says a's K (16) must equal b's second-to-last "
    "dimension (1). Fix: tl::expand_dims(off_l, {0, 2}).";

// Puzzle 11's solution with the y tile's reduction axis in the wrong place.
void dot_shape_mismatch_kernel(tl::Ptr x, tl::Ptr y, tl::Ptr z, tl::Int N0, tl::Int N1, tl::Int N2, tl::Int MID,
                               tl::Const B0, tl::Const B1, tl::Const B2, tl::Const B_MID) {
  auto off_j = tl::program_id(0) * B0 + tl::arange(0, B0);
  auto off_k = tl::program_id(1) * B1 + tl::arange(0, B1);
  auto off_b = tl::program_id(2) * B2 + tl::arange(0, B2);
  auto b3 = tl::expand_dims(off_b, {1, 2});
  auto j3 = tl::expand_dims(off_j, {0, 2});
  auto k3 = tl::expand_dims(off_k, {0, 1});
  auto acc = tl::zeros({B2, B0, B1}, tl::f32);
  for (auto l : tl::range(0, MID, B_MID)) {
    auto off_l = l + tl::arange(0, B_MID);
    auto lx = tl::expand_dims(off_l, {0, 1});  // [1, 1, B_MID]: columns of x
    auto ly = tl::expand_dims(off_l, {0, 1});  // BUG: copied from lx; rows of y need axes {0, 2}: [1, B_MID, 1]
    auto xv = tl::load(x + (b3 * N0 + j3) * MID + lx, (b3 < N2) & (j3 < N0) & (lx < MID), 0.0f);
    auto yv = tl::load(y + (b3 * MID + ly) * N1 + k3, (b3 < N2) & (ly < MID) & (k3 < N1), 0.0f);
    acc = tl::dot(xv, yv, acc);
  }
  tl::store(z + (b3 * N0 + j3) * N1 + k3, acc, (b3 < N2) & (j3 < N0) & (k3 < N1));
}

}  // namespace

BrokenKernel make_dot_shape_mismatch() {
  static const tl::KernelDef kernel("dot_shape_mismatch", dot_shape_mismatch_kernel,
                                    {"x", "y", "z", "N0", "N1", "N2", "MID", "B0", "B1", "B2", "B_MID"});
  BrokenKernel b;
  b.name = "dot_shape_mismatch";
  b.title = "a dot whose second tile has its reduction axis in the wrong place";
  b.explanation = kExplanation;
  b.puzzle_id = "batched_matmul";
  b.kernel = &kernel;
  b.expected = "build error at the dot: dot shape mismatch: a is [1, 16, 16] and b is [1, 1, 16]";
  b.source_file = __FILE__;
  return b;
}

}  // namespace puzzles
