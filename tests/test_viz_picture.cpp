// Pictures without a window (viz/model_picture.h, viz/render_raster.h): the
// panes a notebook shows are the viewer's (same cells, same framing), and
// the CPU renderer paints them in the viewer's colors: cells counted in the
// rendered pixels match the lanes of the event.
#include <catch2/catch.hpp>

#include <vector>

#include "model_framing.h"
#include "model_picture.h"
#include "registry.h"
#include "render_raster.h"
#include "viz_test_kernels.h"

namespace {

using viz::CellMark;
using viz::palette::loaded;
using viz::palette::masked;
using viz::palette::out_of_bounds;
using viz::palette::stored;

// Connected regions of exactly `color` at least `min_area` pixels large: one
// per cell when grid lines separate cells (hatching cuts off only corners).
int regions(const viz::RgbaImage& img, viz::Rgba color, int min_area) {
  std::vector<char> seen(img.pixels.size(), 0);
  int count = 0;
  std::vector<int> stack;
  for (int start = 0; start < static_cast<int>(img.pixels.size()); ++start) {
    if (seen[start] || img.pixels[start] != color) continue;
    int area = 0;
    stack.assign(1, start);
    seen[start] = 1;
    while (!stack.empty()) {
      const int p = stack.back();
      stack.pop_back();
      ++area;
      const int x = p % img.width, y = p / img.width;
      const int next[4][2] = {{x - 1, y}, {x + 1, y}, {x, y - 1}, {x, y + 1}};
      for (const auto& n : next) {
        if (n[0] < 0 || n[1] < 0 || n[0] >= img.width || n[1] >= img.height) continue;
        const int q = n[1] * img.width + n[0];
        if (!seen[q] && img.pixels[q] == color) {
          seen[q] = 1;
          stack.push_back(q);
        }
      }
    }
    if (area >= min_area) ++count;
  }
  return count;
}

int cell_area(const viz::PicturePane& p) { return static_cast<int>(p.geometry.cell * p.geometry.cell / 4); }

const viz::PicturePane& pane_named(const viz::Picture& pic, const tl::Trace& t, const std::string& name) {
  for (const viz::PicturePane& p : pic.panes)
    if (t.buffers[p.buffer].name == name) return p;
  FAIL("no pane for " << name);
  return pic.panes.front();
}

}  // namespace

TEST_CASE("picture of puzzle 2's tail program: loaded, stored and hatched masked cells, counted in pixels") {
  const viz::ViewerDocument doc = viz::open_puzzle(*puzzles::find_puzzle("2"), {});
  const tl::Trace& t = *doc.trace;
  viz::PictureOptions o;
  o.dim_earlier = false;  // both panes at full color: the load on x, the store on z
  const viz::Picture pic = viz::build_picture(t, o);
  CHECK(pic.pid == viz::Pid{6, 0, 0});  // no finding: the last program, its last event
  REQUIRE(pic.panes.size() == 2);
  const viz::PicturePane& x = pane_named(pic, t, "x");
  const viz::PicturePane& z = pane_named(pic, t, "z");
  CHECK(x.cells.count(CellMark::Loaded) == 8);
  CHECK(z.cells.count(CellMark::Stored) == 8);
  CHECK(z.summary == "#1 store: 8 stored, 24 masked out-of-bounds");
  REQUIRE(x.geometry.cell >= viz::kGridLinesFrom);  // cells large enough for grid lines and hatching
  const viz::RgbaImage xi = viz::render_pane(x), zi = viz::render_pane(z);
  CHECK(regions(xi, loaded, cell_area(x)) == 8);
  CHECK(regions(xi, masked, cell_area(x)) == 24);
  CHECK(regions(zi, stored, cell_area(z)) == 8);
  CHECK(regions(zi, masked, cell_area(z)) == 24);
  CHECK(regions(zi, loaded, 1) == 0);
  // Hatching: the masked cells carry the darker hatch color, loaded ones none.
  CHECK(regions(xi, viz::palette::masked_hatch, 1) > 0);
  // Stacked: one image as tall as both panes and the gap.
  const viz::RgbaImage all = viz::render_picture(pic, 8);
  CHECK(all.height == x.height + z.height + 8);
  CHECK(regions(all, stored, cell_area(z)) == 8);
}

TEST_CASE("picture dims a pane the chosen event does not touch, as the viewer does") {
  const viz::ViewerDocument doc = viz::open_puzzle(*puzzles::find_puzzle("2"), {});
  const viz::Picture pic = viz::build_picture(*doc.trace, {});  // the store: x shows the load, dimmed
  const viz::PicturePane& x = pane_named(pic, *doc.trace, "x");
  CHECK_FALSE(x.current);
  CHECK(x.summary == "#0 load (earlier): 8 loaded, 24 masked out-of-bounds");
  const viz::RgbaImage xi = viz::render_pane(x);
  CHECK(regions(xi, loaded, 1) == 0);
  CHECK(regions(xi, viz::mix(loaded, viz::palette::untouched, 0.55), cell_area(x)) == 8);
}

TEST_CASE("picture of a broken kernel: the first finding's out-of-bounds lanes in red") {
  const viz::ViewerDocument doc =
      viz::open_kernel(*puzzles::find_puzzle("2"), viz_test::broken_add_block(), "missing store mask", {});
  const viz::Picture pic = viz::build_picture(*doc.trace, {});
  CHECK(pic.pid == viz::Pid{6, 0, 0});
  CHECK(pic.event == 1);
  CHECK_THAT(pic.event_line, Catch::Contains("program (6, 0, 0), event #1 store"));
  const viz::PicturePane& z = pane_named(pic, *doc.trace, "z");
  CHECK(z.cells.count(CellMark::OutOfBounds) == 24);
  const viz::RgbaImage zi = viz::render_pane(z);
  CHECK(regions(zi, out_of_bounds, cell_area(z)) == 24);
  CHECK(regions(zi, stored, cell_area(z)) == 8);
}

TEST_CASE("picture of a [3200, 256] buffer frames the cells the chosen event touched, as the viewer does") {
  const viz::ViewerDocument& doc = viz_test::large_copy_document();
  const tl::Trace& t = *doc.trace;
  viz::PictureOptions o;
  o.program = 1234;
  o.event = 1;
  o.buffers = {1};
  const viz::Picture pic = viz::build_picture(t, o);
  REQUIRE(pic.panes.size() == 1);
  const viz::PicturePane& z = pic.panes[0];
  CHECK(z.framed);
  const viz::CellBounds touched{1234, 0, 1235, 256};
  CHECK(z.cells.bounds == touched);
  // The viewer's pane, same width and height limit: the same frame.
  const viz::GridLayout layout = viz::default_layout(t.buffers[1]);
  CHECK(z.content == viz::frame_bounds(viz::FrameMode::Selection, touched, layout.tensor_bounds(), o.width,
                                       o.max_height, o.max_cell));
  CHECK(z.content.row0 <= 1234);
  CHECK(z.content.row1 >= 1235);
  CHECK(z.content.rows() < 100);
  // The touched row is a band of orange across the pane; rows above it are not.
  const viz::RgbaImage img = viz::render_pane(z);
  const int y = static_cast<int>(z.geometry.y_of(1234) + z.geometry.cell / 2);
  int orange = 0;
  for (int x = 0; x < img.width; ++x) orange += img.at(x, y) == stored;
  CHECK(orange > img.width / 2);
  const int above = static_cast<int>(z.geometry.y_of(1233) + z.geometry.cell / 2);
  REQUIRE(above >= 0);
  for (int x = 0; x < img.width; ++x) CHECK(img.at(x, above) != stored);
}

TEST_CASE("picture of a rank-3 buffer shows the slice of the chosen event and says which") {
  const viz::ViewerDocument doc = viz::open_puzzle(*puzzles::find_puzzle("11"), {});
  const tl::Trace& t = *doc.trace;
  viz::PictureOptions o;
  o.program = static_cast<int>(t.programs.size()) - 1;  // program (1, 1, 3): batch 3
  const viz::Picture pic = viz::build_picture(t, o);
  REQUIRE(pic.pid == viz::Pid{1, 1, 3});
  const viz::PicturePane& z = pane_named(pic, t, "z");
  CHECK(z.title == "z f32[4, 32, 32], slice [3, :, :]");
  CHECK(z.cells.count(CellMark::Stored) == 256);
  CHECK(z.cells.other_slices == 0);
}

TEST_CASE("picture options outside the trace are errors naming what exists") {
  const viz::ViewerDocument doc = viz::open_puzzle(*puzzles::find_puzzle("2"), {});
  viz::PictureOptions o;
  o.program = 99;
  CHECK_THROWS_WITH(viz::build_picture(*doc.trace, o), Catch::Contains("program index 99") && Catch::Contains("7"));
  o.program = 0;
  o.event = 5;
  CHECK_THROWS_WITH(viz::build_picture(*doc.trace, o), Catch::Contains("event index 5"));
  o.event = 0;
  o.buffers = {4};
  CHECK_THROWS_WITH(viz::build_picture(*doc.trace, o), Catch::Contains("buffer index 4"));
}

TEST_CASE("the rasterizer: fills cover pixel centers, outlines sit inside, translucent colors blend") {
  viz::RgbaImage img;
  img.width = img.height = 10;
  img.pixels.assign(100, viz::rgba(0, 0, 0));
  viz::CanvasGeometry g;
  g.max_x = g.max_y = 10;
  using K = viz::DrawCommand::Kind;
  const std::vector<viz::DrawCommand> cmds = {
      {K::Fill, 2, 2, 5, 4, viz::rgba(255, 0, 0), 1},
      {K::Outline, 6, 6, 10, 10, viz::rgba(0, 255, 0), 1},
      {K::Fill, 0, 0, 1, 1, viz::rgba(255, 255, 255, 128), 1},
  };
  viz::rasterize(cmds, g, img, 0, 0);
  CHECK(img.at(2, 2) == viz::rgba(255, 0, 0));
  CHECK(img.at(4, 3) == viz::rgba(255, 0, 0));
  CHECK(img.at(5, 3) == viz::rgba(0, 0, 0));
  CHECK(img.at(4, 4) == viz::rgba(0, 0, 0));
  CHECK(img.at(6, 6) == viz::rgba(0, 255, 0));
  CHECK(img.at(9, 9) == viz::rgba(0, 255, 0));
  CHECK(img.at(7, 7) == viz::rgba(0, 0, 0));
  CHECK(img.at(0, 0) == viz::rgba(128, 128, 128));
}
