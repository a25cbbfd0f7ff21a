// The value findings on tiny inline kernels: integer overflow in
// index arithmetic, shift counts out of range, value-changing conversions
// and inputs never read. Each reports its line, program, lane and the
// lane's values; what is not a bug (wrapping hash arithmetic, casts that
// keep the value, an input read whole) reports nothing.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "error.h"
#include "findings_fixture.h"

using namespace findings_fixture;

namespace {

std::string text_of(const tl::RunResult& r) { return tl::format_findings(r.findings, tl::context_of(r)); }

std::string severity(const tl::Finding& f) { return tl::finding_severity(f.kind); }

}  // namespace

TEST_CASE("index overflow: pid * S wraps in program 2 and feeds a pointer offset", "[findings][values]") {
  tl::Buffer x = f32("x", 8), y = f32("y", 24);
  int line = 0;
  auto r = launch(
      [&](const K& k) {
        auto lane = tl::arange(0, 8);
        line = __LINE__; auto base = tl::program_id(0) * k.n;
        // base - base is 0 however base wrapped: the access stays in bounds,
        // so only the overflow finding can tell.
        auto v = tl::load(k.x + (base - base) + lane);
        tl::store(k.y + tl::program_id(0) * 8 + lane, v);
      },
      x, y, {3}, {}, /*n=*/int64_t{1} << 30);
  INFO(text_of(r));
  REQUIRE(kinds(r) == std::vector{FindingKind::IndexOverflow});
  const tl::Finding& f = r.findings[0];
  CHECK(line_of(r, f) == line);
  CHECK(f.lanes == 1);
  CHECK(f.programs == 1);
  CHECK(f.message == "i32 multiply");
  CHECK(f.examples.at(0).pid == Pid{2, 0, 0});
  CHECK(f.examples.at(0).lane == 0);
  CHECK(f.examples.at(0).detail == "2 * 1073741824 = 2147483648, wraps to -2147483648");
  CHECK(severity(f) == "error");
  CHECK(text_of(r).find("error: integer overflow in i32 multiply feeding a pointer offset in program (2, 0, 0): "
                        "2 * 1073741824 = 2147483648, wraps to -2147483648") != std::string::npos);
}

TEST_CASE("index overflow: per lane, through adds and shifts, with both operands", "[findings][values]") {
  tl::Buffer x = f32("x", 8), y = f32("y", 8);
  int line = 0;
  auto r = launch(
      [&](const K& k) {
        auto lane = tl::arange(0, 8);
        line = __LINE__; auto big = (lane + k.n) << 28;  // lanes with lane + n >= 8 pass 2^31
        tl::store(k.y + lane, tl::load(k.x + lane + (big >> 31) * 0));
      },
      x, y, {1}, {}, /*n=*/5);
  INFO(text_of(r));
  REQUIRE(kinds(r) == std::vector{FindingKind::IndexOverflow});
  const tl::Finding& f = r.findings[0];
  CHECK(line_of(r, f) == line);
  CHECK(f.message == "i32 left shift");
  CHECK(f.lanes == 5);  // lanes 3..7: 8..12 << 28
  CHECK(f.examples.at(0).lane == 3);
  CHECK(f.examples.at(0).lane_index == std::vector<int64_t>{3});
  CHECK(f.examples.at(0).detail == "8 << 28 = 2147483648, wraps to -2147483648");
}

TEST_CASE("wrapping arithmetic that reaches no pointer offset, or only through % or a mask, is not flagged",
          "[findings][values]") {
  tl::Buffer x = f32("x", 8), y = f32("y", 8);
  auto r = launch(
      [&](const K& k) {
        auto lane = tl::arange(0, 8);
        auto h = (lane + 1) * 2147483647;           // a hash: wraps on purpose
        auto slot = (h & 0x7fffffff) % 8;           // ... and is reduced before it indexes
        auto v = tl::load(k.x + slot) + (h * 3).to(tl::f32);  // a wrapped value as data
        tl::store(k.y + lane, v);
      },
      x, y, {1});
  INFO(text_of(r));
  CHECK(r.findings.empty());
}

TEST_CASE("shift count out of range: its own kind per lane, the note kept", "[findings][values]") {
  tl::Buffer x = f32("x", 8), y = f32("y", 8);
  int line = 0;
  auto r = launch(
      [&](const K& k) {
        auto lane = tl::arange(0, 8);
        line = __LINE__; auto a = (lane * 0 + k.n) >> (lane * 5);
        auto b = (lane + 1) << (lane - 1);
        tl::store(k.y + lane, (a | b).to(tl::f32));
      },
      x, y, {1}, {}, /*n=*/-7);
  INFO(text_of(r));
  REQUIRE(kinds(r) == std::vector{FindingKind::ShiftOutOfRange, FindingKind::ShiftOutOfRange});
  const tl::Finding& right = r.findings[0];
  CHECK(line_of(r, right) == line);
  CHECK(right.message == "i32 right shift");
  CHECK(right.lanes == 1);  // lane 7: count 35
  CHECK(right.examples.at(0).lane == 7);
  CHECK(right.examples.at(0).detail == "-7 >> 35: the count is not below the width 32");
  const tl::Finding& left = r.findings[1];
  CHECK(left.message == "i32 left shift");
  CHECK(line_of(r, left) == line + 1);
  CHECK(left.lanes == 1);  // lane 0: count -1
  CHECK(left.examples.at(0).detail == "1 << -1: the count is negative");
  CHECK(severity(right) == "error");
  CHECK(r.issues.size() == 2);  // the runtime notes stay, without a RuntimeIssue finding
  CHECK(text_of(r).find("error: shift count out of range in i32 right shift in program (0, 0, 0), lane [7]") !=
        std::string::npos);
}

TEST_CASE("lossy integer conversion: dropped bits and a changed sign, as a warning", "[findings][values]") {
  tl::Buffer x = f32("x", 8), y = f32("y", 8);
  int narrow = 0, sign = 0;
  auto r = launch(
      [&](const K& k) {
        auto lane = tl::arange(0, 8);
        narrow = __LINE__; auto a = (lane * 100).to(tl::i8);  // 200.. do not fit
        sign = __LINE__; auto b = (lane - 4).to(tl::u32);     // -4..-1 change sign
        auto c = lane.to(tl::i8).to(tl::i64).to(tl::u8);      // values kept: nothing
        tl::store(k.y + lane, a.to(tl::f32) + b.to(tl::f32) + c.to(tl::f32));
      },
      x, y, {1});
  INFO(text_of(r));
  REQUIRE(kinds(r) == std::vector{FindingKind::LossyIntCast, FindingKind::LossyIntCast});
  const tl::Finding& a = r.findings[0];
  CHECK(line_of(r, a) == narrow);
  CHECK(a.message == "from i32 to i8");
  CHECK(a.lanes == 6);
  CHECK(a.examples.at(0).lane == 2);
  CHECK(a.examples.at(0).detail == "200 becomes -56");
  const tl::Finding& b = r.findings[1];
  CHECK(line_of(r, b) == sign);
  CHECK(b.message == "from i32 to u32");
  CHECK(b.lanes == 4);
  CHECK(b.examples.at(0).detail == "-4 becomes 4294967292");
  CHECK(severity(a) == "warning");
  CHECK(text_of(r).find("warning: conversion from i32 to i8 changes the value in program (0, 0, 0), lane [2]: "
                        "200 becomes -56") != std::string::npos);
}

TEST_CASE("float to int out of range or NaN is an error, f32 to f16 overflow to inf a warning",
          "[findings][values]") {
  tl::Buffer x = f32("x", 8), y = f32("y", 8);
  int big = 0, nan = 0, half = 0;
  auto r = launch(
      [&](const K& k) {
        auto lane = tl::arange(0, 8);
        auto f = lane.to(tl::f32);
        big = __LINE__; auto a = (f * 1e10f).to(tl::i32);        // lanes 1..7 out of range
        nan = __LINE__; auto b = tl::log(f - 5.5f).to(tl::i64);  // lanes 0..5: log of a negative is NaN
        half = __LINE__; auto c = (f * 20000.0f).to(tl::f16);    // lanes 4..7: 80000.. > 65504
        tl::store(k.y + lane, a.to(tl::f32) + b.to(tl::f32) + c.to(tl::f32));
      },
      x, y, {1});
  INFO(text_of(r));
  REQUIRE(kinds(r) == std::vector{FindingKind::FloatToIntOutOfRange, FindingKind::FloatToIntOutOfRange,
                                  FindingKind::FloatCastOverflow});
  const tl::Finding& a = r.findings[0];
  CHECK(line_of(r, a) == big);
  CHECK(a.lanes == 7);
  CHECK(a.examples.at(0).lane == 1);
  CHECK(a.examples.at(0).detail == "1e+10 saturates to 2147483647");
  CHECK(severity(a) == "error");
  const tl::Finding& b = r.findings[1];
  CHECK(line_of(r, b) == nan);
  CHECK(b.message == "from f32 to i64");
  CHECK(b.lanes == 6);
  CHECK(b.examples.at(0).detail == "NaN becomes 0");
  const tl::Finding& c = r.findings[2];
  CHECK(line_of(r, c) == half);
  CHECK(c.message == "from f32 to f16");
  CHECK(c.lanes == 4);
  CHECK(c.examples.at(0).lane == 4);
  CHECK(c.examples.at(0).detail == "80000 becomes inf");
  CHECK(severity(c) == "warning");
}

TEST_CASE("input never read: the count and the region, only when asked for", "[findings][values]") {
  tl::Buffer x("x", tl::DType::f32, {4, 8}), y = f32("y", 32);
  int line = 0;
  auto body = [&](const K& k) {
    auto row = tl::arange(0, 4);
    auto col = tl::arange(0, 8);
    auto off = row.col() * 8 + col.row();
    line = __LINE__; auto v = tl::load(k.x + off, col.row() < k.n, 0.0f);  // columns n.. never read
    tl::store(k.y + off, v);
  };
  tl::RunOptions opt;
  opt.check_unread_inputs = true;
  auto r = launch(body, x, y, {1}, opt, /*n=*/6);
  INFO(text_of(r));
  REQUIRE(kinds(r) == std::vector{FindingKind::InputNeverRead});
  const tl::Finding& f = r.findings[0];
  CHECK(line_of(r, f) == line);
  CHECK(buffer_of(r, f) == "x");
  CHECK(f.lanes == 8);
  CHECK(f.message == "x[:, 6:8]");
  CHECK(f.examples.at(0).offset == 6);
  CHECK(severity(f) == "warning");
  CHECK(text_of(r).find("warning: 8 elements of input x never read by kernel 'findings_kernel': x[:, 6:8]") !=
        std::string::npos);
  // Not asked for: nothing. Read whole: nothing.
  CHECK(launch(body, x, y, {1}, {}, 6).findings.empty());
  CHECK(launch(body, x, y, {1}, opt, 8).findings.empty());
  // Unread elements that do not fill their bounding box say "within".
  auto odd = launch(
      [&](const K& k) {
        auto i = tl::arange(0, 16);
        tl::store(k.y + i, tl::load(k.x + i * 2));  // even elements only
      },
      x, y, {1}, opt);
  REQUIRE(kinds(odd) == std::vector{FindingKind::InputNeverRead});
  CHECK(odd.findings[0].lanes == 16);
  CHECK(odd.findings[0].message == "within x[:, 1:8]");
}

TEST_CASE("the new kinds are named, round-trip through the trace JSON and keep their detail",
          "[findings][values]") {
  tl::Buffer x = f32("x", 8), y = f32("y", 24);
  tl::RunOptions opt;
  opt.trace = tl::TraceMode::Full;
  auto r = launch(
      [&](const K& k) {
        auto lane = tl::arange(0, 8);
        auto base = tl::program_id(0) * k.n;
        tl::store(k.y + tl::program_id(0) * 8 + lane, tl::load(k.x + (base - base) + lane));
      },
      x, y, {3}, opt, int64_t{1} << 30);
  REQUIRE(r.trace);
  REQUIRE(r.trace->findings.size() == 1);
  tl::Trace back = tl::trace_from_json(tl::trace_to_json(*r.trace));
  REQUIRE(back.findings.size() == 1);
  CHECK(back.findings[0].kind == FindingKind::IndexOverflow);
  CHECK(back.findings[0].examples.at(0).detail == "2 * 1073741824 = 2147483648, wraps to -2147483648");
  CHECK(std::string(tl::finding_kind_name(FindingKind::IndexOverflow)) == "integer overflow in index arithmetic");
  CHECK(std::string(tl::finding_kind_name(FindingKind::InputNeverRead)) == "input never read");
}
