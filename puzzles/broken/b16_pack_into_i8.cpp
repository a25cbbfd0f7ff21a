// Broken kernel 16: pack_into_i8 (borrows example e2, quant_pack).
#include "broken/broken_defs.h"
#include "tl.h"

namespace puzzles {
namespace {

constexpr const char* kExplanation =
    "Each code is shifted to its place in the packed word and then kept as an i8 (an 8-bit word type, as "
    "the notebook had it) before the sum: 32 bits of codes squeezed into 8. Code j of a word lands at bit 2j, "
    "so from j = 3 on the shifted code no longer fits an i8: bit 7 turns the value negative and bits 8 and "
    "up are dropped. Every access is in bounds and defined; the lossy-conversion warning names the line, the "
    "lane (word, code) and the value before and after; the comparison shows nearly every packed word wrong. "
    "Fix: keep the shifted codes in i32, as the word is.";

constexpr float kRoundBias = 0.5f - 1e-6f;

// E2's kernel packing each word's codes through an int8.
void pack_into_i8_kernel(tl::Ptr X, tl::Ptr P, tl::Ptr S, tl::Ptr Mn, tl::Int R, tl::Const GROUP, tl::Const BITS) {
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
  auto fields = (q << (j * BITS).row()).to(tl::i8);  // BUG: an i8 holds 4 two-bit codes, the word has 16
  auto words = tl::sum(fields, 1);
  tl::store(P + row * NWORDS + w, words);
  (void)R;  // the grid covers the rows
}

// The kernel's f32 arithmetic, step by step, per row.
}  // namespace

BrokenKernel make_pack_into_i8() {
  static const tl::KernelDef kernel("pack_into_i8", pack_into_i8_kernel, {"X", "P", "S", "Mn", "R", "GROUP", "BITS"});
  BrokenKernel b;
  b.name = "pack_into_i8";
  b.title = "packed codes kept in an i8 before the sum into an i32 word";
  b.explanation = kExplanation;
  b.puzzle_id = "e2";
  b.kernel = &kernel;
  b.expected = "lossy integer conversion (warning) at the BUG line, codes 3..15 of words in every program; "
               "nearly every packed word wrong";
  b.source_file = __FILE__;
  return b;
}

}  // namespace puzzles
