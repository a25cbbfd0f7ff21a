// tilescope::launch: the API's checks, the interpreter's run, and every
// mistake turned into a compiler-style diagnostic instead of an exception.
#include <exception>

#include "builder.h"
#include "error.h"
#include "findings.h"
#include "gpu_launch.h"
#include "param_contract.h"
#include "reference_check.h"
#include "progress.h"
#include "tilescope/tilescope.h"

namespace tilescope {

namespace {

// The launch line: the C++ call site, or the one a front end in another
// language names (tl::detail::LocOverride), e.g. a Python `kernel[grid](...)`.
tl::SrcLoc loc_of(const std::source_location& l) { return tl::detail::loc_of(l); }

// The interpreter prefixes some launch errors with a location of its own
// ("file:line:col: error: "); the API names the launch line instead.
std::string without_location(const std::string& message) {
  const std::string tag = ": error: ";
  const size_t at = message.find(tag);
  return at == std::string::npos ? message : message.substr(at + tag.size());
}

std::string at_launch(const Kernel& k, const std::source_location& where, const std::string& message) {
  // The declaration's line only (GCC places it at the declaration's last
  // line, which would make a quoted source line misleading).
  return tl::format_diagnostic(loc_of(where), "error", message) + "\n" + k.def().loc().str() + ": note: kernel '" +
         k.name() + "' is declared here";
}

std::string options_problem(const Kernel& k, const Grid& grid, const Options& o) {
  const std::string who = "launch of kernel '" + k.name() + "': ";
  if (o.max_steps < 0)
    return who + "options.max_steps is " + std::to_string(o.max_steps) + "; use 0 for no budget or a positive count";
  if (o.threads < 0)
    return who + "options.threads is " + std::to_string(o.threads) + "; use 0 for all cores or a positive count";
  if (o.gpu_time && o.gpu_timing_runs < 1)
    return who + "options.gpu_timing_runs is " + std::to_string(o.gpu_timing_runs) + "; time at least 1 run";
  if (o.trace != Tracing::Filtered) return "";
  if (o.trace_programs.empty())
    return who + "Tracing::Filtered records the programs in options.trace_programs, which is empty";
  for (const Program& p : o.trace_programs)
    if (p[0] < 0 || p[1] < 0 || p[2] < 0 || (grid.x > 0 && grid.y > 0 && grid.z > 0 &&
                                             (p[0] >= grid.x || p[1] >= grid.y || p[2] >= grid.z)))
      return who + "options.trace_programs names program (" + std::to_string(p[0]) + ", " + std::to_string(p[1]) +
             ", " + std::to_string(p[2]) + "), which is outside the grid (" + std::to_string(grid.x) + ", " +
             std::to_string(grid.y) + ", " + std::to_string(grid.z) + ")";
  return "";
}

tl::RunOptions run_options(const Options& o) {
  tl::RunOptions r;
  r.trace = o.trace == Tracing::Off ? tl::TraceMode::Off
            : o.trace == Tracing::Full ? tl::TraceMode::Full
                                       : tl::TraceMode::Filtered;
  r.trace_programs = o.trace_programs;
  r.strict = o.strict;
  r.threads = o.threads;
  r.max_steps = o.max_steps;
  r.cancel = o.cancel;
  return r;
}

void run(const Kernel& kernel, Grid grid, const std::vector<Arg>& args, const Options& options,
         const std::source_location& where, Result& r) {
  if (const std::string p = detail::declaration_problem(kernel); !p.empty()) {
    r.error = tl::format_diagnostic(kernel.def().loc(), "error", p);
    return;
  }
  if (const std::string p = options_problem(kernel, grid, options); !p.empty()) {
    r.error = at_launch(kernel, where, p);
    return;
  }
  if (args.size() == kernel.def().params().size())
    if (const std::string p = detail::argument_problem(kernel, args); !p.empty()) {
      r.error = at_launch(kernel, where, p);
      return;
    }
  const bool on_gpu = options.gpu_compare || options.gpu_time;
  detail::Snapshot before;
  if (on_gpu) before = detail::snapshot_buffers(args);
  tl::RunOptions ro = run_options(options);
  detail::RoleMarks roles = detail::apply_roles(kernel, args, ro);
  // A reference check names the store behind each mismatch: it needs the
  // trace, kept internal when the caller did not ask for one.
  std::vector<Buffer> expected;
  if (options.reference) {
    expected = detail::copy_buffers(args);
    if (ro.trace == tl::TraceMode::Off) ro.trace = tl::TraceMode::Full;
  }
  try {
    if (options.progress == Options::Progress::Always ||
        (options.progress == Options::Progress::Auto && tl::stderr_is_terminal()))
      ro.progress = tl::stderr_progress(kernel.name());
    r.run = tl::run(kernel.def(), grid, args, ro);
  } catch (const tl::BuildError& e) {
    // Already "file:line:col: error: ..." at the kernel's own line.
    r.error = std::string(e.what()) + "\n" +
              tl::format_diagnostic(loc_of(where), "note", "while building kernel '" + kernel.name() + "' for this launch");
    return;
  } catch (const tl::LaunchError& e) {
    r.error = at_launch(kernel, where, without_location(e.what()));
    return;
  }
  detail::role_findings(kernel, args, roles, r.run);
  r.findings = r.run.findings;
  r.findings_text = tl::format_findings(r.findings, tl::context_of(r.run));
  r.stopped = r.run.stopped;
  if (options.reference)
    r.reference = detail::reference_diff(options, std::move(expected), args, r.run, r.run.trace.get());
  r.interrupted = r.run.interrupted;
  r.trace = options.trace == Tracing::Off ? nullptr : r.run.trace;
  if (!r.trace) r.run.trace = nullptr;
  r.printed = r.run.printed;
  // A launch cut short (runaway loop, cancel) would hang or differ on the
  // GPU too: there is nothing to compare.
  if (on_gpu && grid.count() == 0) {
    r.gpu = GpuReport{};
    r.gpu->error = "not run: the grid has no programs";
  } else if (on_gpu && (r.run.interrupted || r.run.budget_exceeded)) {
    r.gpu = GpuReport{};
    r.gpu->error = "not run: the interpreter's launch was cut short";
  } else if (on_gpu) {
    r.gpu = detail::run_and_compare_on_gpu(kernel, grid, args, before, options);
  }
}

}  // namespace

Result launch(const Kernel& kernel, Grid grid, const std::vector<Arg>& args, const Options& options,
              std::source_location where) {
  Result r;
  try {
    run(kernel, grid, args, options, where, r);
  } catch (const std::exception& e) {
    // Anything else the kernel or the interpreter threw (an exception from
    // the kernel function itself, an unsupported construct): still a
    // diagnostic, never an escaped exception.
    r.error = at_launch(kernel, where, "launch of kernel '" + kernel.name() + "' failed: " + e.what());
  } catch (...) {
    r.error = at_launch(kernel, where, "launch of kernel '" + kernel.name() + "' failed: unknown exception");
  }
  return r;
}

bool Result::ok() const {
  for (const BufferDiff& d : reference)
    if (!d.pass()) return false;
  return error.empty() && findings.empty() && !interrupted && (!gpu || !gpu->ran || gpu->buffers.empty() || gpu->matches);
}

std::string Result::report() const {
  if (!error.empty()) return error + "\n";
  std::string out = findings.empty() ? "kernel '" + run.kernel_name + "': no findings\n" : findings_text;
  if (!out.empty() && out.back() != '\n') out += "\n";
  if (stopped) out += "note: strict mode stopped the launch at the first finding\n";
  out += detail::format_reference(reference);
  if (interrupted)
    out += "note: the launch was interrupted after " + std::to_string(run.programs_run) +
           " programs; the findings cover those\n";
  if (gpu) {
    if (!gpu->ran) {
      out += "GPU: did not run: " + gpu->error + "\n";
    } else {
      out += "GPU: " + gpu->device + "\n";
      for (const BufferComparison& b : gpu->buffers)
        out += "  " + b.name + ": " + (b.pass ? "matches" : "DIFFERS") + ", " + b.summary + "\n";
      if (!gpu->times_ms.empty())
        out += "  time: median " + std::to_string(gpu->median_ms) + " ms over " + std::to_string(gpu->times_ms.size()) +
               " runs\n";
    }
  }
  return out;
}

}  // namespace tilescope
