// Shared by the trace JSON tests: a sample trace that uses every part of the
// format, a field-by-field comparison, and helpers to break its JSON form.
#pragma once
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "trace.h"

namespace trace_fixtures {

using tl::Event;
using tl::EventKind;
using tl::LaneState;
using tl::Trace;

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
inline constexpr double kInf = std::numeric_limits<double>::infinity();

inline Event memory_event(EventKind kind, int loc, int buffer, tl::ir::Shape shape, std::vector<int64_t> offsets,
                          std::vector<LaneState> lanes, std::vector<double> values = {}, bool has_other = false) {
  Event e;
  e.kind = kind;
  e.loc = loc;
  e.buffer = buffer;
  e.shape = std::move(shape);
  e.offsets = std::move(offsets);
  e.lanes = std::move(lanes);
  e.values = std::move(values);
  e.has_other = has_other;
  return e;
}

// Every event kind and lane state, NaN/inf/-0 values, a 0-d tile, a strided
// buffer, buffer values kept and not kept, findings with and without a
// location or a traced event, non-ASCII text, and the truncated marker.
inline Trace sample_trace() {
  using LS = LaneState;
  Trace t;
  t.kernel = "add_vec_block";
  t.source_file = "puzzles/p04_outer_block.cpp";
  t.grid = {4, 2, 1};
  t.buffers.push_back({"x", tl::DType::f32, {8}, {1}, 8, 0, {0, 1, 2, kNaN, 4, 5, 6, -0.0}, {0, 1, 2, 3, 4, 5, kInf, 7}, {}, 0, 0});
  t.buffers.push_back({"ausgabe_\xc3\xa4", tl::DType::f16, {2, 3}, {4, 1}, 7, 2, {}, {}, {}, 0, 0});
  t.scalars.push_back({"N0", 8, false});
  t.scalars.push_back({"B0", 4, true});
  t.scalars.push_back({"eps", kNaN, false});
  t.scalars.push_back({"hi", kInf, false});
  t.scalars.push_back({"lo", -kInf, false});
  t.scalars.push_back({"neg_zero", -0.0, false});
  t.locations.push_back({"puzzles/p04_outer_block.cpp", 12, 3});
  t.locations.push_back({"/abs/path/kernel.cpp", 20, 7});
  t.locations.push_back({"", 0, 0});  // an unknown location still has an entry

  tl::ProgramTrace p0;
  p0.pid = {0, 0, 0};
  p0.events.push_back(memory_event(EventKind::Load, 0, 0, {2, 2}, {0, 1, -1, 9},
                                   {LS::Active, LS::Masked, LS::OutOfBounds, LS::MaskedOutOfBounds}, {}, true));
  p0.events.push_back(memory_event(EventKind::Store, 1, 1, {3}, {0, 1, 2}, {LS::Active, LS::Active, LS::Masked},
                                   {1.5, kNaN, -kInf}));
  p0.events.push_back(memory_event(EventKind::Store, 1, 1, {}, {6}, {LS::Active}));  // 0-d, values not recorded
  p0.events.push_back(memory_event(EventKind::Atomic, 0, 0, {2}, {3, 3}, {LS::Active, LS::Active}, {kInf, -0.0}));
  Event dot;
  dot.kind = EventKind::Dot;
  dot.loc = 2;
  dot.shape = {16, 32};
  dot.a_shape = {16, 64};
  dot.b_shape = {64, 32};
  dot.op = "tf32";
  p0.events.push_back(dot);
  Event reduce;
  reduce.kind = EventKind::Reduce;
  reduce.loc = 0;
  reduce.shape = {4, 8};
  reduce.axis = 1;
  reduce.op = "sum";
  p0.events.push_back(reduce);
  Event print;
  print.kind = EventKind::Print;
  print.loc = 1;
  print.text = "x = [1, 2]\n\"quoted\"\ttab \xce\xbb";
  p0.events.push_back(print);
  t.programs.push_back(p0);

  tl::ProgramTrace p1;
  p1.pid = {3, 1, 0};
  t.programs.push_back(p1);

  tl::Finding oob{tl::FindingKind::OutOfBoundsLoad, 0, 0, 1, 1, "load from x: 1 lane out of bounds [0, 8)", {}};
  auto example = [](std::array<int64_t, 3> pid, int64_t lane, std::vector<int64_t> index, int64_t offset,
                    std::array<int64_t, 3> other, int event) {
    tl::FindingExample e;
    e.pid = pid;
    e.lane = lane;
    e.lane_index = std::move(index);
    e.offset = offset;
    e.other_pid = other;
    e.event = event;
    return e;
  };
  oob.examples.push_back(example({0, 0, 0}, 2, {1, 0}, -1, {-1, -1, -1}, 0));
  tl::Finding conflict{tl::FindingKind::WriteConflict, 1, 1, 2, 2, "two programs store one element", {}};
  conflict.examples.push_back(example({3, 1, 0}, 0, {0}, 0, {0, 0, 0}, -1));  // pid (3,1,0) traced no events
  conflict.examples.back().detail = "a detail survives the round trip";
  tl::Finding issue{tl::FindingKind::RuntimeIssue, -1, -1, 0, 1, "division by zero", {}};
  t.findings = {oob, conflict, issue};
  // One more of every kind (kinds count up from 0 until the name is
  // "unknown"), so each kind's JSON name round-trips, new ones included.
  for (int k = 0; std::string(tl::finding_kind_name(static_cast<tl::FindingKind>(k))) != "unknown"; ++k)
    t.findings.push_back({static_cast<tl::FindingKind>(k), 0, 0, 1, 1, "one of each kind", {}});

  t.truncated = true;
  t.budget_bytes = int64_t{1} << 20;
  t.recorded_bytes = 123456;
  return t;
}

// Equal, NaN equal to NaN, and the sign of zero kept.
inline bool same_double(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return a == b && std::signbit(a) == std::signbit(b);
}

inline bool same_doubles(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!same_double(a[i], b[i])) return false;
  return true;
}

inline void check_same_event(const Event& x, const Event& y) {
  CHECK(x.kind == y.kind);
  CHECK(x.loc == y.loc);
  CHECK(x.shape == y.shape);
  CHECK(x.op == y.op);
  CHECK(x.text == y.text);
  if (x.kind == EventKind::Load || x.kind == EventKind::Store || x.kind == EventKind::Atomic) {
    CHECK(x.buffer == y.buffer);
    CHECK(x.offsets == y.offsets);
    CHECK(x.lanes == y.lanes);
    CHECK(same_doubles(x.values, y.values));
    CHECK(x.has_other == y.has_other);
  }
  if (x.kind == EventKind::Reduce) CHECK(x.axis == y.axis);
  if (x.kind == EventKind::Dot) {
    CHECK(x.a_shape == y.a_shape);
    CHECK(x.b_shape == y.b_shape);
  }
}

inline void check_same(const Trace& a, const Trace& b) {
  CHECK(a.version == b.version);
  CHECK(a.kernel == b.kernel);
  CHECK(a.source_file == b.source_file);
  CHECK(a.grid == b.grid);
  REQUIRE(a.buffers.size() == b.buffers.size());
  for (size_t i = 0; i < a.buffers.size(); ++i) {
    INFO("buffers[" << i << "]");
    CHECK(a.buffers[i].name == b.buffers[i].name);
    CHECK(a.buffers[i].dtype == b.buffers[i].dtype);
    CHECK(a.buffers[i].shape == b.buffers[i].shape);
    CHECK(a.buffers[i].strides == b.buffers[i].strides);
    CHECK(a.buffers[i].extent == b.buffers[i].extent);
    CHECK(a.buffers[i].param_index == b.buffers[i].param_index);
    CHECK(same_doubles(a.buffers[i].values_before, b.buffers[i].values_before));
    CHECK(same_doubles(a.buffers[i].values_after, b.buffers[i].values_after));
  }
  REQUIRE(a.scalars.size() == b.scalars.size());
  for (size_t i = 0; i < a.scalars.size(); ++i) {
    CHECK(a.scalars[i].name == b.scalars[i].name);
    CHECK(same_double(a.scalars[i].value, b.scalars[i].value));
    CHECK(a.scalars[i].constant == b.scalars[i].constant);
  }
  CHECK(a.locations == b.locations);
  REQUIRE(a.programs.size() == b.programs.size());
  for (size_t p = 0; p < a.programs.size(); ++p) {
    CHECK(a.programs[p].pid == b.programs[p].pid);
    REQUIRE(a.programs[p].events.size() == b.programs[p].events.size());
    for (size_t i = 0; i < a.programs[p].events.size(); ++i) {
      INFO("programs[" << p << "].events[" << i << "]");
      check_same_event(a.programs[p].events[i], b.programs[p].events[i]);
    }
  }
  REQUIRE(a.findings.size() == b.findings.size());
  for (size_t i = 0; i < a.findings.size(); ++i) {
    const tl::Finding &x = a.findings[i], &y = b.findings[i];
    INFO("findings[" << i << "]");
    CHECK(x.kind == y.kind);
    CHECK(x.loc == y.loc);
    CHECK(x.buffer == y.buffer);
    CHECK(x.lanes == y.lanes);
    CHECK(x.programs == y.programs);
    CHECK(x.message == y.message);
    REQUIRE(x.examples.size() == y.examples.size());
    for (size_t k = 0; k < x.examples.size(); ++k) {
      CHECK(x.examples[k].pid == y.examples[k].pid);
      CHECK(x.examples[k].lane == y.examples[k].lane);
      CHECK(x.examples[k].lane_index == y.examples[k].lane_index);
      CHECK(x.examples[k].offset == y.examples[k].offset);
      CHECK(x.examples[k].other_pid == y.examples[k].other_pid);
      CHECK(x.examples[k].event == y.examples[k].event);
    }
  }
  CHECK(a.truncated == b.truncated);
  CHECK(a.budget_bytes == b.budget_bytes);
  CHECK(a.recorded_bytes == b.recorded_bytes);
}

// The message trace_from_json throws for `text`, or "" when it accepts it.
// Any other exception type escapes and fails the test.
inline std::string error_of(const std::string& text) {
  try {
    tl::trace_from_json(text);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}
inline std::string error_of(const nlohmann::json& j) { return error_of(j.dump()); }

// The sample as a JSON DOM, to break in one place at a time.
inline nlohmann::json sample_json() { return nlohmann::json::parse(tl::trace_to_json(sample_trace())); }

}  // namespace trace_fixtures
