// Broken kernel 18: codes_in_i8 (borrows example e2, quant_pack, set 8bit).
#include "broken/broken_defs.h"
#include "tl.h"

namespace puzzles {
namespace {

constexpr const char* kExplanation =
    "Each code is converted from f32 straight to an i8 (a byte a code) before it is packed. With BITS = 2 or "
    "4 the codes stay below 16 and nothing shows; with BITS = 8 (set 8bit) they run to 255, and every value "
    "from 127.5 up is out of an i8's range: Triton leaves that conversion undefined (tl:: saturates to "
    "127, as NVIDIA's cvt does). The float-to-int finding names the conversion, the program, the lane and "
    "the value; the comparison shows the packed words wrong wherever a code passed 127. Fix: convert to "
    "i32 (or u8) as E2 does.";

constexpr float kRoundBias = 0.5f - 1e-6f;

// E2's kernel keeping each code in an i8 before packing it.
void codes_in_i8_kernel(tl::Ptr X, tl::Ptr P, tl::Ptr S, tl::Ptr Mn, tl::Int R, tl::Const GROUP, tl::Const BITS) {
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
  auto q = ((x - xmin) / scale + kRoundBias).to(tl::i8).to(tl::i32);  // BUG: 8-bit codes run to 255; an i8 stops at 127
  q = tl::minimum(tl::maximum(q, 0), QMAX);
  auto words = tl::sum(q << (j * BITS).row(), 1);  // disjoint bits: the sum is an OR
  tl::store(P + row * NWORDS + w, words);
  (void)R;  // the grid covers the rows
}

// The kernel's f32 arithmetic, step by step, per row.
}  // namespace

BrokenKernel make_codes_in_i8() {
  static const tl::KernelDef kernel("codes_in_i8", codes_in_i8_kernel, {"X", "P", "S", "Mn", "R", "GROUP", "BITS"});
  BrokenKernel b;
  b.name = "codes_in_i8";
  b.title = "8-bit quantization codes converted to an i8";
  b.explanation = kExplanation;
  b.puzzle_id = "e2";
  b.set = "8bit";
  b.kernel = &kernel;
  b.expected = "float-to-int conversion out of range (an error) at the BUG line on set 8bit, every program; "
               "the words with a code above 127 wrong";
  b.source_file = __FILE__;
  return b;
}

}  // namespace puzzles
