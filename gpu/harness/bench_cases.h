// The at-scale benchmark cases of ../shared/ANCHORS.md and EXAMPLES.md: which puzzle or example, its
// sizes and blocks, and the bytes and flops the work needs at least
// (LOWERING §10: each input read once, each output written once).
#pragma once
#include <set>
#include <string>
#include <vector>

#include "puzzle.h"

namespace tl::gpu {

struct BenchCase {
  std::string name;  // "p02", "e1_v1", the key `bench --case` takes
  std::string what;  // "add +10, N0 = 2^27, B0 = 1024"
  const puzzles::Puzzle* puzzle = nullptr;
  puzzles::SizeSet set;
  double bytes = 0;  // that must move
  double flops = 0;  // 0 when the case is bound by memory alone
  enum class Math { None, F32, Tf32, Bf16 } math = Math::None;  // which arithmetic ceiling bounds the flops
  double anchor_ms = 0;  // Triton on an H200 (ANCHORS.md), for reference; 0 when Triton has no such row
  std::string triton_row;  // the row name in bench/triton_at_scale.py, "" when none
  // Other block sizes the autotuner may try (each a complete set of the
  // set's blocks); empty for the cases compared with Triton at its blocks.
  std::vector<puzzles::Params> block_variants;
  // The block variants (numbered from 1, as --variant) sized for wgmma at 8
  // warps (a warpgroup per 64 rows of a dot): the tuner tries them only so,
  // since mma.sync at those blocks holds twice the accumulators a thread.
  std::set<size_t> wgmma_variants;
};

// The puzzle cases (p02 ... p11), then the examples' (e1_v1, e1_v1_128,
// e1_v2, e2, e3, e4_fused[_k100864], e4_splitk[_k100864], e5_fwd, e5_bwd)
// at their own "bench..." size sets.
std::vector<BenchCase> anchor_cases();

}  // namespace tl::gpu
