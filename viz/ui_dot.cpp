// The dot tab: the A, B and C tiles of the current dot event, laid out as
// the product is written on paper (B above C, A left of it). Hovering a C
// cell outlines the A row and B column it is made from, and the other way
// round.
#include <algorithm>
#include <string>

#include "ui_grid_canvas.h"
#include "ui_windows.h"

namespace viz {

namespace {

GridLayout tile_layout(const CellBounds& b) {
  GridLayout g;
  g.kind = LayoutKind::Matrix;
  g.shape = {b.rows(), b.cols()};
  g.row_axis = 0;
  g.col_axis = 1;
  g.slice = {0, 0};
  return g;
}

void other_dots(ViewerState& s) {
  const tl::Event* e = s.cursor.current_event();
  ImGui::TextWrapped("The current event is %s, not a dot.", e ? tl::event_kind_name(e->kind) : "none");
  if (s.cursor.program() < 0) return;
  const auto& events = s.trace().programs[s.cursor.program()].events;
  bool any = false;
  for (size_t i = 0; i < events.size(); ++i) {
    if (events[i].kind != tl::EventKind::Dot) continue;
    any = true;
    const std::string label = "go to dot #" + std::to_string(i) + "  " + dot_shapes(events[i]).describe();
    if (ImGui::Button(label.c_str())) {
      s.cursor.set_event(static_cast<int>(i));
      s.on_cursor_moved();
    }
  }
  if (!any) ImGui::TextDisabled("This program has no dot events.");
}

}  // namespace

void draw_dot_tab(ViewerState& s) {
  const tl::Event* e = s.cursor.current_event();
  if (!e || e->kind != tl::EventKind::Dot) {
    other_dots(s);
    return;
  }
  const DotShapes shapes = dot_shapes(*e);
  ImGui::Text("dot #%d: %s", s.cursor.event(), shapes.describe().c_str());
  if (!e->op.empty()) {
    ImGui::SameLine();
    ImGui::TextDisabled("precision %s", e->op.c_str());
  }
  if (!shapes.valid) {
    ImGui::TextDisabled("The shapes do not form a product; nothing to relate.");
    return;
  }
  ImGui::TextWrapped("C[m, n] = sum over k of A[m, k] * B[k, n]%s. Hover a cell.",
                     shapes.batch ? ", per batch (one batch shown)" : "");
  const DotHighlight h = s.dot_hover ? dot_highlight(shapes, *s.dot_hover, s.dot_hover_cell) : DotHighlight{};
  s.dot_hover.reset();

  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float gap = 12;
  const float cell = std::clamp(std::min((avail.x - gap) / static_cast<float>(shapes.k + shapes.n),
                                         (avail.y - gap - 2 * ImGui::GetTextLineHeightWithSpacing()) / static_cast<float>(shapes.k + shapes.m)),
                                2.0f, 24.0f);
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  const float left = static_cast<float>(shapes.k) * cell + gap, top = static_cast<float>(shapes.k) * cell + gap;
  struct Tile {
    DotOperand op;
    const char* name;
    ImVec2 at;
    const CellBounds* lit;
  };
  const Tile tiles[3] = {{DotOperand::B, "B", ImVec2(p0.x + left, p0.y), &h.b},
                         {DotOperand::A, "A", ImVec2(p0.x, p0.y + top), &h.a},
                         {DotOperand::C, "C", ImVec2(p0.x + left, p0.y + top), &h.c}};
  for (const Tile& t : tiles) {
    const CellBounds b = dot_tile_bounds(shapes, t.op);
    const GridLayout layout = tile_layout(b);
    ImGui::SetCursorScreenPos(t.at);
    CanvasInput in;
    in.layout = &layout;
    in.flat_color = t.op == DotOperand::C ? palette::stored : palette::loaded;
    in.content = b;
    in.size = ImVec2(static_cast<float>(b.cols()) * cell + 8, static_cast<float>(b.rows()) * cell + 8);
    in.max_cell = cell;
    if (!t.lit->empty()) in.highlights.push_back({*t.lit, palette::highlight});
    CanvasView& view = s.dot_views[static_cast<int>(t.op)];
    view.user_moved = false;  // the tiles always fit their place
    const CanvasResult r = grid_canvas(t.name, view, in);
    record_canvas(s, std::string("dot:") + t.name, r, layout, nullptr);
    if (r.hovered && b.contains(*r.hovered)) {
      s.dot_hover = t.op;
      s.dot_hover_cell = *r.hovered;
      const long long i = r.hovered->row, j = r.hovered->col;
      switch (t.op) {
        case DotOperand::C: ImGui::SetTooltip("C[%lld, %lld] = sum over k of A[%lld, k] * B[k, %lld]", i, j, i, j); break;
        case DotOperand::A: ImGui::SetTooltip("A[%lld, %lld] feeds row %lld of C (times row %lld of B)", i, j, i, j); break;
        case DotOperand::B: ImGui::SetTooltip("B[%lld, %lld] feeds column %lld of C (times column %lld of A)", i, j, j, i); break;
      }
    }
  }
  // The shapes in the corner the layout leaves empty (left of B, above A).
  ImGui::SetCursorScreenPos(p0);
  ImGui::BeginGroup();
  ImGui::TextDisabled("A: %lld x %lld", static_cast<long long>(shapes.m), static_cast<long long>(shapes.k));
  ImGui::TextDisabled("B: %lld x %lld", static_cast<long long>(shapes.k), static_cast<long long>(shapes.n));
  ImGui::TextDisabled("C: %lld x %lld", static_cast<long long>(shapes.m), static_cast<long long>(shapes.n));
  ImGui::EndGroup();
  ImGui::SetCursorScreenPos(ImVec2(p0.x, p0.y + top + static_cast<float>(shapes.m) * cell + 12));
  ImGui::Dummy(ImVec2(1, 1));
}

}  // namespace viz
