// Example E2 — low-bit quantize and pack, one group of GROUP values per row ("e2").
#include <bit>
#include <cmath>

#include "examples/example_common.h"
#include "examples/example_defs.h"
#include "tl.h"

namespace puzzles {
namespace {

constexpr const char* kStatement = R"(Example E2 - quantize and pack per group (e2)

Compress each row of GROUP = 256 bf16 values to BITS bits per value (BITS in
1, 2, 4, 8), keeping per row a scale and a minimum. One program per row.
VPW = 32 / BITS values per i32 word, NWORDS = GROUP / VPW, QMAX = 2^BITS - 1.

Math (in f32): xmin = min(x), xmax = max(x), range = xmax - xmin,
             scale = range / QMAX if range > 0 else 1;
             q = clamp(int(trunc((x - xmin) / scale + 0.5 - 1e-6)), 0, QMAX);
             P[row, w] = sum over j < VPW of q[w * VPW + j] << (j * BITS)
             (value j of a word in bits [j * BITS, (j + 1) * BITS), lowest
             first; for BITS = 1, j = 31 lands in the sign bit)
             S[row] = scale, Mn[row] = xmin, stored as bf16
Inputs:      X: bf16[R, GROUP]
Outputs:     P: i32[R, NWORDS], S: bf16[R], Mn: bf16[R]
Parameters:  (X, P, S, Mn, R | GROUP, BITS)
Grid:        (R, 1, 1); row r belongs to program (r, 0, 0)
Tolerance:   P exact; S and Mn 1e-3 (bf16 of the f32 values)
Benchmark:   R = 302592 (100864 * 3), BITS = 2
)";

// (x - xmin) / scale + kRoundBias rounds to nearest, a hair below the tie.
constexpr float kRoundBias = 0.5f - 1e-6f;

void quant_pack_kernel(tl::Ptr X, tl::Ptr P, tl::Ptr S, tl::Ptr Mn, tl::Int R, tl::Const GROUP, tl::Const BITS) {
  const int VPW = 32 / BITS, NWORDS = GROUP / VPW, QMAX = (1 << BITS) - 1;
  auto row = tl::program_id(0);
  auto w = tl::arange(0, NWORDS);
  auto j = tl::arange(0, VPW);
  // The row as [NWORDS, VPW]: element (w, j) is value j of word w.
  auto x = tl::load(X + row * GROUP + w.col() * VPW + j.row()).to(tl::f32);
  auto xmin = tl::min(x);
  auto range = tl::max(x) - xmin;
  auto scale = tl::where(range > 0.0f, range / QMAX, 1.0f);
  tl::store(S + row, scale);
  tl::store(Mn + row, xmin);
  auto q = ((x - xmin) / scale + kRoundBias).to(tl::i32);
  q = tl::minimum(tl::maximum(q, 0), QMAX);
  auto words = tl::sum(q << (j * BITS).row(), 1);  // disjoint bits: the sum is an OR
  tl::store(P + row * NWORDS + w, words);
  (void)R;  // the grid covers the rows
}

// The kernel's f32 arithmetic, step by step, per row.
struct RowQuant {
  float xmin = 0, scale = 1;
};
RowQuant quantize_row(const tl::Buffer& x, int64_t row, int64_t group, int64_t qmax) {
  float lo = INFINITY, hi = -INFINITY;
  for (int64_t c = 0; c < group; ++c) {
    const float v = static_cast<float>(examples::bf16_at(x, row * group + c));
    lo = std::fmin(lo, v);
    hi = std::fmax(hi, v);
  }
  const float range = hi - lo;
  return {lo, range > 0.0f ? range / static_cast<float>(qmax) : 1.0f};
}

std::vector<double> reference_words(const SizeSet& s, const std::vector<tl::Buffer>& in) {
  const examples::PackFormat f = examples::pack_format(s);
  const int64_t rows = s["R"];
  std::vector<double> p(static_cast<size_t>(rows * f.words()));
  for (int64_t r = 0; r < rows; ++r) {
    const RowQuant rq = quantize_row(in[0], r, f.group, f.qmax());
    for (int64_t w = 0; w < f.words(); ++w) {
      uint32_t word = 0;
      for (int64_t j = 0; j < f.vpw(); ++j) {
        const float v = static_cast<float>(examples::bf16_at(in[0], r * f.group + w * f.vpw() + j));
        const float t = (v - rq.xmin) / rq.scale + kRoundBias;
        int64_t q = static_cast<int64_t>(std::trunc(t));
        q = std::min<int64_t>(std::max<int64_t>(q, 0), f.qmax());
        word |= static_cast<uint32_t>(q) << (j * f.bits);
      }
      p[static_cast<size_t>(r * f.words() + w)] = std::bit_cast<int32_t>(word);
    }
  }
  return p;
}

std::vector<std::vector<double>> reference_scales(const SizeSet& s, const std::vector<tl::Buffer>& in) {
  const examples::PackFormat f = examples::pack_format(s);
  std::vector<double> scale, xmin;
  for (int64_t r = 0; r < s["R"]; ++r) {
    const RowQuant rq = quantize_row(in[0], r, f.group, f.qmax());
    scale.push_back(examples::to_bf16(rq.scale));
    xmin.push_back(examples::to_bf16(rq.xmin));
  }
  return {scale, xmin};
}

SizeSet set(std::string name, int64_t rows, int64_t bits, std::string stresses, bool large = false) {
  return examples::make_set(std::move(name), {{"R", rows}}, {{"GROUP", 256}, {"BITS", bits}}, {}, std::move(stresses),
                            [](const SizeSet& s) { return std::array<int64_t, 3>{s["R"], 1, 1}; }, large);
}

}  // namespace

std::vector<SizeSet> packed_row_sets() {
  return {set("canonical", 37, 2, "2-bit, 16 values per word"), set("1bit", 5, 1, "1-bit: value 31 in the sign bit"),
          set("4bit", 9, 4, "4-bit"), set("8bit", 6, 8, "8-bit: codes up to 255 reach the sign bit"),
          set("bench", 302592, 2, "benchmark size (GPU)", true)};
}

Puzzle make_e2_quant_pack() {
  static const tl::KernelDef kernel("e2_quant_pack", quant_pack_kernel, {"X", "P", "S", "Mn", "R", "GROUP", "BITS"});
  Puzzle p = examples::example_puzzle("e2", "Quantize and pack per group", kStatement, 0);  // integer output: exact
  p.inputs = {{"X", tl::bf16, dims({"R", "GROUP"})}};
  p.output = {"P", tl::i32, [](const SizeSet& s) { return std::vector<int64_t>{s["R"], examples::pack_format(s).words()}; }};
  p.extra_outputs = {{"S", tl::bf16, dims({"R"}), {}, false, 1e-3}, {"Mn", tl::bf16, dims({"R"}), {}, false, 1e-3}};
  p.output_axes = {0, -1};
  p.owner = [](const SizeSet&, const std::vector<int64_t>& i) { return std::array<int64_t, 3>{i[0], 0, 0}; };
  p.sets = packed_row_sets();
  p.solution = p.stub = &kernel;
  p.reference = reference_words;
  p.extra_reference = reference_scales;
  return p;
}

}  // namespace puzzles
