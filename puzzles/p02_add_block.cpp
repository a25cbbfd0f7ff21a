// Puzzle 2 — Constant Add Block (`add_block`).
#include "puzzle_defs.h"
#include "tl.h"

namespace puzzles {
namespace {

constexpr const char* kStatement = R"(Puzzle 2 - Constant Add Block (add_block)

Same computation as puzzle 1, but the vector is longer than one block.
Program p on axis 0 handles elements p*B0 ... p*B0 + B0 - 1; the last
program's tile runs past the end of the vector and must be masked on both
the load and the store.

Math:        z[i] = x[i] + 10                 for i < N0
Inputs:      x: f32[N0]
Output:      z: f32[N0]
Parameters:  (x, z, N0 | B0)
Canonical:   N0 = 200, B0 = 32, grid (cdiv(200, 32), 1, 1) = (7, 1, 1);
             the last program has 8 valid lanes out of 32
Owner:       z[i] belongs to program (i / B0, 0, 0)
Operations:  puzzle 1's, plus program_id(0), index arithmetic, the
             comparison offset < N0, masked load and masked store
)";

// Reference solution: one block of B0 elements per program, masked at the end.
void add_block_kernel(tl::Ptr x, tl::Ptr z, tl::Int N0, tl::Const B0) {
  auto off_x = tl::program_id(0) * B0 + tl::arange(0, B0);
  auto mask = off_x < N0;
  auto xv = tl::load(x + off_x, mask);
  tl::store(z + off_x, xv + 10.0f, mask);
}

// The stub leaves every parameter for the learner to use.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
void add_block_stub(tl::Ptr x, tl::Ptr z, tl::Int N0, tl::Const B0) {
  // Finish me!
}
#pragma GCC diagnostic pop

std::vector<double> reference(const SizeSet& s, const std::vector<tl::Buffer>& in) {
  const float* x = in[0].as<float>();
  std::vector<double> z(s["N0"]);
  for (int64_t i = 0; i < s["N0"]; ++i) z[i] = double(x[i]) + 10.0;
  return z;
}

SizeSet set(std::string name, int64_t n0, int64_t b0, std::string stresses) {
  return SizeSet{std::move(name), {{"N0", n0}}, {}, {{"B0", b0}}, std::move(stresses), {}};
}

}  // namespace

Puzzle make_add_block() {
  static const tl::KernelDef solution("add_block", add_block_kernel, {"x", "z", "N0", "B0"});
  static const tl::KernelDef stub("add_block_stub", add_block_stub, {"x", "z", "N0", "B0"});
  Puzzle p;
  p.number = 2;
  p.id = "add_block";
  p.title = "Constant Add Block";
  p.statement = kStatement;
  p.tolerance = 1e-5;
  p.inputs = {{"x", tl::f32, dims({"N0"})}};
  p.output = {"z", tl::f32, dims({"N0"})};
  p.output_axes = {0};
  p.sets = {set("canonical", 200, 32, "last program has 8 of 32 lanes valid"),
            set("2a", 5, 32, "vector shorter than one block"),
            set("2b", 1000, 128, "last block 104 of 128 valid"),
            set("2c", 4097, 256, "large; last block has one valid lane")};
  p.solution = &solution;
  p.stub = &stub;
  p.reference = reference;
  return p;
}

}  // namespace puzzles
