// Human-readable reports: the puzzle list, a puzzle check summary, and the
// failure details of a run (PUZZLES.md §4.5).
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "puzzle.h"
#include "results.h"

namespace puzzles {

struct TextOptions {
  bool every_failed_run = false;  // details for every failing run, not only the first of each set
  bool list_runs = false;         // one line per run in the summary table, passing runs included
  size_t max_oob_lanes = 8;       // lanes listed per out-of-bounds access
};

// "  1  add               Constant Add (4 size sets)" per puzzle.
std::string format_puzzle_list(const std::vector<Puzzle>& puzzles);

// Summary table, then failure details.
std::string format_report(const PuzzleReport& r, const TextOptions& o = {});

// Everything known about one failing run: sizes, err, mismatches, owners,
// out-of-bounds accesses with their kernel lines, modified inputs.
std::string format_run(const RunReport& r, const TextOptions& o = {});

// Short forms used in both: "1.5e-05", "NaN", "inf"; "(7, 1, 1)".
std::string format_number(double v);
std::string format_pid(const ProgramId& pid);
std::string format_grid(const tl::Grid& g);

}  // namespace puzzles
