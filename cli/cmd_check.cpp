// tilescope check: run the puzzles' kernels in the interpreter over every
// size set and seed, and judge them by PUZZLES.md §4.
#include <cstdio>

#include "args.h"
#include "command_line.h"
#include "check_gpu.h"
#include "commands.h"
#include "harness.h"
#include "interrupt.h"
#include "progress.h"
#include "puzzle_args.h"
#include "report_json.h"
#include "report_text.h"
#include "trace.h"

namespace cli {

namespace {

void print_help() {
  std::printf(
      "usage: tilescope check N... | EXAMPLE... | broken/NAME... | --all | --examples  [options]\n\n"
      "Runs each puzzle's kernel in the CPU interpreter at its canonical and extra sizes with\n"
      "seeded random inputs, every access bounds-checked, and compares with the reference.\n"
      "Prints one line per size set; for a failure, the first mismatching elements with their\n"
      "coordinates and owner program, and out-of-bounds accesses with program id, lane and\n"
      "kernel line. broken/NAME runs one of the deliberately wrong kernels of puzzles/broken/\n"
      "('tilescope list' names them) and shows what the sanitizer finds. Examples (e1_v1, e2, ...)\n"
      "run at their small sizes; their benchmark sizes (sets 'bench...') run only when named with\n"
      "--set, and are what --gpu adds (with the first seed only).\n"
      "A program that runs past --max-steps steps stops the launch with a finding naming its loop.\n"
      "Ctrl-C stops the running launch at its next step, prints what it found so far and writes the\n"
      "partial trace (with --trace); a second Ctrl-C kills at once.\n"
      "Exit status: 0 if every run passes, 1 if one fails, 3 if --strict stopped at a finding,\n"
      "130 if Ctrl-C stopped it.\n\noptions:\n%s",
      format_options(options_of("check")).c_str());
}

// One line per size set, then the details of the first failing run.
void print_text(const puzzles::PuzzleReport& r, bool verbose, bool stub) {
  puzzles::TextOptions o;
  o.every_failed_run = verbose;
  o.list_runs = verbose;
  if (verbose) {
    std::fputs(puzzles::format_report(r, o).c_str(), stdout);
    std::fputs("\n", stdout);
    return;
  }
  std::printf("%2s %-24s %s  max err %s (threshold %s)%s\n", r.number > 0 ? std::to_string(r.number).c_str() : "", r.id.c_str(), r.pass ? "PASS" : "FAIL",
              puzzles::format_number(r.max_err).c_str(), puzzles::format_number(r.threshold).c_str(),
              stub && !r.pass ? "  (learner stub)" : "");
  const puzzles::RunReport* first_failure = nullptr;
  for (const puzzles::SetReport& s : r.sets) {
    const puzzles::RunReport& run = s.runs.front();
    std::string sizes = run.sizes.str() + " | " + run.blocks.str();
    std::printf("     %-10s %-52s %s  max err %s\n", s.name.c_str(), sizes.c_str(), s.pass ? "pass" : "FAIL",
                puzzles::format_number(s.max_err).c_str());
    for (const puzzles::RunReport& x : s.runs)
      if (!x.passed() && !first_failure) first_failure = &x;
  }
  if (first_failure) {
    std::string details = puzzles::format_run(*first_failure, o);
    // Indent under the puzzle's lines.
    std::string out = "     ";
    for (char c : details) {
      out += c;
      if (c == '\n') out += "     ";
    }
    std::printf("%s\n", out.substr(0, out.size() - 5).c_str());
  }
  std::fflush(stdout);
}

bool has_findings(const puzzles::PuzzleReport& r) {
  for (const puzzles::SetReport& s : r.sets)
    for (const puzzles::RunReport& run : s.runs)
      if (run.finding_errors > 0) return true;
  return false;
}

}  // namespace

int cmd_check(const Args& args) {
  if (args.flag("help")) {
    print_help();
    return kExitOk;
  }
  std::vector<CheckTarget> targets = select_targets(args);
  std::vector<const puzzles::Puzzle*> selected;
  for (const CheckTarget& t : targets) selected.push_back(t.puzzle);
  puzzles::CheckOptions opt;
  if (auto seeds = args.value("seeds")) {
    opt.seeds.clear();
    for (long long s : parse_int_list(*seeds, "--seeds")) {
      if (s < 0 || s > 0xffffffffLL) throw UsageError("--seeds: seed " + std::to_string(s) + " is not in [0, 2^32)");
      opt.seeds.push_back(static_cast<uint32_t>(s));
    }
  }
  if (auto set = args.value("set")) {
    for (const puzzles::Puzzle* p : selected)
      if (!puzzles::find_set(*p, *set))
        throw UsageError(p->label() + " has no size set '" + *set + "'");
    opt.sets = {*set};
  }
  long long threads = args.int_value("threads", 0);
  if (threads < 0 || threads > 1024) throw UsageError("--threads must be between 0 and 1024");
  opt.run.threads = static_cast<int>(threads);
  const long long max_steps = args.int_value("max-steps", tl::kDefaultMaxSteps);
  if (max_steps < 0) throw UsageError("--max-steps must be 0 (no budget) or positive");
  opt.run.max_steps = max_steps;
  opt.run.cancel = catch_sigint();
  if (args.flag("progress") && args.flag("no-progress")) throw UsageError("--progress and --no-progress contradict");
  const bool progress = args.flag("progress") || (!args.flag("no-progress") && tl::stderr_is_terminal());
  auto trace_file = args.value("trace");
  if (trace_file) {
    if (selected.size() != 1) throw UsageError("--trace writes one run's trace: name exactly one puzzle");
    puzzles::TraceRequest req;
    req.set = args.value("trace-set").value_or("canonical");
    req.seed = static_cast<uint32_t>(args.int_value("trace-seed", opt.seeds.front()));
    if (!puzzles::find_set(*selected[0], req.set)) throw UsageError("--trace-set: no size set '" + req.set + "'");
    req.options.threads = opt.run.threads;
    req.options.max_steps = opt.run.max_steps;
    req.options.cancel = opt.run.cancel;
    opt.trace = req;
    if (opt.sets.size() == 1 && opt.sets[0] != req.set) opt.sets.push_back(req.set);
  }
  const bool stub = args.flag("stub"), json = args.flag("json"), verbose = args.flag("verbose");
  opt.run.strict = args.flag("strict");
  if (args.flag("gpu")) return check_gpu(targets, opt, args);

  bool all_pass = true;
  int passed = 0;
  std::string json_out = "[";
  for (const CheckTarget& target : targets) {
    const puzzles::Puzzle* p = target.puzzle;
    puzzles::CheckOptions topt = opt;
    if (target.broken) {
      // A broken kernel shows its mistake on its own size set, one seed,
      // unless the user asked for others.
      if (!args.value("set")) topt.sets = {target.broken->set};
      if (!args.value("seeds")) topt.seeds = {0};
      if (!json)
        std::printf("broken/%s: %s\n  borrows %s; %s\n\n", target.broken->name.c_str(), target.broken->title.c_str(),
                    (p->example ? p->label() : p->label() + " (" + p->id + ")").c_str(),
                    target.broken->explanation.c_str());
    }
    const tl::KernelDef& kernel = target.broken ? *target.broken->kernel : stub ? *p->stub : *p->solution;
    if (progress) {
      topt.run.progress = tl::stderr_progress(kernel.name());
      if (topt.trace) topt.trace->options.progress = topt.run.progress;
    }
    puzzles::PuzzleReport r = puzzles::check_kernel(*p, kernel, topt);
    all_pass &= r.pass;
    passed += r.pass;
    if (json) json_out += (json_out.size() > 1 ? ",\n" : "\n") + puzzles::report_to_json(r);
    else print_text(r, verbose, stub);
    if (trace_file && (r.trace || !r.interrupted)) {  // interrupted before the traced run: no trace
      if (!r.trace) throw std::runtime_error("the traced run did not produce a trace");
      tl::save_trace(*r.trace, *trace_file);
      if (!json) std::printf("trace of set %s, seed %u written to %s%s\n", opt.trace->set.c_str(), opt.trace->seed,
                             trace_file->c_str(), r.interrupted ? " (partial: interrupted)" : "");
    }
    if (r.interrupted) {
      if (json) std::printf("%s\n]\n", json_out.c_str());
      std::fflush(stdout);
      std::fprintf(stderr, "tilescope check: interrupted (Ctrl-C); the findings above cover the programs that ran\n");
      return kExitInterrupted;
    }
    if (opt.run.strict && has_findings(r)) {
      if (json) std::printf("%s\n]\n", json_out.c_str());
      else std::printf("stopped at the first finding (--strict)\n");
      return kExitFinding;
    }
  }
  if (json) {
    std::printf("%s\n]\n", json_out.c_str());
  } else {
    std::printf("%d of %zu %s pass%s\n", passed, targets.size(), targets.size() == 1 ? "kernel" : "kernels",
                stub ? " (learner stubs: 'Finish me!' in puzzles/)" : "");
  }
  return all_pass ? kExitOk : kExitFailed;
}

}  // namespace cli
