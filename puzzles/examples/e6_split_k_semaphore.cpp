// Example E6 — split-K matmul whose first slice's program waits for the
// others' partial tiles behind per-slice flags ("e6_splitk_sem"), and two
// broken variants: a flag never raised (a deadlock) and a flag raised
// with relaxed ordering (a race on the partial tiles).
#include "examples/example_common.h"
#include "examples/example_defs.h"
#include "tl.h"

namespace puzzles {
namespace {

constexpr const char* kStatement = R"(Example E6 - split-K matmul with a semaphore (e6_splitk_sem)

C = A @ B with K cut into SPLIT_K interleaved slices of BK columns. Program
(i, j, s) multiplies its slice for the [BM, BN] tile (i, j). A program with
s > 0 stores its partial tile in the workspace W and raises its flag with
a release atomic_xchg; program (i, j, 0) waits for each flag with an
acquire atomic_cas, adds that partial to its own, lowers the flag again
(so the flags are 0 for the next launch) and stores the tile of C. On a
GPU the slices of one tile run side by side; in the interpreter the waiting
program is suspended until each flag is raised.

Inputs:      A: f32[M, K], B: f32[K, N]
Outputs:     C: f32[M, N]; the workspace W: f32[tiles * SPLIT_K * BM * BN]
             (the partial tiles, tiles = cdiv(M, BM) * cdiv(N, BN)) and
             Flags: i32[tiles * SPLIT_K], both zero at the start; Flags ends zero
Parameters:  (A, B, C, W, Flags, M, N, K | BM, BN, BK, SPLIT_K)
Grid:        (cdiv(M, BM), cdiv(N, BN), SPLIT_K)
Tolerance:   2e-3 relative (tf32 dot: each operand truncated to tf32)
Benchmark:   M = N = 512, K = 4096, BM = BN = BK = 64, SPLIT_K = 8
)";

// RELEASE: the sem of the flag's raise ("release"; "relaxed" in the broken
// variant); RAISE: whether the partial programs raise their flag at all.
template <bool RAISE, bool RELAXED>
void split_k_semaphore(tl::Ptr A, tl::Ptr B, tl::Ptr C, tl::Ptr W, tl::Ptr Flags, tl::Int M, tl::Int N, tl::Int K,
                       tl::Const BM, tl::Const BN, tl::Const BK, tl::Const SPLIT_K) {
  auto pid_m = tl::program_id(0), pid_n = tl::program_id(1), s = tl::program_id(2);
  auto rm = pid_m * BM + tl::arange(0, BM);
  auto rn = pid_n * BN + tl::arange(0, BN);
  auto acc = tl::zeros({BM, BN}, tl::f32);
  for (auto k : tl::range(s * BK, K, BK * SPLIT_K)) {
    auto rk = k + tl::arange(0, BK);
    auto a = tl::load(A + rm.col() * K + rk.row(), (rm < M).col() & (rk < K).row(), 0.0f);
    auto b = tl::load(B + rk.col() * N + rn.row(), (rk < K).col() & (rn < N).row(), 0.0f);
    acc = tl::dot(a, b, acc);
  }
  auto tile = pid_m * tl::num_programs(1) + pid_n;
  auto in_tile = tl::arange(0, BM).col() * BN + tl::arange(0, BN).row();
  tl::if_(
      s > 0,
      [&] {
        tl::store(W + (tile * SPLIT_K + s) * (BM * BN) + in_tile, acc);
        if (RAISE) tl::atomic_xchg(Flags + tile * SPLIT_K + s, 1, true, RELAXED ? "relaxed" : "release");  // BUG when relaxed
      },
      [&] {
        for (auto t : tl::range(1, SPLIT_K, 1)) {
          tl::while_([&] { return tl::atomic_cas(Flags + tile * SPLIT_K + t, 1, 1, "acquire") != 1; }, [] {});
          acc += tl::load(W + (tile * SPLIT_K + t) * (BM * BN) + in_tile);
          tl::atomic_xchg(Flags + tile * SPLIT_K + t, 0, true, "relaxed");
        }
        tl::store(C + rm.col() * N + rn.row(), acc, (rm < M).col() & (rn < N).row());
      });
}

// A buffer's f32 values as doubles, read once (the references' inner
// loops then index plain memory).
std::vector<double> values(const tl::Buffer& b) {
  std::vector<double> v(static_cast<size_t>(b.extent()));
  for (int64_t i = 0; i < b.extent(); ++i) v[static_cast<size_t>(i)] = b.as<float>()[i];
  return v;
}

// A @ B in f64 over the BK-blocks of K numbered first, first + stride,
// ... (first 0, stride 1: all of K), as [M, N].
std::vector<double> product(const SizeSet& s, const std::vector<double>& a, const std::vector<double>& b, int64_t first,
                            int64_t stride) {
  const int64_t M = s["M"], N = s["N"], K = s["K"], BK = s["BK"];
  std::vector<double> c(static_cast<size_t>(M * N), 0.0);
  examples::parallel_ranges(M, [&](int64_t lo, int64_t hi) {
    for (int64_t i = lo; i < hi; ++i)
      for (int64_t k0 = first * BK; k0 < K; k0 += BK * stride)
        for (int64_t k = k0; k < k0 + BK && k < K; ++k) {
          const double x = a[static_cast<size_t>(i * K + k)];
          const double* row = b.data() + k * N;
          double* out = c.data() + i * N;
          for (int64_t j = 0; j < N; ++j) out[j] += x * row[j];
        }
  });
  return c;
}

std::vector<double> reference(const SizeSet& s, const std::vector<tl::Buffer>& in) {
  return product(s, values(in[0]), values(in[1]), 0, 1);
}

int64_t tiles(const SizeSet& s) { return examples::cdiv(s["M"], s["BM"]) * examples::cdiv(s["N"], s["BN"]); }

SizeSet set(std::string name, int64_t m, int64_t n, int64_t k, int64_t bm, int64_t bk, int64_t split, std::string stresses,
            bool large = false) {
  return examples::make_set(
      std::move(name), {{"M", m}, {"N", n}, {"K", k}}, {}, {{"BM", bm}, {"BN", bm}, {"BK", bk}, {"SPLIT_K", split}},
      std::move(stresses),
      [](const SizeSet& s) {
        return std::array<int64_t, 3>{examples::cdiv(s["M"], s["BM"]), examples::cdiv(s["N"], s["BN"]), s["SPLIT_K"]};
      },
      large);
}

// The partial tiles the programs with s > 0 leave in W, and the flags.
std::vector<std::vector<double>> workspace_reference(const SizeSet& s, const std::vector<tl::Buffer>& in) {
  const int64_t M = s["M"], N = s["N"], BM = s["BM"], BN = s["BN"], S = s["SPLIT_K"];
  const int64_t tn = examples::cdiv(N, BN);
  const std::vector<double> a = values(in[0]), b = values(in[1]);
  std::vector<double> w(static_cast<size_t>(tiles(s) * S * BM * BN), 0.0);
  for (int64_t sl = 1; sl < S; ++sl) {
    const std::vector<double> part = product(s, a, b, sl, S);
    for (int64_t t = 0; t < tiles(s); ++t)
      for (int64_t r = 0; r < BM; ++r)
        for (int64_t c = 0; c < BN; ++c) {
          const int64_t i = (t / tn) * BM + r, j = (t % tn) * BN + c;
          if (i < M && j < N) w[static_cast<size_t>(((t * S + sl) * BM + r) * BN + c)] = part[static_cast<size_t>(i * N + j)];
        }
  }
  return {w, std::vector<double>(static_cast<size_t>(tiles(s) * S), 0.0)};
}

const std::vector<std::string> kParams = {"A", "B", "C", "W", "Flags", "M", "N", "K", "BM", "BN", "BK", "SPLIT_K"};

}  // namespace

const tl::KernelDef& e6_flag_never_raised() {
  static const tl::KernelDef k("e6_flag_never_raised", split_k_semaphore<false, false>, kParams);
  return k;
}

const tl::KernelDef& e6_relaxed_flag() {
  static const tl::KernelDef k("e6_relaxed_flag", split_k_semaphore<true, true>, kParams);
  return k;
}

Puzzle make_e6_split_k_semaphore() {
  static const tl::KernelDef kernel("e6_split_k_semaphore", split_k_semaphore<true, false>, kParams);
  Puzzle p = examples::example_puzzle("e6_splitk_sem", "Split-K matmul with a semaphore", kStatement, 2e-3);
  auto workspace = [](const SizeSet& s) { return std::vector<int64_t>{tiles(s) * s["SPLIT_K"] * s["BM"] * s["BN"]}; };
  auto flags = [](const SizeSet& s) { return std::vector<int64_t>{tiles(s) * s["SPLIT_K"]}; };
  p.inputs = {{"A", tl::f32, dims({"M", "K"})}, {"B", tl::f32, dims({"K", "N"})}};
  p.output = {"C", tl::f32, dims({"M", "N"})};
  p.extra_outputs = {{"W", tl::f32, workspace, {}, true, 2e-3}, {"Flags", tl::i32, flags, {}, true, 0}};
  p.extra_reference = workspace_reference;
  p.output_axes = {0, 1};
  // C's tiles are stored by their slice-0 program; the workspace's owners
  // are not told apart.
  p.owner = [](const SizeSet& s, const std::vector<int64_t>& i) {
    if (i.size() < 2) return std::array<int64_t, 3>{0, 0, 0};
    return std::array<int64_t, 3>{i[0] / s["BM"], i[1] / s["BN"], 0};
  };
  p.sets = {set("canonical", 64, 64, 512, 32, 32, 4, "four slices per tile; the waiting program is the tile's first"),
            set("e6a", 50, 70, 300, 32, 32, 3, "M, N and K tails; a slice with one block fewer"),
            set("e6b", 40, 24, 80, 16, 16, 8, "more slices than K has blocks: three slices with nothing to add"),
            set("bench", 512, 512, 4096, 64, 64, 8, "benchmark size", true)};
  p.solution = p.stub = &kernel;
  p.reference = reference;
  return p;
}

}  // namespace puzzles
