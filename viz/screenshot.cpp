#include "screenshot.h"

#include <GL/gl.h>
#include <stb_image_write.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

namespace viz {

PixelRect RecordedGrid::cell_rect(Cell c) const {
  const float x = origin_x + static_cast<float>(c.col) * cell, y = origin_y + static_cast<float>(c.row) * cell;
  return {x, y, x + cell, y + cell};
}

bool RecordedGrid::cell_visible(Cell c) const {
  const PixelRect r = cell_rect(c);
  return r.x0 >= canvas.x0 && r.y0 >= canvas.y0 && r.x1 <= canvas.x1 && r.y1 <= canvas.y1;
}

void ScreenshotRecorder::record(RecordedGrid g) {
  // A window drawn twice in a frame (never, today) keeps its last drawing.
  auto it = std::find_if(grids.begin(), grids.end(), [&](const RecordedGrid& x) { return x.name == g.name; });
  if (it != grids.end()) *it = std::move(g);
  else grids.push_back(std::move(g));
}

Rgba Screenshot::pixel(int x, int y) const {
  if (x < 0 || y < 0 || x >= width || y >= height) return 0;
  const uint8_t* p = &rgba[(static_cast<size_t>(y) * width + x) * 4];
  return viz::rgba(p[0], p[1], p[2], p[3]);
}

const RecordedGrid* Screenshot::grid(const std::string& name) const {
  auto it = std::find_if(grids.begin(), grids.end(), [&](const RecordedGrid& g) { return g.name == name; });
  return it == grids.end() ? nullptr : &*it;
}

bool write_png(const Screenshot& s, const std::string& path) {
  if (s.width <= 0 || s.height <= 0) return false;
  return stbi_write_png(path.c_str(), s.width, s.height, 4, s.rgba.data(), s.width * 4) != 0;
}

bool write_cells_json(const Screenshot& s, const std::string& path) {
  using nlohmann::json;
  auto rect = [](const PixelRect& r) { return json::array({r.x0, r.y0, r.x1, r.y1}); };
  json grids = json::array();
  for (const RecordedGrid& g : s.grids) {
    json lanes = json::array();
    for (const RecordedLane& l : g.lanes)
      lanes.push_back({{"lane", l.lane}, {"row", l.cell.row}, {"col", l.cell.col}, {"mark", cell_mark_name(l.mark)},
                       {"inside", l.inside}, {"rect", rect(l.rect)}, {"visible", l.visible}});
    const GridLayout& L = g.layout;
    json layout = {{"kind", L.kind == LayoutKind::Strip ? "strip" : "matrix"},
                   {"shape", L.shape},
                   {"by_storage", L.by_storage}};
    if (L.kind == LayoutKind::Strip) layout["wrap"] = L.wrap;
    else layout.update({{"row_axis", L.row_axis}, {"col_axis", L.col_axis}, {"slice", L.slice}});
    grids.push_back({{"name", g.name},
                     {"canvas", rect(g.canvas)},
                     {"origin", json::array({g.origin_x, g.origin_y})},
                     {"cell", g.cell},
                     {"rows", L.rows()},
                     {"cols", L.cols()},
                     {"layout", layout},
                     {"event_lanes", lanes}});
  }
  json doc = {{"width", s.width}, {"height", s.height}, {"grids", grids}};
  std::ofstream out(path);
  out << doc.dump(1) << "\n";
  return static_cast<bool>(out);
}

void read_back_buffer(Screenshot& s, int width, int height) {
  s.width = width;
  s.height = height;
  std::vector<uint8_t> raw(static_cast<size_t>(width) * height * 4);
  glReadBuffer(GL_BACK);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, raw.data());
  // OpenGL's first row is the bottom one.
  s.rgba.resize(raw.size());
  const size_t row = static_cast<size_t>(width) * 4;
  for (int y = 0; y < height; ++y) std::memcpy(&s.rgba[y * row], &raw[(height - 1 - y) * row], row);
  // The framebuffer's alpha is whatever blending left there; a screenshot
  // is opaque.
  for (size_t i = 3; i < s.rgba.size(); i += 4) s.rgba[i] = 255;
}

}  // namespace viz
