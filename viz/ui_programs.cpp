// The program selector: x / y / z of the selected program (an axis of size
// 1 is locked at 0), a field to type a program id, and a map of the grid,
// one cell per program (a long 1-D grid wrapped into rows), colored by
// status; clicking a cell selects that program.
#include <algorithm>
#include <cmath>

#include "model_program_map.h"
#include "ui_windows.h"

namespace viz {

namespace {

constexpr float kMapPad = 2;  // pixels around the map

Rgba status_color(ProgramStatus st) {
  switch (st) {
    case ProgramStatus::Clean: return palette::clean_program;
    case ProgramStatus::HasFindings: return palette::flagged_program;
    case ProgramStatus::NotTraced: return palette::untraced_program;
  }
  return palette::untraced_program;
}

void axis_inputs(ViewerState& s) {
  const Pid grid = s.index.grid();
  static const char* kAxis[3] = {"x", "y", "z"};
  for (int a = 0; a < 3; ++a) {
    int64_t v = s.cursor.pid()[a];
    const int64_t lo = 0, hi = std::max<int64_t>(grid[a] - 1, 0);
    ImGui::BeginDisabled(s.cursor.axis_locked(a));
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x * 0.28f);
    if (ImGui::SliderScalar(kAxis[a], ImGuiDataType_S64, &v, &lo, &hi)) {
      s.cursor.set_axis(a, v);
      s.on_cursor_moved();
    }
    ImGui::EndDisabled();
    if (a < 2) ImGui::SameLine();
  }
}

// "Go to program": type an id ("12", "3,1"), Enter selects it.
void program_input(ViewerState& s) {
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x * 0.45f);
  const bool entered = ImGui::InputTextWithHint("##go", "id: 12 or 3,1", s.program_text,
                                                sizeof s.program_text, ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::SameLine();
  const bool go = ImGui::Button("go to program");
  if (entered || go) s.go_to_typed_program();
  if (!s.program_error.empty()) {
    ImGui::SameLine();
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(palette::flagged_program), "%s", s.program_error.c_str());
  }
}

// The map shows the x-y plane at the selected z: rows are y, columns x; a
// 1-D grid is wrapped into rows (model_program_map.h).
void program_map(ViewerState& s, const ProgramMapLayout& m) {
  const float cell = m.cell;
  // A few pixels of room around the map, so the selection's outline is never clipped.
  // (The scrollbar's room is left on the right.)
  const ImVec2 start = ImGui::GetCursorScreenPos();
  const ImVec2 p0(start.x + kMapPad, start.y + kMapPad);
  ImGui::InvisibleButton("program_map", ImVec2(m.width() + kMapPad, m.height() + 2 * kMapPad));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 clip0 = dl->GetClipRectMin(), clip1 = dl->GetClipRectMax();
  const int64_t z = s.cursor.pid()[2];
  // Only the map rows and columns inside the window's clip rectangle.
  const int64_t c0 = std::max<int64_t>(0, static_cast<int64_t>((clip0.x - p0.x) / cell));
  const int64_t c1 = std::min<int64_t>(m.columns, static_cast<int64_t>((clip1.x - p0.x) / cell) + 1);
  const int64_t r0 = std::max<int64_t>(0, static_cast<int64_t>((clip0.y - p0.y) / cell));
  const int64_t r1 = std::min<int64_t>(m.rows, static_cast<int64_t>((clip1.y - p0.y) / cell) + 1);
  const float gap = cell >= 6 ? 1.0f : 0.0f;
  for (int64_t row = r0; row < r1; ++row)
    for (int64_t col = c0; col < c1; ++col) {
      const auto xy = m.program_at({row, col});
      if (!xy) continue;
      const ImVec2 a(p0.x + static_cast<float>(col) * cell, p0.y + static_cast<float>(row) * cell);
      dl->AddRectFilled(a, ImVec2(a.x + cell - gap, a.y + cell - gap), status_color(s.index.status({(*xy)[0], (*xy)[1], z})));
    }
  const Pid sel = s.cursor.pid();
  const Cell sc = m.cell_of(sel[0], sel[1]);
  const ImVec2 a(p0.x + static_cast<float>(sc.col) * cell, p0.y + static_cast<float>(sc.row) * cell);
  dl->AddRect(ImVec2(a.x - 2, a.y - 2), ImVec2(a.x + cell + 2, a.y + cell + 2), palette::highlight, 0, 0, 2.0f);
  if (s.scroll_map) {
    // Bring the selected program into view (scrolling only when it is out of it).
    const ImVec2 win = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
    if (a.y < win.y || a.y + cell > win.y + size.y)
      ImGui::SetScrollY(ImGui::GetScrollY() + (a.y - win.y) - size.y / 2);
    if (a.x < win.x || a.x + cell > win.x + size.x)
      ImGui::SetScrollX(ImGui::GetScrollX() + (a.x - win.x) - size.x / 2);
    s.scroll_map = false;
  }
  if (ImGui::IsItemHovered()) {
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const Cell hc{static_cast<int64_t>(std::floor((mouse.y - p0.y) / cell)),
                  static_cast<int64_t>(std::floor((mouse.x - p0.x) / cell))};
    if (const auto xy = m.program_at(hc)) {
      const Pid pid{(*xy)[0], (*xy)[1], z};
      ImGui::SetTooltip("program %s: %s", pid_string(pid).c_str(), program_status_name(s.index.status(pid)));
      if (ImGui::IsItemClicked(ImGuiMouseButton_Left) && s.cursor.select(pid)) s.on_cursor_moved();
    }
  }
}

}  // namespace

void draw_programs_window(ViewerState& s) {
  if (!begin_window(s, "Programs", WindowSlot::Programs)) {
    ImGui::End();
    return;
  }
  const Pid grid = s.index.grid();
  ImGui::Text("grid %s, %zu traced%s", pid_string(grid).c_str(), s.trace().programs.size(),
              s.trace().truncated ? " (trace truncated)" : "");
  axis_inputs(s);
  const ProgramStatus st = s.index.status(s.cursor.pid());
  ImGui::Text("program %s:", pid_string(s.cursor.pid()).c_str());
  ImGui::SameLine();
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(status_color(st)), "%s", program_status_name(st));
  if (s.cursor.program() >= 0) {
    ImGui::SameLine();
    ImGui::TextDisabled("%d events", s.cursor.event_count());
  }
  program_input(s);
  if (grid[2] > 1) ImGui::TextDisabled("map: the x-y plane at z = %lld", static_cast<long long>(s.cursor.pid()[2]));
  // The map's room: below one line saying how a long 1-D grid is wrapped.
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const ProgramMapLayout m =
      program_map_layout(grid[0], grid[1], avail.x - ImGui::GetStyle().ScrollbarSize - kMapPad,
                         std::max(avail.y - ImGui::GetTextLineHeightWithSpacing() - 2 * kMapPad, 40.0f));
  if (m.wrapped) ImGui::TextDisabled("map: %lld programs per row", static_cast<long long>(m.columns));
  ImGui::BeginChild("map", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
  program_map(s, m);
  ImGui::EndChild();
  ImGui::End();
}

}  // namespace viz
