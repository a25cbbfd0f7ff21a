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

std::vector<CheckTarget> select_targets(const Args& args) {
  std::vector<CheckTarget> out;
  // --examples adds every example to what else is named; --all stays the twelve puzzles.
  const bool examples = args.flag("examples");
  if (args.flag("all")) {
    for (const puzzles::Puzzle* p : select_puzzles(args)) out.push_back({p, nullptr});
    if (examples)
      for (const puzzles::Puzzle& e : puzzles::all_examples()) out.push_back({&e, nullptr});
    return out;
  }
  if (examples) {
    for (const puzzles::Puzzle& e : puzzles::all_examples()) out.push_back({&e, nullptr});
    if (args.positional().empty()) return out;
  }
  if (args.positional().empty())
    throw UsageError("name a puzzle (1-12 or its id), an example (e1_v1, ...), broken/NAME, or use --all");
  for (const std::string& key : args.positional()) {
    if (key.rfind("broken/", 0) == 0) {
      const puzzles::BrokenKernel* b = puzzles::find_broken(key);
      if (!b) throw UsageError("no broken kernel '" + key + "' ('tilescope list' names them)");
      const puzzles::Puzzle* p = puzzles::find_puzzle(b->puzzle_id);
      if (!p) throw UsageError("broken kernel '" + key + "' borrows an unknown puzzle");
      out.push_back({p, b});
      continue;
    }
    const puzzles::Puzzle* p = puzzles::find_puzzle(key);
    if (!p)
      throw UsageError("no puzzle '" + key + "' (puzzles are 1-12, examples e1_v1 ... e5_bwd; 'tilescope list' shows the ids)");
    out.push_back({p, nullptr});
  }
  return out;
}

}  // namespace cli
