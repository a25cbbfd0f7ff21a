// The viewer's selection and stepping, without a window: programs by id
// (size-1 axes locked), events step by step, jumps to findings and source
// lines, playback.
#include <catch2/catch.hpp>

#include <memory>

#include "model_cursor.h"

namespace {

using tl::EventKind;
using tl::LaneState;

tl::Event load(int loc, std::vector<LaneState> lanes) {
  tl::Event e;
  e.kind = EventKind::Load;
  e.loc = loc;
  e.buffer = 0;
  e.shape = {static_cast<int64_t>(lanes.size())};
  for (size_t i = 0; i < lanes.size(); ++i)
    e.offsets.push_back(lanes[i] == LaneState::OutOfBounds ? 100 + static_cast<int64_t>(i) : static_cast<int64_t>(i));
  e.lanes = std::move(lanes);
  return e;
}

// A 4 x 1 x 1 grid; programs 0, 1 and 3 traced with 3 events each; event 1
// of program 1 and event 2 of program 3 have out-of-bounds lanes. Events
// are on lines 10, 11, 10.
std::shared_ptr<tl::Trace> stepping_trace() {
  auto t = std::make_shared<tl::Trace>();
  t->grid = {4, 1, 1};
  tl::TraceBuffer b;
  b.name = "x";
  b.shape = {8};
  b.strides = {1};
  b.extent = 8;
  t->buffers.push_back(b);
  t->locations = {{"k.cpp", 10, 1}, {"k.cpp", 11, 1}};
  for (int64_t x : {0, 1, 3}) {
    tl::ProgramTrace p;
    p.pid = {x, 0, 0};
    const bool oob1 = x == 1, oob2 = x == 3;
    p.events.push_back(load(0, {LaneState::Active, LaneState::Active}));
    p.events.push_back(load(1, {LaneState::Active, oob1 ? LaneState::OutOfBounds : LaneState::Masked}));
    p.events.push_back(load(0, {oob2 ? LaneState::OutOfBounds : LaneState::Active, LaneState::Active}));
    t->programs.push_back(p);
  }
  return t;
}

}  // namespace

TEST_CASE("selecting programs: clamped into the grid, size-1 axes locked, untraced ones allowed") {
  const viz::TraceIndex index(stepping_trace());
  viz::Cursor c(index);
  // It opens on the first finding: program 1, event 1.
  CHECK(c.pid() == viz::Pid{1, 0, 0});
  CHECK(c.event() == 1);
  CHECK_FALSE(c.axis_locked(0));
  CHECK(c.axis_locked(1));
  CHECK(c.axis_locked(2));
  c.set_axis(1, 5);  // locked: ignored
  CHECK(c.pid() == viz::Pid{1, 0, 0});
  CHECK(c.select({9, 3, 0}));  // clamped
  CHECK(c.pid() == viz::Pid{3, 0, 0});
  CHECK(c.program() == 2);
  CHECK(c.event() == 0);  // a new program starts at its first event
  CHECK_FALSE(c.select({3, 0, 0}));
  c.set_axis(0, 2);  // not traced
  CHECK(c.program() == -1);
  CHECK(c.event() == -1);
  CHECK(c.current_event() == nullptr);
  CHECK(c.step_program(+1));  // from an untraced program: the next traced one
  CHECK(c.pid() == viz::Pid{3, 0, 0});
  CHECK(c.step_program(+1));  // wraps
  CHECK(c.pid() == viz::Pid{0, 0, 0});
  CHECK(c.step_program(-1));
  CHECK(c.pid() == viz::Pid{3, 0, 0});
  CHECK(c.select_program(1));
  CHECK(c.pid() == viz::Pid{1, 0, 0});
}

TEST_CASE("stepping events: forward and back, clamped at both ends") {
  const viz::TraceIndex index(stepping_trace());
  viz::Cursor c(index);
  c.select({0, 0, 0});
  CHECK(c.event() == 0);
  CHECK(c.event_count() == 3);
  CHECK_FALSE(c.step(-1));
  CHECK(c.step(+1));
  CHECK(c.event() == 1);
  CHECK(c.step(+5));
  CHECK(c.event() == 2);
  CHECK_FALSE(c.step(+1));
  CHECK(c.first());
  CHECK(c.event() == 0);
  CHECK(c.last());
  CHECK(c.event() == 2);
  CHECK(c.current_event() == &index.trace().programs[0].events[2]);
}

TEST_CASE("jumping: next finding across programs, previous finding, events of a source line") {
  const viz::TraceIndex index(stepping_trace());
  viz::Cursor c(index);
  c.select({0, 0, 0});
  CHECK(c.next_finding());
  CHECK(c.pid() == viz::Pid{1, 0, 0});
  CHECK(c.event() == 1);
  CHECK(c.next_finding());
  CHECK(c.pid() == viz::Pid{3, 0, 0});
  CHECK(c.event() == 2);
  CHECK(c.next_finding());  // wraps around to the first
  CHECK(c.pid() == viz::Pid{1, 0, 0});
  CHECK(c.next_finding(-1));
  CHECK(c.pid() == viz::Pid{3, 0, 0});
  CHECK(c.event() == 2);

  c.select({0, 0, 0});
  CHECK(c.next_event_on_line(10));  // events 0 and 2 are on line 10
  CHECK(c.event() == 2);
  CHECK(c.next_event_on_line(10));
  CHECK(c.event() == 0);
  CHECK(c.next_event_on_line(11));
  CHECK(c.event() == 1);
  CHECK_FALSE(c.next_event_on_line(99));
  CHECK(c.event() == 1);
}

TEST_CASE("playback advances at its rate and stops at the last event") {
  const viz::TraceIndex index(stepping_trace());
  viz::Cursor c(index);
  c.select({0, 0, 0});
  c.rate = 4;  // an event every 0.25 s
  c.set_playing(true);
  CHECK(c.playing());
  c.tick(0.2);
  CHECK(c.event() == 0);
  c.tick(0.1);
  CHECK(c.event() == 1);
  c.tick(1.0);
  CHECK(c.event() == 2);
  CHECK_FALSE(c.playing());
  c.set_playing(true);  // from the end: starts over
  CHECK(c.event() == 0);
}

TEST_CASE("a trace with no programs still has a cursor") {
  auto t = std::make_shared<tl::Trace>();
  t->grid = {2, 2, 1};
  const viz::TraceIndex index(t);
  viz::Cursor c(index);
  CHECK(c.pid() == viz::Pid{0, 0, 0});
  CHECK(c.program() == -1);
  CHECK_FALSE(c.next_finding());
  CHECK_FALSE(c.step(1));
  CHECK_FALSE(c.step_program(1));
  c.set_playing(true);
  CHECK_FALSE(c.playing());
}
