// tilescope list, tilescope show N
#include <cstdio>

#include "args.h"
#include "command_line.h"
#include "commands.h"
#include "broken/registry.h"
#include "registry.h"
#include "report_json.h"
#include "report_text.h"

namespace cli {

int cmd_list(const Args& args) {
  if (args.flag("help")) {
    std::printf("usage: tilescope list [--json]\n\nLists the 12 puzzles (number, id, title, size sets), the examples and the broken kernels.\n\noptions:\n%s",
                format_options(options_of("list")).c_str());
    return kExitOk;
  }
  if (!args.positional().empty()) throw UsageError("unexpected argument '" + args.positional()[0] + "'");
  const auto& all = puzzles::all_puzzles();
  if (args.flag("json")) {
    std::fputs((puzzles::puzzle_list_to_json(all) + "\n").c_str(), stdout);
    return kExitOk;
  }
  std::fputs(puzzles::format_puzzle_list(all).c_str(), stdout);
  std::printf("\nExamples from real workloads (tilescope check ID, or --examples for all; EXAMPLES.md):\n");
  for (const puzzles::Puzzle& e : puzzles::all_examples()) {
    std::string sets;
    for (const puzzles::SizeSet& s : e.sets) sets += (sets.empty() ? "" : ", ") + s.name;
    std::printf("     %-24s %s (sets %s)\n", e.id.c_str(), e.title.c_str(), sets.c_str());
  }
  std::printf("\nBroken kernels (tilescope check broken/NAME):\n");
  for (const puzzles::BrokenKernel& b : puzzles::all_broken())
    std::printf("  broken/%-28s %s\n", b.name.c_str(), b.title.c_str());
  return kExitOk;
}

int cmd_show(const Args& args) {
  if (args.flag("help")) {
    std::printf("usage: tilescope show N\n\nPrints puzzle N's statement and its size sets.\n\noptions:\n%s",
                format_options(options_of("show")).c_str());
    return kExitOk;
  }
  if (args.positional().size() != 1) throw UsageError("show takes one puzzle (a number 1-12 or an id) or example");
  const puzzles::Puzzle* p = puzzles::find_puzzle(args.positional()[0]);
  if (!p) throw UsageError("no puzzle '" + args.positional()[0] + "' (try 'tilescope list')");
  if (p->example)
    std::printf("Example %s: %s\n\n%s\n\nSize sets:\n", p->id.c_str(), p->title.c_str(), p->statement.c_str());
  else
    std::printf("Puzzle %d: %s (%s)\n\n%s\n\nSize sets:\n", p->number, p->title.c_str(), p->id.c_str(),
                p->statement.c_str());
  for (const puzzles::SizeSet& s : p->sets) {
    std::string sizes = s.sizes.str();
    if (!s.constants.values().empty()) sizes += " | " + s.constants.str();
    sizes += " | " + s.blocks.str();
    std::printf("  %-10s %-48s grid %-14s %s\n", s.name.c_str(), sizes.c_str(),
                puzzles::format_grid(puzzles::grid_for(s)).c_str(), s.stresses.c_str());
  }
  if (p->example) std::printf("\nSets marked 'GPU' are benchmark sizes: check runs them only with --set or --gpu.\n");
  return kExitOk;
}

}  // namespace cli
