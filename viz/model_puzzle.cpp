#include "model_puzzle.h"

#include <algorithm>
#include <cmath>

namespace viz {

namespace {

// Every mismatch of the viewed run, so the diff grid can mark each one;
// capped so a huge output does not build millions of labels.
constexpr int64_t kMaxListedMismatches = int64_t{1} << 20;

PuzzleSetSummary summarize(const puzzles::SetReport& s) {
  PuzzleSetSummary out;
  out.name = s.name;
  out.stresses = s.stresses;
  out.pass = s.pass;
  out.max_err = s.max_err;
  out.runs = static_cast<int>(s.runs.size());
  for (const puzzles::RunReport& r : s.runs) out.failed_runs += r.passed() ? 0 : 1;
  if (!s.runs.empty()) out.sizes = s.runs.front().sizes.str() + " | " + s.runs.front().blocks.str();
  return out;
}

OutputDiff diff_output(const puzzles::Puzzle& p, const puzzles::SizeSet& set, uint32_t seed,
                       const puzzles::RunReport& run) {
  OutputDiff d;
  d.shape = p.output.shape(set);
  if (!run.trace) {
    d.unavailable_reason = "the kernel did not run";
    return d;
  }
  auto it = std::find_if(run.trace->buffers.begin(), run.trace->buffers.end(),
                         [&](const tl::TraceBuffer& b) { return b.name == p.output.name; });
  if (it == run.trace->buffers.end() || it->values_after.empty()) {
    d.unavailable_reason = "the trace keeps no values of " + p.output.name + " (too large, or not recorded)";
    return d;
  }
  // The harness's inputs are a pure function of (set, seed): rebuilding
  // them gives the reference of exactly the run that was traced.
  puzzles::RunBuffers inputs = puzzles::make_buffers(p, set, seed);
  d.expected = puzzles::reference_output(p, set, inputs);
  d.found = it->values_after;
  if (d.found.size() != d.expected.size()) {
    d.unavailable_reason = "the output in the trace does not have the reference's size";
    return d;
  }
  d.available = true;
  d.mismatch.assign(d.found.size(), 0);
  for (const puzzles::Mismatch& m : run.mismatches)
    if (m.flat >= 0 && m.flat < static_cast<int64_t>(d.mismatch.size()))
      d.mismatch[m.flat] = static_cast<uint8_t>(1 + static_cast<int>(m.kind));
  d.mismatch_count = run.mismatch_count;
  for (size_t i = 0; i < d.found.size(); ++i)
    if (std::isfinite(d.found[i])) d.max_abs_diff = std::max(d.max_abs_diff, std::fabs(d.found[i] - d.expected[i]));
  return d;
}

}  // namespace

PuzzleContext check_for_view(const puzzles::Puzzle& p, const tl::KernelDef& kernel, const std::string& variant,
                             const puzzles::SizeSet& set, uint32_t seed) {
  PuzzleContext c;
  c.number = p.number;
  c.id = p.id;
  c.title = p.title;
  c.statement = p.statement;
  c.kernel = kernel.name();
  c.kernel_def = &kernel;
  c.stub = &kernel == p.stub;
  c.variant = variant;
  c.output = p.output.name;

  const puzzles::PuzzleReport report = puzzles::check_kernel(p, kernel);
  c.threshold = report.threshold;
  c.pass = report.pass;
  c.max_err = report.max_err;
  for (const puzzles::SetReport& s : report.sets) c.sets.push_back(summarize(s));

  const int64_t outputs = puzzles::numel(p.output.shape(set));
  c.viewed = puzzles::run_kernel(p, kernel, set, seed, puzzles::TraceRequest::full_trace(),
                                 static_cast<size_t>(std::min(outputs, kMaxListedMismatches)));
  c.diff = diff_output(p, set, seed, c.viewed);
  return c;
}

Rgba diff_color(const OutputDiff& d, int64_t flat) {
  if (flat < 0 || flat >= static_cast<int64_t>(d.mismatch.size())) return palette::untouched;
  switch (d.mismatch[flat]) {
    case 0: return palette::match;
    case 1 + static_cast<int>(puzzles::MismatchKind::NeverWritten): return palette::never_written;
    case 1 + static_cast<int>(puzzles::MismatchKind::NonFinite): return palette::not_a_number;
    default: return palette::mismatch;
  }
}

}  // namespace viz
