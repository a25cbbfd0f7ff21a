// Puzzle 1 — Constant Add (`add`).
#include "puzzle_defs.h"
#include "tl.h"

namespace puzzles {
namespace {

constexpr const char* kStatement = R"(Puzzle 1 - Constant Add (add)

Add the constant 10 to every element of a vector. The block size equals the
vector length, so a single program covers the whole vector with one tile and
needs no mask and no program id.

Math:        z[i] = x[i] + 10                 for i < N0
Inputs:      x: f32[N0]
Output:      z: f32[N0]
Parameters:  (x, z, N0 | B0)
Constraint:  B0 = N0 (so N0 is a power of two)
Canonical:   N0 = 32, B0 = 32, grid (1, 1, 1)
Owner:       program (0, 0, 0) writes everything
Operations:  arange, unmasked load, add of a scalar, unmasked store
)";

// Reference solution. One tile covers the whole vector: no mask needed.
void add_kernel(tl::Ptr x, tl::Ptr z, [[maybe_unused]] tl::Int N0, tl::Const B0) {
  auto off_x = tl::arange(0, B0);
  auto xv = tl::load(x + off_x);
  tl::store(z + off_x, xv + 10.0f);
}

// The stub leaves every parameter for the learner to use.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
void add_stub(tl::Ptr x, tl::Ptr z, tl::Int N0, tl::Const B0) {
  // Finish me!
}
#pragma GCC diagnostic pop

std::vector<double> reference(const SizeSet& s, const std::vector<tl::Buffer>& in) {
  const float* x = in[0].as<float>();
  std::vector<double> z(s["N0"]);
  for (int64_t i = 0; i < s["N0"]; ++i) z[i] = double(x[i]) + 10.0;
  return z;
}

SizeSet set(std::string name, int64_t n0, std::string stresses) {
  return SizeSet{std::move(name), {{"N0", n0}}, {}, {{"B0", n0}}, std::move(stresses), {}};
}

}  // namespace

Puzzle make_add() {
  static const tl::KernelDef solution("add", add_kernel, {"x", "z", "N0", "B0"});
  static const tl::KernelDef stub("add_stub", add_stub, {"x", "z", "N0", "B0"});
  Puzzle p;
  p.number = 1;
  p.id = "add";
  p.title = "Constant Add";
  p.statement = kStatement;
  p.tolerance = 1e-5;
  p.inputs = {{"x", tl::f32, dims({"N0"})}};
  p.output = {"z", tl::f32, dims({"N0"})};
  p.output_axes = {0};
  p.sets = {set("canonical", 32, "one program, one tile"),
            set("1a", 1, "one-lane tile"),
            set("1b", 16, "smaller vector"),
            set("1c", 1024, "large tile")};
  p.solution = &solution;
  p.stub = &stub;
  p.reference = reference;
  return p;
}

}  // namespace puzzles
