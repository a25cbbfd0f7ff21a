#include "puzzle_args.h"

namespace cli {

std::vector<const puzzles::Puzzle*> select_puzzles(const Args& args, bool allow_all) {
  std::vector<const puzzles::Puzzle*> out;
  if (allow_all && args.flag("all")) {
    if (!args.positional().empty()) throw UsageError("give puzzle numbers or --all, not both");
    for (const puzzles::Puzzle& p : puzzles::all_puzzles()) out.push_back(&p);
    return out;
  }
  if (args.positional().empty())
    throw UsageError(allow_all ? "name a puzzle (1-12 or its id) or use --all" : "name a puzzle (1-12 or its id)");
  for (const std::string& key : args.positional()) {
    const puzzles::Puzzle* p = puzzles::find_puzzle(key);
    if (!p) throw UsageError("no puzzle '" + key + "' (puzzles are 1-12; 'tilescope list' shows their ids)");
    out.push_back(p);
  }
  return out;
}

}  // namespace cli
