// The list of the twelve puzzles, in order, and lookup by number or id.
#pragma once
#include <string_view>
#include <vector>

#include "puzzle.h"

namespace puzzles {

// All twelve puzzles, numbered 1..12 in order. Built on first use.
const std::vector<Puzzle>& all_puzzles();

// The puzzle named by `key`: its number ("7", "07", "p07", "P7") or its id
// ("long_sum"). nullptr when nothing matches.
const Puzzle* find_puzzle(std::string_view key);

}  // namespace puzzles
