// Puzzle 7 — Long Sum (`long_sum`).
#include "puzzle_defs.h"
#include "tl.h"

namespace puzzles {
namespace {

constexpr const char* kStatement = R"(Puzzle 7 - Long Sum (long_sum)

Sum each row of a matrix whose rows are long. Each program owns B0
consecutive rows; it walks the row length T in steps of B1 columns with a
runtime loop, keeping a length-B0 running sum. Rows past N0 and columns past
T are masked; padded lanes must contribute 0.

Math:        z[i] = sum over t < T of x[i, t]      for i < N0
Inputs:      x: f32[N0, T]   (x[i, t] is at flat offset i*T + t)
Output:      z: f32[N0]
Parameters:  (x, z, N0, T | B0, B1)   (no N1: one non-trivial grid axis)
Canonical:   N0 = 4, T = 200, B0 = 1, B1 = 32, grid (cdiv(4, 1), 1, 1) =
             (4, 1, 1); each row takes 7 loop steps, the last with 8 valid
             columns
Owner:       z[i] belongs to program (i / B0, 0, 0)
Operations:  program_id(0), arange, expand, 2-D offsets i*T + t, 2-D masks,
             a runtime loop with step B1, a zeros([B0]) accumulator carried
             through the loop, masked load with fill 0, sum(., axis 1),
             masked store
)";

// Reference solution: a [B0] running sum over [B0, B1] tiles of the rows.
void long_sum_kernel(tl::Ptr x, tl::Ptr z, tl::Int N0, tl::Int T, tl::Const B0, tl::Const B1) {
  auto off_i = tl::program_id(0) * B0 + tl::arange(0, B0);
  auto mask_i = off_i < N0;
  auto acc = tl::zeros({B0}, tl::f32);
  for (auto j : tl::range(0, T, B1)) {
    auto off_j = j + tl::arange(0, B1);
    auto mask = mask_i.col() & (off_j.row() < T);
    auto xv = tl::load(x + off_i.col() * T + off_j.row(), mask, 0.0f);  // padded lanes add 0
    acc += tl::sum(xv, 1);
  }
  tl::store(z + off_i, acc, mask_i);
}

// The stub leaves every parameter for the learner to use.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
void long_sum_stub(tl::Ptr x, tl::Ptr z, tl::Int N0, tl::Int T, tl::Const B0, tl::Const B1) {
  // Finish me!
}
#pragma GCC diagnostic pop

std::vector<double> reference(const SizeSet& s, const std::vector<tl::Buffer>& in) {
  const float* x = in[0].as<float>();
  const int64_t n0 = s["N0"], t_len = s["T"];
  std::vector<double> z(n0, 0.0);
  for (int64_t i = 0; i < n0; ++i)
    for (int64_t t = 0; t < t_len; ++t) z[i] += double(x[i * t_len + t]);
  return z;
}

SizeSet set(std::string name, int64_t n0, int64_t t, int64_t b0, int64_t b1, std::string stresses) {
  return SizeSet{std::move(name), {{"N0", n0}, {"T", t}}, {}, {{"B0", b0}, {"B1", b1}}, std::move(stresses), {}};
}

}  // namespace

Puzzle make_long_sum() {
  const std::vector<std::string> names{"x", "z", "N0", "T", "B0", "B1"};
  static const tl::KernelDef solution("long_sum", long_sum_kernel, names);
  static const tl::KernelDef stub("long_sum_stub", long_sum_stub, names);
  Puzzle p;
  p.number = 7;
  p.id = "long_sum";
  p.title = "Long Sum";
  p.statement = kStatement;
  p.tolerance = 1e-4;
  p.inputs = {{"x", tl::f32, dims({"N0", "T"})}};
  p.output = {"z", tl::f32, dims({"N0"})};
  p.output_axes = {0};
  p.sets = {set("canonical", 4, 200, 1, 32, "7 loop steps, the last with 8 valid columns"),
            set("7a", 5, 7, 4, 32, "T below one block; row tail (1 of 4 rows valid)"),
            set("7b", 33, 1000, 8, 64, "column tail 40 of 64; row tail 1 of 8"),
            set("7c", 3, 4097, 2, 256, "long rows, 17 steps, last step one valid column")};
  p.solution = &solution;
  p.stub = &stub;
  p.reference = reference;
  return p;
}

}  // namespace puzzles
