// JSON forms of the puzzle list and of check reports, for the CLI's
// --json output and for tools. Non-finite numbers (err = inf, a NaN that was
// found) are written as the strings "inf", "-inf", "NaN", since JSON has no
// such numbers. Traces are not embedded: save them with tl::save_trace.
#pragma once
#include <string>
#include <vector>

#include "puzzle.h"
#include "results.h"

namespace puzzles {

// [{number, id, title, tolerance, statement, sets: [{name, sizes, blocks, grid, stresses}]}]
std::string puzzle_list_to_json(const std::vector<Puzzle>& puzzles, int indent = 2);

// {number, id, title, kernel, pass, max_err, threshold, runs, failed_runs,
//  sets: [{name, stresses, pass, max_err, runs: [run...]}]}
std::string report_to_json(const PuzzleReport& r, int indent = 2);

// {puzzle, puzzle_id, set, seed, sizes, blocks, grid, status, reasons,
//  error_kind, error (errors only), err, threshold, mismatch_count,
//  never_written, non_finite, wrong_value, total, mismatches, owners,
//  owner_count, oob_loads, oob_stores, oob, modified_inputs, notes, printed,
//  traced}
std::string run_to_json(const RunReport& r, int indent = 2);

}  // namespace puzzles
