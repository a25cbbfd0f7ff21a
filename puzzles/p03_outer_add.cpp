// Puzzle 3 — Outer Vector Add (`outer_add`).
#include "puzzle_defs.h"
#include "tl.h"

namespace puzzles {
namespace {

constexpr const char* kStatement = R"(Puzzle 3 - Outer Vector Add (outer_add)

Build the matrix of all pairwise sums of a row vector x and a column vector
y. x runs along the columns (axis of length N0), y along the rows (axis of
length N1). Block sizes equal the vector lengths, so one program produces the
whole matrix with a single 2-D tile and no masks.

Math:        z[j, i] = x[i] + y[j]            for j < N1, i < N0
Inputs:      x: f32[N0], y: f32[N1]
Output:      z: f32[N1, N0]  (z[j, i] is at flat offset j*N0 + i)
Parameters:  (x, y, z, N0, N1 | B0, B1)
Constraints: B0 = N0, B1 = N1 (both powers of two)
Canonical:   N0 = 32, N1 = 32, B0 = 32, B1 = 32, grid (1, 1, 1)
Owner:       program (0, 0, 0) writes everything
Operations:  arange, expand (x as a [1, B0] row, y as a [B1, 1] column),
             broadcasting add, a 2-D offset tile j*N0 + i, unmasked load
             and store
)";

// Reference solution: x along the columns, y along the rows, one tile.
void outer_add_kernel(tl::Ptr x, tl::Ptr y, tl::Ptr z, tl::Int N0, [[maybe_unused]] tl::Int N1,
                      tl::Const B0, tl::Const B1) {
  auto off_x = tl::arange(0, B0);
  auto off_y = tl::arange(0, B1);
  auto xv = tl::load(x + off_x);
  auto yv = tl::load(y + off_y);
  auto off_z = off_y.col() * N0 + off_x.row();  // y[:, None] rows, x[None, :] columns
  tl::store(z + off_z, yv.col() + xv.row());
}

// The stub leaves every parameter for the learner to use.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
void outer_add_stub(tl::Ptr x, tl::Ptr y, tl::Ptr z, tl::Int N0, tl::Int N1, tl::Const B0, tl::Const B1) {
  // Finish me!
}
#pragma GCC diagnostic pop

std::vector<double> reference(const SizeSet& s, const std::vector<tl::Buffer>& in) {
  const float* x = in[0].as<float>();
  const float* y = in[1].as<float>();
  const int64_t n0 = s["N0"], n1 = s["N1"];
  std::vector<double> z(n1 * n0);
  for (int64_t j = 0; j < n1; ++j)
    for (int64_t i = 0; i < n0; ++i) z[j * n0 + i] = double(x[i]) + double(y[j]);
  return z;
}

SizeSet set(std::string name, int64_t n0, int64_t n1, std::string stresses) {
  return SizeSet{std::move(name), {{"N0", n0}, {"N1", n1}}, {}, {{"B0", n0}, {"B1", n1}}, std::move(stresses), {}};
}

}  // namespace

Puzzle make_outer_add() {
  const std::vector<std::string> names{"x", "y", "z", "N0", "N1", "B0", "B1"};
  static const tl::KernelDef solution("outer_add", outer_add_kernel, names);
  static const tl::KernelDef stub("outer_add_stub", outer_add_stub, names);
  Puzzle p;
  p.number = 3;
  p.id = "outer_add";
  p.title = "Outer Vector Add";
  p.statement = kStatement;
  p.tolerance = 1e-5;
  p.inputs = {{"x", tl::f32, dims({"N0"})}, {"y", tl::f32, dims({"N1"})}};
  p.output = {"z", tl::f32, dims({"N1", "N0"})};
  p.output_axes = {1, 0};
  p.sets = {set("canonical", 32, 32, "one program, one square tile"),
            set("3a", 16, 64, "tall; row stride N0 != N1"),
            set("3b", 128, 4, "wide"),
            set("3c", 1, 8, "one column")};
  p.solution = &solution;
  p.stub = &stub;
  p.reference = reference;
  return p;
}

}  // namespace puzzles
