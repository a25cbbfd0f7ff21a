#include "viewer.h"

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <GL/gl.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include "ui_state.h"
#include "ui_windows.h"

namespace viz {

namespace {

// An X server resets itself when its last client disconnects (Xvfb under
// xvfb-run does), and refuses connections while it does: a second viewer
// started right after the first, in one script or one test run, can land in
// that window. With a display named, retry for about a second.
bool init_glfw() {
  const char* display = std::getenv("DISPLAY");
  const int attempts = display && *display ? 40 : 1;
  for (int i = 0; i < attempts; ++i) {
    if (glfwInit()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  return false;
}

// GLFW, the window, its OpenGL 3.3 core context and the ImGui context with
// both backends, torn down in reverse order however the run ends.
class WindowSession {
 public:
  WindowSession(const char* title, int width, int height, bool visible, const char* ini_file, std::string& error) {
    if (!init_glfw()) {
      error = no_display_message();
      return;
    }
    glfw_ = true;
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_VISIBLE, visible ? GLFW_TRUE : GLFW_FALSE);
    window_ = glfwCreateWindow(width, height, title, nullptr, nullptr);
    if (!window_) {
      error = "tilescope view: cannot create an OpenGL 3.3 window (is the display's OpenGL too old?)";
      return;
    }
    glfwMakeContextCurrent(window_);
    glfwSwapInterval(visible ? 1 : 0);
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = ini_file;
    ImGui::StyleColorsDark();
    ImGui::GetStyle().WindowRounding = 0;
    ImGui_ImplGlfw_InitForOpenGL(window_, true);
    ImGui_ImplOpenGL3_Init("#version 330 core");
    ready_ = true;
  }
  ~WindowSession() {
    if (ready_) {
      ImGui_ImplOpenGL3_Shutdown();
      ImGui_ImplGlfw_Shutdown();
      ImGui::DestroyContext();
    }
    if (window_) glfwDestroyWindow(window_);
    if (glfw_) glfwTerminate();
  }
  WindowSession(const WindowSession&) = delete;
  WindowSession& operator=(const WindowSession&) = delete;

  bool ready() const { return ready_; }
  GLFWwindow* window() const { return window_; }

  // Builds and draws one frame; `before_swap` sees the finished back
  // buffer. Returns the milliseconds spent building the UI (our CPU side,
  // without OpenGL's drawing).
  template <class BeforeSwap>
  double frame(ViewerState& s, const std::optional<std::pair<float, float>>& mouse, BeforeSwap before_swap) {
    const auto start = std::chrono::steady_clock::now();
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    if (mouse) ImGui::GetIO().MousePos = ImVec2(mouse->first, mouse->second);
    ImGui::NewFrame();
    draw_frame(s);
    ImGui::Render();
    const double ui_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    int w = 0, h = 0;
    glfwGetFramebufferSize(window_, &w, &h);
    glViewport(0, 0, w, h);
    glClearColor(0.08f, 0.08f, 0.09f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    before_swap(w, h);
    glfwSwapBuffers(window_);
    return ui_ms;
  }

 private:
  bool glfw_ = false, ready_ = false;
  GLFWwindow* window_ = nullptr;
};

// Ctrl-C (or a kill) closes the window the normal way, so the layout is
// saved: the handler only raises a flag the loop checks between frames.
volatile std::sig_atomic_t g_quit_requested = 0;
void request_quit(int) { g_quit_requested = 1; }

class QuitOnSignals {
 public:
  QuitOnSignals() {
    g_quit_requested = 0;
    old_int_ = std::signal(SIGINT, request_quit);
    old_term_ = std::signal(SIGTERM, request_quit);
  }
  ~QuitOnSignals() {
    std::signal(SIGINT, old_int_);
    std::signal(SIGTERM, old_term_);
  }
  QuitOnSignals(const QuitOnSignals&) = delete;
  QuitOnSignals& operator=(const QuitOnSignals&) = delete;

 private:
  void (*old_int_)(int);
  void (*old_term_)(int);
};

void apply_options(ViewerState& s, const ViewerOptions& opt) {
  if (opt.program) s.cursor.select(*opt.program);
  if (opt.event) s.cursor.set_event(*opt.event);
  if (opt.mode) s.mode = *opt.mode;
  if (opt.values) s.value_source = *opt.values;
  if (opt.frame) s.frame_mode = *opt.frame;
  if (opt.go_to) {
    std::snprintf(s.program_text, sizeof s.program_text, "%s", opt.go_to->c_str());
    s.go_to_typed_program();
  }
  if (opt.tab)
    if (auto t = parse_details_tab(*opt.tab)) {
      s.tab = *t;
      s.tab_requested = true;
    }
  s.on_cursor_moved();
}

}  // namespace

std::string no_display_message() {
  const char* display = std::getenv("DISPLAY");
  std::string why = display && *display ? std::string("cannot open display '") + display + "'" : "no display (DISPLAY is not set)";
  return "tilescope view: " + why +
         "; to render a PNG without one, run under Xvfb: "
         "xvfb-run -a -s \"-screen 0 1600x1000x24\" tilescope view 4 --screenshot out.png";
}

std::string layout_file_path() {
  namespace fs = std::filesystem;
  fs::path dir;
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) dir = fs::path(xdg) / "tilescope";
  else if (const char* home = std::getenv("HOME"); home && *home) dir = fs::path(home) / ".config" / "tilescope";
  else return "";
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return "";
  return (dir / "imgui.ini").string();
}

int run_viewer(const ViewerDocument& doc, const ViewerOptions& opt) {
  // ImGui keeps the pointer: the string must outlive the context.
  const std::string ini = layout_file_path();
  std::string error;
  const std::string title = "tilescope - " + doc.title;
  WindowSession session(title.c_str(), opt.width, opt.height, true, ini.empty() ? nullptr : ini.c_str(), error);
  if (!session.ready()) {
    std::fprintf(stderr, "%s\n", error.c_str());
    return 1;
  }
  ViewerState state(doc);
  apply_options(state, opt);
  const QuitOnSignals quit_on_signals;
  while (!glfwWindowShouldClose(session.window()) && !g_quit_requested) {
    // Sleep until input arrives unless something moves on its own.
    if (state.cursor.playing()) glfwPollEvents();
    else glfwWaitEventsTimeout(0.25);
    session.frame(state, std::nullopt, [](int, int) {});
  }
  return 0;
}

std::optional<Screenshot> render_screenshot(const ViewerDocument& doc, const ViewerOptions& opt, std::string& error) {
  // No ini file: a screenshot must not depend on (or change) how someone
  // arranged their windows.
  WindowSession session("tilescope", opt.width, opt.height, false, nullptr, error);
  if (!session.ready()) return std::nullopt;
  ViewerState state(doc);
  state.screenshot_mode = true;
  apply_options(state, opt);
  ScreenshotRecorder recorder;
  Screenshot shot;
  const int frames = std::max(opt.frames, 2);
  for (int f = 0; f < frames; ++f) {
    const bool last = f == frames - 1;
    recorder.grids.clear();
    state.recorder = last ? &recorder : nullptr;
    const auto start = std::chrono::steady_clock::now();
    shot.ui_ms.push_back(session.frame(state, opt.mouse, [&](int w, int h) {
      if (last) read_back_buffer(shot, w, h);
    }));
    glFinish();  // the frame's time includes the drawing, not only its submission
    shot.frame_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  state.recorder = nullptr;
  shot.grids = std::move(recorder.grids);
  return shot;
}

}  // namespace viz
