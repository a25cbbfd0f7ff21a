// Puzzle 8 — Long Softmax (`long_softmax`).
#include "puzzle_defs.h"
#include "tl.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace puzzles {
namespace {

constexpr const char* kStatement = R"(Puzzle 8 - Long Softmax (long_softmax)

Row-wise softmax of a matrix with long rows, computed in the numerically
stable form (subtract the row maximum before exponentiating). Tiling as in
puzzle 7: each program owns B0 rows and walks T in steps of B1. A three-pass
solution (row max; sum of exponentials; normalise and store) or a two-pass
solution (running max and running sum in one pass, with the sum rescaled
whenever the max grows; then normalise and store) are both accepted. Padded
columns must be excluded from the max and from the sum.

Math:        for i < N0, t < T:
               m[i]    = max over u < T of x[i, u]
               d[i]    = sum over u < T of exp(x[i, u] - m[i])
               z[i, t] = exp(x[i, t] - m[i]) / d[i]
Two-pass update for one tile of columns C (per row), from m = -inf, d = 0:
               m' = max(m, max over u in C of x[i, u])
               d' = d * exp(m - m') + sum over u in C of exp(x[i, u] - m')
exp(a) may be computed as 2^(a * log2 e), log2 e = 1.44269504.
Inputs:      x: f32[N0, T]
Output:      z: f32[N0, T]
Parameters:  (x, z, N0, T | B0, B1)   (no N1, as in puzzle 7)
Canonical:   N0 = 4, T = 200, B0 = 1, B1 = 32, grid (4, 1, 1)
Owner:       z[i, t] belongs to program (i / B0, 0, 0)
Operations:  puzzle 7's, plus full([B0], -inf), max(., axis 1), maximum,
             exp2 (or exp), broadcasting subtract/divide of a [B0, 1] column
             against a [B0, B1] tile, masked load with fill -inf (or where
             on the mask), two or three sequential runtime loops, masked 2-D
             store
)";

constexpr float kLog2e = 1.44269504f;

// Reference solution, two passes: running max and rescaled running sum,
// then normalise. Padded columns load -inf, so they add exp(-inf) = 0.
void long_softmax_kernel(tl::Ptr x, tl::Ptr z, tl::Int N0, tl::Int T, tl::Const B0, tl::Const B1) {
  auto off_i = tl::program_id(0) * B0 + tl::arange(0, B0);
  auto mask_i = off_i < N0;
  auto m = tl::full({B0}, -INFINITY, tl::f32);
  auto d = tl::zeros({B0}, tl::f32);
  for (auto j : tl::range(0, T, B1)) {
    auto off_j = j + tl::arange(0, B1);
    auto mask = mask_i.col() & (off_j.row() < T);
    auto xv = tl::load(x + off_i.col() * T + off_j.row(), mask, -INFINITY);
    auto m_new = tl::maximum(m, tl::max(xv, 1));
    auto p = tl::exp2((xv - m_new.col()) * kLog2e);
    d = d * tl::exp2((m - m_new) * kLog2e) + tl::sum(p, 1);
    m = m_new;
  }
  for (auto j : tl::range(0, T, B1)) {
    auto off_j = j + tl::arange(0, B1);
    auto mask = mask_i.col() & (off_j.row() < T);
    auto off_2d = off_i.col() * T + off_j.row();
    auto xv = tl::load(x + off_2d, mask, -INFINITY);
    auto p = tl::exp2((xv - m.col()) * kLog2e);
    tl::store(z + off_2d, p / d.col(), mask);
  }
}

// The stub leaves every parameter for the learner to use.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
void long_softmax_stub(tl::Ptr x, tl::Ptr z, tl::Int N0, tl::Int T, tl::Const B0, tl::Const B1) {
  // Finish me!
}
#pragma GCC diagnostic pop

std::vector<double> reference(const SizeSet& s, const std::vector<tl::Buffer>& in) {
  const float* x = in[0].as<float>();
  const int64_t n0 = s["N0"], t_len = s["T"];
  std::vector<double> z(n0 * t_len);
  for (int64_t i = 0; i < n0; ++i) {
    const float* row = x + i * t_len;
    double m = -std::numeric_limits<double>::infinity();
    for (int64_t u = 0; u < t_len; ++u) m = std::max(m, double(row[u]));
    double d = 0;
    for (int64_t u = 0; u < t_len; ++u) d += std::exp(double(row[u]) - m);
    for (int64_t t = 0; t < t_len; ++t) z[i * t_len + t] = std::exp(double(row[t]) - m) / d;
  }
  return z;
}

SizeSet set(std::string name, int64_t n0, int64_t t, int64_t b0, int64_t b1, std::string stresses,
            std::vector<ValueMap> maps = {}) {
  return SizeSet{std::move(name), {{"N0", n0}, {"T", t}}, {}, {{"B0", b0}, {"B1", b1}}, std::move(stresses),
                 std::move(maps)};
}

}  // namespace

Puzzle make_long_softmax() {
  const std::vector<std::string> names{"x", "z", "N0", "T", "B0", "B1"};
  static const tl::KernelDef solution("long_softmax", long_softmax_kernel, names);
  static const tl::KernelDef stub("long_softmax_stub", long_softmax_stub, names);
  Puzzle p;
  p.number = 8;
  p.id = "long_softmax";
  p.title = "Long Softmax";
  p.statement = kStatement;
  p.tolerance = 1e-4;
  p.inputs = {{"x", tl::f32, dims({"N0", "T"})}};
  p.output = {"z", tl::f32, dims({"N0", "T"})};
  p.output_axes = {0, -1};
  p.sets = {set("canonical", 4, 200, 1, 32, "7 loop steps, the last with 8 valid columns"),
            set("8a", 3, 5, 2, 32, "27 padded columns per row; row tail"),
            set("8b", 17, 1000, 4, 128, "column tail 104 of 128; row tail 1 of 4"),
            set("8c", 2, 129, 1, 64, "last step has one valid column, 63 padded"),
            set("8d", 4, 200, 1, 32, "value range: inputs replaced by 400*x (in [-200, 200)); "
                "overflow without max subtraction", {{"x", 400.0f, 0.0f}}),
            set("8e", 4, 200, 1, 32, "value range: inputs replaced by 200*x - 300 (in [-400, -200)); "
                "underflow to 0/0 if the running max starts at 0 instead of -inf", {{"x", 200.0f, -300.0f}})};
  p.solution = &solution;
  p.stub = &stub;
  p.reference = reference;
  return p;
}

}  // namespace puzzles
