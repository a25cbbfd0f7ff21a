// Puzzle 9 — Simple FlashAttention (`flash_attention`).
#include "puzzle_defs.h"
#include "tl.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace puzzles {
namespace {

constexpr const char* kStatement = R"(Puzzle 9 - Simple FlashAttention (flash_attention)

Attention with head dimension 1: each query is a scalar q[i], each key and
value a scalar k[j], v[j]. Each program owns B0 queries; it walks the T
keys/values in steps of B1 with one runtime loop, keeping for each query a
running max, a running softmax denominator and a running weighted sum of
values, all rescaled whenever the max grows. Scores of padded keys (j >= T)
must be excluded (set to -inf or a large negative number before the max and
exp); padded values must be 0.

Math:        for i < N0, with scores s[i, j] = q[i] * k[j] for j < T:
               m[i] = max over j < T of s[i, j]
               z[i] = sum_j exp(s[i, j] - m[i]) * v[j] / sum_j exp(s[i, j] - m[i])
One-pass update for a tile of keys C (per query), from m = -inf, d = 0, a = 0:
               m' = max(m, max over j in C of s[i, j]),  alpha = exp(m - m')
               d' = d * alpha + sum over j in C of exp(s[i, j] - m')
               a' = a * alpha + sum over j in C of exp(s[i, j] - m') * v[j]
             finally z[i] = a / d
Inputs:      q: f32[N0], k: f32[T], v: f32[T]
Output:      z: f32[N0]
Parameters:  (q, k, v, z, N0, T | B0, B1)
Canonical:   N0 = 200, T = 200, B0 = 64, B1 = 32, grid (cdiv(200, 64), 1, 1)
             = (4, 1, 1); 7 loop steps, the last with 8 valid keys
Owner:       z[i] belongs to program (i / B0, 0, 0)
Operations:  puzzle 8's, plus an outer product [B0, 1] x [1, B1],
             where(mask, s, -inf) on the score tile, three loop-carried [B0]
             tiles, sum of p * v along axis 1, final division, masked 1-D
             store
)";

constexpr float kLog2e = 1.44269504f;

// Reference solution, one pass (online softmax). Only the keys are masked in
// the scores, so padded query rows (q = 0) stay finite and are not stored.
void flash_attention_kernel(tl::Ptr q, tl::Ptr k, tl::Ptr v, tl::Ptr z, tl::Int N0, tl::Int T, tl::Const B0,
                            tl::Const B1) {
  auto off_i = tl::program_id(0) * B0 + tl::arange(0, B0);
  auto mask_i = off_i < N0;
  auto qv = tl::load(q + off_i, mask_i, 0.0f);
  auto m = tl::full({B0}, -INFINITY, tl::f32);  // running max
  auto d = tl::zeros({B0}, tl::f32);            // running denominator
  auto acc = tl::zeros({B0}, tl::f32);          // running weighted sum of v
  for (auto j : tl::range(0, T, B1)) {
    auto off_j = j + tl::arange(0, B1);
    auto mask_j = off_j < T;
    auto kv = tl::load(k + off_j, mask_j, 0.0f);
    auto vv = tl::load(v + off_j, mask_j, 0.0f);
    auto s = tl::where(mask_j.row(), qv.col() * kv.row(), -INFINITY);  // [B0, B1]
    auto m_new = tl::maximum(m, tl::max(s, 1));
    auto alpha = tl::exp2((m - m_new) * kLog2e);
    auto p = tl::exp2((s - m_new.col()) * kLog2e);
    d = d * alpha + tl::sum(p, 1);
    acc = acc * alpha + tl::sum(p * vv.row(), 1);
    m = m_new;
  }
  tl::store(z + off_i, acc / d, mask_i);
}

// The stub leaves every parameter for the learner to use.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
void flash_attention_stub(tl::Ptr q, tl::Ptr k, tl::Ptr v, tl::Ptr z, tl::Int N0, tl::Int T, tl::Const B0,
                          tl::Const B1) {
  // Finish me!
}
#pragma GCC diagnostic pop

std::vector<double> reference(const SizeSet& s, const std::vector<tl::Buffer>& in) {
  const float* q = in[0].as<float>();
  const float* k = in[1].as<float>();
  const float* v = in[2].as<float>();
  const int64_t n0 = s["N0"], t_len = s["T"];
  std::vector<double> z(n0);
  for (int64_t i = 0; i < n0; ++i) {
    double m = -std::numeric_limits<double>::infinity();
    for (int64_t j = 0; j < t_len; ++j) m = std::max(m, double(q[i]) * double(k[j]));
    double num = 0, den = 0;
    for (int64_t j = 0; j < t_len; ++j) {
      const double w = std::exp(double(q[i]) * double(k[j]) - m);
      num += w * double(v[j]);
      den += w;
    }
    z[i] = num / den;
  }
  return z;
}

SizeSet set(std::string name, int64_t n0, int64_t t, int64_t b0, int64_t b1, std::string stresses,
            std::vector<ValueMap> maps = {}) {
  return SizeSet{std::move(name), {{"N0", n0}, {"T", t}}, {}, {{"B0", b0}, {"B1", b1}}, std::move(stresses),
                 std::move(maps)};
}

}  // namespace

Puzzle make_flash_attention() {
  const std::vector<std::string> names{"q", "k", "v", "z", "N0", "T", "B0", "B1"};
  static const tl::KernelDef solution("flash_attention", flash_attention_kernel, names);
  static const tl::KernelDef stub("flash_attention_stub", flash_attention_stub, names);
  Puzzle p;
  p.number = 9;
  p.id = "flash_attention";
  p.title = "Simple FlashAttention";
  p.statement = kStatement;
  p.tolerance = 1e-4;
  p.inputs = {{"q", tl::f32, dims({"N0"})}, {"k", tl::f32, dims({"T"})}, {"v", tl::f32, dims({"T"})}};
  p.output = {"z", tl::f32, dims({"N0"})};
  p.output_axes = {0};
  p.sets = {set("canonical", 200, 200, 64, 32, "7 loop steps, the last with 8 valid keys"),
            set("9a", 5, 7, 16, 16, "both sizes below one block; N0 != T"),
            set("9b", 100, 1000, 32, 64, "T >> N0; key tail 40 of 64"),
            set("9c", 300, 33, 128, 32, "N0 >> T; last key step has 1 valid key, 31 padded"),
            set("9d", 200, 200, 64, 32, "value range: q and k each multiplied by 20 (scores up to +-100); "
                "overflow without max subtraction", {{"q", 20.0f, 0.0f}, {"k", 20.0f, 0.0f}})};
  p.solution = &solution;
  p.stub = &stub;
  p.reference = reference;
  return p;
}

}  // namespace puzzles
