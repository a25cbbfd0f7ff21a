// The viewer's state logic, without a window: N-D layouts, where lanes are
// drawn, event -> cells and colors, selecting programs and stepping events.
#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>

#include "model_cursor.h"
#include "model_document.h"
#include "model_event_cells.h"
#include "model_grid_image.h"
#include "model_layout.h"
#include "model_placement.h"
#include "model_trace_index.h"
#include "registry.h"
#include "viz_test_kernels.h"

namespace {

using tl::EventKind;
using tl::LaneState;
using viz::Cell;
using viz::CellMark;

tl::TraceBuffer dense_buffer(std::string name, std::vector<int64_t> shape) {
  tl::TraceBuffer b;
  b.name = std::move(name);
  b.shape = std::move(shape);
  b.strides.assign(b.shape.size(), 1);
  for (size_t d = b.shape.size(); d-- > 1;) b.strides[d - 1] = b.strides[d] * b.shape[d];
  b.extent = 1;
  for (int64_t n : b.shape) b.extent *= n;
  return b;
}

tl::Event memory_event(EventKind kind, int buffer, tl::ir::Shape shape, std::vector<int64_t> offsets,
                       std::vector<LaneState> lanes) {
  tl::Event e;
  e.kind = kind;
  e.buffer = buffer;
  e.shape = std::move(shape);
  e.offsets = std::move(offsets);
  e.lanes = std::move(lanes);
  return e;
}

// Puzzle 4's reference solution, traced (canonical sizes: z is [90, 100]).
const viz::ViewerDocument& puzzle4() {
  static const viz::ViewerDocument doc = viz::open_puzzle(*puzzles::find_puzzle("4"), {});
  return doc;
}

const tl::Event& event_of(const tl::Trace& t, viz::Pid pid, int event) {
  for (const tl::ProgramTrace& p : t.programs)
    if (p.pid == pid) return p.events.at(event);
  FAIL("program not traced");
  throw;
}

}  // namespace

TEST_CASE("layouts: 1-D strips wrap, 2-D is rows x cols, 3-D shows one slice") {
  const viz::GridLayout strip = viz::default_layout(dense_buffer("x", {200}));
  CHECK(strip.kind == viz::LayoutKind::Strip);
  CHECK(strip.wrap == 32);
  CHECK(strip.rows() == 7);
  CHECK(strip.cols() == 32);
  CHECK(strip.cell_of({199}) == Cell{6, 7});
  CHECK(strip.inside({6, 7}));
  CHECK_FALSE(strip.inside({6, 8}));         // past the last element of the last row
  CHECK(strip.cell_of({-1}) == Cell{-1, 31});  // before the start: the row above
  CHECK(strip.offset_at({2, 3}) == 67);

  const viz::GridLayout m = viz::default_layout(dense_buffer("z", {90, 100}));
  CHECK(m.kind == viz::LayoutKind::Matrix);
  CHECK(m.rows() == 90);
  CHECK(m.cols() == 100);
  CHECK(m.cell_of({5, 120}) == Cell{5, 120});  // any index, even past the edge
  CHECK_FALSE(m.inside({5, 100}));
  CHECK(m.offset_at({2, 3}) == 203);
  CHECK(m.index_at({2, 3}) == std::vector<int64_t>{2, 3});

  viz::GridLayout cube = viz::default_layout(dense_buffer("t", {4, 5, 6}));
  CHECK(cube.row_axis == 1);
  CHECK(cube.col_axis == 2);
  CHECK(cube.slice_axes() == std::vector<int>{0});
  CHECK(cube.cell_of({0, 2, 3}) == Cell{2, 3});
  CHECK_FALSE(cube.cell_of({1, 2, 3}));  // another slice
  cube.slice[0] = 3;
  CHECK(cube.offset_at({1, 2}) == 3 * 30 + 1 * 6 + 2);
  // Any two axes of a 4-D buffer; the other two are fixed.
  viz::GridLayout four = viz::default_layout(dense_buffer("w", {2, 3, 4, 5}));
  four.row_axis = 0;
  four.col_axis = 2;
  four.slice = {0, 1, 0, 4};
  CHECK(four.cell_of({1, 1, 3, 4}) == Cell{1, 3});
  CHECK_FALSE(four.cell_of({1, 2, 3, 4}));
  CHECK(four.offset_at({1, 3}) == 1 * 60 + 1 * 20 + 3 * 5 + 4);
}

TEST_CASE("layouts: strided views are drawn by storage offset") {
  tl::TraceBuffer view = dense_buffer("v", {4, 3});
  view.strides = {8, 2};
  view.extent = 31;
  CHECK_FALSE(viz::is_dense_row_major(view));
  const viz::GridLayout g = viz::default_layout(view);
  CHECK(g.by_storage);
  CHECK(g.shape == std::vector<int64_t>{31});
  CHECK(g.elements() == 31);
  CHECK(viz::unravel_unbounded(-3, {4, 10}) == std::vector<int64_t>{-1, 7});
  CHECK(viz::unravel_unbounded(45, {4, 10}) == std::vector<int64_t>{4, 5});
}

TEST_CASE("lanes that touched nothing are drawn where the kernel meant them: past the edge") {
  const tl::Trace& t = *puzzle4().trace;
  const tl::Event& store = event_of(t, {3, 2, 0}, 2);
  REQUIRE(store.kind == EventKind::Store);
  const viz::GridLayout g = viz::default_layout(t.buffers[2]);
  const viz::LanePlacement placed = viz::place_lanes(store, g);
  CHECK(placed.affine);
  // Tile lane (r, c) of program (3, 2) means z[64 + r, 96 + c].
  for (int64_t lane = 0; lane < 32 * 32; ++lane) {
    const int64_t r = lane / 32, c = lane % 32;
    CHECK(placed.lane_index(lane) == std::vector<int64_t>{64 + r, 96 + c});
  }
  // Its masked lane (0, 4) has offset 6500, which is z[65, 0] in memory; it
  // is drawn at column 100, just right of the tensor, not on z[65, 0].
  CHECK(store.offsets[4] == 6500);
  CHECK(store.lanes[4] == LaneState::Masked);
}

TEST_CASE("active lanes are drawn on the element they touched, even if that wraps a row") {
  // A 2x4 tile over a 3x3 buffer, offsets r * 3 + c: the kernel forgot the
  // column mask on lane (0, 3), which writes offset 3, that is [1, 0].
  tl::Event e = memory_event(EventKind::Store, 0, {2, 4}, {0, 1, 2, 3, 3, 4, 5, 6},
                             {LaneState::Active, LaneState::Active, LaneState::Active, LaneState::Active,
                              LaneState::Active, LaneState::Active, LaneState::Active, LaneState::Masked});
  const viz::GridLayout g = viz::default_layout(dense_buffer("z", {3, 3}));
  const viz::LanePlacement placed = viz::place_lanes(e, g);
  CHECK(placed.affine);
  CHECK(placed.lane_index(3) == std::vector<int64_t>{1, 0});  // active: where memory was written
  CHECK(placed.lane_index(7) == std::vector<int64_t>{1, 3});  // masked: its logical place, past the edge
  // A row step that is not a whole number of rows has no clean axis.
  tl::Event skewed = memory_event(EventKind::Load, 0, {2, 2}, {0, 1, 4, 5},
                                  {LaneState::Active, LaneState::Masked, LaneState::Active, LaneState::Masked});
  CHECK_FALSE(viz::place_lanes(skewed, g).affine);
  // A gather (offsets not affine in the lane) falls back to the offset.
  tl::Event gather = memory_event(EventKind::Load, 0, {3}, {5, 0, 11},
                                  {LaneState::Active, LaneState::Active, LaneState::OutOfBounds});
  const viz::LanePlacement g2 = viz::place_lanes(gather, g);
  CHECK_FALSE(g2.affine);
  CHECK(g2.lane_index(2) == std::vector<int64_t>{3, 2});  // offset 11 of a 3x3: below the last row
}

TEST_CASE("an event maps to cells and colors: loaded blue, stored orange, masked grey, out of bounds red") {
  CHECK(viz::mark_of(EventKind::Load, LaneState::Active) == CellMark::Loaded);
  CHECK(viz::mark_of(EventKind::Store, LaneState::Active) == CellMark::Stored);
  CHECK(viz::mark_of(EventKind::Atomic, LaneState::Active) == CellMark::Atomic);
  CHECK(viz::mark_of(EventKind::Store, LaneState::Masked) == CellMark::Masked);
  CHECK(viz::mark_of(EventKind::Load, LaneState::OutOfBounds) == CellMark::OutOfBounds);
  CHECK(viz::mark_of(EventKind::Load, LaneState::MaskedOutOfBounds) == CellMark::MaskedOutOfBounds);
  CHECK(viz::mark_color(CellMark::Loaded) == viz::palette::loaded);
  CHECK(viz::mark_color(CellMark::Stored) == viz::palette::stored);
  CHECK(viz::mark_color(CellMark::Masked) == viz::palette::masked);
  CHECK(viz::mark_color(CellMark::MaskedOutOfBounds) == viz::palette::masked);
  CHECK(viz::mark_color(CellMark::OutOfBounds) == viz::palette::out_of_bounds);
  CHECK(viz::is_hatched(CellMark::Masked));
  CHECK_FALSE(viz::is_hatched(CellMark::OutOfBounds));

  const tl::Trace& t = *puzzle4().trace;
  const viz::GridLayout g = viz::default_layout(t.buffers[2]);
  const viz::EventCells cells = viz::map_event(event_of(t, {3, 2, 0}, 2), g);
  CHECK(cells.cells.size() == 1024);
  CHECK(cells.count(CellMark::Stored) == 26 * 4);  // rows 64..89, columns 96..99
  CHECK(cells.count(CellMark::Masked) + cells.count(CellMark::MaskedOutOfBounds) == 1024 - 104);
  CHECK(cells.bounds.row0 == 64);
  CHECK(cells.bounds.row1 == 96);
  CHECK(cells.bounds.col0 == 96);
  CHECK(cells.bounds.col1 == 128);
  const viz::EventCell* past = cells.top_at({70, 110});
  REQUIRE(past);
  CHECK(past->mark == CellMark::Masked);
  CHECK_FALSE(past->inside);
  const viz::EventCell* below = cells.top_at({93, 97});
  REQUIRE(below);
  CHECK(below->mark == CellMark::MaskedOutOfBounds);
  const viz::EventCell* in = cells.top_at({89, 99});
  REQUIRE(in);
  CHECK(in->mark == CellMark::Stored);
  CHECK(in->inside);
  CHECK_FALSE(cells.top_at({10, 10}));
  // Runs: each of the 32 rows is one stored run then one masked run (26
  // rows) or one masked run (6 rows past the last row).
  CHECK(viz::cell_runs(cells).size() == 26 * 2 + 6);
}

TEST_CASE("out-of-bounds lanes of a broken kernel land exactly past the end") {
  const viz::ViewerDocument doc =
      viz::open_kernel(*puzzles::find_puzzle("2"), viz_test::broken_add_block(), "missing store mask", {});
  const tl::Trace& t = *doc.trace;
  const tl::Event& store = event_of(t, {6, 0, 0}, 1);
  const viz::GridLayout g = viz::default_layout(t.buffers[1]);  // z [200], rows of 32
  const viz::EventCells cells = viz::map_event(store, g);
  CHECK(cells.count(CellMark::OutOfBounds) == 24);
  for (int64_t offset = 200; offset < 224; ++offset) {
    const viz::EventCell* c = cells.top_at({offset / 32, offset % 32});
    REQUIRE(c);
    CHECK(c->mark == CellMark::OutOfBounds);
    CHECK_FALSE(c->inside);
  }
  CHECK(cells.top_at({6, 7})->mark == CellMark::Stored);  // z[199]
  // Lanes that collide on one cell: the out-of-bounds one is drawn.
  tl::Event clash = memory_event(EventKind::Store, 0, {2}, {3, 3}, {LaneState::Masked, LaneState::Active});
  const viz::EventCells c2 = viz::map_event(clash, viz::default_layout(dense_buffer("q", {8})));
  CHECK(c2.top_at({0, 3})->mark == CellMark::Stored);
  CHECK(c2.lanes_at({0, 3}).second - c2.lanes_at({0, 3}).first == 2);
}

TEST_CASE("program status: clean, has findings, not traced") {
  auto t = std::make_shared<tl::Trace>();
  t->grid = {3, 2, 1};
  t->buffers.push_back(dense_buffer("x", {4}));
  for (int64_t x : {0, 1}) {
    tl::ProgramTrace p;
    p.pid = {x, 0, 0};
    p.events.push_back(memory_event(EventKind::Load, 0, {2}, {x * 2, x * 2 + 1}, {LaneState::Active, LaneState::Active}));
    t->programs.push_back(p);
  }
  t->programs[1].events.push_back(memory_event(EventKind::Store, 0, {2}, {3, 4}, {LaneState::Active, LaneState::OutOfBounds}));
  tl::Finding f;
  f.kind = tl::FindingKind::WriteConflict;
  f.examples.push_back({});
  f.examples.back().pid = {0, 0, 0};
  f.examples.back().event = 0;
  f.examples.push_back({});
  f.examples.back().pid = {2, 1, 0};  // not traced
  t->findings.push_back(f);
  const viz::TraceIndex index(t);
  CHECK(index.program_at({1, 0, 0}) == 1);
  CHECK(index.program_at({2, 0, 0}) == -1);
  CHECK(index.program_at({5, 0, 0}) == -1);
  CHECK(index.status({0, 0, 0}) == viz::ProgramStatus::HasFindings);  // from the sanitizer
  CHECK(index.status({1, 0, 0}) == viz::ProgramStatus::HasFindings);  // an out-of-bounds lane
  CHECK(index.status({2, 0, 0}) == viz::ProgramStatus::NotTraced);
  CHECK(index.status({2, 1, 0}) == viz::ProgramStatus::HasFindings);
  CHECK(index.finding_events(1) == std::vector<int>{1});
  CHECK(index.findings_at(0, 0) == std::vector<int>{0});
  CHECK(index.programs_with_findings() == std::vector<int>{0, 1});
}

TEST_CASE("the viewer's diff of E1's in-bounds wrong-stride twin is red everywhere, the correct e1_v2's all green") {
  viz::ViewerDocument bad = viz::open_target("broken/interleaved_wrong_row_stride", viz::OpenOptions{});
  REQUIRE(bad.puzzle);
  const viz::OutputDiff& d = bad.puzzle->diff;
  REQUIRE(d.available);
  CHECK(d.shape == std::vector<int64_t>{64, 64});
  CHECK(d.mismatch_count > 64 * 64 * 9 / 10);
  CHECK(bad.puzzle->viewed.oob_loads + bad.puzzle->viewed.oob_stores == 0);
  CHECK(bad.puzzle->viewed.never_written == 0);
  int64_t red = 0;
  for (int64_t i = 0; i < 64 * 64; ++i) red += viz::diff_color(d, i) == viz::diff_color(d, 0);
  CHECK(red == d.mismatch_count);  // element 0 is wrong: every wrong element shares its colour
  CHECK(bad.title.find("example e1_v2") != std::string::npos);

  viz::ViewerDocument good = viz::open_target("e1_v2", viz::OpenOptions{});
  REQUIRE(good.puzzle);
  CHECK(good.puzzle->diff.available);
  CHECK(good.puzzle->diff.mismatch_count == 0);
  CHECK(good.puzzle->pass);
}
