// Deterministic parallel execution: results, findings, printed text and the
// trace are identical for any thread count; a filtered trace keeps only the
// chosen programs; a byte budget truncates the trace at a program boundary,
// the same way every time.
#include <catch2/catch.hpp>
#include <cstring>
#include <string>
#include <vector>

#include "interpreter.h"
#include "trace.h"
#include "tl.h"

namespace {

using tl::DType;

// Grid (4, 3): masked and out-of-bounds loads, stores, a reduction, a dot
// and a print in every program; programs write disjoint elements.
void busy(tl::Ptr x, tl::Ptr y, tl::Ptr z, tl::Int N) {
  auto pid0 = tl::program_id(0), pid1 = tl::program_id(1);
  auto off = pid0 * 64 + tl::arange(0, 64);
  auto v = tl::load(x + off, off < N, -1.0f) * (pid1 + 1);
  tl::store(y + pid1 * 256 + off, v, off < N);
  auto w = tl::load(x + off + 8);  // out of bounds at the end of x
  auto a = tl::load(x + tl::arange(0, 16).col() * 16 + tl::arange(0, 16).row());
  auto d = tl::sum(tl::dot(a, a * (pid0 + 1)));
  auto s = tl::sum(v) + tl::sum(tl::where(w == w, w, 0.0f)) + d;
  tl::store(z + pid1 * 4 + pid0, s);
  tl::print("s = ", s);
}

struct Outcome {
  std::vector<unsigned char> y, z;
  std::string json, printed;
  int64_t oob_loads = 0, oob_stores = 0;
  std::vector<std::string> oob, issues, findings;
  std::shared_ptr<tl::Trace> trace;
};

Outcome run_busy(int threads, tl::RunOptions opt = {}) {
  static tl::KernelDef k("busy", busy, {"x", "y", "z", "N"});
  tl::Buffer x("x", DType::f32, {256}), y("y", DType::f32, {768}), z("z", DType::f32, {12});
  for (int i = 0; i < 256; ++i) x.set(i, (i * 7919 % 1000) / 100.0);
  opt.threads = threads;
  auto r = tl::run(k, {4, 3, 1}, {x, y, z, 250}, opt);
  Outcome o;
  o.y.assign(reinterpret_cast<const unsigned char*>(y.data()), reinterpret_cast<const unsigned char*>(y.data()) + y.size_bytes());
  o.z.assign(reinterpret_cast<const unsigned char*>(z.data()), reinterpret_cast<const unsigned char*>(z.data()) + z.size_bytes());
  if (r.trace) o.json = tl::trace_to_json(*r.trace);
  o.printed = r.printed;
  o.oob_loads = r.oob_loads;
  o.oob_stores = r.oob_stores;
  for (auto& a : r.oob)
    o.oob.push_back(std::to_string(a.pid[0]) + "," + std::to_string(a.pid[1]) + "," + std::to_string(a.pid[2]) + " lane " +
                    std::to_string(a.lane) + " off " + std::to_string(a.offset) + " line " + std::to_string(a.loc.line));
  for (auto& i : r.issues) o.issues.push_back(i.message + "@" + std::to_string(i.loc.line));
  for (auto& f : r.findings)
    o.findings.push_back(std::string(tl::finding_kind_name(f.kind)) + " " + f.message + " lanes " + std::to_string(f.lanes) +
                         " programs " + std::to_string(f.programs));
  o.trace = r.trace;
  return o;
}

tl::RunOptions full_trace() {
  tl::RunOptions o;
  o.trace = tl::TraceMode::Full;
  return o;
}

int64_t program_bytes(const tl::ProgramTrace& p) {
  int64_t b = 0;
  for (auto& e : p.events) b += tl::Trace::event_bytes(e);
  return b;
}

}  // namespace

TEST_CASE("results, findings and printed text are identical for 1, 2 and 8 threads") {
  Outcome one = run_busy(1);
  CHECK(one.oob_loads == 3 * 8);  // pid0 = 3: offsets 256..263 for each pid1
  CHECK(one.oob.size() == 24);
  CHECK_FALSE(one.findings.empty());
  CHECK(one.printed.find("pid (0, 0, 0)") < one.printed.find("pid (3, 2, 0)"));
  for (int threads : {2, 8}) {
    Outcome many = run_busy(threads);
    CHECK(many.y == one.y);
    CHECK(many.z == one.z);
    CHECK(many.printed == one.printed);
    CHECK(many.oob_loads == one.oob_loads);
    CHECK(many.oob_stores == one.oob_stores);
    CHECK(many.oob == one.oob);
    CHECK(many.issues == one.issues);
    CHECK(many.findings == one.findings);
  }
}

TEST_CASE("the full trace is identical for 1, 2 and 8 threads, programs in pid order") {
  Outcome one = run_busy(1, full_trace());
  REQUIRE(one.trace);
  REQUIRE(one.trace->programs.size() == 12);
  CHECK_FALSE(one.trace->truncated);
  for (size_t i = 1; i < one.trace->programs.size(); ++i)
    CHECK(one.trace->programs[i - 1].pid < one.trace->programs[i].pid);  // lexicographic (pid0, pid1, pid2)
  CHECK(one.trace->programs[1].pid == std::array<int64_t, 3>{0, 1, 0});
  for (int threads : {2, 8}) {
    Outcome many = run_busy(threads, full_trace());
    CHECK(many.json == one.json);
    CHECK(many.y == one.y);
  }
  // Tracing does not change the results.
  Outcome untraced = run_busy(8);
  CHECK(untraced.y == one.y);
  CHECK(untraced.z == one.z);
}

TEST_CASE("a filtered trace records only the chosen programs, in pid order") {
  Outcome full = run_busy(1, full_trace());
  tl::RunOptions opt;
  opt.trace = tl::TraceMode::Filtered;
  opt.trace_programs = {{2, 1, 0}, {0, 2, 0}, {9, 9, 0}};  // the last is outside the grid
  for (int threads : {1, 2, 8}) {
    Outcome f = run_busy(threads, opt);
    REQUIRE(f.trace);
    REQUIRE(f.trace->programs.size() == 2);
    CHECK(f.trace->programs[0].pid == std::array<int64_t, 3>{0, 2, 0});
    CHECK(f.trace->programs[1].pid == std::array<int64_t, 3>{2, 1, 0});
    CHECK_FALSE(f.trace->truncated);
    // The same events as in the full trace.
    for (const auto& p : f.trace->programs) {
      const tl::ProgramTrace* same = nullptr;
      for (const auto& q : full.trace->programs)
        if (q.pid == p.pid) same = &q;
      REQUIRE(same);
      REQUIRE(p.events.size() == same->events.size());
      for (size_t e = 0; e < p.events.size(); ++e) {
        CHECK(p.events[e].kind == same->events[e].kind);
        CHECK(p.events[e].offsets == same->events[e].offsets);
        CHECK(p.events[e].lanes == same->events[e].lanes);
        CHECK(p.events[e].values == same->events[e].values);
      }
    }
    CHECK(f.y == full.y);
    CHECK(f.printed == full.printed);  // filtering the trace filters nothing else
  }
}

TEST_CASE("a trace byte budget truncates at a program boundary, deterministically") {
  Outcome full = run_busy(1, full_trace());
  REQUIRE(full.trace->programs.size() == 12);
  std::vector<int64_t> bytes;
  for (auto& p : full.trace->programs) bytes.push_back(program_bytes(p));
  CHECK(full.trace->recorded_bytes == [&] {
    int64_t s = 0;
    for (auto b : bytes) s += b;
    return s;
  }());
  tl::RunOptions opt = full_trace();
  opt.trace_budget_bytes = bytes[0] + bytes[1] + bytes[2] + bytes[3] / 2;
  std::string first_json;
  for (int threads : {1, 2, 8, 8}) {
    Outcome t = run_busy(threads, opt);
    REQUIRE(t.trace);
    CHECK(t.trace->truncated);
    REQUIRE(t.trace->programs.size() == 3);
    for (int i = 0; i < 3; ++i) {
      CHECK(t.trace->programs[i].pid == full.trace->programs[i].pid);
      CHECK(t.trace->programs[i].events.size() == full.trace->programs[i].events.size());  // whole programs only
    }
    CHECK(t.trace->recorded_bytes == bytes[0] + bytes[1] + bytes[2]);
    CHECK(t.trace->budget_bytes == opt.trace_budget_bytes);
    CHECK(t.y == full.y);  // truncation stops recording, not execution
    CHECK(t.printed == full.printed);
    if (first_json.empty()) first_json = t.json;
    CHECK(t.json == first_json);
  }
}

TEST_CASE("a budget that fits exactly keeps every program and is not truncated") {
  Outcome full = run_busy(1, full_trace());
  tl::RunOptions opt = full_trace();
  opt.trace_budget_bytes = full.trace->recorded_bytes;
  for (int threads : {1, 8}) {
    Outcome t = run_busy(threads, opt);
    CHECK_FALSE(t.trace->truncated);
    CHECK(t.trace->programs.size() == 12);
    CHECK(t.trace->recorded_bytes == full.trace->recorded_bytes);
  }
  opt.trace_budget_bytes = 0;
  Outcome none = run_busy(8, opt);
  CHECK(none.trace->truncated);
  CHECK(none.trace->programs.empty());
}

TEST_CASE("atomics give the same results and old values for any thread count") {
  struct K {
    static void kernel(tl::Ptr hist, tl::Ptr old, tl::Ptr x) {
      auto off = tl::program_id(0) * 32 + tl::arange(0, 32);
      auto bin = tl::load(x + off).to(tl::i32) % 8;
      tl::store(old + off, tl::atomic_add(hist + bin, tl::load(x + off) * 0.5f));
    }
  };
  tl::KernelDef k("hist", &K::kernel);
  std::vector<unsigned char> first_h, first_o;
  for (int threads : {1, 2, 8}) {
    tl::Buffer h("h", DType::f32, {8}), o("o", DType::f32, {512}), x("x", DType::f32, {512});
    for (int i = 0; i < 512; ++i) x.set(i, (i * 37 % 101) + 0.1);
    tl::RunOptions opt;
    opt.threads = threads;
    tl::run(k, {16, 1, 1}, {h, o, x}, opt);
    std::vector<unsigned char> hb(reinterpret_cast<unsigned char*>(h.data()), reinterpret_cast<unsigned char*>(h.data()) + h.size_bytes());
    std::vector<unsigned char> ob(reinterpret_cast<unsigned char*>(o.data()), reinterpret_cast<unsigned char*>(o.data()) + o.size_bytes());
    if (first_h.empty()) {
      first_h = hb;
      first_o = ob;
    }
    CHECK(hb == first_h);
    CHECK(ob == first_o);
  }
}
