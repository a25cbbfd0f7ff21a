// The sanitizer's findings, one kind at a time, on tiny inline kernels:
// what each kind reports (program, lane, offset, buffer, line, counts), how
// findings are grouped, strict mode, thread-count independence, findings in
// the trace, the compiler-style text, and where() clearing undefined lanes.
// Known sanitizer bugs have their own file, test_findings_known_bugs.cpp.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "error.h"
#include "findings_fixture.h"

using namespace findings_fixture;

TEST_CASE("out-of-bounds load: program, lane, offset, buffer and line, masked-off lanes are fine", "[findings]") {
  tl::Buffer x = f32("x", 10), y = f32("y", 16);
  int line = 0;
  auto r = launch(
      [&](const K& k) {
        auto off = tl::program_id(0) * 8 + tl::arange(0, 8);
        line = __LINE__; auto v = tl::load(k.x + off);
        tl::store(k.y + off, v, off < 10);  // stores only valid lanes: no poison stored
      },
      x, y, {2});
  REQUIRE(kinds(r) == std::vector{FindingKind::OutOfBoundsLoad});
  const tl::Finding& f = r.findings[0];
  CHECK(f.lanes == 6);  // program 1, lanes 2..7: offsets 10..15
  CHECK(f.programs == 1);
  CHECK(buffer_of(r, f) == "x");
  CHECK(line_of(r, f) == line);
  REQUIRE(!f.examples.empty());
  CHECK(f.examples[0].pid == Pid{1, 0, 0});
  CHECK(f.examples[0].lane == 2);
  CHECK(f.examples[0].lane_index == std::vector<int64_t>{2});
  CHECK(f.examples[0].offset == 10);
  CHECK(r.oob_loads == 6);
  CHECK(std::string(tl::finding_severity(f.kind)) == "error");
}

TEST_CASE("out-of-bounds store", "[findings]") {
  tl::Buffer x = f32("x", 16), y = f32("y", 10);
  int line = 0;
  auto r = launch(
      [&](const K& k) {
        auto off = tl::program_id(0) * 8 + tl::arange(0, 8);
        auto v = tl::load(k.x + off);
        line = __LINE__; tl::store(k.y + off, v);
      },
      x, y, {2});
  REQUIRE(kinds(r) == std::vector{FindingKind::OutOfBoundsStore});
  const tl::Finding& f = r.findings[0];
  CHECK(f.lanes == 6);
  CHECK(f.programs == 1);
  CHECK(buffer_of(r, f) == "y");
  CHECK(line_of(r, f) == line);
  CHECK(f.examples.at(0).pid == Pid{1, 0, 0});
  CHECK(f.examples.at(0).lane == 2);
  CHECK(f.examples.at(0).offset == 10);
  CHECK(r.oob_stores == 6);
}

TEST_CASE("write conflict: each later program's store names the program that stored before it", "[findings]") {
  tl::Buffer x = f32("x", 8), y = f32("y", 8);
  int line = 0;
  auto r = launch(
      [&](const K& k) {
        auto lane = tl::arange(0, 8);
        line = __LINE__; tl::store(k.y + lane, tl::load(k.x + lane) + tl::program_id(0));
      },
      x, y, {3});
  REQUIRE(kinds(r) == std::vector{FindingKind::WriteConflict});
  const tl::Finding& f = r.findings[0];
  CHECK(f.lanes == 16);  // programs 1 and 2, all 8 lanes each
  CHECK(f.programs == 2);
  CHECK(buffer_of(r, f) == "y");
  CHECK(line_of(r, f) == line);
  REQUIRE(f.examples.size() == 5);  // 4 of program 1, then 1 of program 2
  CHECK(f.examples[0].pid == Pid{1, 0, 0});
  CHECK(f.examples[0].other_pid == Pid{0, 0, 0});
  CHECK(f.examples[0].offset == 0);
  CHECK(f.examples[4].pid == Pid{2, 0, 0});
  CHECK(f.examples[4].other_pid == Pid{1, 0, 0});
  CHECK(r.sequential);
  // Program order decides (deterministically): the last program's values.
  CHECK(y.get(3) == x.get(3) + 2);
}

TEST_CASE("read-write race: one program reads what another writes, at the load and at the store", "[findings]") {
  tl::Buffer x = f32("x", 8), y = f32("y", 16);
  int load_line = 0, store_line = 0;
  auto r = launch(
      [&](const K& k) {
        auto lane = tl::arange(0, 8);
        auto pid = tl::program_id(0);
        load_line = __LINE__; auto theirs = tl::load(k.y + (1 - pid) * 8 + lane);  // the other program's half
        store_line = __LINE__; tl::store(k.y + pid * 8 + lane, theirs + 1.0f);     // its own half
      },
      x, y, {2});
  REQUIRE(kinds(r) == std::vector{FindingKind::ReadWriteRace, FindingKind::ReadWriteRace});
  // Program 1 reads y[0..7], which program 0 wrote...
  const tl::Finding& at_load = r.findings[0];
  CHECK(line_of(r, at_load) == load_line);
  CHECK(at_load.lanes == 8);
  CHECK(at_load.programs == 1);
  CHECK(at_load.examples.at(0).pid == Pid{1, 0, 0});
  CHECK(at_load.examples.at(0).other_pid == Pid{0, 0, 0});
  CHECK(at_load.examples.at(0).offset == 0);
  // ...and writes y[8..15], which program 0 read.
  const tl::Finding& at_store = r.findings[1];
  CHECK(line_of(r, at_store) == store_line);
  CHECK(at_store.lanes == 8);
  CHECK(at_store.examples.at(0).pid == Pid{1, 0, 0});
  CHECK(at_store.examples.at(0).other_pid == Pid{0, 0, 0});
  CHECK(at_store.examples.at(0).offset == 8);
}

TEST_CASE("uninitialized read: loading an element of an unwritten output before any store", "[findings]") {
  tl::Buffer x = f32("x", 8), y = f32("y", 8);
  y.mark_unwritten();
  int line = 0;
  auto r = launch(
      [&](const K& k) {
        auto lane = tl::arange(0, 8);
        line = __LINE__; auto old = tl::load(k.y + lane, lane < 6);  // lanes 6, 7 masked: not read
        tl::store(k.y + lane, old + tl::load(k.x + lane));
      },
      x, y, {1});
  // The masked-off lanes of `old` are undefined and reach the store too.
  REQUIRE(kinds(r) == std::vector{FindingKind::UninitializedRead, FindingKind::UndefinedValueUsed});
  const tl::Finding& f = r.findings[0];
  CHECK(line_of(r, f) == line);
  CHECK(buffer_of(r, f) == "y");
  CHECK(f.lanes == 6);
  CHECK(f.programs == 1);
  CHECK(f.examples.at(0).pid == Pid{0, 0, 0});
  CHECK(f.examples.at(0).lane == 0);
  CHECK(r.findings[1].lanes == 2);
}

TEST_CASE("undefined value used: masked lanes without `other` reaching a reduction", "[findings]") {
  tl::Buffer x = f32("x", 8), y = f32("y", 1);
  int line = 0;
  auto r = launch(
      [&](const K& k) {
        auto lane = tl::arange(0, 8);
        auto v = tl::load(k.x + lane, lane < 5);  // lanes 5..7: undefined on a GPU
        line = __LINE__; auto total = tl::sum(v);
        (void)total;
      },
      x, y, {1});
  REQUIRE(kinds(r) == std::vector{FindingKind::UndefinedValueUsed});
  const tl::Finding& f = r.findings[0];
  CHECK(line_of(r, f) == line);
  CHECK(f.buffer == -1);  // a reduction, not a store
  CHECK(f.lanes == 3);
  CHECK(f.programs == 1);
  CHECK(f.examples.at(0).lane == 5);
  CHECK(f.examples.at(0).lane_index == std::vector<int64_t>{5});
}

TEST_CASE("undefined value used: masked lanes without `other` reaching a store", "[findings]") {
  tl::Buffer x = f32("x", 8), y = f32("y", 8);
  int line = 0;
  auto r = launch(
      [&](const K& k) {
        auto lane = tl::arange(0, 8);
        auto v = tl::load(k.x + lane, lane < 5);
        line = __LINE__; tl::store(k.y + lane, v * 2.0f);  // unmasked: lanes 5..7 store undefined values
      },
      x, y, {1});
  REQUIRE(kinds(r) == std::vector{FindingKind::UndefinedValueUsed});
  const tl::Finding& f = r.findings[0];
  CHECK(line_of(r, f) == line);
  CHECK(buffer_of(r, f) == "y");
  CHECK(f.lanes == 3);
  CHECK(f.examples.at(0).lane == 5);
  CHECK(f.examples.at(0).offset == 5);
}

TEST_CASE("undefined value used: masked lanes without `other` reaching a dot (and what it stores)", "[findings]") {
  tl::Buffer x = f32("x", 256), y = f32("y", 256);
  int dot_line = 0, store_line = 0;
  auto r = launch(
      [&](const K& k) {
        auto i = tl::arange(0, 16);
        auto tile = i.col() * 16 + i.row();
        auto a = tl::load(k.x + tile, i.row() < 8);  // columns 8..15 undefined
        auto b = tl::load(k.x + tile);
        dot_line = __LINE__; auto c = tl::dot(a, b);
        store_line = __LINE__; tl::store(k.y + tile, c);
      },
      x, y, {1});
  REQUIRE(kinds(r) == std::vector{FindingKind::UndefinedValueUsed, FindingKind::UndefinedValueUsed});
  const tl::Finding& at_dot = r.findings[0];
  CHECK(line_of(r, at_dot) == dot_line);
  CHECK(at_dot.buffer == -1);
  CHECK(at_dot.lanes == 128);  // 16 rows x 8 undefined columns of a
  CHECK(at_dot.examples.at(0).lane == 8);
  CHECK(at_dot.examples.at(0).lane_index == std::vector<int64_t>{0, 8});
  // Every element of c sums over a whole row of a, so all of it is undefined.
  const tl::Finding& at_store = r.findings[1];
  CHECK(line_of(r, at_store) == store_line);
  CHECK(at_store.lanes == 256);
}

TEST_CASE("poison stored: a value from an out-of-bounds load reaches memory", "[findings]") {
  tl::Buffer x = f32("x", 8), y = f32("y", 16);
  int load_line = 0, store_line = 0;
  auto r = launch(
      [&](const K& k) {
        auto lane = tl::arange(0, 16);
        load_line = __LINE__; auto v = tl::load(k.x + lane);
        store_line = __LINE__; tl::store(k.y + lane, v + 1.0f);
      },
      x, y, {1});
  REQUIRE(kinds(r) == std::vector{FindingKind::OutOfBoundsLoad, FindingKind::PoisonStored});
  CHECK(line_of(r, r.findings[0]) == load_line);
  const tl::Finding& f = r.findings[1];
  CHECK(line_of(r, f) == store_line);
  CHECK(buffer_of(r, f) == "y");
  CHECK(f.lanes == 8);
  CHECK(f.examples.at(0).lane == 8);
  CHECK(f.examples.at(0).offset == 8);
}

TEST_CASE("never written: elements of an unwritten output the launch leaves unwritten (a warning)", "[findings]") {
  tl::Buffer x = f32("x", 16), y = f32("y", 16);
  y.mark_unwritten();
  int line = 0;
  auto r = launch(
      [&](const K& k) {
        auto lane = tl::arange(0, 16);
        line = __LINE__; tl::store(k.y + lane, tl::load(k.x + lane), lane < 10);
      },
      x, y, {1});
  REQUIRE(kinds(r) == std::vector{FindingKind::NeverWritten});
  const tl::Finding& f = r.findings[0];
  CHECK(line_of(r, f) == line);
  CHECK(buffer_of(r, f) == "y");
  CHECK(f.lanes == 6);
  REQUIRE(f.examples.size() == 5);
  for (size_t i = 0; i < 5; ++i) CHECK(f.examples[i].offset == 10 + static_cast<int64_t>(i));
  CHECK(std::string(tl::finding_severity(f.kind)) == "warning");
}

TEST_CASE("runtime issue: integer division by zero (a warning)", "[findings]") {
  tl::Buffer x = f32("x", 8), y = f32("y", 8);
  int line = 0;
  auto r = launch(
      [&](const K& k) {
        auto lane = tl::arange(0, 8);
        line = __LINE__; auto q = lane / k.n;
        tl::store(k.y + lane, q.to(tl::f32));
      },
      x, y, {1}, {}, /*n=*/0);
  REQUIRE(kinds(r) == std::vector{FindingKind::RuntimeIssue});
  const tl::Finding& f = r.findings[0];
  CHECK(line_of(r, f) == line);
  CHECK(f.message.find("division") != std::string::npos);
  CHECK(f.examples.at(0).pid == Pid{0, 0, 0});
  CHECK(std::string(tl::finding_severity(f.kind)) == "warning");
  CHECK(r.issues.size() == 1);
}

TEST_CASE("grouping: one finding per op and kind, all lanes and programs counted, at most 5 examples",
          "[findings]") {
  tl::Buffer x = f32("x", 8), y = f32("y", 8 * 16);
  int first = 0, second = 0;
  auto r = launch(
      [&](const K& k) {
        auto lane = tl::arange(0, 16);
        first = __LINE__; auto a = tl::load(k.x + lane);            // lanes 8..15 out of bounds
        second = __LINE__; auto b = tl::load(k.x + 8 + lane / 2);   // every lane out of bounds
        tl::store(k.y + tl::program_id(0) * 16 + lane, a + b, lane < 0);  // stores nothing
      },
      x, y, {8});
  REQUIRE(kinds(r) == std::vector{FindingKind::OutOfBoundsLoad, FindingKind::OutOfBoundsLoad});
  CHECK(line_of(r, r.findings[0]) == first);
  CHECK(r.findings[0].lanes == 8 * 8);
  CHECK(r.findings[0].programs == 8);
  CHECK(line_of(r, r.findings[1]) == second);
  CHECK(r.findings[1].lanes == 8 * 16);
  CHECK(r.findings[1].programs == 8);
  for (const tl::Finding& f : r.findings) CHECK(f.examples.size() == 5);
  CHECK(r.findings[0].examples[0].pid == Pid{0, 0, 0});
  CHECK(r.findings[0].examples[4].pid == Pid{1, 0, 0});
  CHECK(r.oob_loads == 8 * 8 + 8 * 16);
}

TEST_CASE("strict mode stops at the first finding in program order", "[findings]") {
  tl::Buffer x = f32("x", 8), y = f32("y", 64);
  int line = 0;
  auto body = [&](const K& k) {
    auto lane = tl::arange(0, 8);
    line = __LINE__; auto v = tl::load(k.x + tl::program_id(0) + lane);  // program p: lanes 8-p..7 out
    tl::store(k.y + tl::program_id(0) * 8 + lane, v, lane < 8 - tl::program_id(0));
  };
  auto all = launch(body, x, y, {8});
  REQUIRE(all.findings.size() == 1);
  CHECK(all.findings[0].lanes == 1 + 2 + 3 + 4 + 5 + 6 + 7);
  CHECK(all.findings[0].programs == 7);
  CHECK_FALSE(all.stopped);

  for (int threads : {1, 8}) {
    tl::RunOptions opt;
    opt.strict = true;
    opt.threads = threads;
    tl::Buffer ys = f32("y", 64);
    auto r = launch(body, x, ys, {8}, opt);
    INFO("threads " << threads);
    CHECK(r.stopped);
    REQUIRE(kinds(r) == std::vector{FindingKind::OutOfBoundsLoad});
    CHECK(line_of(r, r.findings[0]) == line);
    CHECK(r.findings[0].lanes == 1);
    CHECK(r.findings[0].programs == 1);
    CHECK(r.findings[0].examples.at(0).pid == Pid{1, 0, 0});
    CHECK(r.findings[0].examples.at(0).lane == 7);
    // Programs after the stop did not run: their part of y is untouched.
    CHECK(ys.get(2 * 8) == f32("y", 64).get(2 * 8));
  }
}

TEST_CASE("findings are identical for 1, 2 and 8 threads", "[findings]") {
  auto body = [](const K& k) {
    auto pid = tl::program_id(0);
    auto lane = tl::arange(0, 8);
    auto v = tl::load(k.x + pid * 4 + lane);    // program 15: lanes 4..7 out of bounds
    auto u = tl::load(k.x + lane, lane < 6);    // lanes 6, 7 undefined
    tl::store(k.y + pid * 4 + lane, v + u, pid * 4 + lane < 64);  // neighbours overlap: conflicts
  };
  std::vector<std::string> reference;
  std::vector<double> reference_y;
  for (int threads : {1, 2, 8}) {
    tl::Buffer x = f32("x", 64), y = f32("y", 64);
    tl::RunOptions opt;
    opt.threads = threads;
    auto r = launch(body, x, y, {16}, opt);
    std::vector<double> values;
    for (int64_t i = 0; i < 64; ++i) values.push_back(y.get(i));
    if (threads == 1) {
      reference = describe_all(r.findings);
      reference_y = values;
      // In program order of first appearance: program 0 stores undefined
      // lanes, program 1 overwrites program 0, program 15 reads past x.
      REQUIRE(kinds(r) == std::vector{FindingKind::UndefinedValueUsed, FindingKind::WriteConflict,
                                      FindingKind::OutOfBoundsLoad});
      continue;
    }
    INFO("threads " << threads);
    CHECK(describe_all(r.findings) == reference);
    CHECK(values == reference_y);
  }
}

TEST_CASE("findings are copied into the trace, their examples pointing at the traced events", "[findings]") {
  tl::Buffer x = f32("x", 8), y = f32("y", 32);
  tl::RunOptions opt;
  opt.trace = tl::TraceMode::Full;
  auto r = launch(
      [](const K& k) {
        auto lane = tl::arange(0, 16);
        auto v = tl::load(k.x + lane);
        tl::store(k.y + tl::program_id(0) * 16 + lane, v, lane < 8);
      },
      x, y, {2}, opt);
  REQUIRE(r.trace);
  REQUIRE(r.findings.size() == 1);
  CHECK(describe_all(r.trace->findings) == describe_all(r.findings));
  for (const tl::FindingExample& e : r.trace->findings[0].examples) {
    const tl::ProgramTrace* program = nullptr;
    for (const tl::ProgramTrace& p : r.trace->programs)
      if (p.pid == e.pid) program = &p;
    REQUIRE(program);
    REQUIRE(e.event >= 0);
    const tl::Event& ev = program->events.at(static_cast<size_t>(e.event));
    CHECK(ev.kind == tl::EventKind::Load);
    CHECK(ev.loc == r.findings[0].loc);
    CHECK(ev.lanes.at(static_cast<size_t>(e.lane)) == tl::LaneState::OutOfBounds);
  }
}

TEST_CASE("format_finding reads like a compiler diagnostic: file:line:col: error:, the line, a caret",
          "[findings]") {
  tl::Buffer x = f32("x", 10), y = f32("y", 16);
  int line = 0;
  auto r = launch(
      [&](const K& k) {
        auto off = tl::program_id(0) * 8 + tl::arange(0, 8);
        line = __LINE__; auto v = tl::load(k.x + off);
        tl::store(k.y + off, v, off < 10);
      },
      x, y, {2});
  REQUIRE(r.findings.size() == 1);
  const tl::SrcLoc& loc = r.locations.at(static_cast<size_t>(r.findings[0].loc));
  std::string text = tl::format_finding(r.findings[0], tl::context_of(r));
  INFO(text);
  const std::string head = loc.str() + ": error: out-of-bounds load from x in program (1, 0, 0), lane [2]";
  CHECK(text.rfind(head, 0) == 0);
  CHECK(text.find("test_findings.cpp:" + std::to_string(line) + ":") != std::string::npos);
  CHECK(text.find("element offset 10 is outside [0, 10)") != std::string::npos);
  CHECK(text.find("\n  " + tl::source_line(loc.file, loc.line) + "\n") != std::string::npos);
  CHECK(text.find("^") != std::string::npos);
  CHECK(text.find("6 lanes in 1 program") != std::string::npos);
  CHECK(text.find("buffer x: f32[10]") != std::string::npos);
  std::string all = tl::format_findings(r.findings, tl::context_of(r));
  CHECK(all.find("1 finding (1 error) in kernel 'findings_kernel'") != std::string::npos);
  CHECK(tl::format_findings({}, tl::context_of(r)).empty());
}

TEST_CASE("where(mask, v, 0) after a masked load without `other` defines the lanes: no finding", "[findings]") {
  tl::Buffer x = f32("x", 8), y = f32("y", 8);
  auto r = launch(
      [](const K& k) {
        auto lane = tl::arange(0, 8);
        auto v = tl::where(lane < 5, tl::load(k.x + lane, lane < 5), 0.0f);
        tl::store(k.y + lane, v + tl::sum(v) + tl::max(v));
      },
      x, y, {1});
  CHECK(r.findings.empty());
  // Without the where() the same kernel is flagged (the test above is not vacuous).
  tl::Buffer y2 = f32("y", 8);
  auto flagged = launch(
      [](const K& k) {
        auto lane = tl::arange(0, 8);
        auto v = tl::load(k.x + lane, lane < 5);
        tl::store(k.y + lane, v + tl::sum(v) + tl::max(v));
      },
      x, y2, {1});
  CHECK_FALSE(flagged.findings.empty());
}

TEST_CASE("undefined lanes carried through a loop reach the store", "[findings]") {
  tl::Buffer x = f32("x", 8), y = f32("y", 8);
  auto r = launch(
      [](const K& k) {
        auto lane = tl::arange(0, 8);
        auto acc = tl::zeros({8}, tl::f32);
        for (auto i : tl::range(0, 2)) {
          (void)i;
          acc = acc + tl::load(k.x + lane, lane < 5);
        }
        tl::store(k.y + lane, acc);
      },
      x, y, {1});
  REQUIRE(kinds(r) == std::vector{FindingKind::UndefinedValueUsed});
  CHECK(r.findings[0].lanes == 3);
}

TEST_CASE("undefined lanes assigned inside if_ reach the store", "[findings]") {
  tl::Buffer x = f32("x", 8), y = f32("y", 8);
  auto r = launch(
      [](const K& k) {
        auto lane = tl::arange(0, 8);
        auto v = tl::zeros({8}, tl::f32);
        tl::if_(k.n == 0, [&] { v = tl::load(k.x + lane, lane < 5); });
        tl::store(k.y + lane, v);
      },
      x, y, {1});
  REQUIRE(kinds(r) == std::vector{FindingKind::UndefinedValueUsed});
  CHECK(r.findings[0].lanes == 3);
}
