// Kernels the viewer tests open: a broken version of puzzle 2 (no mask on
// the store, so the last program writes 24 lanes past the end of z).
#pragma once
#include "kernel.h"
#include "tl.h"

namespace viz_test {

inline void add_block_without_store_mask(tl::Ptr x, tl::Ptr z, tl::Int N0, tl::Const B0) {
  auto off = tl::program_id(0) * B0 + tl::arange(0, B0);
  auto xv = tl::load(x + off, off < N0);
  tl::store(z + off, xv + 10.0f);  // the bug: no mask, lanes past N0 go out of bounds
}

inline const tl::KernelDef& broken_add_block() {
  static const tl::KernelDef k("add_block_without_store_mask", add_block_without_store_mask, {"x", "z", "N0", "B0"});
  return k;
}

}  // namespace viz_test
