// Broken kernel 13: interleaved_wrong_row_stride (borrows example e1_v2).
#include "broken/broken_defs.h"
#include "tl.h"

namespace puzzles {
namespace {

constexpr const char* kExplanation =
    "E1's interleaved kernel reads a [BK, 2 BN] tile of BiT, which is [2N, K] row-major: row r starts at r * K, "
    "so the row stride is K (the row length). This kernel uses M, the number of rows of A, as the stride. "
    "At the canonical sizes (M = 64 < K = 96) every offset r * 64 + k is still inside BiT (at most "
    "127 * 64 + 95 < 128 * 96), so nothing is out of bounds, no element is left unwritten and no two "
    "programs collide; the one hint is a warning that the last 4064 elements of BiT were never read. "
    "The values are wrong: the dot reads a "
    "mixture of neighbouring rows of BiT, and every element of D differs from the reference, in every "
    "program. A failure that covers all owners with no out-of-bounds report points at an index or stride "
    "that stays in bounds; the viewer's diff grid shows the whole of D red, and the load of BiT reads a "
    "compact block of rows at the top of BiT instead of 2 BN strided rows. Fix: bi_rows.row() * K + ks.col().";

// Example E1 v2 with the row stride of BiT taken as M instead of K.
void interleaved_wrong_row_stride_kernel(tl::Ptr A, tl::Ptr BiT, tl::Ptr D, tl::Int M, tl::Int N, tl::Int K,
                                         tl::Const BM, tl::Const BN, tl::Const BK) {
  auto rows = tl::program_id(0) * BM + tl::arange(0, BM);
  auto cols = tl::program_id(1) * BN + tl::arange(0, BN);
  auto bi_rows = tl::program_id(1) * (2 * BN) + tl::arange(0, 2 * BN);
  auto row_ok = rows < M;
  auto bi_ok = bi_rows < 2 * N;
  auto acc = tl::zeros({BM, 2 * BN}, tl::f32);
  for (auto k : tl::range(0, K, BK)) {
    auto ks = k + tl::arange(0, BK);
    auto k_ok = ks < K;
    auto a = tl::load(A + rows.col() * K + ks.row(), row_ok.col() & k_ok.row(), 0.0f);
    auto b = tl::load(BiT + bi_rows.row() * M + ks.col(), k_ok.col() & bi_ok.row(), 0.0f);  // BUG: BiT's row stride is K, not M
    acc = tl::dot(a, b, acc);
  }
  auto pairs = tl::reshape(acc, {BM, BN, 2});
  auto parity = tl::arange(0, 2);
  auto left = tl::sum(tl::where(parity == 0, pairs, 0.0f), 2);
  auto right = tl::sum(tl::where(parity == 1, pairs, 0.0f), 2);
  tl::store(D + rows.col() * N + cols.row(), tl::sigmoid(left) * tl::tanh(right), row_ok.col() & (cols < N).row());
}

}  // namespace

BrokenKernel make_interleaved_wrong_row_stride() {
  static const tl::KernelDef kernel("interleaved_wrong_row_stride", interleaved_wrong_row_stride_kernel,
                                    {"A", "BiT", "D", "M", "N", "K", "BM", "BN", "BK"});
  BrokenKernel b;
  b.name = "interleaved_wrong_row_stride";
  b.title = "E1 v2 reads the interleaved B^T with row stride M instead of K: in bounds, and wrong";
  b.explanation = kExplanation;
  b.puzzle_id = "e1_v2";
  b.kernel = &kernel;
  b.expected = "no out-of-bounds access, only an input-never-read warning (within BiT[85:128, :]), nothing unwritten; 4094 of 4096 elements of D wrong, "
               "owned by all 4 programs, and the hint that an index or stride stays in bounds";
  b.source_file = __FILE__;
  return b;
}

}  // namespace puzzles
