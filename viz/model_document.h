// What the viewer opens: a trace, plus what is known around it (the puzzle
// it came from, GPU results). `tilescope view` names it as
//
//   4, p04, outer_add_block   a puzzle's reference solution (--stub: the learner's)
//   broken/NAME               a named kernel of a kernel group (see kernel_groups())
//   run.trace.json            a saved trace
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model_gpu_diff.h"
#include "model_puzzle.h"
#include "trace.h"

namespace viz {

struct ViewerDocument {
  std::shared_ptr<const tl::Trace> trace;  // never null
  std::optional<PuzzleContext> puzzle;
  std::optional<GpuResults> gpu;
  std::string gpu_note;  // why there are no GPU results, when they were asked for
  std::string title;     // one line: what is shown
};

struct OpenOptions {
  bool stub = false;
  std::string set;  // empty: the kernel's own choice (canonical, or the set a broken kernel names)
  uint32_t seed = 0;
};

// A kernel that checks against a puzzle: how a group names its kernels.
struct NamedKernel {
  const puzzles::Puzzle* puzzle = nullptr;
  const tl::KernelDef* kernel = nullptr;
  std::string label;        // "broken/missing_load_mask"
  std::string set;          // the size set it opens with ("" for canonical)
  std::string explanation;  // what is wrong with it, shown in the puzzle tab
};
struct KernelGroup {
  const char* name;  // "broken": targets are "broken/NAME"
  std::optional<NamedKernel> (*find)(std::string_view name);
};
// The groups `open_target` knows. Each is one line in model_document.cpp.
const std::vector<KernelGroup>& kernel_groups();

// Loads a saved trace; throws std::runtime_error with the file and the
// reason (unreadable, malformed, truncated).
ViewerDocument open_trace_file(const std::string& path);
// Checks and traces a puzzle kernel; throws std::runtime_error for an
// unknown size set.
ViewerDocument open_kernel(const puzzles::Puzzle& p, const tl::KernelDef& kernel, const std::string& label,
                           const OpenOptions& opt, const std::string& explanation = "");
ViewerDocument open_puzzle(const puzzles::Puzzle& p, const OpenOptions& opt);
// Any of the names above; throws std::runtime_error naming the target when
// it is none of them.
ViewerDocument open_target(const std::string& target, const OpenOptions& opt);

// A trace with no programs for a kernel that did not build: the grid and
// the buffers (untouched), so the viewer still shows the launch.
std::shared_ptr<tl::Trace> empty_trace(const puzzles::Puzzle& p, const puzzles::SizeSet& set,
                                       const tl::KernelDef& kernel);

}  // namespace viz
