// Broken kernel 15: nibble_shift_in_bytes (borrows puzzle 12, quant_matmul).
#include "broken/broken_defs.h"
#include "tl.h"

namespace puzzles {
namespace {

constexpr const char* kExplanation =
    "Code n of a packed i32 word sits at bit 4n, but the shifts count whole bytes: arange(0, 8) * 8 gives "
    "0, 8, ..., 56. Codes 0..3 read the wrong nibbles, and codes 4..7 shift an i32 by 32..56, at least its "
    "width: Triton leaves that undefined (LLVM poison; tl:: clamps as PTX does, to all sign bits for an "
    "arithmetic >>). Every access is in bounds, so only the shift-count finding points at the line, with the "
    "lane's word and count; the comparison shows every output wrong. Fix: arange(0, FPINT) * BITS.";

constexpr int BITS = 4;
constexpr int FPINT = 32 / BITS;
constexpr int GROUP = 8;
constexpr int NIBBLE_MASK = (1 << BITS) - 1;

// Puzzle 12's solution with the codes' bit positions counted in bytes.
void nibble_shift_in_bytes_kernel(tl::Ptr scale, tl::Ptr offset, tl::Ptr weight, tl::Ptr activation, tl::Ptr z,
                                 tl::Int N0, tl::Int N1, tl::Int MID, tl::Const B0, tl::Const B1, tl::Const B_MID) {
  auto off_j = tl::program_id(0) * B0 + tl::arange(0, B0);
  auto off_k = tl::program_id(1) * B1 + tl::arange(0, B1);
  auto mask_j = off_j < N0;
  auto mask_k = off_k < N1;
  auto nibble_shifts = tl::arange(0, FPINT) * 8;  // BUG: 8 bits a code, but the codes are BITS = 4 bits wide
  auto acc = tl::zeros({B0, B1}, tl::f32);
  for (auto l : tl::range(0, MID, B_MID)) {
    auto off_w = l / FPINT + tl::arange(0, B_MID / FPINT);
    auto mask_w = mask_j.col() & (off_w.row() < MID / FPINT);
    auto words = tl::load(weight + off_j.col() * (MID / FPINT) + off_w.row(), mask_w, 0);
    auto unpacked = (tl::expand_dims(words, 2) >> nibble_shifts) & NIBBLE_MASK;
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

BrokenKernel make_nibble_shift_in_bytes() {
  static const tl::KernelDef kernel("nibble_shift_in_bytes", nibble_shift_in_bytes_kernel,
                                    {"scale", "offset", "weight", "activation", "z", "N0", "N1", "MID", "B0", "B1",
                                     "B_MID"});
  BrokenKernel b;
  b.name = "nibble_shift_in_bytes";
  b.title = "packed codes shifted by 8 bits each instead of 4";
  b.explanation = kExplanation;
  b.puzzle_id = "quant_matmul";
  b.kernel = &kernel;
  b.expected = "shift count out of range on the >> line: codes 4..7 of every word (counts 32..56), all 4 programs; "
               "every output wrong";
  b.source_file = __FILE__;
  return b;
}

}  // namespace puzzles
