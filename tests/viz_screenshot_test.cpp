// The viewer as it is drawn: headless screenshots under Xvfb (Mesa, no GPU
// needed) with pixel checks at known cells. The screenshot records where
// every grid cell landed, so the checks sample cell centers instead of
// guessing at the layout. Built only with the viewer; run by CTest under
// xvfb-run (tests/CMakeLists.txt).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>

#include "model_conflicts.h"
#include "model_coverage.h"
#include "model_dot.h"
#include "model_values.h"
#include "broken/registry.h"
#include "registry.h"
#include "viewer.h"
#include "viz_test_kernels.h"

namespace {

using viz::Cell;
using viz::CellMark;

viz::Screenshot shoot(const viz::ViewerDocument& doc, const viz::ViewerOptions& opt) {
  std::string error;
  std::optional<viz::Screenshot> shot = viz::render_screenshot(doc, opt, error);
  INFO(error);
  REQUIRE(shot);
  REQUIRE(shot->width == opt.width);
  REQUIRE(shot->height == opt.height);
  return std::move(*shot);
}

// Channels within 2 of each other (the framebuffer is 8 bits per channel;
// rectangles and nearest-sampled textures come out exact, the slack is for
// drivers that dither).
bool near(viz::Rgba a, viz::Rgba b) {
  auto close = [](int x, int y) { return std::abs(x - y) <= 2; };
  return close(viz::red_of(a), viz::red_of(b)) && close(viz::green_of(a), viz::green_of(b)) &&
         close(viz::blue_of(a), viz::blue_of(b));
}

viz::Rgba center_pixel(const viz::Screenshot& s, const viz::RecordedGrid& g, Cell c) {
  const viz::PixelRect r = g.cell_rect(c);
  return s.pixel(static_cast<int>(r.cx()), static_cast<int>(r.cy()));
}

// Pixels of a grid's canvas near a color.
int64_t pixels_near(const viz::Screenshot& s, const viz::RecordedGrid& g, viz::Rgba color) {
  int64_t n = 0;
  for (int y = static_cast<int>(std::ceil(g.canvas.y0)); y < static_cast<int>(g.canvas.y1); ++y)
    for (int x = static_cast<int>(std::ceil(g.canvas.x0)); x < static_cast<int>(g.canvas.x1); ++x)
      n += near(s.pixel(x, y), color);
  return n;
}

// Whether a pixel of the cell (its edges included) is the conflict outline's cyan.
bool cyan_in_cell(const viz::Screenshot& s, const viz::RecordedGrid& g, Cell c) {
  const viz::PixelRect r = g.cell_rect(c);
  for (int y = static_cast<int>(std::floor(r.y0)); y <= static_cast<int>(r.y1); ++y)
    for (int x = static_cast<int>(std::floor(r.x0)); x <= static_cast<int>(r.x1); ++x) {
      const viz::Rgba p = s.pixel(x, y);
      if (viz::red_of(p) < 120 && viz::green_of(p) > 190 && viz::blue_of(p) > 190) return true;
    }
  return false;
}

viz::ViewerOptions at(viz::Pid pid, int event) {
  viz::ViewerOptions o;
  o.program = pid;
  o.event = event;
  return o;
}

}  // namespace

TEST_CASE("screenshot: puzzle 4, program (3, 2): the masked lanes past N0 are drawn masked, past the edge") {
  const viz::ViewerDocument doc = viz::open_puzzle(*puzzles::find_puzzle("4"), {});
  const viz::Screenshot s = shoot(doc, at({3, 2, 0}, 2));  // event 2: the store to z
  const viz::RecordedGrid* z = s.grid("tensor:z");
  REQUIRE(z);
  REQUIRE(z->cell >= 3);
  REQUIRE(z->lanes.size() == 1024);
  const float right_edge = z->origin_x + 100 * z->cell, bottom_edge = z->origin_y + 90 * z->cell;
  int masked_past_n0 = 0;
  for (const viz::RecordedLane& lane : z->lanes) {
    const int64_t r = lane.lane / 32, c = lane.lane % 32;  // tile coordinates
    REQUIRE(lane.visible);
    CHECK(lane.cell == Cell{64 + r, 96 + c});
    const viz::Rgba px = center_pixel(s, *z, lane.cell);
    if (c >= 4 || r >= 26) {  // columns >= N0 = 100 or rows >= N1 = 90: masked
      CHECK(viz::is_hatched(lane.mark));
      CHECK(near(px, viz::palette::masked));
      CHECK((lane.rect.x0 >= right_edge || lane.rect.y0 >= bottom_edge));
      masked_past_n0 += c >= 4;
    } else {
      CHECK(lane.mark == CellMark::Stored);
      CHECK(near(px, viz::palette::stored));
      CHECK(lane.rect.x1 <= right_edge);
    }
  }
  CHECK(masked_past_n0 == 32 * 28);
  // Elements the store did not touch stay neutral, e.g. z[10, 10] and z[65, 0]
  // (where masked lane (0, 4)'s offset would have wrapped to).
  CHECK(near(center_pixel(s, *z, {10, 10}), viz::palette::untouched));
  CHECK(near(center_pixel(s, *z, {65, 0}), viz::palette::untouched));
}

TEST_CASE("screenshot: a store without its mask: red cells exactly where the out-of-bounds lanes land") {
  const viz::ViewerDocument doc =
      viz::open_kernel(*puzzles::find_puzzle("2"), viz_test::broken_add_block(), "missing store mask", {});
  const viz::Screenshot s = shoot(doc, at({6, 0, 0}, 1));  // the last program's store
  const viz::RecordedGrid* z = s.grid("tensor:z");
  REQUIRE(z);
  REQUIRE(z->layout.kind == viz::LayoutKind::Strip);
  const int64_t wrap = z->layout.wrap;
  // Every cell of the strip's rows, in and past the tensor: red iff one of
  // the 24 lanes past the end (offsets 200..223) landed there.
  int red = 0;
  for (int64_t row = 0; row < (224 + wrap - 1) / wrap; ++row)
    for (int64_t col = 0; col < wrap; ++col) {
      const int64_t offset = row * wrap + col;
      REQUIRE(z->cell_visible({row, col}));
      const bool is_red = near(center_pixel(s, *z, {row, col}), viz::palette::out_of_bounds);
      INFO("offset " << offset);
      CHECK(is_red == (offset >= 200 && offset < 224));
      red += is_red;
    }
  CHECK(red == 24);
  CHECK(near(center_pixel(s, *z, {199 / wrap, 199 % wrap}), viz::palette::stored));
  // The finding jump: with nothing chosen, the viewer opens on that store.
  const viz::Screenshot first = shoot(doc, viz::ViewerOptions{});
  const viz::RecordedGrid* z0 = first.grid("tensor:z");
  REQUIRE(z0);
  CHECK(near(center_pixel(first, *z0, {210 / wrap, 210 % wrap}), viz::palette::out_of_bounds));
}

TEST_CASE("screenshot: coverage mode marks never-written outputs of the empty stub") {
  viz::OpenOptions stub;
  stub.stub = true;
  const viz::ViewerDocument doc = viz::open_puzzle(*puzzles::find_puzzle("4"), stub);
  viz::ViewerOptions opt;
  opt.mode = viz::ColorMode::Coverage;
  const viz::Screenshot s = shoot(doc, opt);
  const viz::RecordedGrid* z = s.grid("tensor:z");
  REQUIRE(z);
  CHECK(near(center_pixel(s, *z, {0, 0}), viz::palette::never_written));
  CHECK(near(center_pixel(s, *z, {89, 99}), viz::palette::never_written));
  // The puzzle tab's diff grid: every element never written.
  const viz::RecordedGrid* diff = s.grid("diff:z");
  REQUIRE(diff);
  CHECK(near(center_pixel(s, *diff, {45, 50}), viz::palette::never_written));
}

TEST_CASE("screenshot: values mode colors each element by its value") {
  const viz::ViewerDocument doc = viz::open_puzzle(*puzzles::find_puzzle("4"), {});
  viz::ViewerOptions opt;
  opt.mode = viz::ColorMode::Values;
  opt.values = viz::ValueSource::After;
  const viz::Screenshot s = shoot(doc, opt);
  const viz::RecordedGrid* z = s.grid("tensor:z");
  REQUIRE(z);
  const tl::TraceBuffer& b = doc.trace->buffers[2];
  std::vector<double> both = b.values_before;
  both.insert(both.end(), b.values_after.begin(), b.values_after.end());
  const viz::ValueRange range = viz::value_range(both);
  for (Cell c : {Cell{0, 0}, Cell{45, 50}, Cell{89, 99}})
    CHECK(near(center_pixel(s, *z, c), viz::value_color(b.values_after[c.row * 100 + c.col], range)));
}

TEST_CASE("screenshot: the dot tab lays out A, B and C of a dot event") {
  const viz::ViewerDocument doc = viz::open_puzzle(*puzzles::find_puzzle("11"), {});
  const tl::ProgramTrace& p = doc.trace->programs.at(0);
  int dot = -1;
  for (size_t e = 0; e < p.events.size() && dot < 0; ++e)
    if (p.events[e].kind == tl::EventKind::Dot) dot = static_cast<int>(e);
  REQUIRE(dot >= 0);
  viz::ViewerOptions opt = at(p.pid, dot);
  opt.tab = "dot";
  const viz::Screenshot s = shoot(doc, opt);
  const viz::DotShapes shapes = viz::dot_shapes(p.events[dot]);
  const viz::RecordedGrid *a = s.grid("dot:A"), *b = s.grid("dot:B"), *c = s.grid("dot:C");
  REQUIRE(a);
  REQUIRE(b);
  REQUIRE(c);
  CHECK(a->layout.rows() == shapes.m);
  CHECK(a->layout.cols() == shapes.k);
  CHECK(b->layout.cols() == shapes.n);
  CHECK(c->origin_x > a->origin_x);  // C right of A
  CHECK(c->origin_y > b->origin_y);  // and below B
  CHECK(near(center_pixel(s, *c, {0, 0}), viz::palette::stored));

  // Hover C[2, 3]: A's row 2 and B's column 3 get a white outline.
  const viz::PixelRect hovered = c->cell_rect({2, 3});
  opt.mouse = std::make_pair(hovered.cx(), hovered.cy());
  const viz::Screenshot h = shoot(doc, opt);
  const viz::RecordedGrid *ha = h.grid("dot:A"), *hb = h.grid("dot:B");
  REQUIRE(ha);
  REQUIRE(hb);
  auto white_near = [&](float x, float y, bool vertical) {
    for (int d = -2; d <= 2; ++d) {
      const viz::Rgba p = vertical ? h.pixel(static_cast<int>(x) + d, static_cast<int>(y))
                                   : h.pixel(static_cast<int>(x), static_cast<int>(y) + d);
      if (viz::red_of(p) > 230 && viz::green_of(p) > 230 && viz::blue_of(p) > 230) return true;
    }
    return false;
  };
  const viz::PixelRect a_row = ha->cell_rect({2, shapes.k / 2}), b_col = hb->cell_rect({shapes.k / 2, 3});
  CHECK(white_near(a_row.cx(), a_row.y0, false));  // top edge of A's row 2
  CHECK(white_near(b_col.x0, b_col.cy(), true));   // left edge of B's column 3
  const viz::PixelRect a_other = ha->cell_rect({6, shapes.k / 2});
  CHECK_FALSE(white_near(a_other.cx(), a_other.y0, false));  // another row: no outline
}

TEST_CASE("screenshot: the interpreter-vs-GPU tab flags the elements that differ") {
  viz::ViewerDocument doc = viz::open_puzzle(*puzzles::find_puzzle("4"), {});
  viz::ViewerOptions opt;
  opt.tab = "gpu";
  const viz::Screenshot empty = shoot(doc, opt);
  CHECK_FALSE(empty.grid("gpu:z"));  // no results: the tab says so, no grid

  // Results as the GPU backend would attach them, with z[5, 7] off by one.
  viz::GpuResults gpu;
  gpu.device = "test device";
  viz::GpuBufferResult z{"z", doc.trace->buffers[2].values_after};
  z.values[5 * 100 + 7] += 1;
  gpu.buffers.push_back(z);
  doc.gpu = gpu;
  const viz::Screenshot s = shoot(doc, opt);
  const viz::RecordedGrid* g = s.grid("gpu:z");
  REQUIRE(g);
  CHECK(near(center_pixel(s, *g, {5, 7}), viz::palette::mismatch));
  CHECK(near(center_pixel(s, *g, {5, 8}), viz::palette::match));
  CHECK(near(center_pixel(s, *g, {89, 99}), viz::palette::match));
}

TEST_CASE("screenshot: a launch's reference check shows in the puzzle tab, the differing element marked") {
  // What tilescope::launch with Options::reference leaves in a trace: the
  // expected values beside the ones after the launch (tests/test_api_roles
  // pins that side). Here z[5, 7] was expected one higher.
  viz::ViewerDocument puzzle_doc = viz::open_puzzle(*puzzles::find_puzzle("4"), {});
  auto trace = std::make_shared<tl::Trace>(*puzzle_doc.trace);
  tl::TraceBuffer& z = trace->buffers[2];
  REQUIRE(z.name == "z");
  z.values_expected = z.values_after;
  z.values_expected[5 * 100 + 7] += 1;
  z.expected_rtol = 1e-5;
  z.expected_atol = 1e-6;
  viz::ViewerDocument doc;
  doc.trace = trace;
  doc.title = "a launch with a reference check";
  viz::ViewerOptions opt;  // no tab named: a reference check opens on it
  const viz::Screenshot s = shoot(doc, opt);
  const viz::RecordedGrid* g = s.grid("reference:z");
  REQUIRE(g);
  CHECK(near(center_pixel(s, *g, {5, 7}), viz::palette::mismatch));
  CHECK(near(center_pixel(s, *g, {5, 8}), viz::palette::match));
  CHECK(near(center_pixel(s, *g, {89, 99}), viz::palette::match));
}

TEST_CASE("screenshot: a [3200, 256] buffer, program 1234's store: the row it stored fills the z pane") {
  const viz::ViewerDocument& doc = viz_test::large_copy_document();
  const viz::Screenshot s = shoot(doc, at({1234, 0, 0}, 1));  // event 1: the store of row 1234
  const viz::RecordedGrid* z = s.grid("tensor:z");
  REQUIRE(z);
  REQUIRE(z->lanes.size() == 256);
  CHECK(z->cell >= 2.4f);  // framed: 256 columns across the pane (whole, a cell is 0.2 pixels)
  for (const viz::RecordedLane& lane : z->lanes) {
    INFO("lane " << lane.lane);
    CHECK(lane.cell == Cell{1234, lane.lane});
    CHECK(lane.visible);
    CHECK(near(center_pixel(s, *z, lane.cell), viz::palette::stored));
  }
  // The stored row is a band of orange across the canvas: at least 256 x 2 pixels.
  const int64_t orange = pixels_near(s, *z, viz::palette::stored);
  CHECK(orange >= 256 * 2 * 2);
  // Rows around it are in view and untouched.
  CHECK(z->cell_visible({1224, 100}));
  CHECK(near(center_pixel(s, *z, {1224, 100}), viz::palette::untouched));
  // x is framed on the load of the same row, drawn dimmed.
  const viz::RecordedGrid* x = s.grid("tensor:x");
  REQUIRE(x);
  CHECK(x->cell >= 2.4f);
  CHECK(x->cell_visible({1234, 0}));
  CHECK(x->cell_visible({1234, 255}));

  // Whole tensors (Z): the same row is a few pixels.
  viz::ViewerOptions whole = at({1234, 0, 0}, 1);
  whole.frame = viz::FrameMode::Whole;
  const viz::Screenshot w = shoot(doc, whole);
  const viz::RecordedGrid* zw = w.grid("tensor:z");
  REQUIRE(zw);
  CHECK(zw->cell < 0.5f);
  CHECK(pixels_near(w, *zw, viz::palette::stored) * 10 < orange);
}

TEST_CASE("screenshot: write-conflict cells are outlined in cyan") {
  const viz::ViewerDocument doc = viz::open_target("broken/wrong_row_stride", {});
  const tl::Trace& t = *doc.trace;
  int zb = -1;
  for (size_t b = 0; b < t.buffers.size(); ++b)
    if (t.buffers[b].name == "z") zb = static_cast<int>(b);
  REQUIRE(zb >= 0);
  const viz::BufferCoverage cov = viz::compute_coverage(t, zb, true);
  const viz::BufferConflicts conflicts = viz::compute_conflicts(t, zb, cov);
  REQUIRE_FALSE(conflicts.empty());
  viz::ViewerOptions opt;
  opt.mode = viz::ColorMode::Coverage;
  const viz::Screenshot s = shoot(doc, opt);
  const viz::RecordedGrid* z = s.grid("tensor:z");
  REQUIRE(z);
  const viz::GridLayout& g = z->layout;
  auto cell_of = [&](int64_t offset) { return *g.cell_of(viz::unravel_unbounded(offset, g.shape)); };
  int checked = 0, clean = 0;
  for (const viz::ConflictCell& c : conflicts.cells) {
    const Cell cell = cell_of(c.offset);
    if (!z->cell_visible(cell)) continue;
    INFO("conflict at offset " << c.offset);
    CHECK(cyan_in_cell(s, *z, cell));
    ++checked;
  }
  CHECK(checked > 0);
  // Elements stored once, with no conflict next to them, have no cyan.
  for (int64_t o = 0; o < cov.extent && clean < 20; ++o) {
    if (cov.stores[o] != 1) continue;
    const Cell cell = cell_of(o);
    bool near_conflict = false;
    for (int64_t dr = -1; dr <= 1; ++dr)
      for (int64_t dc = -1; dc <= 1; ++dc)
        if (g.inside({cell.row + dr, cell.col + dc}) && conflicts.at(g.offset_at({cell.row + dr, cell.col + dc})))
          near_conflict = true;
    if (near_conflict || !z->cell_visible(cell)) continue;
    INFO("clean offset " << o);
    CHECK_FALSE(cyan_in_cell(s, *z, cell));
    ++clean;
  }
  CHECK(clean > 0);
}

TEST_CASE("screenshot: typing 1234 in the programs window selects program 1234 and frames its row") {
  const viz::ViewerDocument& doc = viz_test::large_copy_document();
  viz::ViewerOptions opt;
  opt.go_to = "1234";
  const viz::Screenshot s = shoot(doc, opt);
  // Its first event, the load of row 1234 of x, framed.
  const viz::RecordedGrid* x = s.grid("tensor:x");
  REQUIRE(x);
  REQUIRE(x->lanes.size() == 256);
  CHECK(x->cell >= 2.4f);
  for (const viz::RecordedLane& lane : x->lanes) {
    CHECK(lane.cell == Cell{1234, lane.lane});
    CHECK(lane.visible);
  }
  CHECK(pixels_near(s, *x, viz::palette::loaded) >= 256 * 2 * 2);
  // z has no event of it yet: framed on the row the program stores to.
  const viz::RecordedGrid* z = s.grid("tensor:z");
  REQUIRE(z);
  CHECK(z->lanes.empty());
  CHECK(z->cell >= 2.4f);
  CHECK(z->cell_visible({1234, 0}));
  CHECK(z->cell_visible({1234, 255}));

  // An id outside the grid selects nothing: the viewer stays on program 0.
  opt.go_to = "3200";
  const viz::Screenshot bad = shoot(doc, opt);
  const viz::RecordedGrid* xb = bad.grid("tensor:x");
  REQUIRE(xb);
  REQUIRE_FALSE(xb->lanes.empty());
  CHECK(xb->lanes.front().cell == Cell{0, 0});
}

// Not run by default: writes the [3200, 256] copy's trace, from which
// assets/view_large.png is rendered (docs/viewer.md gives the command).
TEST_CASE("write the trace of the [3200, 256] row copy", "[.large_trace]") {
  const char* path = std::getenv("TILESCOPE_LARGE_TRACE");
  tl::save_trace(*viz_test::large_copy_document().trace, path && *path ? path : "copy_rows_3200x256.trace.json");
}

TEST_CASE("screenshot: every puzzle opens and draws") {
  for (const puzzles::Puzzle& p : puzzles::all_puzzles()) {
    INFO("puzzle " << p.number);
    const viz::ViewerDocument doc = viz::open_puzzle(p, {});
    viz::ViewerOptions opt;
    opt.width = 1280;
    opt.height = 800;
    opt.frames = 2;
    const viz::Screenshot s = shoot(doc, opt);
    CHECK(s.grid("tensor:" + p.output.name));
  }
}

TEST_CASE("screenshot: every broken kernel opens and draws, built or not") {
  for (const puzzles::BrokenKernel& b : puzzles::all_broken()) {
    INFO("broken/" << b.name);
    const viz::ViewerDocument doc = viz::open_target("broken/" + b.name, {});
    REQUIRE(doc.puzzle);
    CHECK_FALSE(doc.puzzle->pass);
    viz::ViewerOptions opt;
    opt.width = 1280;
    opt.height = 800;
    opt.frames = 2;
    const viz::Screenshot s = shoot(doc, opt);
    CHECK(s.grid("tensor:" + doc.puzzle->output));
  }
}

TEST_CASE("without a display the viewer says how to use --screenshot under Xvfb") {
  const char* display = std::getenv("DISPLAY");
  const std::string saved = display ? display : "";
  unsetenv("DISPLAY");
  std::string error;
  const viz::ViewerDocument doc = viz::open_puzzle(*puzzles::find_puzzle("1"), {});
  CHECK_FALSE(viz::render_screenshot(doc, {}, error));
  if (!saved.empty()) setenv("DISPLAY", saved.c_str(), 1);
  CHECK_THAT(error, Catch::Contains("no display") && Catch::Contains("xvfb-run") && Catch::Contains("--screenshot"));
}
