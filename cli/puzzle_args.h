// Choosing puzzles and kernels from the command line, shared by the
// commands that take "N", an id, or --all, and --stub.
#pragma once
#include <vector>

#include "args.h"
#include "broken/registry.h"
#include "registry.h"

namespace cli {

// The puzzles named by the positional arguments, or all with --all.
std::vector<const puzzles::Puzzle*> select_puzzles(const Args& args, bool allow_all = true);

// What `check` runs: a puzzle's solution or stub, an example's kernel (by
// id, or all of them with --examples), or a broken kernel ("broken/NAME")
// on the puzzle or example whose inputs it borrows.
struct CheckTarget {
  const puzzles::Puzzle* puzzle = nullptr;
  const puzzles::BrokenKernel* broken = nullptr;
};
std::vector<CheckTarget> select_targets(const Args& args);

}  // namespace cli
