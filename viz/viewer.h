// The viewer's entry points: an interactive window, or a headless
// screenshot of the same UI.
#pragma once
#include <optional>
#include <string>
#include <utility>

#include "model_document.h"
#include "model_framing.h"
#include "model_modes.h"
#include "model_trace_index.h"
#include "screenshot.h"

namespace viz {

struct ViewerOptions {
  std::optional<Pid> program;  // select this program first
  std::optional<int> event;    // and this event of it
  std::optional<ColorMode> mode;
  std::optional<ValueSource> values;
  std::optional<std::string> tab;  // "puzzle", "legend", "dot", "gpu"
  std::optional<FrameMode> frame;  // tensors framed on the selection (default) or whole
  // A program id as typed into the programs window's field ("1234", "3,1"),
  // then entered: what a user does to find a program.
  std::optional<std::string> go_to;
  int width = 1600, height = 1000;
  int frames = 4;  // screenshots: frames rendered before the capture (>= 2)
  // Screenshots: where the mouse pointer is, in pixels, so hover effects
  // (tooltips, the dot view's rows and columns) can be captured.
  std::optional<std::pair<float, float>> mouse;
};

// The line printed when no display can be opened.
std::string no_display_message();

// Opens the window and runs until it is closed. Returns 0, or 1 with a
// message on stderr when no window can be opened.
int run_viewer(const ViewerDocument& doc, const ViewerOptions& opt);

// Renders `opt.frames` frames into a hidden window and captures the last
// (before the swap). On failure returns nothing and sets `error`.
std::optional<Screenshot> render_screenshot(const ViewerDocument& doc, const ViewerOptions& opt, std::string& error);

// Where the window layout is kept: $XDG_CONFIG_HOME/tilescope/imgui.ini,
// else ~/.config/tilescope/imgui.ini; empty when neither can be made.
std::string layout_file_path();

}  // namespace viz
