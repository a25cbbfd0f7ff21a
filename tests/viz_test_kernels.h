// Kernels the viewer tests open: a broken version of puzzle 2 (no mask on
// the store, so the last program writes 24 lanes past the end of z), and a
// row-wise copy at a real size ([3200, 256] f32, one program per row, 3,200
// programs) for framing and the wrapped program map.
#pragma once
#include <memory>

#include "interpreter.h"
#include "kernel.h"
#include "model_document.h"
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

inline void copy_rows(tl::Ptr x, tl::Ptr z, tl::Const COLS) {
  auto off = tl::program_id(0) * COLS + tl::arange(0, COLS);
  tl::store(z + off, tl::load(x + off));
}

inline constexpr int64_t kLargeRows = 3200, kLargeCols = 256;

// copy_rows over x, z: f32[3200, 256], traced in full (event 0 loads row
// `pid` of x, event 1 stores it to z).
inline const viz::ViewerDocument& large_copy_document() {
  static const viz::ViewerDocument doc = [] {
    static const tl::KernelDef kernel("copy_rows", copy_rows, {"x", "z", "COLS"});
    tl::Buffer x("x", tl::f32, {kLargeRows, kLargeCols}), z("z", tl::f32, {kLargeRows, kLargeCols});
    for (int64_t i = 0; i < kLargeRows * kLargeCols; ++i) x.set(i, static_cast<double>(i % 251));
    tl::RunOptions opt;
    opt.trace = tl::TraceMode::Full;
    tl::RunResult r =
        tl::run(kernel, tl::Grid{kLargeRows, 1, 1}, {x, z, static_cast<int>(kLargeCols)}, opt);
    viz::ViewerDocument d;
    d.trace = r.trace;
    d.title = "copy_rows over f32[3200, 256], 3,200 programs";
    return d;
  }();
  return doc;
}

}  // namespace viz_test
