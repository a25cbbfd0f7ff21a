// Puzzle 6 — Fused Outer Multiplication, Backward (`outer_mul_relu_backward`).
#include "puzzle_defs.h"
#include "tl.h"

namespace puzzles {
namespace {

constexpr const char* kStatement = R"(Puzzle 6 - Fused Outer Multiplication, Backward (outer_mul_relu_backward)

Gradient with respect to x of f(x, y) = relu(x[j, i] * y[j]), where x is now
a matrix and y a per-row scale, given the upstream gradient dz. Same tiling,
grid and masking as puzzle 4: three loads (two [B1, B0] tiles, one length-B1
tile broadcast as a column) and one store.

Math:        for j < N1, i < N0:
               dx[j, i] = dz[j, i] * y[j]   if x[j, i] * y[j] > 0
               dx[j, i] = 0                 otherwise (also when x[j, i] * y[j] = 0)
Inputs:      x: f32[N1, N0], y: f32[N1], dz: f32[N1, N0]
Output:      dx: f32[N1, N0]
Parameters:  (x, y, dz, dx, N0, N1 | B0, B1)
Canonical:   N0 = 100, N1 = 90, B0 = 32, B1 = 32, grid (4, 3, 1)
Owner:       dx[j, i] belongs to program (i / B0, j / B1, 0)
Operations:  puzzle 5's, plus a second 2-D masked load with the same
             offsets, the comparison x*y > 0, and where to build the ReLU
             derivative
)";

// Reference solution: relu'(x * y) selects dz * y, the chain rule's factor.
void outer_mul_relu_backward_kernel(tl::Ptr x, tl::Ptr y, tl::Ptr dz, tl::Ptr dx, tl::Int N0, tl::Int N1,
                                    tl::Const B0, tl::Const B1) {
  auto off_i = tl::program_id(0) * B0 + tl::arange(0, B0);  // columns
  auto off_j = tl::program_id(1) * B1 + tl::arange(0, B1);  // rows
  auto mask_j = off_j < N1;
  auto mask = mask_j.col() & (off_i.row() < N0);
  auto off_2d = off_j.col() * N0 + off_i.row();
  auto xv = tl::load(x + off_2d, mask, 0.0f);
  auto yv = tl::load(y + off_j, mask_j, 0.0f).col();  // one scale per row
  auto dzv = tl::load(dz + off_2d, mask, 0.0f);
  auto dxv = tl::where(xv * yv > 0.0f, dzv * yv, 0.0f);
  tl::store(dx + off_2d, dxv, mask);
}

// The stub leaves every parameter for the learner to use.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
void outer_mul_relu_backward_stub(tl::Ptr x, tl::Ptr y, tl::Ptr dz, tl::Ptr dx, tl::Int N0, tl::Int N1,
                                  tl::Const B0, tl::Const B1) {
  // Finish me!
}
#pragma GCC diagnostic pop

std::vector<double> reference(const SizeSet& s, const std::vector<tl::Buffer>& in) {
  const float* x = in[0].as<float>();
  const float* y = in[1].as<float>();
  const float* dz = in[2].as<float>();
  const int64_t n0 = s["N0"], n1 = s["N1"];
  std::vector<double> dx(n1 * n0);
  for (int64_t j = 0; j < n1; ++j)
    for (int64_t i = 0; i < n0; ++i) {
      const int64_t e = j * n0 + i;
      dx[e] = double(x[e]) * double(y[j]) > 0 ? double(dz[e]) * double(y[j]) : 0.0;
    }
  return dx;
}

SizeSet set(std::string name, int64_t n0, int64_t n1, int64_t b0, int64_t b1, std::string stresses) {
  return SizeSet{std::move(name), {{"N0", n0}, {"N1", n1}}, {}, {{"B0", b0}, {"B1", b1}}, std::move(stresses), {}};
}

}  // namespace

Puzzle make_outer_mul_relu_backward() {
  const std::vector<std::string> names{"x", "y", "dz", "dx", "N0", "N1", "B0", "B1"};
  static const tl::KernelDef solution("outer_mul_relu_backward", outer_mul_relu_backward_kernel, names);
  static const tl::KernelDef stub("outer_mul_relu_backward_stub", outer_mul_relu_backward_stub, names);
  Puzzle p;
  p.number = 6;
  p.id = "outer_mul_relu_backward";
  p.title = "Fused Outer Multiplication, Backward";
  p.statement = kStatement;
  p.tolerance = 1e-5;
  p.inputs = {{"x", tl::f32, dims({"N1", "N0"})}, {"y", tl::f32, dims({"N1"})}, {"dz", tl::f32, dims({"N1", "N0"})}};
  p.output = {"dx", tl::f32, dims({"N1", "N0"})};
  p.output_axes = {1, 0};
  p.sets = {set("canonical", 100, 90, 32, 32, "edge tiles on both axes"),
            set("6a", 5, 3, 32, 32, "both sizes below one block"),
            set("6b", 129, 65, 64, 32, "one valid lane at both far edges"),
            set("6c", 1000, 20, 128, 8, "wide matrix, B0 >> B1")};
  p.solution = &solution;
  p.stub = &stub;
  p.reference = reference;
  return p;
}

}  // namespace puzzles
