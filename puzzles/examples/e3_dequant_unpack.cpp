// Example E3 — unpack and dequantize, the inverse of E2 ("e3").
#include "examples/example_common.h"
#include "examples/example_defs.h"
#include "tl.h"

namespace puzzles {
namespace {

constexpr const char* kStatement = R"(Example E3 - unpack and dequantize (e3)

The inverse of E2: expand each row of packed words back to GROUP = 256 bf16
values with the row's scale and minimum. One program per row.
VPW = 32 / BITS values per word, NWORDS = GROUP / VPW, QMAX = 2^BITS - 1.

Math (in f32): Y[row, w * VPW + j] = ((P[row, w] >> (j * BITS)) & QMAX) * S[row] + Mn[row],
             stored as bf16. The words are signed: >> copies the sign bit,
             so the mask must come after the shift.
Inputs:      P: i32[R, NWORDS] (any bits), S: bf16[R] (> 0), Mn: bf16[R]
Output:      Y: bf16[R, GROUP]
Parameters:  (P, S, Mn, Y, R | GROUP, BITS)
Grid:        (R, 1, 1); row r belongs to program (r, 0, 0)
Tolerance:   5e-3 relative (bf16 rounding of the output, at most 2^-9 per element);
             the round trip E2 -> E3 is within scale / 2 (tests)
Benchmark:   R = 302592, BITS = 2
)";

void dequant_unpack_kernel(tl::Ptr P, tl::Ptr S, tl::Ptr Mn, tl::Ptr Y, tl::Int R, tl::Const GROUP, tl::Const BITS) {
  const int VPW = 32 / BITS, NWORDS = GROUP / VPW, QMAX = (1 << BITS) - 1;
  auto row = tl::program_id(0);
  auto w = tl::arange(0, NWORDS);
  auto j = tl::arange(0, VPW);
  auto words = tl::load(P + row * NWORDS + w);
  auto scale = tl::load(S + row).to(tl::f32);
  auto xmin = tl::load(Mn + row).to(tl::f32);
  auto q = (words.col() >> (j * BITS).row()) & QMAX;  // mask after the shift
  // One rounding (fma) on both back ends, so the GPU's contraction cannot move a bf16 tie.
  auto y = tl::fma(q.to(tl::f32), scale, xmin);
  tl::store(Y + row * GROUP + w.col() * VPW + j.row(), y);  // rounds to bf16
  (void)R;
}

std::vector<double> reference(const SizeSet& s, const std::vector<tl::Buffer>& in) {
  const examples::PackFormat f = examples::pack_format(s);
  const int32_t* p = in[0].as<int32_t>();
  std::vector<double> y;
  for (int64_t r = 0; r < s["R"]; ++r) {
    const double scale = examples::bf16_at(in[1], r), xmin = examples::bf16_at(in[2], r);
    for (int64_t c = 0; c < f.group; ++c)
      y.push_back(double(f.code(p[r * f.words() + c / f.vpw()], c % f.vpw())) * scale + xmin);
  }
  return y;
}

}  // namespace

Puzzle make_e3_dequant_unpack() {
  static const tl::KernelDef kernel("e3_dequant_unpack", dequant_unpack_kernel, {"P", "S", "Mn", "Y", "R", "GROUP", "BITS"});
  Puzzle p = examples::example_puzzle("e3", "Unpack and dequantize", kStatement, 5e-3);
  p.inputs = {{"P", tl::i32, [](const SizeSet& s) { return std::vector<int64_t>{s["R"], examples::pack_format(s).words()}; }},
              {"S", tl::bf16, dims({"R"}), examples::fill_positive_scale},
              {"Mn", tl::bf16, dims({"R"})}};
  p.output = {"Y", tl::bf16, dims({"R", "GROUP"})};
  p.output_axes = {0, -1};
  p.owner = [](const SizeSet&, const std::vector<int64_t>& i) { return std::array<int64_t, 3>{i[0], 0, 0}; };
  p.sets = packed_row_sets();
  p.solution = p.stub = &kernel;
  p.reference = reference;
  return p;
}

}  // namespace puzzles
