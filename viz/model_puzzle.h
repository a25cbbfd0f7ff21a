// What the puzzle panel shows: the statement, pass/fail and max error per
// size set, and for the viewed run a diff of output vs reference with the
// mismatching elements marked. Built with the puzzle harness, the same
// judgement `tilescope check` prints.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "harness.h"
#include "model_colors.h"

namespace viz {

struct PuzzleSetSummary {
  std::string name, stresses, sizes;
  bool pass = false;
  double max_err = 0;
  int runs = 0, failed_runs = 0;
};

// Output vs reference, element by element, for the viewed run.
struct OutputDiff {
  bool available = false;
  std::string unavailable_reason;  // when not available
  std::vector<int64_t> shape;      // the output's
  std::vector<double> found, expected;
  // Per element: 0 matches, else 1 + puzzles::MismatchKind.
  std::vector<uint8_t> mismatch;
  int64_t mismatch_count = 0;
  double max_abs_diff = 0;
};

struct PuzzleContext {
  int number = 0;
  std::string id, title, statement, kernel;
  const tl::KernelDef* kernel_def = nullptr;  // what ran (to run it again elsewhere, e.g. on a GPU)
  bool stub = false;
  std::string variant;  // "reference solution", "learner stub", or a broken kernel's label
  std::string explanation;  // a broken kernel's: what is wrong and how to fix it
  double threshold = 0;
  bool pass = false;    // every run of every set
  double max_err = 0;
  std::vector<PuzzleSetSummary> sets;
  puzzles::RunReport viewed;  // the run shown: its set, seed, status, error, failure reasons
  std::string output;         // the output tensor's name
  OutputDiff diff;
};

// Checks `kernel` against the puzzle on every set (seeds 0, 1, 2) and runs
// (set, seed) once more with a full trace; `context.viewed.trace` holds it
// (null when the kernel did not build).
PuzzleContext check_for_view(const puzzles::Puzzle& p, const tl::KernelDef& kernel, const std::string& variant,
                             const puzzles::SizeSet& set, uint32_t seed);

// The diff grid's color of element `flat`: within tolerance (dark green),
// wrong value (red), never written (magenta), not finite (magenta).
Rgba diff_color(const OutputDiff& d, int64_t flat);

}  // namespace viz
