// Findings: the sanitizer's (Trace::findings, grouped per op and kind with
// examples), and the out-of-bounds accesses the trace itself shows. Click
// an example or an access to jump to its program and event.
#include <string>

#include "model_source.h"
#include "ui_windows.h"

namespace viz {

namespace {

void jump(ViewerState& s, const Pid& pid, int event) {
  s.cursor.select(pid);
  if (event >= 0) s.cursor.set_event(event);
  s.on_cursor_moved();
}

void sanitizer_findings(ViewerState& s) {
  const tl::Trace& t = s.trace();
  if (t.findings.empty()) {
    ImGui::TextDisabled("no sanitizer findings in this trace");
    return;
  }
  for (size_t f = 0; f < t.findings.size(); ++f) {
    const tl::Finding& fd = t.findings[f];
    ImGui::PushID(static_cast<int>(f));
    const std::string where =
        fd.loc >= 0 && fd.loc < static_cast<int>(t.locations.size()) ? "line " + std::to_string(t.locations[fd.loc].line) : "";
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(palette::out_of_bounds));
    const bool open = ImGui::TreeNode("finding", "%s  %s", tl::finding_kind_name(fd.kind), where.c_str());
    ImGui::PopStyleColor();
    ImGui::SameLine();
    ImGui::TextDisabled("%lld lanes, %lld programs", static_cast<long long>(fd.lanes), static_cast<long long>(fd.programs));
    if (open) {
      ImGui::TextWrapped("%s", fd.message.c_str());
      for (size_t x = 0; x < fd.examples.size(); ++x) {
        const tl::FindingExample& ex = fd.examples[x];
        std::string label = "program " + pid_string(ex.pid);
        if (ex.event >= 0) label += " event #" + std::to_string(ex.event);
        if (!ex.lane_index.empty()) label += " lane " + format_index(ex.lane_index);
        label += " offset " + std::to_string(ex.offset);
        if (ex.other_pid[0] >= 0) label += " vs " + pid_string(ex.other_pid);
        if (!ex.detail.empty()) label += ": " + ex.detail;  // value findings: operands and result
        ImGui::PushID(static_cast<int>(x));
        if (ImGui::Selectable(label.c_str())) jump(s, ex.pid, ex.event);
        ImGui::PopID();
      }
      ImGui::TreePop();
    }
    ImGui::PopID();
  }
}

// Straight from the events: every access with out-of-bounds lanes.
void traced_oob_accesses(ViewerState& s) {
  const tl::Trace& t = s.trace();
  const auto& flagged = s.index.programs_with_findings();
  constexpr int kMaxRows = 500;
  int rows = 0;
  for (int p : flagged) {
    for (int e : s.index.finding_events(p)) {
      const tl::Event& ev = t.programs[p].events[e];
      const int64_t oob = TraceIndex::oob_lanes(ev);
      if (oob == 0) continue;
      if (rows++ == kMaxRows) {
        ImGui::TextDisabled("... (first %d shown)", kMaxRows);
        return;
      }
      const std::string buffer = ev.buffer >= 0 && ev.buffer < static_cast<int>(t.buffers.size()) ? t.buffers[ev.buffer].name : "?";
      const std::string label = pid_string(t.programs[p].pid) + " #" + std::to_string(e) + " " +
                                tl::event_kind_name(ev.kind) + " " + buffer + ": " + std::to_string(oob) +
                                " lanes out of bounds, line " + std::to_string(event_line(t, ev));
      const bool current = s.cursor.program() == p && s.cursor.event() == e;
      ImGui::PushID(rows);
      if (ImGui::Selectable(label.c_str(), current)) jump(s, t.programs[p].pid, e);
      ImGui::PopID();
    }
  }
  if (rows == 0) ImGui::TextDisabled("no out-of-bounds lanes in the traced events");
}

}  // namespace

void draw_findings_window(ViewerState& s) {
  if (!begin_window(s, "Findings", WindowSlot::Findings)) {
    ImGui::End();
    return;
  }
  if (ImGui::CollapsingHeader("Sanitizer findings", ImGuiTreeNodeFlags_DefaultOpen)) sanitizer_findings(s);
  if (ImGui::CollapsingHeader("Out-of-bounds accesses (traced)", ImGuiTreeNodeFlags_DefaultOpen)) traced_oob_accesses(s);
  ImGui::End();
}

}  // namespace viz
