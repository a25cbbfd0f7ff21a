// The help overlay: every key and mouse action, toggled with H (or F1, ?).
#include "ui_windows.h"

namespace viz {

namespace {
struct KeyHelp {
  const char* keys;
  const char* action;
};
constexpr KeyHelp kKeys[] = {
    {"Right / Left", "next / previous event of the program"},
    {"Home / End", "first / last event"},
    {"Down / Up", "next / previous traced program"},
    {"Space", "play / pause (events/s slider in the timeline)"},
    {"F / Shift+F", "next / previous finding (out-of-bounds lanes, sanitizer examples)"},
    {"1  2  3", "color tensors by access / coverage / values"},
    {"V", "values: before / after the launch / stored by the current event"},
    {"Z", "tensors framed on the selected event's cells / whole tensors"},
    {"H, F1, ?", "this help; Esc closes it"},
    {"mouse wheel on a grid", "zoom around the pointer"},
    {"drag on a grid", "pan"},
    {"double-click a grid", "fit it to its pane"},
    {"click a tensor cell", "select a program that touched it (again: the next one)"},
    {"cyan outline on a cell", "a write conflict: hover it for the two programs"},
    {"click a program-map cell", "select that program"},
    {"type an id in Programs", "go to that program: 12, or 3,1 for x, y (Enter)"},
    {"click a source line", "jump to its next event in this program"},
    {"click a finding", "jump to its program and event"},
};
}  // namespace

void draw_help_overlay(ViewerState& s) {
  if (!s.show_help) return;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + vp->WorkSize.x / 2, vp->WorkPos.y + vp->WorkSize.y / 2), ImGuiCond_Always,
                          ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowBgAlpha(0.95f);
  if (ImGui::Begin("Keys and mouse", &s.show_help, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse)) {
    if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg)) {
      for (const KeyHelp& k : kKeys) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(k.keys);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(k.action);
      }
      ImGui::EndTable();
    }
    ImGui::Separator();
    ImGui::TextDisabled("The window layout is saved between runs (View > Reset layout restores it).");
  }
  ImGui::End();
}

}  // namespace viz
