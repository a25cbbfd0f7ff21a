// Broadcasts read in place by the op that consumes them (exec_fuse.cpp),
// tiles logged as one 2-D span and swept as rectangles (exec_spans.cpp),
// and runs of fused or hoisted steps passed over at once (the run loop):
// none of them may change a result or a finding. Each case runs a kernel
// with fusion on and off, on one and two threads, and compares everything
// the launch reports. (The fusion golden test covers every puzzle, example
// and broken kernel the same way; these pin the paths those rarely take:
// a wrap or a tainted lane behind a fused broadcast, and conflicts between
// 2-D tiles.)
#include <catch2/catch.hpp>
#include <functional>
#include <string>

#include "findings_fixture.h"
#include "interpreter.h"
#include "tl.h"

namespace {

using tl::DType;

// x: i32[16] = 0..15, y: f32[16] = 100..115, out: f32[256] (16 x 16).
std::function<void(tl::Ptr, tl::Ptr, tl::Ptr, tl::Int, tl::Int)> g_body;
void kernel(tl::Ptr x, tl::Ptr y, tl::Ptr out, tl::Int n, tl::Int scale) { g_body(x, y, out, n, scale); }

struct Outcome {
  tl::RunResult r;
  std::string out;
  std::string findings;
  std::string plan;
};

Outcome launch(bool fuse, int threads, int64_t n, int64_t scale, tl::Grid grid = {2, 2, 1}) {
  tl::Buffer x("x", DType::i32, {16}), y("y", DType::f32, {16}), out("out", DType::f32, {256});
  for (int i = 0; i < 16; ++i) {
    x.set(i, i);
    y.set(i, 100 + i);
  }
  tl::KernelDef k("broadcast_fusion", kernel);
  tl::RunOptions opt;
  opt.fuse = fuse;
  opt.threads = threads;
  Outcome o;
  o.r = tl::run(k, grid, {x, y, out, n, scale}, opt);
  for (int i = 0; i < 256; ++i) o.out += std::to_string(out.get(i)) + " ";
  for (const std::string& f : findings_fixture::describe_all(o.r.findings)) o.findings += f + "\n";
  o.plan = tl::print_plan(*tl::build_ir(k, {x, y, out, n, scale}), fuse);
  return o;
}

int64_t lanes_of(const tl::RunResult& r, tl::FindingKind kind) {
  int64_t n = 0;
  for (const tl::Finding& f : r.findings)
    if (f.kind == kind) n += f.lanes;
  return n;
}

// Every launch of `body` reports the same with fusion on and off, on one
// and two threads; returns the fused one-thread outcome.
Outcome same_everywhere(int64_t n, int64_t scale, tl::Grid grid = {2, 2, 1}) {
  Outcome ref = launch(false, 1, n, scale, grid);
  Outcome fused = launch(true, 1, n, scale, grid);
  for (int threads : {1, 2})
    for (bool fuse : {false, true}) {
      INFO("threads " << threads << ", fusion " << (fuse ? "on" : "off"));
      Outcome o = launch(fuse, threads, n, scale, grid);
      CHECK(o.out == ref.out);
      CHECK(o.findings == ref.findings);
      CHECK(o.r.max_program_steps == ref.r.max_program_steps);
    }
  return fused;
}

// An 8 x 8 tile per program of a 16 x 16 output: x down the rows, y along
// the columns, and the offsets as `row * scale + col` (scale 16 is the
// plain row-major layout).
void outer_body(tl::Ptr x, tl::Ptr y, tl::Ptr out, tl::Int n, tl::Int scale) {
  auto rows = tl::program_id(0) * 8 + tl::arange(0, 8);
  auto cols = tl::program_id(1) * 8 + tl::arange(0, 8);
  auto xv = tl::load(x + rows, rows < n);
  auto yv = tl::load(y + cols, cols < n);
  auto mask = (rows.col() < n) & (cols.row() < n);
  auto v = tl::maximum(xv.col().to(tl::f32) * 2.0f - yv.row(), yv.row() - 200.0f);
  tl::store(out + (rows.col() * scale + cols.row()), v + (xv.col() < 4).to(tl::f32), mask);
}

}  // namespace

TEST_CASE("ops reading broadcasts in place compute what the materialized tiles compute") {
  g_body = outer_body;
  Outcome o = same_everywhere(16, 16);
  CHECK(o.findings.empty());
  CHECK(o.plan.find("reads broadcast sources in place") != std::string::npos);
  CHECK(o.plan.find("fused into") != std::string::npos);
  // Spot values: out[r][c] = max(2r - (100 + c), c - 100) + (r < 4).
  CHECK(o.out.substr(0, o.out.find(' ')) == std::to_string(-99.0f));
}

TEST_CASE("ragged edges: masked lanes around fused broadcasts change nothing") {
  g_body = outer_body;
  Outcome o = same_everywhere(13, 16);
  CHECK(o.findings.empty());
}

namespace {

// Offsets row * scale + col * scale: each product fits i32 for scale 2^27,
// their sum wraps where row + col >= 16 (in the add reading two
// broadcasts in place).
void wide_body(tl::Ptr x, tl::Ptr y, tl::Ptr out, tl::Int n, tl::Int scale) {
  (void)x;
  auto rows = tl::program_id(0) * 8 + tl::arange(0, 8);
  auto cols = tl::program_id(1) * 8 + tl::arange(0, 8);
  auto yv = tl::load(y + cols, cols < n);
  tl::store(out + (rows.col() * scale + cols.row() * scale), yv.row() + 1.0f);
}

}  // namespace

TEST_CASE("an index op reading broadcasts in place still reports every wrapped lane") {
  SECTION("a product of a broadcast") {
    g_body = outer_body;
    // row * 2^28 wraps i32 from row 8 on: the 8 rows of the [8, 1] product
    // in programs (1, 0) and (1, 1).
    Outcome o = same_everywhere(16, int64_t{1} << 28);
    CHECK(lanes_of(o.r, tl::FindingKind::IndexOverflow) == 2 * 8);
    CHECK(o.findings.find("wraps") != std::string::npos);
  }
  SECTION("a sum of two broadcasts") {
    g_body = wide_body;
    // Lanes with row + col >= 16: 1 + 2 + ... + 15.
    Outcome o = same_everywhere(16, int64_t{1} << 27);
    CHECK(lanes_of(o.r, tl::FindingKind::IndexOverflow) == 120);
  }
}

namespace {

// The loads leave lanes past n undefined (no `other`); the broadcasts of
// those lanes reach the store, which must report them as before.
void tainted_body(tl::Ptr x, tl::Ptr y, tl::Ptr out, tl::Int n, tl::Int scale) {
  auto rows = tl::program_id(0) * 8 + tl::arange(0, 8);
  auto cols = tl::program_id(1) * 8 + tl::arange(0, 8);
  auto xv = tl::load(x + rows, rows < n).to(tl::f32);
  auto yv = tl::load(y + cols, cols < n);
  tl::store(out + rows.col() * scale + cols.row(), xv.col() + yv.row());
}

}  // namespace

TEST_CASE("a tainted broadcast source is materialized and its undefined lanes are reported as before") {
  g_body = tainted_body;
  Outcome o = same_everywhere(12, 16);
  // Rows 12..15 (all 16 columns) and columns 12..15 of rows 0..11.
  CHECK(lanes_of(o.r, tl::FindingKind::UndefinedValueUsed) == 4 * 16 + 12 * 4);
}

namespace {

// Each program stores an 8 x 8 tile at (pid0 * step, pid1 * 8): with step
// 8 the tiles tile the output; with step 4 the tiles of pid0 0 and 1
// overlap on rows 4..7.
void tiles_body(tl::Ptr x, tl::Ptr y, tl::Ptr out, tl::Int step, tl::Int scale) {
  (void)x;
  auto rows = tl::program_id(0) * step + tl::arange(0, 8);
  auto cols = tl::program_id(1) * 8 + tl::arange(0, 8);
  auto yv = tl::load(y + cols);
  tl::store(out + rows.col() * scale + cols.row(), yv.row() + rows.col().to(tl::f32));
}

// One program stores its tile twice: its own rows overlap, which is no
// conflict (only two programs on one element are).
void twice_body(tl::Ptr x, tl::Ptr y, tl::Ptr out, tl::Int n, tl::Int scale) {
  (void)x;
  (void)n;
  auto rows = tl::program_id(0) * 8 + tl::arange(0, 8);
  auto cols = tl::program_id(1) * 8 + tl::arange(0, 8);
  auto yv = tl::load(y + cols);
  auto p = out + rows.col() * scale + cols.row();
  tl::store(p, yv.row());
  tl::store(p, yv.row() + 1.0f);
}

}  // namespace

TEST_CASE("tiles stored row by row meet or not exactly as element by element") {
  g_body = tiles_body;
  SECTION("disjoint tiles: no conflict") {
    Outcome o = same_everywhere(8, 16);
    CHECK(lanes_of(o.r, tl::FindingKind::WriteConflict) == 0);
  }
  SECTION("overlapping tiles: a write conflict on the shared rows") {
    Outcome o = same_everywhere(4, 16);
    CHECK(lanes_of(o.r, tl::FindingKind::WriteConflict) == 2 * 4 * 8);
  }
  SECTION("tiles that touch at a corner of a wider grid: no conflict") {
    // scale 24: each tile row is 8 of a 24-column grid, rows 8 apart.
    Outcome o = same_everywhere(8, 24, {2, 1, 1});
    CHECK(lanes_of(o.r, tl::FindingKind::WriteConflict) == 0);
  }
}

TEST_CASE("a program storing its own tile twice is no conflict") {
  g_body = twice_body;
  Outcome o = same_everywhere(16, 16);
  CHECK(o.findings.empty());
}
