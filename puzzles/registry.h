// The list of the twelve puzzles, in order, the examples, and lookup by
// number or id.
#pragma once
#include <string_view>
#include <vector>

#include "puzzle.h"

namespace puzzles {

// All twelve puzzles, numbered 1..12 in order. Built on first use.
const std::vector<Puzzle>& all_puzzles();

// The real-workload examples of EXAMPLES.md, one entry per kernel variant
// ("e1_v1", "e1_v2", "e2", "e3", "e4_fused", "e4_splitk", "e5_fwd",
// "e5_bwd"), in that order. Not part of --all (the twelve puzzles).
const std::vector<Puzzle>& all_examples();

// The puzzle named by `key`: its number ("7", "07", "p07", "P7") or its id
// ("long_sum"), or an example by id ("e1_v2"). nullptr when nothing matches.
const Puzzle* find_puzzle(std::string_view key);

}  // namespace puzzles
