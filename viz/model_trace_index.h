// Lookups over a trace that every pane needs and none should recompute per
// frame: the program at a program id, each program's status, and which of
// its events are findings.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "trace.h"

namespace viz {

using Pid = std::array<int64_t, 3>;

enum class ProgramStatus : uint8_t {
  Clean,        // traced, nothing found
  HasFindings,  // an out-of-bounds lane, or named by a sanitizer finding
  NotTraced,    // in the grid but not recorded (filtered trace, or the budget ran out)
};
const char* program_status_name(ProgramStatus s);

class TraceIndex {
 public:
  explicit TraceIndex(std::shared_ptr<const tl::Trace> trace);

  const tl::Trace& trace() const { return *trace_; }
  const std::shared_ptr<const tl::Trace>& trace_ptr() const { return trace_; }
  Pid grid() const { return trace_->grid; }
  bool in_grid(const Pid& pid) const;

  // Index into trace().programs, or -1 when that program was not recorded.
  int program_at(const Pid& pid) const;
  ProgramStatus status(const Pid& pid) const;
  // Events of program `program` (an index into trace().programs) that are
  // findings: out-of-bounds lanes, or the event of a finding's example.
  const std::vector<int>& finding_events(int program) const;
  bool is_finding_event(int program, int event) const;
  // Findings (indices into trace().findings) with an example at this event.
  std::vector<int> findings_at(int program, int event) const;
  // Programs (indices into trace().programs) with finding events, in order.
  const std::vector<int>& programs_with_findings() const { return flagged_programs_; }
  // Out-of-bounds lanes of an event (mask true, address outside).
  static int64_t oob_lanes(const tl::Event& e);
  static int64_t masked_lanes(const tl::Event& e);  // both masked states

 private:
  int64_t linear(const Pid& pid) const;
  std::shared_ptr<const tl::Trace> trace_;
  std::unordered_map<int64_t, int> program_of_;
  std::vector<std::vector<int>> finding_events_;  // per program, sorted
  std::vector<bool> flagged_;                     // per program
  std::vector<int> flagged_programs_;
  std::unordered_map<int64_t, bool> flagged_untraced_;  // pids named by findings but not recorded
};

}  // namespace viz
