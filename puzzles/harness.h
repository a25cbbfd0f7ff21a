// Checking a kernel against a puzzle: every size set × every seed, each run
// judged by PUZZLES.md §4 (error, out-of-bounds accesses, inputs intact).
// Never throws for a broken kernel: build and launch errors become failed
// runs carrying the error text.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compare.h"
#include "inputs.h"
#include "interpreter.h"
#include "puzzle.h"
#include "registry.h"
#include "results.h"

namespace puzzles {

// Which run to trace: one (set, seed) pair, with the interpreter options for
// that run (trace mode Full by default; Filtered with trace_programs works).
struct TraceRequest {
  std::string set = "canonical";
  uint32_t seed = 0;
  tl::RunOptions options = full_trace();

  static tl::RunOptions full_trace() {
    tl::RunOptions o;
    o.trace = tl::TraceMode::Full;
    return o;
  }
};

struct CheckOptions {
  std::vector<uint32_t> seeds{0, 1, 2};
  std::vector<std::string> sets;  // size set names to run ("canonical", "8d"); empty: all
  // Options for every untraced run (its trace mode is ignored). Its
  // `cancel`, once set, also ends the check after the run it cut short
  // (PuzzleReport::interrupted); the traced run's options need their own.
  tl::RunOptions run;
  std::optional<TraceRequest> trace;
  size_t max_mismatches = 10;  // per run, listed in row-major order
};

enum class Variant { Solution, Stub };

// Everything about one launch of `kernel` on (set, seed). `options` goes to
// tl::run as given (trace included).
RunReport run_kernel(const Puzzle& p, const tl::KernelDef& kernel, const SizeSet& set, uint32_t seed,
                     const tl::RunOptions& options = {}, size_t max_mismatches = 10);

// `kernel` (any kernel with the puzzle's signature) over the chosen sets and
// seeds. Unknown set names in `opt.sets` are ignored; the report lists the
// sets that ran.
PuzzleReport check_kernel(const Puzzle& p, const tl::KernelDef& kernel, const CheckOptions& opt = {});

// The puzzle's own reference solution or learner stub.
PuzzleReport check_puzzle(const Puzzle& p, Variant v, const CheckOptions& opt = {});

// The set named `name` ("canonical", "7b"), or nullptr.
const SizeSet* find_set(const Puzzle& p, std::string_view name);

// The reference output for a run's (unchanged) inputs, row-major, in f64.
std::vector<double> reference_output(const Puzzle& p, const SizeSet& set, const RunBuffers& b);

}  // namespace puzzles
