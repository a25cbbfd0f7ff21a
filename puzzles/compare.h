// Judging an output against the reference (PUZZLES.md §4.3 and §4.5): the
// normwise relative error, and which elements mismatch, how, and which
// program owns them.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "puzzle.h"
#include "results.h"

namespace puzzles {

struct OutputComparison {
  double err = 0;  // ‖out − ref‖₂ / ‖ref‖₂ (‖out‖₂ when ‖ref‖₂ = 0); +inf if any out is not finite
  int64_t mismatch_count = 0, total = 0;
  int64_t never_written = 0, non_finite = 0, wrong_value = 0;  // mismatch_count split by kind
  std::vector<Mismatch> mismatches;  // the first `max_mismatches`, row-major
  std::vector<ProgramId> owners;     // distinct owners of all mismatches, sorted, at most kMaxOwners
  int64_t owner_count = 0;           // distinct owners in all
  static constexpr size_t kMaxOwners = 256;
};

// `out` must have the puzzle's output shape for `set`; `ref` is the
// reference in row-major order. An element mismatches when it is not finite
// or |out − ref| > tolerance · max|ref|.
OutputComparison compare_output(const Puzzle& p, const SizeSet& set, const tl::Buffer& out,
                                const std::vector<double>& ref, size_t max_mismatches = 10);

// The same for any output `decl` of the puzzle (an example's extra output)
// against `tolerance`.
OutputComparison compare_tensor(const Puzzle& p, const TensorDecl& decl, double tolerance, const SizeSet& set,
                                const tl::Buffer& out, const std::vector<double>& ref, size_t max_mismatches = 10);

// An extra output's threshold: its own, or the puzzle's.
double tolerance_of(const Puzzle& p, const TensorDecl& decl);

// "z[2, 5]" for the element at `index` of a tensor named `name`.
std::string element_label(const std::string& name, const std::vector<int64_t>& index);

}  // namespace puzzles
