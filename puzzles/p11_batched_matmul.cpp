// Puzzle 11 — Batched Matrix Multiplication (`batched_matmul`).
#include "puzzle_defs.h"
#include "tl.h"

namespace puzzles {
namespace {

constexpr const char* kStatement = R"(Puzzle 11 - Batched Matrix Multiplication (batched_matmul)

For each batch entry b, multiply an N0 x MID matrix by an MID x N1 matrix.
Grid axis 0 tiles the output rows (N0, B0), axis 1 the output columns
(N1, B1), axis 2 the batch (N2, B2). Each program accumulates its
[B2, B0, B1] output tile over the reduction axis MID in steps of B_MID using
tile matrix products, masking rows, columns, batch entries and the reduction
tail.

Math:        for b < N2, j < N0, k < N1:
               z[b, j, k] = sum over l < MID of x[b, j, l] * y[b, l, k]
Inputs:      x: f32[N2, N0, MID]  (x[b, j, l] at (b*N0 + j)*MID + l),
             y: f32[N2, MID, N1]  (y[b, l, k] at (b*MID + l)*N1 + k)
Output:      z: f32[N2, N0, N1]   (z[b, j, k] at (b*N0 + j)*N1 + k)
Parameters:  (x, y, z, N0, N1, N2, MID | B0, B1, B2, B_MID)
Constraints: B0, B1, B_MID >= 16 (dot needs 16 along every dimension); B2 >= 1
Canonical:   N0 = 32, N1 = 32, N2 = 4, MID = 64, B0 = 16, B1 = 16, B2 = 1,
             B_MID = 16, grid (2, 2, 4); 4 reduction steps per program.
             MID != N1 on purpose: the three batch strides differ.
Owner:       z[b, j, k] belongs to program (j / B0, k / B1, b / B2)
Operations:  program_id(0..2), arange, rank-3 expand, 3-D offsets and masks,
             a zeros accumulator, a runtime loop over MID with step B_MID,
             masked loads with fill 0 on both operands, dot with
             accumulation (batched [B2, B0, B_MID] x [B2, B_MID, B1])
)";

// Reference solution: a [B2, B0, B1] accumulator and batched 3-D dots.
void batched_matmul_kernel(tl::Ptr x, tl::Ptr y, tl::Ptr z, tl::Int N0, tl::Int N1, tl::Int N2, tl::Int MID,
                           tl::Const B0, tl::Const B1, tl::Const B2, tl::Const B_MID) {
  auto off_j = tl::program_id(0) * B0 + tl::arange(0, B0);  // output rows
  auto off_k = tl::program_id(1) * B1 + tl::arange(0, B1);  // output columns
  auto off_b = tl::program_id(2) * B2 + tl::arange(0, B2);  // batch entries
  auto b3 = tl::expand_dims(off_b, {1, 2});                 // [B2, 1, 1]
  auto j3 = tl::expand_dims(off_j, {0, 2});                 // [1, B0, 1]
  auto k3 = tl::expand_dims(off_k, {0, 1});                 // [1, 1, B1]
  auto acc = tl::zeros({B2, B0, B1}, tl::f32);
  for (auto l : tl::range(0, MID, B_MID)) {
    auto off_l = l + tl::arange(0, B_MID);
    auto lx = tl::expand_dims(off_l, {0, 1});  // [1, 1, B_MID]: columns of x
    auto ly = tl::expand_dims(off_l, {0, 2});  // [1, B_MID, 1]: rows of y
    auto xv = tl::load(x + (b3 * N0 + j3) * MID + lx, (b3 < N2) & (j3 < N0) & (lx < MID), 0.0f);
    auto yv = tl::load(y + (b3 * MID + ly) * N1 + k3, (b3 < N2) & (ly < MID) & (k3 < N1), 0.0f);
    acc = tl::dot(xv, yv, acc);
  }
  tl::store(z + (b3 * N0 + j3) * N1 + k3, acc, (b3 < N2) & (j3 < N0) & (k3 < N1));
}

// The stub leaves every parameter for the learner to use.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
void batched_matmul_stub(tl::Ptr x, tl::Ptr y, tl::Ptr z, tl::Int N0, tl::Int N1, tl::Int N2, tl::Int MID,
                         tl::Const B0, tl::Const B1, tl::Const B2, tl::Const B_MID) {
  // Finish me!
}
#pragma GCC diagnostic pop

std::vector<double> reference(const SizeSet& s, const std::vector<tl::Buffer>& in) {
  const float* x = in[0].as<float>();
  const float* y = in[1].as<float>();
  const int64_t n0 = s["N0"], n1 = s["N1"], n2 = s["N2"], mid = s["MID"];
  std::vector<double> z(n2 * n0 * n1, 0.0);
  for (int64_t b = 0; b < n2; ++b)
    for (int64_t j = 0; j < n0; ++j)
      for (int64_t k = 0; k < n1; ++k) {
        double acc = 0;
        for (int64_t l = 0; l < mid; ++l) acc += double(x[(b * n0 + j) * mid + l]) * double(y[(b * mid + l) * n1 + k]);
        z[(b * n0 + j) * n1 + k] = acc;
      }
  return z;
}

SizeSet set(std::string name, int64_t n0, int64_t n1, int64_t n2, int64_t mid, int64_t b0, int64_t b1, int64_t b2,
            int64_t b_mid, std::string stresses) {
  return SizeSet{std::move(name),
                 {{"N0", n0}, {"N1", n1}, {"N2", n2}, {"MID", mid}},
                 {},
                 {{"B0", b0}, {"B1", b1}, {"B2", b2}, {"B_MID", b_mid}},
                 std::move(stresses),
                 {}};
}

}  // namespace

Puzzle make_batched_matmul() {
  const std::vector<std::string> names{"x", "y", "z", "N0", "N1", "N2", "MID", "B0", "B1", "B2", "B_MID"};
  static const tl::KernelDef solution("batched_matmul", batched_matmul_kernel, names);
  static const tl::KernelDef stub("batched_matmul_stub", batched_matmul_stub, names);
  Puzzle p;
  p.number = 11;
  p.id = "batched_matmul";
  p.title = "Batched Matrix Multiplication";
  p.statement = kStatement;
  p.tolerance = 5e-3;
  p.inputs = {{"x", tl::f32, dims({"N2", "N0", "MID"})}, {"y", tl::f32, dims({"N2", "MID", "N1"})}};
  p.output = {"z", tl::f32, dims({"N2", "N0", "N1"})};
  p.output_axes = {2, 0, 1};
  p.sets = {set("canonical", 32, 32, 4, 64, 16, 16, 1, 16, "4 reduction steps; MID != N1"),
            set("11a", 5, 7, 3, 9, 16, 16, 1, 16, "every size below one block; MID tail"),
            set("11b", 33, 50, 2, 100, 32, 16, 1, 32, "N0, N1, MID all different; MID tail 4 of 32"),
            set("11c", 64, 20, 3, 48, 16, 32, 2, 16, "B2 = 2 with a batch tail (last program holds 1 valid batch)")};
  p.solution = &solution;
  p.stub = &stub;
  p.reference = reference;
  return p;
}

}  // namespace puzzles
