#include "harness.h"

#include "findings.h"

#include <algorithm>
#include <exception>
#include <iterator>
#include <limits>

#include "error.h"
#include "findings.h"

namespace puzzles {

namespace {

RunReport describe_run(const Puzzle& p, const SizeSet& set, uint32_t seed) {
  RunReport r;
  r.puzzle = p.number;
  r.puzzle_id = p.id;
  r.set = set.name;
  r.sizes = set.sizes;
  for (const auto& [name, value] : set.constants.values()) r.sizes.add(name, value);
  r.blocks = set.blocks;
  r.grid = grid_for(set);
  r.seed = seed;
  r.threshold = p.tolerance;
  return r;
}

// The interpreter lists out-of-bounds lanes one by one; a report reads
// better per access: one group per (program, load/store, tensor, line).
std::vector<OobGroup> group_oob(const std::vector<tl::OobAccess>& lanes) {
  std::vector<OobGroup> groups;
  for (const tl::OobAccess& a : lanes) {
    auto same_access = [&](const OobGroup& g) {
      return g.pid == a.pid && g.is_store == a.is_store && g.tensor == a.buffer && g.loc == a.loc;
    };
    auto it = std::find_if(groups.begin(), groups.end(), same_access);
    if (it == groups.end()) {
      OobGroup g;
      g.pid = a.pid;
      g.is_store = a.is_store;
      g.tensor = a.buffer;
      g.tile_shape = a.tile_shape;
      g.extent = a.extent;
      g.loc = a.loc;
      g.source_line = a.loc.known() ? tl::source_line(a.loc.file, a.loc.line) : "";
      groups.push_back(std::move(g));
      it = std::prev(groups.end());
    }
    it->lanes.push_back(OobLane{a.lane, a.lane_index, a.offset});
  }
  return groups;
}

std::string issue_note(const tl::RuntimeIssue& issue) {
  std::string s = "program (" + std::to_string(issue.pid[0]) + ", " + std::to_string(issue.pid[1]) + ", " +
                  std::to_string(issue.pid[2]) + "): " + issue.message;
  if (issue.loc.known()) s += " at " + tl::display_path(issue.loc.file) + ":" + std::to_string(issue.loc.line);
  return s;
}

void record_result(const tl::RunResult& result, RunReport& r) {
  r.oob_loads = result.oob_loads;
  r.oob_stores = result.oob_stores;
  r.oob = group_oob(result.oob);
  for (const tl::RuntimeIssue& issue : result.issues) r.notes.push_back(issue_note(issue));
  r.printed = result.printed;
  r.trace = result.trace;
  r.findings = result.findings;
  r.finding_locations = result.locations;
  r.finding_buffers = result.buffers;
  r.kernel_name = result.kernel_name;
  for (const tl::Finding& f : result.findings)
    r.finding_errors += std::string(tl::finding_severity(f.kind)) == "error";
}

void record_comparison(OutputComparison c, RunReport& r) {
  r.err = c.err;
  r.mismatch_count = c.mismatch_count;
  r.never_written = c.never_written;
  r.non_finite = c.non_finite;
  r.wrong_value = c.wrong_value;
  r.total = c.total;
  r.mismatches = std::move(c.mismatches);
  r.owners = std::move(c.owners);
  r.owner_count = c.owner_count;
}

// An extra output's mismatches join the run's: counted by kind, listed
// while the list has room, owners merged.
void merge_extra(OutputComparison c, size_t max_mismatches, RunReport& r) {
  r.never_written += c.never_written;
  r.non_finite += c.non_finite;
  r.wrong_value += c.wrong_value;
  for (Mismatch& m : c.mismatches)
    if (r.mismatches.size() < max_mismatches) r.mismatches.push_back(std::move(m));
  std::vector<ProgramId> owners = r.owners;
  owners.insert(owners.end(), c.owners.begin(), c.owners.end());
  std::sort(owners.begin(), owners.end());
  owners.erase(std::unique(owners.begin(), owners.end()), owners.end());
  r.owner_count = std::max<int64_t>(r.owner_count + c.owner_count - static_cast<int64_t>(r.owners.size() + c.owners.size() - owners.size()), static_cast<int64_t>(owners.size()));
  if (owners.size() > OutputComparison::kMaxOwners) owners.resize(OutputComparison::kMaxOwners);
  r.owners = std::move(owners);
}

RunReport error_run(RunReport r, const char* kind, const std::string& what) {
  r.status = RunStatus::Error;
  r.error_kind = kind;
  r.error = what;
  r.err = std::numeric_limits<double>::infinity();
  return r;
}

}  // namespace

const SizeSet* find_set(const Puzzle& p, std::string_view name) {
  for (const SizeSet& s : p.sets)
    if (s.name == name) return &s;
  return nullptr;
}

std::vector<double> reference_output(const Puzzle& p, const SizeSet& set, const RunBuffers& b) {
  return p.reference(set, b.inputs);
}

RunReport run_kernel(const Puzzle& p, const tl::KernelDef& kernel, const SizeSet& set, uint32_t seed,
                     const tl::RunOptions& options, size_t max_mismatches) {
  RunReport r = describe_run(p, set, seed);
  try {
    RunBuffers b = make_buffers(p, set, seed);
    const auto inputs_before = snapshot(b.inputs);
    const std::vector<double> ref = reference_output(p, set, b);
    tl::RunResult result;
    try {
      // A puzzle's inputs are meant to be read whole: report what was not.
      tl::RunOptions o = options;
      o.check_unread_inputs = true;
      result = tl::run(kernel, r.grid, launch_args(set, b), o);
    } catch (const tl::BuildError& e) {
      return error_run(std::move(r), "build", e.what());
    } catch (const tl::LaunchError& e) {
      return error_run(std::move(r), "launch", e.what());
    }
    record_result(result, r);
    record_comparison(compare_output(p, set, b.output, ref, max_mismatches), r);
    bool extras_pass = true;
    if (!p.extra_outputs.empty()) {
      const std::vector<std::vector<double>> extra_refs = p.extra_reference(set, b.inputs);
      for (size_t i = 0; i < p.extra_outputs.size(); ++i) {
        const TensorDecl& decl = p.extra_outputs[i];
        OutputCheck o{decl.name, 0, tolerance_of(p, decl), 0, 0};
        OutputComparison c = compare_tensor(p, decl, o.threshold, set, b.extra_outputs[i], extra_refs.at(i), max_mismatches);
        o.err = c.err;
        o.mismatch_count = c.mismatch_count;
        o.total = c.total;
        merge_extra(std::move(c), max_mismatches, r);
        extras_pass &= o.passed();
        r.extra_outputs.push_back(o);
      }
    }
    r.modified_inputs = changed_buffers(b.inputs, inputs_before);
    const bool in_bounds = r.oob_loads == 0 && r.oob_stores == 0;
    r.status = r.err <= r.threshold && extras_pass && in_bounds && r.finding_errors == 0 && r.modified_inputs.empty()
                   ? RunStatus::Pass
                   : RunStatus::Fail;
  } catch (const std::exception& e) {
    // Anything else (an interpreter fault, a bad allocation) still must not
    // take the whole check down: it is one failed run.
    return error_run(std::move(r), "internal", e.what());
  }
  return r;
}

PuzzleReport check_kernel(const Puzzle& p, const tl::KernelDef& kernel, const CheckOptions& opt) {
  PuzzleReport report;
  report.number = p.number;
  report.id = p.id;
  report.title = p.title;
  report.kernel = kernel.name();
  report.threshold = p.tolerance;
  report.pass = true;

  tl::RunOptions untraced = opt.run;
  untraced.trace = tl::TraceMode::Off;

  for (const SizeSet& set : p.sets) {
    const bool named = std::find(opt.sets.begin(), opt.sets.end(), set.name) != opt.sets.end();
    if (!opt.sets.empty() && !named) continue;
    // Benchmark-size sets are for the GPU; the interpreter runs one only by name.
    if (set.large && !named) continue;
    SetReport sr;
    sr.name = set.name;
    sr.stresses = set.stresses;
    sr.pass = true;
    for (uint32_t seed : opt.seeds) {
      const bool traced = opt.trace && opt.trace->set == set.name && opt.trace->seed == seed;
      RunReport run = run_kernel(p, kernel, set, seed, traced ? opt.trace->options : untraced, opt.max_mismatches);
      if (traced) report.trace = run.trace;
      // Cancelled (Ctrl-C): the run so far is reported, nothing more runs.
      report.interrupted = opt.run.cancel && opt.run.cancel->load();
      sr.pass &= run.passed() && !report.interrupted;
      sr.max_err = std::max(sr.max_err, run.err);
      report.failed_runs += run.passed() ? 0 : 1;
      ++report.runs;
      sr.runs.push_back(std::move(run));
      if (report.interrupted) break;
    }
    report.pass &= sr.pass;
    report.max_err = std::max(report.max_err, sr.max_err);
    report.sets.push_back(std::move(sr));
    if (report.interrupted) break;
  }
  // A check that ran nothing proves nothing.
  if (report.runs == 0) report.pass = false;
  return report;
}

PuzzleReport check_puzzle(const Puzzle& p, Variant v, const CheckOptions& opt) {
  return check_kernel(p, v == Variant::Solution ? *p.solution : *p.stub, opt);
}

}  // namespace puzzles
