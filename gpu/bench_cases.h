// The at-scale benchmark cases of ../shared/ANCHORS.md: which puzzle, its
// sizes and blocks, and the bytes and flops the work needs at least
// (LOWERING §10: each input read once, each output written once).
#pragma once
#include <string>
#include <vector>

#include "puzzle.h"

namespace tl::gpu {

struct BenchCase {
  std::string name;  // "p02", the key `bench --case` takes
  std::string what;  // "add +10, N0 = 2^27, B0 = 1024"
  const puzzles::Puzzle* puzzle = nullptr;
  puzzles::SizeSet set;
  double bytes = 0;  // that must move
  double flops = 0;  // 0 when the case is bound by memory alone
  enum class Math { None, F32, Tf32 } math = Math::None;  // which arithmetic ceiling bounds the flops
  double anchor_ms = 0;  // Triton on an H200 (ANCHORS.md), for reference
};

std::vector<BenchCase> anchor_cases();

}  // namespace tl::gpu
