// Deliberately wrong kernels: each shows one mistake people really make,
// borrowing a puzzle's inputs, sizes and reference so `tilescope check
// broken/NAME` can show what the sanitizer and the checker find.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "kernel.h"

namespace puzzles {

struct BrokenKernel {
  std::string name;         // "missing_load_mask"
  std::string title;        // one line
  std::string explanation;  // the mistake and its fix
  std::string puzzle_id;    // the puzzle whose inputs, sizes and reference it borrows
  std::string set = "canonical";
  const tl::KernelDef* kernel = nullptr;
  std::string expected;  // one line: what check shows
};

const std::vector<BrokenKernel>& all_broken();
// By "NAME" or "broken/NAME"; nullptr when unknown.
const BrokenKernel* find_broken(std::string_view name);

}  // namespace puzzles
