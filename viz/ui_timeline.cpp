// The event timeline of the selected program: its loads, stores, atomics,
// dots, reductions and prints in order, the current one highlighted, with
// step / play / next-finding controls.
#include <string>

#include "model_source.h"
#include "ui_windows.h"

namespace viz {

namespace {

// "store z [32, 32]  line 34  (108 masked, 24 OOB)"
std::string describe_event(const ViewerState& s, const tl::Event& e) {
  const tl::Trace& t = s.trace();
  std::string d = tl::event_kind_name(e.kind);
  if (e.buffer >= 0 && e.buffer < static_cast<int>(t.buffers.size())) d += " " + t.buffers[e.buffer].name;
  if (e.kind == tl::EventKind::Dot) d += " " + format_index(e.a_shape) + " x " + format_index(e.b_shape);
  else if (e.kind == tl::EventKind::Print) d += " \"" + e.text.substr(0, e.text.find('\n')) + "\"";
  else d += " " + format_index(e.shape);
  if (e.kind == tl::EventKind::Reduce) d += " " + e.op + " axis " + std::to_string(e.axis);
  if (const uint32_t line = event_line(t, e)) d += "  line " + std::to_string(line);
  const int64_t masked = TraceIndex::masked_lanes(e), oob = TraceIndex::oob_lanes(e);
  if (masked || oob) {
    d += "  (";
    if (masked) d += std::to_string(masked) + " masked";
    if (masked && oob) d += ", ";
    if (oob) d += std::to_string(oob) + " OUT OF BOUNDS";
    d += ")";
  }
  return d;
}

void controls(ViewerState& s) {
  const int before_event = s.cursor.event();
  const Pid before_pid = s.cursor.pid();
  if (ImGui::Button("|<")) s.cursor.first();
  ImGui::SameLine();
  if (ImGui::Button("<")) s.cursor.step(-1);
  ImGui::SameLine();
  if (ImGui::Button(s.cursor.playing() ? "pause" : "play")) s.cursor.set_playing(!s.cursor.playing());
  ImGui::SameLine();
  if (ImGui::Button(">")) s.cursor.step(+1);
  ImGui::SameLine();
  if (ImGui::Button(">|")) s.cursor.last();
  ImGui::SameLine();
  ImGui::BeginDisabled(s.index.programs_with_findings().empty());
  if (ImGui::Button("next finding")) s.cursor.next_finding(+1);
  ImGui::EndDisabled();
  float rate = static_cast<float>(s.cursor.rate);
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x * 0.5f);
  if (ImGui::SliderFloat("events/s", &rate, 0.5f, 60.0f, "%.1f", ImGuiSliderFlags_Logarithmic)) s.cursor.rate = rate;
  if (s.cursor.event() != before_event || s.cursor.pid() != before_pid) s.on_cursor_moved();
  if (s.cursor.program() < 0) {
    ImGui::TextDisabled("program %s was not traced", pid_string(s.cursor.pid()).c_str());
  } else {
    ImGui::Text("event %d of %d", s.cursor.event() + 1, s.cursor.event_count());
  }
}

}  // namespace

void draw_timeline_window(ViewerState& s) {
  if (!begin_window(s, "Timeline", WindowSlot::Timeline)) {
    ImGui::End();
    return;
  }
  controls(s);
  ImGui::Separator();
  ImGui::BeginChild("events");
  if (s.cursor.program() >= 0) {
    const auto& events = s.trace().programs[s.cursor.program()].events;
    const int current = s.cursor.event();
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(events.size()));
    // Keep the current row in the clipped range so it can be scrolled to.
    if (s.scroll_timeline && current >= 0) clipper.ForceDisplayRangeByIndices(current, current + 1);
    while (clipper.Step()) {
      for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
        const tl::Event& e = events[i];
        const bool finding = s.index.is_finding_event(s.cursor.program(), i);
        const std::string label = "#" + std::to_string(i) + "  " + describe_event(s, e);
        if (finding) ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(palette::out_of_bounds));
        ImGui::PushID(i);
        if (ImGui::Selectable(label.c_str(), i == current) && i != current) {
          s.cursor.set_event(i);
          s.on_cursor_moved();
          s.scroll_timeline = false;  // clicked: it is already in view
        }
        ImGui::PopID();
        if (finding) ImGui::PopStyleColor();
        if (i == current && s.scroll_timeline) {
          ImGui::SetScrollHereY(0.5f);
          s.scroll_timeline = false;
        }
      }
    }
    if (events.empty()) ImGui::TextDisabled("this program recorded no events");
  }
  ImGui::EndChild();
  ImGui::End();
}

}  // namespace viz
