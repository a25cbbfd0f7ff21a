#include "model_trace_index.h"

#include <algorithm>

namespace viz {

const char* program_status_name(ProgramStatus s) {
  switch (s) {
    case ProgramStatus::Clean: return "clean";
    case ProgramStatus::HasFindings: return "has findings";
    case ProgramStatus::NotTraced: return "not traced";
  }
  return "?";
}

TraceIndex::TraceIndex(std::shared_ptr<const tl::Trace> trace) : trace_(std::move(trace)) {
  const auto& programs = trace_->programs;
  finding_events_.resize(programs.size());
  flagged_.assign(programs.size(), false);
  for (size_t p = 0; p < programs.size(); ++p) {
    program_of_.emplace(linear(programs[p].pid), static_cast<int>(p));
    const auto& events = programs[p].events;
    for (size_t e = 0; e < events.size(); ++e)
      if (oob_lanes(events[e]) > 0) finding_events_[p].push_back(static_cast<int>(e));
  }
  for (const tl::Finding& f : trace_->findings) {
    for (const tl::FindingExample& ex : f.examples) {
      const int p = in_grid(ex.pid) ? program_at(ex.pid) : -1;
      if (p < 0) {
        if (in_grid(ex.pid)) flagged_untraced_[linear(ex.pid)] = true;
        continue;
      }
      flagged_[p] = true;
      if (ex.event >= 0 && ex.event < static_cast<int>(programs[p].events.size()))
        finding_events_[p].push_back(ex.event);
    }
  }
  for (size_t p = 0; p < programs.size(); ++p) {
    auto& ev = finding_events_[p];
    std::sort(ev.begin(), ev.end());
    ev.erase(std::unique(ev.begin(), ev.end()), ev.end());
    if (!ev.empty()) flagged_[p] = true;
    if (flagged_[p]) flagged_programs_.push_back(static_cast<int>(p));
  }
}

int64_t TraceIndex::linear(const Pid& pid) const {
  const Pid g = trace_->grid;
  return pid[0] + g[0] * (pid[1] + g[1] * pid[2]);
}

bool TraceIndex::in_grid(const Pid& pid) const {
  for (int a = 0; a < 3; ++a)
    if (pid[a] < 0 || pid[a] >= trace_->grid[a]) return false;
  return true;
}

int TraceIndex::program_at(const Pid& pid) const {
  if (!in_grid(pid)) return -1;
  auto it = program_of_.find(linear(pid));
  return it == program_of_.end() ? -1 : it->second;
}

ProgramStatus TraceIndex::status(const Pid& pid) const {
  const int p = program_at(pid);
  if (p < 0) return flagged_untraced_.count(linear(pid)) ? ProgramStatus::HasFindings : ProgramStatus::NotTraced;
  return flagged_[p] ? ProgramStatus::HasFindings : ProgramStatus::Clean;
}

const std::vector<int>& TraceIndex::finding_events(int program) const {
  static const std::vector<int> kNone;
  if (program < 0 || program >= static_cast<int>(finding_events_.size())) return kNone;
  return finding_events_[program];
}

bool TraceIndex::is_finding_event(int program, int event) const {
  const auto& ev = finding_events(program);
  return std::binary_search(ev.begin(), ev.end(), event);
}

std::vector<int> TraceIndex::findings_at(int program, int event) const {
  std::vector<int> out;
  if (program < 0 || program >= static_cast<int>(trace_->programs.size())) return out;
  const Pid pid = trace_->programs[program].pid;
  for (size_t f = 0; f < trace_->findings.size(); ++f)
    for (const tl::FindingExample& ex : trace_->findings[f].examples)
      if (ex.pid == pid && ex.event == event) {
        out.push_back(static_cast<int>(f));
        break;
      }
  return out;
}

int64_t TraceIndex::oob_lanes(const tl::Event& e) {
  return std::count(e.lanes.begin(), e.lanes.end(), tl::LaneState::OutOfBounds);
}

int64_t TraceIndex::masked_lanes(const tl::Event& e) {
  return std::count_if(e.lanes.begin(), e.lanes.end(), [](tl::LaneState s) {
    return s == tl::LaneState::Masked || s == tl::LaneState::MaskedOutOfBounds;
  });
}

}  // namespace viz
