// Broken kernel 9: signed_shift_no_mask (borrows puzzle 12, quant_matmul).
#include "broken/broken_defs.h"
#include "tl.h"

namespace puzzles {
namespace {

constexpr const char* kExplanation =
    "Shifting a packed word right only moves code n down to bits 0..3; the codes above it come along. "
    "Without `& 15` after the shift, code n reads as the whole rest of the word (up to 2^28), and since "
    "the words are signed i32, >> is an arithmetic shift that copies the sign bit down, so the top code "
    "of a negative word becomes -8..-1 instead of 8..15. Every access is in bounds and every value "
    "defined, so the sanitizer has nothing to say: this is a value bug, and the comparison with the "
    "reference catches it (every output wrong, err far above the threshold). Fix: "
    "(words >> shifts) & 15, masking after the shift, as the puzzle's nib() says.";

constexpr int BITS = 4;
constexpr int FPINT = 32 / BITS;
constexpr int GROUP = 8;
constexpr int NIBBLE_MASK = (1 << BITS) - 1;

// Puzzle 12's solution without the nibble mask on the codes.
void signed_shift_no_mask_kernel(tl::Ptr scale, tl::Ptr offset, tl::Ptr weight, tl::Ptr activation, tl::Ptr z,
                                 tl::Int N0, tl::Int N1, tl::Int MID, tl::Const B0, tl::Const B1, tl::Const B_MID) {
  auto off_j = tl::program_id(0) * B0 + tl::arange(0, B0);
  auto off_k = tl::program_id(1) * B1 + tl::arange(0, B1);
  auto mask_j = off_j < N0;
  auto mask_k = off_k < N1;
  auto nibble_shifts = tl::arange(0, FPINT) * BITS;
  auto acc = tl::zeros({B0, B1}, tl::f32);
  for (auto l : tl::range(0, MID, B_MID)) {
    auto off_w = l / FPINT + tl::arange(0, B_MID / FPINT);
    auto mask_w = mask_j.col() & (off_w.row() < MID / FPINT);
    auto words = tl::load(weight + off_j.col() * (MID / FPINT) + off_w.row(), mask_w, 0);
    auto unpacked = tl::expand_dims(words, 2) >> nibble_shifts;  // BUG: no & 15: higher codes (and the sign) stay
    auto codes = tl::reshape(unpacked, {B0, B_MID});

    auto off_g = l / GROUP + tl::arange(0, B_MID / GROUP);
    auto mask_g = mask_j.col() & (off_g.row() < MID / GROUP);
    auto sc = tl::load(scale + off_j.col() * (MID / GROUP) + off_g.row(), mask_g, 0.0f);
    auto shift_words = tl::load(offset + off_j.col() * (MID / (GROUP * FPINT)) + (off_g / FPINT).row(), mask_g, 0);
    auto shifts = (shift_words >> ((off_g % FPINT) * BITS).row()) & NIBBLE_MASK;

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

}  // namespace

BrokenKernel make_signed_shift_no_mask() {
  static const tl::KernelDef kernel("signed_shift_no_mask", signed_shift_no_mask_kernel,
                                    {"scale", "offset", "weight", "activation", "z", "N0", "N1", "MID", "B0", "B1",
                                     "B_MID"});
  BrokenKernel b;
  b.name = "signed_shift_no_mask";
  b.title = "a packed signed word shifted without & 15 after it";
  b.explanation = kExplanation;
  b.puzzle_id = "quant_matmul";
  b.kernel = &kernel;
  b.expected = "no sanitizer finding; wrong values in all 1024 outputs (err far above 5e-3), every program's";
  b.source_file = __FILE__;
  return b;
}

}  // namespace puzzles
