// The frame: the menu bar, the keyboard shortcuts, each window in its
// default place, and the small widgets the windows share.
#include <GLFW/glfw3.h>

#include <cstdio>

#include "ui_windows.h"

namespace viz {

namespace {

struct SlotRect {
  float x, y, w, h;  // fractions of the area below the menu bar
};

SlotRect slot_rect(WindowSlot slot) {
  switch (slot) {
    case WindowSlot::Programs: return {0.00f, 0.00f, 0.22f, 0.25f};
    case WindowSlot::Timeline: return {0.00f, 0.25f, 0.22f, 0.40f};
    case WindowSlot::Findings: return {0.00f, 0.65f, 0.22f, 0.35f};
    case WindowSlot::Tensors: return {0.22f, 0.00f, 0.42f, 1.00f};
    case WindowSlot::Source: return {0.64f, 0.00f, 0.36f, 0.42f};
    case WindowSlot::Details: return {0.64f, 0.42f, 0.36f, 0.58f};
  }
  return {0, 0, 0.3f, 0.3f};
}

bool key_pressed(int key, bool repeat = true) { return ImGui::IsKeyPressed(key, repeat); }
bool imgui_key_pressed(ImGuiKey key) { return ImGui::IsKeyPressed(ImGui::GetKeyIndex(key)); }

void handle_keys(ViewerState& s) {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput) return;
  const int program = s.cursor.program(), event = s.cursor.event();
  const Pid pid = s.cursor.pid();
  if (imgui_key_pressed(ImGuiKey_RightArrow)) s.cursor.step(+1);
  if (imgui_key_pressed(ImGuiKey_LeftArrow)) s.cursor.step(-1);
  if (imgui_key_pressed(ImGuiKey_Home)) s.cursor.first();
  if (imgui_key_pressed(ImGuiKey_End)) s.cursor.last();
  if (imgui_key_pressed(ImGuiKey_DownArrow)) s.cursor.step_program(+1);
  if (imgui_key_pressed(ImGuiKey_UpArrow)) s.cursor.step_program(-1);
  if (key_pressed(GLFW_KEY_SPACE, false)) s.cursor.set_playing(!s.cursor.playing());
  if (key_pressed(GLFW_KEY_F)) s.cursor.next_finding(io.KeyShift ? -1 : +1);
  if (key_pressed(GLFW_KEY_Z, false)) s.toggle_frame_mode();
  if (key_pressed(GLFW_KEY_1, false)) s.mode = ColorMode::Access;
  if (key_pressed(GLFW_KEY_2, false)) s.mode = ColorMode::Coverage;
  if (key_pressed(GLFW_KEY_3, false)) s.mode = ColorMode::Values;
  if (key_pressed(GLFW_KEY_V, false))
    s.value_source = static_cast<ValueSource>((static_cast<int>(s.value_source) + 1) % 3);
  if (key_pressed(GLFW_KEY_H, false) || key_pressed(GLFW_KEY_F1, false) ||
      (io.KeyShift && key_pressed(GLFW_KEY_SLASH, false)))
    s.show_help = !s.show_help;
  if (imgui_key_pressed(ImGuiKey_Escape)) s.show_help = false;
  if (s.cursor.program() != program || s.cursor.event() != event || s.cursor.pid() != pid) s.on_cursor_moved();
}

void draw_menu_bar(ViewerState& s) {
  if (!ImGui::BeginMainMenuBar()) return;
  if (ImGui::BeginMenu("View")) {
    for (ColorMode m : kColorModes) {
      const std::string label = std::string("Color by ") + color_mode_name(m);
      const char shortcut[2] = {static_cast<char>('1' + static_cast<int>(m)), 0};
      if (ImGui::MenuItem(label.c_str(), shortcut, s.mode == m)) s.mode = m;
    }
    ImGui::Separator();
    for (ValueSource v : kValueSources) {
      const std::string label = std::string("Values ") + value_source_name(v);
      if (ImGui::MenuItem(label.c_str(), nullptr, s.value_source == v)) s.value_source = v;
    }
    ImGui::Separator();
    if (ImGui::MenuItem("Frame the selected event's cells", "Z", s.frame_mode == FrameMode::Selection))
      s.toggle_frame_mode();
    ImGui::Separator();
    if (ImGui::MenuItem("Reset layout")) s.reset_layout = true;
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Help")) {
    if (ImGui::MenuItem("Keys and mouse", "H", s.show_help)) s.show_help = !s.show_help;
    ImGui::EndMenu();
  }
  ImGui::TextDisabled("  %s", s.doc->title.c_str());
  ImGui::EndMainMenuBar();
}

}  // namespace

bool begin_window(ViewerState& s, const char* name, WindowSlot slot, ImGuiWindowFlags flags) {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const SlotRect r = slot_rect(slot);
  const ImGuiCond cond = s.screenshot_mode || s.reset_layout ? ImGuiCond_Always : ImGuiCond_FirstUseEver;
  // Below the main menu bar. (The viewport's work area only learns the
  // menu bar's height a frame later, too late for first-use placement.)
  const float menu = ImGui::GetFrameHeight();
  const ImVec2 area(vp->Size.x, vp->Size.y - menu);
  ImGui::SetNextWindowPos(ImVec2(vp->Pos.x + r.x * area.x, vp->Pos.y + menu + r.y * area.y), cond);
  ImGui::SetNextWindowSize(ImVec2(r.w * area.x, r.h * area.y), cond);
  return ImGui::Begin(name, nullptr, flags | ImGuiWindowFlags_NoCollapse);
}

void color_swatch(Rgba color, const char* label) {
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float h = ImGui::GetTextLineHeight();
  ImGui::GetWindowDrawList()->AddRectFilled(p, ImVec2(p.x + h * 1.6f, p.y + h), color);
  ImGui::Dummy(ImVec2(h * 1.6f, h));
  ImGui::SameLine();
  ImGui::TextUnformatted(label);
}

std::string pid_string(const Pid& pid) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "(%lld, %lld, %lld)", static_cast<long long>(pid[0]), static_cast<long long>(pid[1]),
                static_cast<long long>(pid[2]));
  return buf;
}

void pid_text(const Pid& pid) { ImGui::TextUnformatted(pid_string(pid).c_str()); }

void draw_frame(ViewerState& s) {
  s.canvas_hovered = s.canvas_hovered_now;
  s.canvas_hovered_now = false;
  handle_keys(s);
  if (!s.screenshot_mode && s.cursor.playing()) {
    const int before = s.cursor.event();
    s.cursor.tick(ImGui::GetIO().DeltaTime);
    if (s.cursor.event() != before) s.on_cursor_moved();
  }
  draw_menu_bar(s);
  draw_programs_window(s);
  draw_timeline_window(s);
  draw_findings_window(s);
  draw_tensors_window(s);
  draw_source_window(s);
  draw_details_window(s);
  draw_help_overlay(s);
  s.reset_layout = false;
}

}  // namespace viz

namespace viz {

void draw_details_window(ViewerState& s) {
  if (!begin_window(s, "Details", WindowSlot::Details, s.canvas_hovered ? ImGuiWindowFlags_NoScrollWithMouse : 0)) {
    ImGui::End();
    return;
  }
  if (ImGui::BeginTabBar("details")) {
    struct TabEntry {
      DetailsTab tab;
      const char* label;
      void (*draw)(ViewerState&);
    };
    static constexpr TabEntry kTabs[] = {{DetailsTab::Puzzle, "Puzzle", draw_puzzle_tab},
                                         {DetailsTab::Legend, "Legend", draw_legend_tab},
                                         {DetailsTab::Dot, "Dot", draw_dot_tab},
                                         {DetailsTab::Gpu, "Interpreter vs GPU", draw_gpu_tab}};
    for (const TabEntry& t : kTabs) {
      const ImGuiTabItemFlags flags = s.tab_requested && s.tab == t.tab ? ImGuiTabItemFlags_SetSelected : 0;
      if (ImGui::BeginTabItem(t.label, nullptr, flags)) {
        if (!s.tab_requested) s.tab = t.tab;
        t.draw(s);
        ImGui::EndTabItem();
      }
    }
    s.tab_requested = false;
    ImGui::EndTabBar();
  }
  ImGui::End();
}

}  // namespace viz
