// Puzzle 5 — Fused Outer Multiplication (`outer_mul_relu`).
#include "puzzle_defs.h"
#include "tl.h"

#include <algorithm>

namespace puzzles {
namespace {

constexpr const char* kStatement = R"(Puzzle 5 - Fused Outer Multiplication (outer_mul_relu)

Like puzzle 4 with the pairwise sum replaced by a pairwise product passed
through a ReLU. Same tiling, grid and masking as puzzle 4.

Math:        z[j, i] = max(x[i] * y[j], 0)    for j < N1, i < N0
Inputs:      x: f32[N0], y: f32[N1]
Output:      z: f32[N1, N0]  (z[j, i] is at flat offset j*N0 + i)
Parameters:  (x, y, z, N0, N1 | B0, B1)
Canonical:   N0 = 100, N1 = 90, B0 = 32, B1 = 32, grid (4, 3, 1)
Owner:       z[j, i] belongs to program (i / B0, j / B1, 0)
Operations:  puzzle 4's, plus broadcasting multiply and either
             maximum(t, 0) or where(t > 0, t, 0)
)";

// Reference solution: puzzle 4's tiling with relu(x * y) as the value.
void outer_mul_relu_kernel(tl::Ptr x, tl::Ptr y, tl::Ptr z, tl::Int N0, tl::Int N1, tl::Const B0,
                           tl::Const B1) {
  auto off_x = tl::program_id(0) * B0 + tl::arange(0, B0);  // columns
  auto off_y = tl::program_id(1) * B1 + tl::arange(0, B1);  // rows
  auto mask_x = off_x < N0;
  auto mask_y = off_y < N1;
  auto xv = tl::load(x + off_x, mask_x);
  auto yv = tl::load(y + off_y, mask_y);
  auto zv = tl::maximum(yv.col() * xv.row(), 0.0f);
  tl::store(z + off_y.col() * N0 + off_x.row(), zv, mask_y.col() & mask_x.row());
}

// The stub leaves every parameter for the learner to use.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
void outer_mul_relu_stub(tl::Ptr x, tl::Ptr y, tl::Ptr z, tl::Int N0, tl::Int N1, tl::Const B0,
                         tl::Const B1) {
  // Finish me!
}
#pragma GCC diagnostic pop

std::vector<double> reference(const SizeSet& s, const std::vector<tl::Buffer>& in) {
  const float* x = in[0].as<float>();
  const float* y = in[1].as<float>();
  const int64_t n0 = s["N0"], n1 = s["N1"];
  std::vector<double> z(n1 * n0);
  for (int64_t j = 0; j < n1; ++j)
    for (int64_t i = 0; i < n0; ++i) z[j * n0 + i] = std::max(double(x[i]) * double(y[j]), 0.0);
  return z;
}

SizeSet set(std::string name, int64_t n0, int64_t n1, int64_t b0, int64_t b1, std::string stresses) {
  return SizeSet{std::move(name), {{"N0", n0}, {"N1", n1}}, {}, {{"B0", b0}, {"B1", b1}}, std::move(stresses), {}};
}

}  // namespace

Puzzle make_outer_mul_relu() {
  const std::vector<std::string> names{"x", "y", "z", "N0", "N1", "B0", "B1"};
  static const tl::KernelDef solution("outer_mul_relu", outer_mul_relu_kernel, names);
  static const tl::KernelDef stub("outer_mul_relu_stub", outer_mul_relu_stub, names);
  Puzzle p;
  p.number = 5;
  p.id = "outer_mul_relu";
  p.title = "Fused Outer Multiplication";
  p.statement = kStatement;
  p.tolerance = 1e-5;
  p.inputs = {{"x", tl::f32, dims({"N0"})}, {"y", tl::f32, dims({"N1"})}};
  p.output = {"z", tl::f32, dims({"N1", "N0"})};
  p.output_axes = {1, 0};
  p.sets = {set("canonical", 100, 90, 32, 32, "edge tiles on both axes"),
            set("5a", 7, 5, 32, 32, "both sizes below one block"),
            set("5b", 257, 100, 128, 8, "many programs; one valid column in last column block"),
            set("5c", 33, 1, 16, 16, "single row")};
  p.solution = &solution;
  p.stub = &stub;
  p.reference = reference;
  return p;
}

}  // namespace puzzles
