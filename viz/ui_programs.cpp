// The program selector: x / y / z of the selected program (an axis of size
// 1 is locked at 0) and a map of the grid, one cell per program, colored by
// status; clicking a cell selects that program.
#include <algorithm>

#include "ui_windows.h"

namespace viz {

namespace {

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

// The map shows the x-y plane at the selected z; rows are y, columns x.
void program_map(ViewerState& s) {
  const Pid grid = s.index.grid();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float cell = std::clamp(std::min(avail.x / static_cast<float>(grid[0]), std::max(avail.y, 40.0f) / static_cast<float>(grid[1])),
                                1.0f, 22.0f);
  const ImVec2 size(cell * static_cast<float>(grid[0]), cell * static_cast<float>(grid[1]));
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("program_map", ImVec2(std::max(size.x, 1.0f), std::max(size.y, 1.0f)));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 clip0 = ImGui::GetWindowDrawList()->GetClipRectMin(), clip1 = dl->GetClipRectMax();
  const int64_t z = s.cursor.pid()[2];
  // Only the rows and columns inside the window's clip rectangle.
  const int64_t x0 = std::max<int64_t>(0, static_cast<int64_t>((clip0.x - p0.x) / cell));
  const int64_t x1 = std::min<int64_t>(grid[0], static_cast<int64_t>((clip1.x - p0.x) / cell) + 1);
  const int64_t y0 = std::max<int64_t>(0, static_cast<int64_t>((clip0.y - p0.y) / cell));
  const int64_t y1 = std::min<int64_t>(grid[1], static_cast<int64_t>((clip1.y - p0.y) / cell) + 1);
  const float gap = cell >= 6 ? 1.0f : 0.0f;
  for (int64_t y = y0; y < y1; ++y)
    for (int64_t x = x0; x < x1; ++x) {
      const ImVec2 a(p0.x + static_cast<float>(x) * cell, p0.y + static_cast<float>(y) * cell);
      dl->AddRectFilled(a, ImVec2(a.x + cell - gap, a.y + cell - gap), status_color(s.index.status({x, y, z})));
    }
  const Pid sel = s.cursor.pid();
  const ImVec2 a(p0.x + static_cast<float>(sel[0]) * cell, p0.y + static_cast<float>(sel[1]) * cell);
  dl->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(a.x + cell + 1, a.y + cell + 1), palette::highlight, 0, 0, 2.0f);
  if (ImGui::IsItemHovered()) {
    const ImVec2 m = ImGui::GetIO().MousePos;
    const Pid pid{std::clamp<int64_t>(static_cast<int64_t>((m.x - p0.x) / cell), 0, grid[0] - 1),
                  std::clamp<int64_t>(static_cast<int64_t>((m.y - p0.y) / cell), 0, grid[1] - 1), z};
    ImGui::SetTooltip("program %s: %s", pid_string(pid).c_str(), program_status_name(s.index.status(pid)));
    if (ImGui::IsItemClicked(ImGuiMouseButton_Left) && s.cursor.select(pid)) s.on_cursor_moved();
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
  if (grid[2] > 1) ImGui::TextDisabled("map: the x-y plane at z = %lld", static_cast<long long>(s.cursor.pid()[2]));
  ImGui::BeginChild("map", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
  program_map(s);
  ImGui::EndChild();
  ImGui::End();
}

}  // namespace viz
