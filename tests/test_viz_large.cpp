// The viewer at real sizes, without a window: framing a pane on the cells
// the selected event touched, the program map of a long 1-D grid wrapped
// into rows, typed program ids, and write-conflict cells with both programs.
#include <catch2/catch.hpp>

#include <set>

#include "model_conflicts.h"
#include "model_coverage.h"
#include "model_event_cells.h"
#include "model_framing.h"
#include "model_program_map.h"
#include "registry.h"
#include "viz_test_kernels.h"

namespace {

using viz::Cell;
using viz::CellBounds;
using viz::FrameMode;

bool contains(const CellBounds& outer, const CellBounds& inner) {
  return outer.row0 <= inner.row0 && outer.col0 <= inner.col0 && outer.row1 >= inner.row1 && outer.col1 >= inner.col1;
}

double aspect(const CellBounds& b) {
  const double r = static_cast<double>(b.rows()), c = static_cast<double>(b.cols());
  return std::max(r / c, c / r);
}

// The Tensors pane at 1600 x 1000: about 660 pixels wide, at most about 650 tall.
constexpr float kWidth = 660, kMaxHeight = 650, kMaxCell = 28;

}  // namespace

TEST_CASE("framing: a row of a [3200, 256] buffer fills the pane, not a few pixels of a strip") {
  const CellBounds whole{0, 0, 3200, 256};
  const CellBounds row{1234, 0, 1235, 256};
  CHECK(viz::fit_cell(whole, kWidth, kMaxHeight, kMaxCell) < 0.25f);  // whole: a 50-pixel-wide strip

  const CellBounds f = viz::frame_bounds(FrameMode::Selection, row, whole, kWidth, kMaxHeight, kMaxCell);
  CHECK(contains(f, row));
  CHECK(f.col0 == -2);  // the row spans every column: the frame is the width plus the 2-cell margin
  CHECK(f.col1 == 258);
  CHECK(aspect(f) <= 4.0 + 1e-9);  // not a 1-row sliver: some rows around it
  CHECK(f.rows() >= 65);
  CHECK(f.rows() <= 80);
  CHECK(f.row0 < 1234);  // centred on the row
  CHECK(f.row1 > 1235);
  CHECK(std::abs((1234 - f.row0) - (f.row1 - 1235)) <= 1);
  const float cell = viz::fit_cell(f, kWidth, kMaxHeight, kMaxCell);
  CHECK(cell >= 2.5f);  // 256 cells across about 650 pixels
  CHECK(cell * 256 >= 600);

  // Whole mode, or nothing touched: the whole tensor.
  CHECK(viz::frame_bounds(FrameMode::Whole, row, whole, kWidth, kMaxHeight, kMaxCell) == whole);
  CHECK(viz::frame_bounds(FrameMode::Selection, CellBounds{}, whole, kWidth, kMaxHeight, kMaxCell) == whole);
}

TEST_CASE("framing: a tensor readable whole stays whole, edges shift the frame instead of cutting it") {
  // Puzzle 4's z with program (3, 2)'s lanes past the edges: whole is 5 pixels a cell.
  const CellBounds whole{0, 0, 96, 128};
  const CellBounds tile{64, 96, 96, 128};
  CHECK(viz::frame_bounds(FrameMode::Selection, tile, whole, kWidth, kMaxHeight, kMaxCell) == whole);

  // The first row of [3200, 256]: the frame starts 2 cells above the tensor.
  const CellBounds big{0, 0, 3200, 256};
  const CellBounds top = viz::frame_bounds(FrameMode::Selection, {0, 0, 1, 256}, big, kWidth, kMaxHeight, kMaxCell);
  CHECK(top.row0 == -2);
  CHECK(top.rows() >= 65);
  const CellBounds bottom =
      viz::frame_bounds(FrameMode::Selection, {3199, 0, 3200, 256}, big, kWidth, kMaxHeight, kMaxCell);
  CHECK(bottom.row1 == 3202);
  CHECK(contains(bottom, {3199, 0, 3200, 256}));

  // One element of a 4096 x 4096 buffer: a small square frame around it.
  const CellBounds one = viz::frame_bounds(FrameMode::Selection, {100, 200, 101, 201}, {0, 0, 4096, 4096}, kWidth,
                                           kMaxHeight, kMaxCell);
  CHECK(contains(one, {100, 200, 101, 201}));
  CHECK(one.rows() == 5);
  CHECK(one.cols() == 5);

  // A 64 x 64 tile of it: 64 plus 15% on each side.
  const CellBounds t = viz::frame_bounds(FrameMode::Selection, {640, 128, 704, 192}, {0, 0, 4096, 4096}, kWidth,
                                         kMaxHeight, kMaxCell);
  CHECK(t == CellBounds{630, 118, 714, 202});

  // Lanes past the edge (out of bounds) are never cut off.
  const CellBounds past{3198, 250, 3205, 262};
  CHECK(contains(viz::frame_bounds(FrameMode::Selection, past, big, kWidth, kMaxHeight, kMaxCell), past));
}

TEST_CASE("program map: 3,200 programs of a 1-D grid wrap into rows of cells a few pixels wide") {
  // The Programs window's map area at 1600 x 1000: about 340 x 140 pixels.
  const viz::ProgramMapLayout m = viz::program_map_layout(3200, 1, 340, 140);
  CHECK(m.wrapped);
  CHECK(m.cell >= 4);
  CHECK(m.columns % 10 == 0);
  CHECK(m.width() <= 340);
  CHECK(m.columns * m.rows >= 3200);
  CHECK((m.rows - 1) * m.columns < 3200);  // no empty row
  CHECK(m.cell_of(1234, 0) == Cell{1234 / m.columns, 1234 % m.columns});
  CHECK(m.program_at(m.cell_of(1234, 0)) == std::array<int64_t, 2>{1234, 0});
  CHECK(m.program_at(m.cell_of(3199, 0)) == std::array<int64_t, 2>{3199, 0});
  CHECK(m.program_at({m.rows - 1, m.columns - 1}).has_value() == (3200 % m.columns == 0));
  CHECK_FALSE(m.program_at({-1, 0}));
  CHECK_FALSE(m.program_at({0, m.columns}));
  // Every program has its own cell.
  std::set<Cell> cells;
  for (int64_t x = 0; x < 3200; ++x) cells.insert(m.cell_of(x, 0));
  CHECK(cells.size() == 3200);

  // With room, cells grow to the largest that fits.
  const viz::ProgramMapLayout roomy = viz::program_map_layout(3200, 1, 800, 800);
  CHECK(roomy.cell > m.cell);
  CHECK(roomy.height() <= 800);

  // Too little room: the smallest cell, and the map scrolls.
  const viz::ProgramMapLayout tight = viz::program_map_layout(3200, 1, 340, 40);
  CHECK(tight.cell == 4);
  CHECK(tight.height() > 40);

  // A few programs: one row of large cells.
  const viz::ProgramMapLayout small = viz::program_map_layout(7, 1, 340, 140);
  CHECK_FALSE(small.wrapped);
  CHECK(small.columns == 7);
  CHECK(small.cell == 22);

  // A 2-D grid keeps x across and y down.
  const viz::ProgramMapLayout two = viz::program_map_layout(4, 3, 340, 140);
  CHECK_FALSE(two.wrapped);
  CHECK(two.columns == 4);
  CHECK(two.rows == 3);
  CHECK(two.cell_of(3, 2) == Cell{2, 3});
  CHECK(two.program_at({2, 3}) == std::array<int64_t, 2>{3, 2});
}

TEST_CASE("program ids as typed: 0, 12, 3,1 and friends, clear errors otherwise") {
  const viz::Pid grid1{3200, 1, 1}, grid2{4, 3, 1};
  CHECK(viz::parse_program_id("0", grid1).pid == viz::Pid{0, 0, 0});
  CHECK(viz::parse_program_id("12", grid1).pid == viz::Pid{12, 0, 0});
  CHECK(viz::parse_program_id(" 1234 ", grid1).pid == viz::Pid{1234, 0, 0});
  CHECK(viz::parse_program_id("3,1", grid2).pid == viz::Pid{3, 1, 0});
  CHECK(viz::parse_program_id("3, 1, 0", grid2).pid == viz::Pid{3, 1, 0});
  CHECK(viz::parse_program_id("(3, 1)", grid2).pid == viz::Pid{3, 1, 0});
  CHECK(viz::parse_program_id("[3 2]", grid2).pid == viz::Pid{3, 2, 0});
  for (const char* bad : {"", "  ", "x", "1.5", "-1", "3,1,0,0", "3200", "4,0", "0,3", "0,0,1"}) {
    INFO(bad);
    const viz::ParsedPid p = viz::parse_program_id(bad, std::string(bad).find(',') != std::string::npos ? grid2 : grid1);
    CHECK_FALSE(p.pid);
    CHECK_FALSE(p.error.empty());
  }
  CHECK_THAT(viz::parse_program_id("3200", grid1).error, Catch::Contains("outside the grid") && Catch::Contains("3200"));
}

TEST_CASE("the [3200, 256] row copy: program 1234's store touches row 1234, which the frame is made of") {
  const viz::ViewerDocument& doc = viz_test::large_copy_document();
  const tl::Trace& t = *doc.trace;
  REQUIRE(t.grid == std::array<int64_t, 3>{3200, 1, 1});
  REQUIRE(t.programs.size() == 3200);
  const tl::ProgramTrace& p = t.programs[1234];
  REQUIRE(p.pid == std::array<int64_t, 3>{1234, 0, 0});
  REQUIRE(p.events.size() == 2);
  const viz::GridLayout z = viz::default_layout(t.buffers[1]);
  const viz::EventCells cells = viz::map_event(p.events[1], z);
  CHECK(cells.count(viz::CellMark::Stored) == 256);
  CHECK(cells.bounds == CellBounds{1234, 0, 1235, 256});
  const CellBounds f = viz::frame_bounds(FrameMode::Selection, cells.bounds, z.tensor_bounds(), kWidth, kMaxHeight, kMaxCell);
  CHECK(f.rows() < 100);
}

TEST_CASE("write conflicts: every element two programs stored, with both programs") {
  const viz::ViewerDocument doc = viz::open_target("broken/wrong_row_stride", {});
  const tl::Trace& t = *doc.trace;
  int z = -1;
  for (size_t b = 0; b < t.buffers.size(); ++b)
    if (t.buffers[b].name == "z") z = static_cast<int>(b);
  REQUIRE(z >= 0);
  REQUIRE(viz::has_write_conflicts(t, z));
  CHECK_FALSE(viz::has_write_conflicts(t, 0));  // x is only read
  const viz::BufferCoverage cov = viz::compute_coverage(t, z, true);
  const viz::BufferConflicts c = viz::compute_conflicts(t, z, cov);
  REQUIRE_FALSE(c.empty());
  CHECK(static_cast<int64_t>(c.cells.size()) >= cov.overlapping());
  for (const viz::ConflictCell& cell : c.cells) {
    INFO("offset " << cell.offset);
    CHECK(cell.first[0] >= 0);
    CHECK(cell.second[0] >= 0);
    CHECK(cell.first != cell.second);  // this kernel's conflicts are between programs
    CHECK(cell.storers >= 2);
    CHECK(c.at(cell.offset) == &cell);
  }
  CHECK_FALSE(c.at(-1));
  // The findings' examples are among them, with the same two programs.
  for (const tl::Finding& f : t.findings)
    if (f.kind == tl::FindingKind::WriteConflict)
      for (const tl::FindingExample& ex : f.examples) {
        const viz::ConflictCell* cell = c.at(ex.offset);
        REQUIRE(cell);
        CHECK((cell->first == ex.other_pid || cell->second == ex.other_pid));
        CHECK((cell->first == ex.pid || cell->second == ex.pid));
      }
  // Drawn as runs on z's layout: as many cells as conflicts.
  const viz::GridLayout layout = viz::default_layout(t.buffers[z]);
  int64_t n = 0;
  for (const CellBounds& run : viz::conflict_runs(c, layout)) {
    CHECK(run.rows() == 1);
    n += run.cols();
  }
  CHECK(n == static_cast<int64_t>(c.cells.size()));
}
