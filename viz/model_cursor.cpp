#include "model_cursor.h"

#include <algorithm>

namespace viz {

Cursor::Cursor(const TraceIndex& index) : index_(&index) {
  // Open on the first program with a finding: that is what people look for;
  // otherwise on the first program.
  const auto& flagged = index.programs_with_findings();
  if (!flagged.empty()) {
    select_program(flagged.front());
    next_finding();
  } else if (!index.trace().programs.empty()) {
    select_program(0);
  } else {
    select({0, 0, 0});
  }
}

int Cursor::event_count() const {
  if (program_ < 0) return 0;
  return static_cast<int>(index_->trace().programs[program_].events.size());
}

const tl::Event* Cursor::current_event() const {
  if (program_ < 0 || event_ < 0) return nullptr;
  return &index_->trace().programs[program_].events[event_];
}

bool Cursor::select(Pid pid) {
  const Pid g = index_->grid();
  for (int a = 0; a < 3; ++a) pid[a] = std::clamp<int64_t>(pid[a], 0, std::max<int64_t>(g[a] - 1, 0));
  const bool changed = pid != pid_ || program_ != index_->program_at(pid);
  pid_ = pid;
  program_ = index_->program_at(pid);
  if (changed) event_ = event_count() > 0 ? 0 : -1;
  carry_ = 0;
  return changed;
}

bool Cursor::select_program(int program) {
  const auto& programs = index_->trace().programs;
  if (program < 0 || program >= static_cast<int>(programs.size())) return false;
  return select(programs[program].pid);
}

void Cursor::set_axis(int axis, int64_t value) {
  if (axis < 0 || axis > 2 || axis_locked(axis)) return;
  Pid p = pid_;
  p[axis] = value;
  select(p);
}

bool Cursor::step_program(int delta) {
  const int n = static_cast<int>(index_->trace().programs.size());
  if (n == 0) return false;
  // From an untraced pid, "next" is the first recorded program after it.
  int from = program_;
  if (from < 0) {
    from = delta > 0 ? -1 : n;
    for (int p = 0; p < n; ++p)
      if (index_->trace().programs[p].pid > pid_) {
        from = delta > 0 ? p - 1 : p;
        break;
      }
  }
  const int to = ((from + delta) % n + n) % n;
  return select_program(to);
}

bool Cursor::set_event(int event) {
  const int n = event_count();
  const int e = n == 0 ? -1 : std::clamp(event, 0, n - 1);
  const bool changed = e != event_;
  event_ = e;
  return changed;
}

bool Cursor::step(int delta) { return set_event(event_ + delta); }

bool Cursor::next_finding(int direction) {
  const auto& flagged = index_->programs_with_findings();
  if (flagged.empty()) return false;
  const int dir = direction >= 0 ? 1 : -1;
  // In this program, after (or before) the current event.
  if (program_ >= 0) {
    const auto& ev = index_->finding_events(program_);
    if (dir > 0) {
      auto it = std::upper_bound(ev.begin(), ev.end(), event_);
      if (it != ev.end()) {
        set_event(*it);
        return true;
      }
    } else {
      auto it = std::lower_bound(ev.begin(), ev.end(), event_);
      if (it != ev.begin()) {
        set_event(*std::prev(it));
        return true;
      }
    }
  }
  // Then the following flagged programs, in trace order, wrapping.
  const int n = static_cast<int>(flagged.size());
  int start;
  if (dir > 0) {
    start = static_cast<int>(std::upper_bound(flagged.begin(), flagged.end(), program_) - flagged.begin());
  } else {
    start = static_cast<int>(std::lower_bound(flagged.begin(), flagged.end(), program_) - flagged.begin()) - 1;
  }
  for (int i = 0; i < n; ++i) {
    const int p = flagged[((start + dir * i) % n + n) % n];
    const auto& ev = index_->finding_events(p);
    if (ev.empty()) continue;  // flagged by a finding whose event was not traced
    select_program(p);
    set_event(dir > 0 ? ev.front() : ev.back());
    return true;
  }
  // Only untraced examples: at least go to a flagged program.
  return select_program(flagged[((start % n) + n) % n]);
}

bool Cursor::next_event_on_line(uint32_t line) {
  if (program_ < 0) return false;
  const tl::Trace& t = index_->trace();
  const auto& events = t.programs[program_].events;
  const int n = static_cast<int>(events.size());
  for (int i = 1; i <= n; ++i) {
    const int e = (event_ + i) % n;
    const int loc = events[e].loc;
    if (loc >= 0 && loc < static_cast<int>(t.locations.size()) && t.locations[loc].line == line) {
      set_event(e);
      return true;
    }
  }
  return false;
}

void Cursor::set_playing(bool on) {
  playing_ = on && event_count() > 0;
  // Playing from the last event starts over.
  if (playing_ && event_ == event_count() - 1) set_event(0);
  carry_ = 0;
}

void Cursor::tick(double seconds) {
  if (!playing_ || rate <= 0) return;
  carry_ += seconds;
  const double period = 1.0 / rate;
  while (carry_ >= period) {
    carry_ -= period;
    if (event_ >= event_count() - 1) {
      playing_ = false;
      carry_ = 0;
      return;
    }
    step(1);
  }
}

}  // namespace viz
