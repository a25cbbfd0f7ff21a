// Example E5 — ReLU forward that keeps a 1-bit mask instead of the
// activation ("e5_fwd"), and the backward pass that reads it ("e5_bwd").
#include <bit>

#include "examples/example_common.h"
#include "examples/example_defs.h"
#include "tl.h"

namespace puzzles {
namespace {

constexpr const char* kStatementFwd = R"(Example E5 - ReLU forward with a 1-bit mask (e5_fwd)

y = max(x, 0) in the input dtype, and the mask x > 0 packed 1 bit per value,
32 values per i32 word, lowest bit first, so the backward pass needs 1 bit
per activation instead of 16. Rows of COLS = 256 values; each program
handles BR rows (the last block masked).

Math:        Y[r, c] = max(X[r, c], 0)
             M[r, w] = sum over j < 32 of [X[r, w*32 + j] > 0] << j
Inputs:      X: bf16[R, COLS]
Outputs:     Y: bf16[R, COLS], M: i32[R, COLS / 32]
Parameters:  (X, Y, M, R | COLS | BR)
Grid:        (cdiv(R, BR), 1, 1); row r belongs to program (r / BR, 0, 0)
Tolerance:   exact (both outputs)
Sizes:       3200 rows (small), 302592 rows (benchmark)
)";

constexpr const char* kStatementBwd = R"(Example E5 - ReLU backward from the 1-bit mask (e5_bwd)

dx = dy where the forward input was positive, else 0, with the mask read
from E5's packed words: bit j of M[r, w] is element w*32 + j of row r.
Bit 31 is the sign bit of the word: shift, then mask with & 1.

Math:        dX[r, w*32 + j] = dY[r, w*32 + j] * ((M[r, w] >> j) & 1)
Inputs:      M: i32[R, COLS / 32] (any bits), dY: bf16[R, COLS]
Output:      dX: bf16[R, COLS]
Parameters:  (M, dY, dX, R | COLS | BR)
Grid:        (cdiv(R, BR), 1, 1); row r belongs to program (r / BR, 0, 0)
Tolerance:   exact
)";

constexpr int kBitsPerWord = 32;

void relu_forward_kernel(tl::Ptr X, tl::Ptr Y, tl::Ptr M, tl::Int R, tl::Const COLS, tl::Const BR) {
  const int NWORDS = COLS / kBitsPerWord;
  auto rows = tl::program_id(0) * BR + tl::arange(0, BR);
  auto row_ok = rows < R;
  auto w = tl::arange(0, NWORDS);
  auto j = tl::arange(0, kBitsPerWord);
  // [BR, NWORDS, 32]: element (r, w, j) is column w * 32 + j of row r.
  auto offsets = tl::expand_dims(rows, {1, 2}) * COLS + (w.col() * kBitsPerWord + j.row());
  auto ok = tl::expand_dims(row_ok, {1, 2});
  auto x = tl::load(X + offsets, ok, 0.0f);
  tl::store(Y + offsets, tl::maximum(x, 0.0f), ok);
  auto bits = (x > 0.0f).to(tl::i32) << j;
  tl::store(M + rows.col() * NWORDS + w.row(), tl::sum(bits, 2), row_ok.col());  // disjoint bits: sum = OR
}

void relu_backward_kernel(tl::Ptr M, tl::Ptr dY, tl::Ptr dX, tl::Int R, tl::Const COLS, tl::Const BR) {
  const int NWORDS = COLS / kBitsPerWord;
  auto rows = tl::program_id(0) * BR + tl::arange(0, BR);
  auto row_ok = rows < R;
  auto w = tl::arange(0, NWORDS);
  auto j = tl::arange(0, kBitsPerWord);
  auto words = tl::load(M + rows.col() * NWORDS + w.row(), row_ok.col(), 0);  // [BR, NWORDS]
  auto bit = (tl::expand_dims(words, 2) >> j) & 1;                               // [BR, NWORDS, 32]
  auto offsets = tl::expand_dims(rows, {1, 2}) * COLS + (w.col() * kBitsPerWord + j.row());
  auto ok = tl::expand_dims(row_ok, {1, 2});
  auto dy = tl::load(dY + offsets, ok, 0.0f);
  tl::store(dX + offsets, tl::where(bit == 1, dy, 0.0f), ok);
}

std::vector<double> reference_y(const SizeSet& s, const std::vector<tl::Buffer>& in) {
  std::vector<double> y;
  y.reserve(static_cast<size_t>(s["R"] * s["COLS"]));
  for (int64_t i = 0; i < s["R"] * s["COLS"]; ++i) y.push_back(std::max(examples::bf16_at(in[0], i), 0.0));
  return y;
}

std::vector<std::vector<double>> reference_mask(const SizeSet& s, const std::vector<tl::Buffer>& in) {
  std::vector<double> m;
  m.reserve(static_cast<size_t>(s["R"] * s["COLS"] / kBitsPerWord));
  for (int64_t word = 0; word < s["R"] * s["COLS"] / kBitsPerWord; ++word) {
    uint32_t bits = 0;
    for (int j = 0; j < kBitsPerWord; ++j)
      bits |= static_cast<uint32_t>(examples::bf16_at(in[0], word * kBitsPerWord + j) > 0) << j;
    m.push_back(std::bit_cast<int32_t>(bits));
  }
  return {m};
}

std::vector<double> reference_dx(const SizeSet& s, const std::vector<tl::Buffer>& in) {
  const int32_t* m = in[0].as<int32_t>();
  std::vector<double> dx;
  dx.reserve(static_cast<size_t>(s["R"] * s["COLS"]));
  for (int64_t i = 0; i < s["R"] * s["COLS"]; ++i) {
    const bool bit = (static_cast<uint32_t>(m[i / kBitsPerWord]) >> (i % kBitsPerWord)) & 1u;
    dx.push_back(bit ? examples::bf16_at(in[1], i) : 0.0);
  }
  return dx;
}

SizeSet set(std::string name, int64_t rows, int64_t br, std::string stresses, bool large = false) {
  return examples::make_set(std::move(name), {{"R", rows}}, {{"COLS", 256}}, {{"BR", br}}, std::move(stresses),
                            [](const SizeSet& s) { return std::array<int64_t, 3>{examples::cdiv(s["R"], s["BR"]), 1, 1}; },
                            large);
}

Puzzle common(std::string id, std::string title, const char* statement) {
  Puzzle p = examples::example_puzzle(std::move(id), std::move(title), statement, 0);  // exact
  p.output_axes = {0, -1};
  p.owner = [](const SizeSet& s, const std::vector<int64_t>& i) { return std::array<int64_t, 3>{i[0] / s["BR"], 0, 0}; };
  p.sets = {set("canonical", 37, 8, "last block of rows partly masked"), set("e5a", 3200, 16, "EXAMPLES.md small size"),
            set("e5b", 5, 32, "fewer rows than one block"), set("bench", 302592, 8, "benchmark size (GPU)", true)};
  return p;
}

auto mask_shape = [](const SizeSet& s) { return std::vector<int64_t>{s["R"], s["COLS"] / kBitsPerWord}; };

}  // namespace

Puzzle make_e5_relu_forward() {
  static const tl::KernelDef kernel("e5_relu_forward_bitmask", relu_forward_kernel, {"X", "Y", "M", "R", "COLS", "BR"});
  Puzzle p = common("e5_fwd", "ReLU forward saving a 1-bit mask", kStatementFwd);
  p.inputs = {{"X", tl::bf16, dims({"R", "COLS"})}};
  p.output = {"Y", tl::bf16, dims({"R", "COLS"})};
  p.extra_outputs = {{"M", tl::i32, mask_shape}};
  p.solution = p.stub = &kernel;
  p.reference = reference_y;
  p.extra_reference = reference_mask;
  return p;
}

Puzzle make_e5_relu_backward() {
  static const tl::KernelDef kernel("e5_relu_backward_bitmask", relu_backward_kernel, {"M", "dY", "dX", "R", "COLS", "BR"});
  Puzzle p = common("e5_bwd", "ReLU backward from a 1-bit mask", kStatementBwd);
  p.inputs = {{"M", tl::i32, mask_shape}, {"dY", tl::bf16, dims({"R", "COLS"})}};
  p.output = {"dX", tl::bf16, dims({"R", "COLS"})};
  p.solution = p.stub = &kernel;
  p.reference = reference_dx;
  return p;
}

}  // namespace puzzles
