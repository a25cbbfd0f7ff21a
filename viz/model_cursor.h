// Where the viewer is: the selected program and its current event, and how
// that moves (select, step, jump to a finding or a source line, play).
#pragma once
#include <cstdint>

#include "model_trace_index.h"

namespace viz {

class Cursor {
 public:
  explicit Cursor(const TraceIndex& index);

  const Pid& pid() const { return pid_; }
  int program() const { return program_; }  // index into trace().programs, -1 if not traced
  int event() const { return event_; }      // -1 when the program has no events
  int event_count() const;
  const tl::Event* current_event() const;

  // An axis of size 1 has only program 0: it cannot change.
  bool axis_locked(int axis) const { return index_->grid()[axis] <= 1; }
  // Selects a program (clamped into the grid) at its first event; false
  // when it was already selected.
  bool select(Pid pid);
  bool select_program(int program);  // by index into trace().programs
  void set_axis(int axis, int64_t value);
  // The next / previous recorded program in trace order (wraps around).
  bool step_program(int delta);

  bool set_event(int event);  // clamped
  bool step(int delta);       // clamped: stops at the ends
  bool first() { return set_event(0); }
  bool last() { return set_event(event_count() - 1); }
  // The next (or previous) finding event after the current one: in this
  // program, then in the following programs with findings, wrapping once.
  bool next_finding(int direction = +1);
  // The next event after the current one on source line `line` of the
  // program, wrapping within it; false when none is on that line.
  bool next_event_on_line(uint32_t line);

  // Playback: advances one event every 1 / rate seconds; stops (and pauses)
  // at the last event.
  void set_playing(bool on);
  bool playing() const { return playing_; }
  double rate = 4.0;  // events per second
  void tick(double seconds);

 private:
  const TraceIndex* index_;
  Pid pid_{0, 0, 0};
  int program_ = -1;
  int event_ = -1;
  bool playing_ = false;
  double carry_ = 0;  // seconds accumulated towards the next step
};

}  // namespace viz
