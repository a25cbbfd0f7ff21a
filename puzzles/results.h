// What checking a kernel against a puzzle found: per run, per size set and
// per puzzle (PUZZLES.md §4.5). Plain data, so a CLI can print it as text
// (report_text.h) or JSON (report_json.h) and a viewer can walk it.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "interpreter.h"
#include "puzzle.h"
#include "source_loc.h"
#include "trace.h"

namespace puzzles {

using ProgramId = std::array<int64_t, 3>;

enum class MismatchKind {
  NeverWritten,  // still the harness's NaN fill (payload 0x7FC0DEAD)
  NonFinite,     // the kernel wrote a NaN or an infinity
  WrongValue,    // finite, but |found - expected| > threshold * max|ref|
};
const char* mismatch_kind_name(MismatchKind k);  // "never written", ...

// One output element that does not match the reference.
struct Mismatch {
  int64_t flat = 0;            // row-major element offset
  std::vector<int64_t> index;  // multi-index in the output's shape
  std::string label;           // "z[2, 5]"
  double found = 0, expected = 0, abs_diff = 0;
  ProgramId owner{0, 0, 0};  // the program expected to write it
  MismatchKind kind = MismatchKind::WrongValue;
};

// One out-of-bounds lane as the interpreter recorded it.
struct OobLane {
  int64_t lane = 0;                 // row-major lane index in the tile
  std::vector<int64_t> tile_index;  // the lane's tile coordinates
  int64_t offset = 0;               // element offset it computed
};

// The out-of-bounds lanes of one load or store (one kernel line) of one
// program.
struct OobGroup {
  ProgramId pid{0, 0, 0};
  bool is_store = false;
  std::string tensor;                // buffer / parameter name
  std::vector<int64_t> tile_shape;
  int64_t extent = 0;                // valid offsets are [0, extent)
  tl::SrcLoc loc;                    // the kernel line of the access
  std::string source_line;           // that line's text, "" when unreadable
  std::vector<OobLane> lanes;        // the first lanes kept by the interpreter
};

// An example's other output (E2 writes P, then S and Mn): its own error and
// threshold. Its mismatches join the run's list, labelled by its name.
struct OutputCheck {
  std::string name;
  double err = 0, threshold = 0;
  int64_t mismatch_count = 0, total = 0;
  bool passed() const { return err <= threshold; }
};

enum class RunStatus {
  Pass,
  Fail,   // wrong output, out-of-bounds access or an input modified
  Error,  // the kernel did not build or launch; `error` says why
};
const char* run_status_name(RunStatus s);  // "pass", "fail", "error"

// One launch: one puzzle, one size set, one seed.
struct RunReport {
  int puzzle = 0;
  std::string puzzle_id;
  std::string set;
  Params sizes;   // runtime sizes and compile-time non-block sizes (KH, KW)
  Params blocks;  // block sizes
  tl::Grid grid;
  uint32_t seed = 0;

  RunStatus status = RunStatus::Error;
  std::string error_kind;  // "build", "launch" or "internal" when status is Error
  std::string error;       // the exception text, formatted like a compiler diagnostic

  double err = 0;        // normwise relative error; +inf when any output is not finite
  double threshold = 0;
  int64_t mismatch_count = 0, total = 0;
  int64_t never_written = 0, non_finite = 0, wrong_value = 0;  // mismatch_count split by kind
  std::vector<Mismatch> mismatches;  // the first ones in row-major order
  std::vector<ProgramId> owners;     // owners of all mismatching elements, sorted (capped)
  int64_t owner_count = 0;           // number of distinct owners, even past the cap
  std::vector<OutputCheck> extra_outputs;  // an example's other outputs, judged each on its own

  int64_t oob_loads = 0, oob_stores = 0;  // all out-of-bounds lanes, counted
  std::vector<OobGroup> oob;              // the first ones, grouped by access
  std::vector<std::string> modified_inputs;  // inputs the launch changed
  std::vector<std::string> notes;            // runtime issues (division by zero, ...): informative
  std::string printed;                       // tl::print output
  // The sanitizer's findings, and the tables their indices refer to.
  std::vector<tl::Finding> findings;
  std::vector<tl::SrcLoc> finding_locations;
  std::vector<tl::TraceBuffer> finding_buffers;
  std::string kernel_name;
  int64_t finding_errors = 0;  // findings of error severity (they fail the run)

  std::shared_ptr<const tl::Trace> trace;  // set only for the traced run

  bool passed() const { return status == RunStatus::Pass; }
};

// Why a run did not pass, in words: "build error", "200 elements never
// written", "3 non-finite values", "wrong output (err 0.08 > 0.0001)",
// "out-of-bounds access", "input modified". Empty for a pass.
std::vector<std::string> failure_reasons(const RunReport& r);

struct SetReport {
  std::string name;
  std::string stresses;
  bool pass = false;
  double max_err = 0;
  std::vector<RunReport> runs;  // one per seed
};

struct PuzzleReport {
  int number = 0;
  std::string id, title;
  std::string kernel;  // the KernelDef's name
  double threshold = 0;
  bool pass = false;   // every run of every set passed
  double max_err = 0;  // over all runs
  int runs = 0, failed_runs = 0;
  std::vector<SetReport> sets;
  std::shared_ptr<const tl::Trace> trace;  // the traced run's trace, if one was asked for
  bool interrupted = false;  // CheckOptions::run.cancel stopped the check part-way
};

}  // namespace puzzles
