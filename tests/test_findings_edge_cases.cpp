// Sanitizer edge cases, each first found as a bug with this minimal
// reproducer: strict stops, programs counted once per finding,
// never-written findings at their own buffer's store and only for buffers
// the kernel writes, and plain stores racing with atomics.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "findings_fixture.h"

using namespace findings_fixture;

// After a strict stop, add_never_written still reports every element the
// unfinished launch did not reach (here y[16..31]) as a second finding.
TEST_CASE("strict mode reports only the first finding, not what the stop left unwritten",
          "[findings]") {
  tl::Buffer x = f32("x", 20), y = f32("y", 32);
  y.mark_unwritten();
  tl::RunOptions opt;
  opt.strict = true;
  auto r = launch(
      [](const K& k) {
        auto off = tl::program_id(0) * 8 + tl::arange(0, 8);
        tl::store(k.y + off, tl::load(k.x + off));  // program 2 reads x[20..23]
      },
      x, y, {4}, opt);
  CHECK(r.stopped);
  INFO(tl::format_findings(r.findings, tl::context_of(r)));
  CHECK(kinds(r) == std::vector{FindingKind::OutOfBoundsLoad});
}

// group_findings adds 1 to `programs` per raw finding, and a program has one
// raw finding per step: two loads on one line (a helper) count it twice.
TEST_CASE("a finding counts distinct programs, even when two ops share a source line",
          "[findings]") {
  tl::Buffer x = f32("x", 8), y = f32("y", 8);
  auto r = launch(
      [](const K& k) {
        auto load_at = [](const tl::Tensor& p) { return tl::load(p); };  // both loads get this line
        auto lane = tl::arange(0, 8);
        auto a = load_at(k.x + 4 + lane);  // lanes 4..7 out of bounds
        auto b = load_at(k.x + 8 + lane);  // every lane out of bounds
        tl::store(k.y + lane, a + b, lane < 0);
      },
      x, y, {1});
  REQUIRE(kinds(r) == std::vector{FindingKind::OutOfBoundsLoad});
  CHECK(r.findings[0].lanes == 12);
  CHECK(r.findings[0].programs == 1);  // a grid of one program
}

// add_never_written points at the kernel's first store to any buffer (here
// the store to x), not at a store to the buffer left unwritten.
TEST_CASE("a never-written finding points at a store to its own buffer",
          "[findings]") {
  tl::Buffer x = f32("x", 8), y = f32("y", 8);
  x.mark_unwritten();
  y.mark_unwritten();
  int y_line = 0;
  auto r = launch(
      [&](const K& k) {
        auto lane = tl::arange(0, 8);
        tl::store(k.x + lane, 1.0f);                     // x: all written
        y_line = __LINE__; tl::store(k.y + lane, 2.0f, lane < 4);  // y: half
      },
      x, y, {1});
  REQUIRE(kinds(r) == std::vector{FindingKind::NeverWritten});
  CHECK(buffer_of(r, r.findings[0]) == "y");
  CHECK(line_of(r, r.findings[0]) == y_line);
}

// Code and docs disagree: trace.h and buffer.h say NeverWritten covers buffers
// the launch stores to, but any buffer marked unwritten is reported, even one
// the kernel only reads (and at another buffer's store).
TEST_CASE("no never-written finding for an unwritten buffer the kernel only reads",
          "[findings]") {
  tl::Buffer x = f32("x", 8), y = f32("y", 8);
  y.mark_unwritten();
  auto r = launch(
      [](const K& k) {
        auto lane = tl::arange(0, 8);
        tl::store(k.x + lane, tl::load(k.y + lane, lane < 0, 0.0f));  // reads nothing of y
      },
      x, y, {1});
  INFO(tl::format_findings(r.findings, tl::context_of(r)));
  CHECK(r.findings.empty());
}

// A false negative: atomics skip conflict tracking altogether, so a plain
// store racing with another program's atomic_add on one element (on a GPU
// the result is 1 or 2) is not reported.
TEST_CASE("a plain store and another program's atomic_add to one element conflict",
          "[findings]") {
  tl::Buffer x = f32("x", 8), y = f32("y", 8);
  auto r = launch(
      [](const K& k) {
        auto lane = tl::arange(0, 8);
        auto first = tl::broadcast_to(tl::program_id(0) == 0, {8});
        tl::store(k.y + lane, 1.0f, first);              // program 0
        tl::atomic_add(k.y + lane, 1.0f, first == false);  // program 1
      },
      x, y, {2});
  INFO(tl::format_findings(r.findings, tl::context_of(r)));
  CHECK(kinds(r) == std::vector{FindingKind::WriteConflict});
}
