// Puzzle 12 — Quantized Matrix Multiplication (`quant_matmul`).
#include "puzzle_defs.h"
#include "tl.h"

namespace puzzles {
namespace {

constexpr const char* kStatement = R"(Puzzle 12 - Quantized Matrix Multiplication (quant_matmul)

Multiply a quantized weight matrix (N0 rows, MID columns) by a float
activation matrix (MID x N1). Each weight is a 4-bit unsigned code; eight
codes are packed per i32 word, lowest nibble first. Along each weight row,
every group of 8 consecutive weights shares one f32 scale and one 4-bit
shift; the shifts of 8 consecutive groups are packed into one i32 word of
offset, again lowest nibble first. The true weight is scale * (code - shift).
Grid axis 0 tiles the output rows (N0, B0), axis 1 the output columns
(N1, B1); each program walks MID in steps of B_MID, unpacks and dequantizes
a [B0, B_MID] weight tile, and accumulates its product with a [B_MID, B1]
activation tile.

Packing:     BITS = 4 bits per code, FPINT = 32 / BITS = 8 codes per i32
             word, GROUP = 8 weights per scale/shift group.
             nib(w, n) = (w >> 4n) & 15 (bits 4n .. 4n+3, unsigned 0..15).
Math:        for j < N0, k < N1, l < MID, with group index g(l) = l / GROUP:
               code[j, l]  = nib(weight[j, l / FPINT], l mod FPINT)
               shift[j, g] = nib(offset[j, g / FPINT], g mod FPINT)
               dq[j, l]    = scale[j, g(l)] * (code[j, l] - shift[j, g(l)])
               z[j, k]     = sum over l < MID of dq[j, l] * activation[l, k]
Example:     weight[j, 0] = 0x87654321 gives code[j, 0..7] = 1, 2, ..., 8;
             offset[j, 0] = 0x000000F3 gives shift[j, 0] = 3, shift[j, 1] = 15;
             with scale[j, 0] = 0.5, dq[j, 0] = 0.5 * (1 - 3) = -1.
Inputs:      scale: f32[N0, MID/8], offset: i32[N0, MID/64],
             weight: i32[N0, MID/8], activation: f32[MID, N1]
Output:      z: f32[N0, N1]
Parameters:  (scale, offset, weight, activation, z, N0, N1, MID | B0, B1, B_MID)
Constraints: MID is a multiple of 64; B_MID is a power of two >= 16 (so every
             tile holds whole words and whole groups; when B_MID < 64,
             consecutive tiles read different nibbles of one shift word,
             chosen by the absolute group index); B0, B1 >= 16
Canonical:   N0 = 32, N1 = 32, MID = 64, B0 = 16, B1 = 16, B_MID = 64,
             grid (2, 2, 1)
Owner:       z[j, k] belongs to program (j / B0, k / B1, 0)
Operations:  puzzle 11's 2-D parts, plus i32 tile loads, >> by a per-lane
             amount, & 15, / and % by 8 on index tiles, cast i32 -> f32,
             broadcasting the per-group scale and shift over the 8 codes of
             the group, and reshape [B0, B_MID/8, 8] -> [B0, B_MID]. The
             scale must be applied before the dot: it varies along MID.
)";

constexpr int BITS = 4;              // bits per code
constexpr int FPINT = 32 / BITS;     // codes per i32 word
constexpr int GROUP = 8;             // weights per scale/shift group
constexpr int NIBBLE_MASK = (1 << BITS) - 1;

// Reference solution. Padded lanes load 0 for scale, codes and shifts, so
// their dequantized weights are exactly 0 and add nothing to the dot.
void quant_matmul_kernel(tl::Ptr scale, tl::Ptr offset, tl::Ptr weight, tl::Ptr activation, tl::Ptr z, tl::Int N0,
                         tl::Int N1, tl::Int MID, tl::Const B0, tl::Const B1, tl::Const B_MID) {
  auto off_j = tl::program_id(0) * B0 + tl::arange(0, B0);  // weight rows = output rows
  auto off_k = tl::program_id(1) * B1 + tl::arange(0, B1);  // output columns
  auto mask_j = off_j < N0;
  auto mask_k = off_k < N1;
  auto nibble_shifts = tl::arange(0, FPINT) * BITS;  // bit position of code n in a word
  auto acc = tl::zeros({B0, B1}, tl::f32);
  for (auto l : tl::range(0, MID, B_MID)) {
    // Codes: the tile's B_MID / FPINT weight words per row, unpacked so that
    // code n of word c lands in tile column FPINT*c + n (row-major reshape).
    auto off_w = l / FPINT + tl::arange(0, B_MID / FPINT);
    auto mask_w = mask_j.col() & (off_w.row() < MID / FPINT);
    auto words = tl::load(weight + off_j.col() * (MID / FPINT) + off_w.row(), mask_w, 0);
    auto unpacked = (tl::expand_dims(words, 2) >> nibble_shifts) & NIBBLE_MASK;  // mask after the shift
    auto codes = tl::reshape(unpacked, {B0, B_MID});

    // Scales and shifts of the tile's groups, by absolute group index g.
    auto off_g = l / GROUP + tl::arange(0, B_MID / GROUP);
    auto mask_g = mask_j.col() & (off_g.row() < MID / GROUP);
    auto sc = tl::load(scale + off_j.col() * (MID / GROUP) + off_g.row(), mask_g, 0.0f);
    auto shift_words = tl::load(offset + off_j.col() * (MID / (GROUP * FPINT)) + (off_g / FPINT).row(), mask_g, 0);
    auto shifts = (shift_words >> ((off_g % FPINT) * BITS).row()) & NIBBLE_MASK;

    // Dequantize per group: [B0, groups, GROUP] with scale and shift broadcast.
    auto grouped = tl::reshape(codes, {B0, B_MID / GROUP, GROUP});
    auto dq = tl::expand_dims(sc, 2) * (grouped - tl::expand_dims(shifts, 2)).to(tl::f32);
    auto w_tile = tl::reshape(dq, {B0, B_MID});

    auto off_l = l + tl::arange(0, B_MID);
    auto a_mask = (off_l.col() < MID) & mask_k.row();
    auto av = tl::load(activation + off_l.col() * N1 + off_k.row(), a_mask, 0.0f);
    acc = tl::dot(w_tile, av, acc);
  }
  tl::store(z + off_j.col() * N1 + off_k.row(), acc, mask_j.col() & mask_k.row());
}

// The stub leaves every parameter for the learner to use.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
void quant_matmul_stub(tl::Ptr scale, tl::Ptr offset, tl::Ptr weight, tl::Ptr activation, tl::Ptr z, tl::Int N0,
                       tl::Int N1, tl::Int MID, tl::Const B0, tl::Const B1, tl::Const B_MID) {
  // Finish me!
}
#pragma GCC diagnostic pop

// Nibble n of a packed word as an exact integer 0..15.
int64_t nibble(int32_t word, int64_t n) { return (static_cast<uint32_t>(word) >> (BITS * n)) & NIBBLE_MASK; }

std::vector<double> reference(const SizeSet& s, const std::vector<tl::Buffer>& in) {
  const float* scale = in[0].as<float>();
  const int32_t* offset = in[1].as<int32_t>();
  const int32_t* weight = in[2].as<int32_t>();
  const float* activation = in[3].as<float>();
  const int64_t n0 = s["N0"], n1 = s["N1"], mid = s["MID"];
  const int64_t groups = mid / GROUP, words = mid / FPINT, shift_words = mid / (GROUP * FPINT);
  std::vector<double> dq(n0 * mid);
  for (int64_t j = 0; j < n0; ++j)
    for (int64_t l = 0; l < mid; ++l) {
      const int64_t g = l / GROUP;
      const int64_t code = nibble(weight[j * words + l / FPINT], l % FPINT);
      const int64_t shift = nibble(offset[j * shift_words + g / FPINT], g % FPINT);
      dq[j * mid + l] = double(scale[j * groups + g]) * double(code - shift);
    }
  std::vector<double> z(n0 * n1, 0.0);
  for (int64_t j = 0; j < n0; ++j)
    for (int64_t k = 0; k < n1; ++k) {
      double acc = 0;
      for (int64_t l = 0; l < mid; ++l) acc += dq[j * mid + l] * double(activation[l * n1 + k]);
      z[j * n1 + k] = acc;
    }
  return z;
}

SizeSet set(std::string name, int64_t n0, int64_t n1, int64_t mid, int64_t b0, int64_t b1, int64_t b_mid,
            std::string stresses) {
  return SizeSet{std::move(name), {{"N0", n0}, {"N1", n1}, {"MID", mid}}, {},
                 {{"B0", b0}, {"B1", b1}, {"B_MID", b_mid}}, std::move(stresses), {}};
}

std::vector<int64_t> per_row(const SizeSet& s, int64_t weights_per_entry) {
  return {s["N0"], s["MID"] / weights_per_entry};
}

}  // namespace

Puzzle make_quant_matmul() {
  const std::vector<std::string> names{"scale", "offset", "weight", "activation", "z", "N0",
                                       "N1",    "MID",    "B0",     "B1",         "B_MID"};
  static const tl::KernelDef solution("quant_matmul", quant_matmul_kernel, names);
  static const tl::KernelDef stub("quant_matmul_stub", quant_matmul_stub, names);
  Puzzle p;
  p.number = 12;
  p.id = "quant_matmul";
  p.title = "Quantized Matrix Multiplication";
  p.statement = kStatement;
  p.tolerance = 5e-3;
  p.inputs = {{"scale", tl::f32, [](const SizeSet& s) { return per_row(s, GROUP); }},
              {"offset", tl::i32, [](const SizeSet& s) { return per_row(s, GROUP * FPINT); }},
              {"weight", tl::i32, [](const SizeSet& s) { return per_row(s, FPINT); }},
              {"activation", tl::f32, dims({"MID", "N1"})}};
  p.output = {"z", tl::f32, dims({"N0", "N1"})};
  p.output_axes = {0, 1};
  p.sets = {set("canonical", 32, 32, 64, 16, 16, 64, "one shift word per row"),
            set("12a", 5, 7, 64, 16, 16, 64, "N0, N1 below one block"),
            set("12b", 40, 24, 192, 16, 16, 128, "three shift words per row; second MID step half padded"),
            set("12c", 33, 50, 128, 32, 32, 32, "B_MID < 64: four steps share two shift words; row and column tails")};
  p.solution = &solution;
  p.stub = &stub;
  p.reference = reference;
  return p;
}

}  // namespace puzzles
