// tilescope compile N --ir: the IR a puzzle's kernel builds for one size set.
#include <algorithm>
#include <cstdio>

#include "args.h"
#include "command_line.h"
#ifdef TILESCOPE_HAVE_GPU
#include "bench_cases.h"
#endif
#include "commands.h"
#include "compile_cuda.h"
#include "error.h"
#include "harness.h"
#include "inputs.h"
#include "puzzle_args.h"

namespace cli {

int cmd_compile(const Args& args) {
  if (args.flag("help")) {
    std::printf(
        "usage: tilescope compile N|broken/NAME [--ir | --plan | --cuda] [--stub] [--set NAME]\n\n"
        "Builds puzzle N's kernel (or a broken kernel's) for one size set (its block sizes are compile-time\n"
        "constants) and prints the typed tile IR, each instruction with its kernel line.\n\n"
        "options:\n%s",
        format_options(options_of("compile")).c_str());
    return kExitOk;
  }
  std::vector<CheckTarget> targets = select_targets(args);
  if (targets.size() != 1) throw UsageError("compile takes one puzzle or broken kernel");
  const CheckTarget& t = targets[0];
  const puzzles::Puzzle& p = *t.puzzle;
  std::string set_name = args.value("set").value_or(t.broken ? t.broken->set : "canonical");
  const puzzles::SizeSet* set = puzzles::find_set(p, set_name);
  // A benchmark case's sizes: the code `bench --gpu` times, to read or to
  // feed to ptxas for its register count.
#ifdef TILESCOPE_HAVE_GPU
  std::vector<tl::gpu::BenchCase> cases;
  puzzles::SizeSet variant;
  if (auto c = args.value("bench")) {
    if (args.value("set")) throw UsageError("--bench and --set both choose the sizes; give one");
    cases = tl::gpu::anchor_cases();
    std::string names;
    set = nullptr;
    for (const tl::gpu::BenchCase& b : cases) {
      names += (names.empty() ? "" : ", ") + b.name;
      if (b.name == *c && b.puzzle == &p) set = &b.set;
    }
    if (!set) throw UsageError("no benchmark case '" + *c + "' for this kernel; the cases are " + names);
    if (args.value("variant")) {
      const tl::gpu::BenchCase& b = *std::find_if(cases.begin(), cases.end(), [&](const auto& x) { return &x.set == set; });
      const int v = static_cast<int>(args.int_value("variant", 0));
      if (v < 1 || static_cast<size_t>(v) > b.block_variants.size())
        throw UsageError("--variant " + std::to_string(v) + ": case '" + *c + "' has block variants 1 to " +
                         std::to_string(b.block_variants.size()));
      variant = b.set;
      variant.blocks = b.block_variants[static_cast<size_t>(v - 1)];
      set = &variant;
    }
  } else if (args.value("variant")) {
    throw UsageError("--variant needs --bench CASE");
  }
#else
  if (args.value("bench")) throw UsageError("--bench needs the GPU back end, which this build leaves out");
#endif
  if (!set) throw UsageError("puzzle " + std::to_string(p.number) + " has no size set '" + set_name + "'");
  const tl::KernelDef& k = t.broken ? *t.broken->kernel : args.flag("stub") ? *p.stub : *p.solution;
  puzzles::RunBuffers bufs = puzzles::make_buffers(p, *set, 0);
  try {
    auto ir = tl::build_ir(k, puzzles::launch_args(*set, bufs));
    if (args.flag("cuda")) return print_cuda(*ir, args);
    if (args.flag("plan")) {
      std::fputs(tl::print_plan(*ir, !args.flag("no-fuse")).c_str(), stdout);
      return kExitOk;
    }
    std::fputs(tl::ir::print(*ir, !args.flag("no-lines")).c_str(), stdout);
  } catch (const tl::BuildError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return kExitFailed;
  }
  return kExitOk;
}

}  // namespace cli
