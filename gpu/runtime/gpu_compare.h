// Interpreter vs GPU: how close two runs of one kernel must be, and how
// close they are. The tolerance depends on what the kernel computes
// (SEMANTICS §7, §8, §10): integer outputs match exactly; a GPU sums in its
// own order, fuses multiply-adds and rounds math functions by a few ulp.
#pragma once
#include <cstdint>
#include <string>

#include "buffer.h"
#include "ir.h"

namespace tl::gpu {

// The NaN the harness fills an output with before a launch
// (puzzles::kNeverWrittenBits, which gpu/harness/ checks is the same).
inline constexpr uint32_t kFillBits = 0x7FC0DEAD;

struct Tolerance {
  enum class Kind { Exact, Elementwise, Reduction, Tf32Dot } kind = Kind::Elementwise;
  double relative = 1e-6;  // bound on the normwise relative difference
  std::string str() const;  // "exact", "1e-06 (elementwise)"
};

// Exact for integer outputs; 1e-3 when a dot rounds its inputs (tf32,
// f16, bf16); 1e-5 when the kernel reduces or loops over float data; else
// 1e-6.
Tolerance tolerance_for(const ir::Kernel& k, DType output);

struct BufferDiff {
  double relative = 0;         // ‖gpu − interp‖₂ / ‖interp‖₂ over elements finite in both
  double max_abs = 0;          // largest |gpu − interp| there
  int64_t mismatched = 0;      // elements not finite alike (NaN vs number, ±inf vs other) or, for
                               // exact comparisons, with other bits
  int64_t first_mismatch = -1; // flat index of the first one
  double first_interp = 0, first_gpu = 0;
  bool pass = false;
  std::string str() const;  // "rel 3.1e-08, max |diff| 2e-07" or what failed
};

// Compares two buffers of one dtype and shape. A NaN matches any NaN,
// except where the interpreter never wrote (its written map, when it keeps
// one; else the harness's fill bits): there the GPU must have left the
// fill, bit for bit, so an element only one side wrote is a mismatch.
BufferDiff diff_buffers(const Buffer& interp, const Buffer& gpu, const Tolerance& tol);

}  // namespace tl::gpu
