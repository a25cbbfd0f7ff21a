// The broken kernels: deliberately wrong versions of puzzle solutions, one
// real mistake each, run on the inputs, sizes and reference of the puzzle
// they borrow. `tilescope check broken/NAME` shows what the sanitizer and
// the comparison with the reference make of each.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "kernel.h"

namespace puzzles {

struct BrokenKernel {
  std::string name;         // "missing_load_mask"
  std::string title;        // one line: the mistake
  std::string explanation;  // one paragraph: the mistake, what it does, the fix
  std::string puzzle_id;    // the puzzle (or example id) whose inputs, sizes and reference it borrows
  std::string set = "canonical";       // the size set that shows the mistake
  const tl::KernelDef* kernel = nullptr;
  std::string expected;     // one line: what `check` shows
  std::string source_file;  // the kernel's source file; its wrong line carries "// BUG"
};

// Every broken kernel, in a fixed order. Built on first use.
const std::vector<BrokenKernel>& all_broken();
// Broken kernels that run for seconds on purpose (runaway_loop): found by
// name, but left out of all_broken() so that listings and loops over every
// broken kernel stay quick.
const std::vector<BrokenKernel>& hidden_broken();

// The broken kernel named `name` ("missing_load_mask" or
// "broken/missing_load_mask"); nullptr when none is.
const BrokenKernel* find_broken(std::string_view name);

// The line of `b.source_file` marked "// BUG" (the mistake), or 0 when the
// file cannot be read (an installed binary without its sources).
int bug_line(const BrokenKernel& b);

}  // namespace puzzles
