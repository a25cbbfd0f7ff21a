// The viewer's windows, one function each, all drawing from ViewerState.
#pragma once
#include <imgui.h>

#include "ui_state.h"

namespace viz {

void draw_programs_window(ViewerState& s);
void draw_timeline_window(ViewerState& s);
void draw_source_window(ViewerState& s);
void draw_tensors_window(ViewerState& s);
void draw_findings_window(ViewerState& s);
void draw_details_window(ViewerState& s);  // tabs: puzzle, legend, dot, GPU
void draw_help_overlay(ViewerState& s);

// The tabs of the details window.
void draw_puzzle_tab(ViewerState& s);
void draw_legend_tab(ViewerState& s);
void draw_dot_tab(ViewerState& s);
void draw_gpu_tab(ViewerState& s);

// The default place of each window, as fractions of the display below the
// menu bar; applied on first use (the ini file remembers moves after
// that), always in screenshots, and on "reset layout".
enum class WindowSlot { Programs, Timeline, Findings, Tensors, Source, Details };
bool begin_window(ViewerState& s, const char* name, WindowSlot slot, ImGuiWindowFlags flags = 0);

// Small shared widgets.
void color_swatch(Rgba color, const char* label);
void pid_text(const Pid& pid);  // "(3, 2, 0)"
std::string pid_string(const Pid& pid);

}  // namespace viz

namespace viz {
// One frame of the whole viewer: keys, menu bar, every window, help.
void draw_frame(ViewerState& s);
}  // namespace viz
