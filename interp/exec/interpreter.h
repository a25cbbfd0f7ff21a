// Running a kernel on the CPU: every program of a 1-3-D grid over host
// buffers, bounds-checked, optionally traced.
#pragma once
#include <array>
#include <atomic>
#include <concepts>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "buffer.h"
#include "kernel.h"
#include "trace.h"

namespace tl {

struct Grid {
  int64_t x = 1, y = 1, z = 1;
  int64_t count() const { return x * y * z; }
};

// One launch argument, positionally matched to the kernel's parameters.
class Arg {
 public:
  enum class Kind { Buffer, Int, Float };
  Arg(Buffer& b) : kind_(Kind::Buffer), buf_(&b) {}
  template <std::integral I>
  Arg(I v) : kind_(Kind::Int), int_(static_cast<int64_t>(v)) {}
  template <std::floating_point F>
  Arg(F v) : kind_(Kind::Float), float_(static_cast<double>(v)) {}
  Kind kind() const { return kind_; }
  Buffer* buffer() const { return buf_; }
  int64_t int_value() const { return int_; }
  double float_value() const { return float_; }

 private:
  Kind kind_;
  Buffer* buf_ = nullptr;
  int64_t int_ = 0;
  double float_ = 0;
};

enum class TraceMode { Off, Full, Filtered };

// The steps (executed IR operations, loop iterations included) one program
// may take before the launch is stopped as a runaway. The most any program
// of the 12 puzzles, the examples (benchmark sizes included) and the bench
// cases takes is about 2.3e5 (e4_fused at bench_k100864, counted by
// tilescope_interp_bench --steps): the default is far above that, yet low
// enough that a runaway loop of small tiles stops within seconds.
inline constexpr int64_t kDefaultMaxSteps = int64_t{1} << 27;  // 1.3e8

// Programs a GPU is sure to hold at once: one per SM of an H200 (132),
// which any kernel that launches at all gets.
inline constexpr int64_t kDefaultResidentPrograms = 132;

// How far a running launch has got (RunOptions::progress).
struct Progress {
  int64_t programs_done = 0, programs_total = 0;
  int64_t steps = 0;        // executed by all programs so far
  double elapsed_s = 0;
  bool finished = false;    // the last call, after the launch ended
};

struct RunOptions {
  TraceMode trace = TraceMode::Off;
  std::vector<std::array<int64_t, 3>> trace_programs;  // for Filtered
  int64_t trace_budget_bytes = int64_t{256} << 20;
  bool record_store_values = true;
  int threads = 0;  // 0: all cores
  // Fused execution (exec_fuse.cpp): work a later step can do on the fly is
  // not materialized, and loop-invariant steps run once before their loop
  // (exec_hoist.cpp). Results, findings and traces are the same either way;
  // false (or the environment variable TILESCOPE_FUSE=0) keeps every op on
  // the per-op path.
  bool fuse = true;
  // Stop at the first finding (in program order) instead of running on.
  bool strict = false;
  // Track undefined lanes (masked loads without `other`) and poison (from
  // out-of-bounds loads) through arithmetic to the reductions, dots and
  // stores they reach.
  bool track_values = true;
  // Report elements of inputs (pointer parameters the kernel never stores
  // to) that no program read (FindingKind::InputNeverRead). Off by default:
  // a buffer a kernel only reads is not always meant to be read whole (a
  // slice, a lookup table); the puzzle harness, whose inputs are, and API
  // launches that declare parameter roles turn it on. Costs a byte per
  // input element.
  bool check_unread_inputs = false;
  // Names for the kernel's parameters in reports (else the KernelDef's,
  // else buffers' own names, else argN).
  std::vector<std::string> param_names;
  // A runaway kernel: past this many steps in one program the launch stops
  // with a StepBudgetExceeded finding naming the loop that was running.
  // 0: no budget.
  int64_t max_steps = kDefaultMaxSteps;
  // Programs a GPU holds at once, for the co-residency check of programs
  // that wait on each other (docs/memory-model.md): when that many
  // started programs all wait while more remain to start, the launch
  // would hang on such a GPU (a CoResidency finding). 0: no limit.
  int64_t resident_programs = kDefaultResidentPrograms;
  // Set (by a SIGINT handler, say) to stop the launch: every worker stops
  // at its next step and run() returns what ran so far, with
  // RunResult::interrupted set. Polled, never written.
  const std::atomic<bool>* cancel = nullptr;
  // Called from a monitor thread about once a second once the launch has
  // run for a second, and once more (finished) at its end if it was called
  // before. Launches shorter than a second never call it.
  std::function<void(const Progress&)> progress;
};

// One out-of-bounds lane (the first few are kept; all are counted).
struct OobAccess {
  std::array<int64_t, 3> pid{0, 0, 0};
  bool is_store = false;  // store or atomic
  std::string buffer;
  int64_t lane = 0;                 // row-major lane index in the tile
  std::vector<int64_t> lane_index;  // the lane's tile coordinates
  ir::Shape tile_shape;
  int64_t offset = 0;               // element offset computed
  int64_t extent = 0;               // valid offsets are [0, extent)
  SrcLoc loc;
};

struct RuntimeIssue {  // a runtime rule broken (division by zero, wide shift, assert, bad loop step)
  std::array<int64_t, 3> pid{0, 0, 0};
  std::string message;
  SrcLoc loc;
};

struct RunResult {
  std::shared_ptr<const ir::Kernel> kernel;
  // The sanitizer's findings, grouped by (op, kind), in program order of
  // first appearance. Their loc/buffer fields index these two tables.
  std::vector<Finding> findings;
  std::vector<SrcLoc> locations;
  std::vector<TraceBuffer> buffers;  // names, dtypes, shapes (no values)
  std::string kernel_name;
  bool stopped = false;  // strict mode stopped at the first finding
  std::shared_ptr<Trace> trace;  // null when tracing is off
  int64_t oob_loads = 0, oob_stores = 0;
  std::vector<OobAccess> oob;  // the first kMaxOob, in program order
  std::vector<RuntimeIssue> issues;
  std::string printed;  // tl::print output, in program order
  bool sequential = false;  // re-run in program order (conflicts or atomics)
  // RunOptions::cancel stopped the launch: programs_run of the grid ran
  // (the last ones possibly part-way); findings and trace cover those.
  bool interrupted = false;
  bool budget_exceeded = false;  // a program reached RunOptions::max_steps
  bool deadlocked = false;  // every unfinished program waited on the others: the launch was stopped
  int64_t programs_run = 0;
  int64_t max_program_steps = 0;  // the most steps any one program took
  int64_t fused_steps = 0;  // plan steps whose work fusion moved into others (RunOptions::fuse)
  int64_t hoisted_steps = 0;  // plan steps run once before their loop, not per iteration (RunOptions::fuse)
  static constexpr size_t kMaxOob = 64;
};

// The kernel's IR for these arguments (built once per specialization: the
// pointers' dtypes and the constants' values), without running it.
// Throws BuildError or LaunchError as run() does.
std::shared_ptr<const ir::Kernel> build_ir(const KernelDef& k, const std::vector<Arg>& args);

// Builds (or reuses) the kernel's IR for these arguments and runs every
// program. Throws BuildError for kernel build errors and LaunchError for a
// launch that does not fit the kernel (argument kinds, dtypes, grid).
RunResult run(const KernelDef& k, Grid grid, const std::vector<Arg>& args, const RunOptions& opt = {});

// The interpreter's execution plan for `k` as text: one line per step, with
// what the fusion and hoisting passes did to it (fuse false: both off).
std::string print_plan(const ir::Kernel& k, bool fuse = true);

}  // namespace tl
