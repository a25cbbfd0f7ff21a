// The kernel's source, as in a debugger: the current event's line
// highlighted, each line with the number of events the selected program
// made there; clicking a line jumps to its next event.
#include <cstdio>
#include <string>

#include "error.h"
#include "model_source.h"
#include "ui_windows.h"

namespace viz {

namespace {

// Without the file, the locations the trace recorded are all there is.
void draw_locations(ViewerState& s) {
  ImGui::TextWrapped("Source file not found: %s", s.source.path.c_str());
  ImGui::TextDisabled("Locations in the trace:");
  for (const tl::SrcLoc& loc : s.trace().locations) ImGui::BulletText("%s", loc.str().c_str());
}

}  // namespace

void draw_source_window(ViewerState& s) {
  if (!begin_window(s, "Source", WindowSlot::Source)) {
    ImGui::End();
    return;
  }
  if (!s.source.found()) {
    draw_locations(s);
    ImGui::End();
    return;
  }
  ImGui::TextDisabled("%s", tl::display_path(s.source.path).c_str());
  ImGui::BeginChild("lines", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
  const tl::Event* e = s.cursor.current_event();
  uint32_t current_line = e ? event_line(s.trace(), *e) : 0;
  // A kernel that did not build has no events: show the line the error names.
  const bool build_error = !e && s.doc->puzzle && !s.doc->puzzle->viewed.error.empty();
  if (build_error) current_line = diagnostic_line(s.doc->puzzle->viewed.error, s.source.path);
  std::vector<std::vector<int>> by_line;
  if (s.cursor.program() >= 0) by_line = events_by_line(s.trace(), s.trace().programs[s.cursor.program()], s.source);
  const ImU32 current_bg = build_error ? IM_COL32(150, 40, 40, 255) : IM_COL32(70, 90, 150, 255);
  ImGuiListClipper clipper;
  const int n = static_cast<int>(s.source.lines.size());
  clipper.Begin(n);
  if (s.scroll_source && current_line > 0) clipper.ForceDisplayRangeByIndices(current_line - 1, current_line);
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const uint32_t line = static_cast<uint32_t>(i + 1);
      const size_t events = line < by_line.size() ? by_line[line].size() : 0;
      char gutter[32];
      if (events > 0) std::snprintf(gutter, sizeof gutter, "%4u %3zux ", line, events);
      else std::snprintf(gutter, sizeof gutter, "%4u      ", line);
      const std::string text = gutter + s.source.lines[i];
      const bool is_current = line == current_line;
      if (is_current) {
        const ImVec2 p = ImGui::GetCursorScreenPos();
        ImGui::GetWindowDrawList()->AddRectFilled(
            p, ImVec2(p.x + ImGui::GetWindowWidth() + ImGui::GetScrollMaxX(), p.y + ImGui::GetTextLineHeightWithSpacing()),
            current_bg);
      }
      ImGui::PushID(i);
      if (events == 0) ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
      if (ImGui::Selectable(text.c_str(), false, ImGuiSelectableFlags_AllowDoubleClick) && events > 0 &&
          s.cursor.next_event_on_line(line)) {
        s.on_cursor_moved();
        s.scroll_source = false;
      }
      if (events == 0) ImGui::PopStyleColor();
      if (events > 0 && ImGui::IsItemHovered())
        ImGui::SetTooltip("%zu event%s of this program on line %u: click to step through them", events,
                          events == 1 ? "" : "s", line);
      ImGui::PopID();
      if (is_current && s.scroll_source) {
        ImGui::SetScrollHereY(0.35f);
        s.scroll_source = false;
      }
    }
  }
  ImGui::EndChild();
  ImGui::End();
}

}  // namespace viz
