// Choosing puzzles and kernels from the command line, shared by the
// commands that take "N", an id, or --all, and --stub.
#pragma once
#include <vector>

#include "args.h"
#include "registry.h"

namespace cli {

// The puzzles named by the positional arguments, or all with --all.
std::vector<const puzzles::Puzzle*> select_puzzles(const Args& args, bool allow_all = true);

}  // namespace cli
