// Example E1 — split activation: D = sigmoid(C_left) * tanh(C_right), C = A @ B.
// Two kernels: "e1_v1" (two accumulators over pre-transposed halves of B)
// and "e1_v2" (one interleaved accumulator, split in the epilogue).
#include <cmath>
#include <type_traits>

#include "examples/example_common.h"
#include "examples/example_defs.h"
#include "tl.h"

namespace puzzles {
namespace {

constexpr const char* kStatementV1 = R"(Example E1, kernel v1 - split activation with two accumulators (e1_v1)

A matrix product whose output columns split in two halves, each through its
own activation: D = sigmoid(A @ B_left) * tanh(A @ B_right), where
B = [B_left | B_right] is [K, 2N]. The halves are passed pre-transposed and
contiguous (BlT = B_left^T, BrT = B_right^T, each [N, K]), so a [BK, BN]
tile of B_left is read through the transposed index n * K + k.
Each program computes a BM x BN tile of D: it walks K in steps of BK with
two dots per step into two f32 accumulators (tf32 inputs, the default) and
applies the activations in the epilogue.

Math:        D[m, n] = sigmoid(sum_k A[m,k] BlT[n,k]) * tanh(sum_k A[m,k] BrT[n,k])
Inputs:      A: f32[M, K], BlT: f32[N, K], BrT: f32[N, K]
Output:      D: f32[M, N]
Parameters:  (A, BlT, BrT, D, M, N, K | BM, BN, BK)
Grid:        (cdiv(M, BM), cdiv(N, BN), 1); D[m, n] belongs to (m / BM, n / BN, 0)
Tolerance:   1e-3 relative to an f64 reference (tf32 dot inputs)
Benchmark:   M = 1024, N = 2048, K = 2048, blocks 64x64x32 and 128x64x32
)";

constexpr const char* kStatementV2 = R"(Example E1, kernel v2 - split activation, one interleaved accumulator (e1_v2)

E1 again (D = sigmoid(A @ B_left) * tanh(A @ B_right)), with the two halves
of B interleaved column by column: BiT is [2N, K], row 2n is B_left^T row n
and row 2n + 1 is B_right^T row n. One dot per K step into a [BM, 2 BN]
accumulator; the epilogue reshapes it to [BM, BN, 2] and separates even
(left) and odd (right) columns with masked sums along the last axis, then
applies the activations and stores D[m, n] at m * N + n.
Pitfalls: the row stride of BiT is K (its row length), not M; the store
writes BN columns per program at m * N + n, not 2 BN.

Math:        D[m, n] = sigmoid(sum_k A[m,k] BiT[2n,k]) * tanh(sum_k A[m,k] BiT[2n+1,k])
Inputs:      A: f32[M, K], BiT: f32[2N, K]
Output:      D: f32[M, N]
Parameters:  (A, BiT, D, M, N, K | BM, BN, BK)
Grid:        (cdiv(M, BM), cdiv(N, BN), 1); D[m, n] belongs to (m / BM, n / BN, 0)
Tolerance:   1e-3 relative to an f64 reference (tf32 dot inputs)
)";

constexpr double kTolerance = 1e-3;

void two_accumulators_kernel(tl::Ptr A, tl::Ptr BlT, tl::Ptr BrT, tl::Ptr D, tl::Int M, tl::Int N, tl::Int K,
                             tl::Const BM, tl::Const BN, tl::Const BK) {
  auto rows = tl::program_id(0) * BM + tl::arange(0, BM);
  auto cols = tl::program_id(1) * BN + tl::arange(0, BN);
  auto row_ok = rows < M;
  auto col_ok = cols < N;
  auto acc_left = tl::zeros({BM, BN}, tl::f32);
  auto acc_right = tl::zeros({BM, BN}, tl::f32);
  for (auto k : tl::range(0, K, BK)) {
    auto ks = k + tl::arange(0, BK);
    auto k_ok = ks < K;
    auto a = tl::load(A + rows.col() * K + ks.row(), row_ok.col() & k_ok.row(), 0.0f);
    // BlT and BrT are [N, K]: element (k, n) of the [BK, BN] tile is at n * K + k.
    auto b_at = cols.row() * K + ks.col();
    auto b_ok = k_ok.col() & col_ok.row();
    acc_left = tl::dot(a, tl::load(BlT + b_at, b_ok, 0.0f), acc_left);
    acc_right = tl::dot(a, tl::load(BrT + b_at, b_ok, 0.0f), acc_right);
  }
  auto d = tl::sigmoid(acc_left) * tl::tanh(acc_right);
  tl::store(D + rows.col() * N + cols.row(), d, row_ok.col() & col_ok.row());
}

void interleaved_kernel(tl::Ptr A, tl::Ptr BiT, tl::Ptr D, tl::Int M, tl::Int N, tl::Int K, tl::Const BM,
                        tl::Const BN, tl::Const BK) {
  auto rows = tl::program_id(0) * BM + tl::arange(0, BM);
  auto cols = tl::program_id(1) * BN + tl::arange(0, BN);
  // The accumulator's 2 BN columns are rows of BiT: left and right of each output column.
  auto bi_rows = tl::program_id(1) * (2 * BN) + tl::arange(0, 2 * BN);
  auto row_ok = rows < M;
  auto bi_ok = bi_rows < 2 * N;
  auto acc = tl::zeros({BM, 2 * BN}, tl::f32);
  for (auto k : tl::range(0, K, BK)) {
    auto ks = k + tl::arange(0, BK);
    auto k_ok = ks < K;
    auto a = tl::load(A + rows.col() * K + ks.row(), row_ok.col() & k_ok.row(), 0.0f);
    auto b = tl::load(BiT + bi_rows.row() * K + ks.col(), k_ok.col() & bi_ok.row(), 0.0f);  // row stride K
    acc = tl::dot(a, b, acc);
  }
  // Even columns are the left half, odd ones the right: a masked sum over pairs.
  auto pairs = tl::reshape(acc, {BM, BN, 2});
  auto parity = tl::arange(0, 2);
  auto left = tl::sum(tl::where(parity == 0, pairs, 0.0f), 2);
  auto right = tl::sum(tl::where(parity == 1, pairs, 0.0f), 2);
  auto d = tl::sigmoid(left) * tl::tanh(right);
  tl::store(D + rows.col() * N + cols.row(), d, row_ok.col() & (cols < N).row());
}

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

// D from the rows of B^T that hold column n of each half.
std::vector<double> split_activation(const SizeSet& s, const float* a, const float* left_t, const float* right_t,
                                     int64_t left_row_step, int64_t left_row_first, int64_t right_row_first) {
  const int64_t m_size = s["M"], n_size = s["N"], k_size = s["K"];
  std::vector<double> d(static_cast<size_t>(m_size * n_size));
  // Columns n .. n + W - 1 of row m at once: 2W independent sums, each in k
  // order, instead of two dependent chains (the benchmark sets' 8.6 G
  // products were most of their test's time).
  auto columns = [&](int64_t m, int64_t n, auto width) {
    constexpr int W = decltype(width)::value;
    const float* l[W];
    const float* r[W];
    double cl[W] = {}, cr[W] = {};
    for (int j = 0; j < W; ++j) {
      l[j] = left_t + (left_row_first + (n + j) * left_row_step) * k_size;
      r[j] = right_t + (right_row_first + (n + j) * left_row_step) * k_size;
    }
    const float* a_row = a + m * k_size;
    for (int64_t k = 0; k < k_size; ++k) {
      const double x = a_row[k];
      for (int j = 0; j < W; ++j) {
        cl[j] += x * double(l[j][k]);
        cr[j] += x * double(r[j][k]);
      }
    }
    for (int j = 0; j < W; ++j) d[static_cast<size_t>(m * n_size + n + j)] = sigmoid(cl[j]) * std::tanh(cr[j]);
  };
  examples::parallel_ranges(m_size, [&](int64_t m_lo, int64_t m_hi) {
    for (int64_t m = m_lo; m < m_hi; ++m) {
      int64_t n = 0;
      for (; n + 4 <= n_size; n += 4) columns(m, n, std::integral_constant<int, 4>{});
      for (; n < n_size; ++n) columns(m, n, std::integral_constant<int, 1>{});
    }
  });
  return d;
}

std::vector<double> reference_v1(const SizeSet& s, const std::vector<tl::Buffer>& in) {
  return split_activation(s, in[0].as<float>(), in[1].as<float>(), in[2].as<float>(), 1, 0, 0);
}

std::vector<double> reference_v2(const SizeSet& s, const std::vector<tl::Buffer>& in) {
  const float* bi = in[1].as<float>();
  return split_activation(s, in[0].as<float>(), bi, bi, 2, 0, 1);
}

examples::GridRule tiles_of_d() {
  return [](const SizeSet& s) {
    return std::array<int64_t, 3>{examples::cdiv(s["M"], s["BM"]), examples::cdiv(s["N"], s["BN"]), 1};
  };
}

SizeSet set(std::string name, int64_t m, int64_t n, int64_t k, int64_t bm, int64_t bn, int64_t bk,
            std::string stresses, bool large = false) {
  return examples::make_set(std::move(name), {{"M", m}, {"N", n}, {"K", k}}, {}, {{"BM", bm}, {"BN", bn}, {"BK", bk}},
                            std::move(stresses), tiles_of_d(), large);
}

Puzzle common(std::string id, std::string title, const char* statement) {
  Puzzle p = examples::example_puzzle(std::move(id), std::move(title), statement, kTolerance);
  p.output = {"D", tl::f32, dims({"M", "N"})};
  p.output_axes = {0, 1};
  p.owner = [](const SizeSet& s, const std::vector<int64_t>& i) {
    return std::array<int64_t, 3>{i[0] / s["BM"], i[1] / s["BN"], 0};
  };
  p.sets = {set("canonical", 64, 64, 96, 32, 32, 32, "M < K: a row stride of M instead of K stays in bounds"),
            set("e1a", 80, 48, 72, 32, 32, 16, "tails in M, N and K"),
            set("e1b", 40, 100, 50, 64, 32, 32, "M below one block; N and K tails"),
            set("bench", 1024, 2048, 2048, 64, 64, 32, "benchmark size (GPU)", true)};
  return p;
}

}  // namespace

Puzzle make_e1_two_accumulators() {
  static const tl::KernelDef kernel("e1_split_activation_v1", two_accumulators_kernel,
                                    {"A", "BlT", "BrT", "D", "M", "N", "K", "BM", "BN", "BK"});
  Puzzle p = common("e1_v1", "Split activation, two accumulators", kStatementV1);
  p.inputs = {{"A", tl::f32, dims({"M", "K"})}, {"BlT", tl::f32, dims({"N", "K"})}, {"BrT", tl::f32, dims({"N", "K"})}};
  p.sets.push_back(set("bench_128", 1024, 2048, 2048, 128, 64, 32, "benchmark size, 128x64x32 blocks (GPU)", true));
  p.solution = p.stub = &kernel;
  p.reference = reference_v1;
  return p;
}

Puzzle make_e1_interleaved() {
  static const tl::KernelDef kernel("e1_split_activation_v2", interleaved_kernel,
                                    {"A", "BiT", "D", "M", "N", "K", "BM", "BN", "BK"});
  Puzzle p = common("e1_v2", "Split activation, one interleaved accumulator", kStatementV2);
  p.inputs = {{"A", tl::f32, dims({"M", "K"})},
              {"BiT", tl::f32, [](const SizeSet& s) { return std::vector<int64_t>{2 * s["N"], s["K"]}; }}};
  p.solution = p.stub = &kernel;
  p.reference = reference_v2;
  return p;
}

}  // namespace puzzles
