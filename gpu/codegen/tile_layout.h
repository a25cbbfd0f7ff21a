// Where a tile's elements live in the block: the layouts the code
// generator gives registers (codegen_layout.cpp).
#pragma once
#include <cstdint>
#include <optional>

#include "ir.h"

namespace tl::gpu::detail {

// Where a tile's elements live in the block (see codegen.h). Two kinds:
// striped, the default (element e in slot e / threads of thread
// e % threads, or replicated when the tile is smaller than the block), and
// the MMA accumulator layout a tensor-core dot produces (LOWERING §6): the
// [M, N] tile is cut into a wm x wn grid of warp tiles, each tm x tn steps
// of 16 x 8; lane 4g + q holds rows g, g + 8 and columns 2q, 2q + 1 of
// every step. A register keeps one layout for its whole life.
// A transposed MMA layout holds an [M, N] tile as the MMA layout of its
// [N, M] transpose (wgmma computing C^T = B^T A^T, see plan_pipelines):
// wm .. tn and cols describe that transpose, and its row r, column c is
// the tile's element (c, r).
struct TileLayout {
  int64_t n = 1;      // elements
  int64_t slots = 1;  // registers per thread
  int threads = 128;
  bool scalar = true;  // a 0-d value: one plain variable, not an array
  // Striped in runs of `vec`: thread t holds elements t * vec .. t * vec +
  // vec - 1 of each stripe of threads * vec (slot s: stripe s / vec, run
  // place s % vec). 1 is the plain striped layout; longer runs let a thread
  // hold neighbours along a row (a 16-byte store of 8 bf16 values, one read
  // of a packed word they share: vectorize_register_operand).
  int64_t vec = 1;
  // The MMA layout (mma == true); cols is N, the tile's last extent.
  bool mma = false;
  int64_t cols = 0;
  int wm = 1, wn = 1, tm = 1, tn = 1;
  bool transposed = false;

  bool replicated() const { return !mma && n < threads; }
  // The element thread `t` holds in slot `slot`.
  int64_t element_of(int64_t slot, int64_t t) const;
  // The slot in which thread `t` holds element `e`, or -1.
  int64_t slot_of(int64_t e, int64_t t) const;
  bool operator==(const TileLayout&) const = default;
};

// The MMA layout of an [M, N] (or [1, M, N]) tile with `threads` threads,
// or nullopt when its warps cannot each own whole 16 x 8 steps.
// rows_per_warp: when M is 16 x warps, every warp takes 16 rows and all
// columns (the accumulator layout of wgmma, one warpgroup per 64 rows).
std::optional<TileLayout> mma_layout(const ir::Shape& s, int threads, bool rows_per_warp = false);
// The transposed MMA layout of an [M, N] (or [1, M, N]) tile: the
// rows-per-warp MMA layout of [N, M] (wgmma's accumulator of C^T, one
// warpgroup per 64 of N), or nullopt when N is not 16 x warps.
std::optional<TileLayout> transposed_mma_layout(const ir::Shape& s, int threads);

}  // namespace tl::gpu::detail
