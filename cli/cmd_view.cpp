// tilescope view: the viewer (viz/) on a puzzle's run, a named kernel or a
// saved trace, interactively or as a headless screenshot.
#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "args.h"
#include "command_line.h"
#include "commands.h"

#ifdef TILESCOPE_HAVE_VIEWER
#include "harness.h"
#include "model_document.h"
#include "viewer.h"
#endif
#if defined(TILESCOPE_HAVE_VIEWER) && defined(TILESCOPE_HAVE_GPU)
#include "puzzle_launch.h"
#endif

namespace cli {

namespace {

void print_help() {
  std::printf(
      "usage: tilescope view N | broken/NAME | TRACE.json  [options]\n\n"
      "Replays every access of a launch as memory grids: pick a program, step through its loads,\n"
      "stores, dots and reductions with the kernel line of each, and see which cells each access\n"
      "touched, which lanes were masked and which went out of bounds. N is a puzzle (1-12 or its\n"
      "id): its kernel is checked and one run traced; TRACE.json is a trace written by\n"
      "'tilescope check N --trace FILE'. Press H in the viewer for its keys.\n\n"
      "Without a display, render a PNG under Xvfb:\n"
      "  xvfb-run -a -s \"-screen 0 1600x1000x24\" tilescope view 4 --screenshot out.png --program 3,2\n\n"
      "options:\n%s",
      format_options(options_of("view")).c_str());
}

}  // namespace

#ifndef TILESCOPE_HAVE_VIEWER

int cmd_view(const Args& args) {
  if (args.flag("help")) {
    print_help();
    return kExitOk;
  }
  std::fprintf(stderr,
               "tilescope view: this tilescope was built without the viewer (it needs Dear ImGui, GLFW 3.3 and "
               "OpenGL; on Debian: apt-get install libimgui-dev libglfw3-dev libgl-dev, then rebuild)\n");
  return kExitFailed;
}

#else

namespace {

viz::Pid parse_program(const std::string& text) {
  const std::vector<long long> v = parse_int_list(text, "--program");
  if (v.empty() || v.size() > 3) throw UsageError("--program takes 1 to 3 comma-separated integers, e.g. 3,2");
  viz::Pid pid{0, 0, 0};
  for (size_t i = 0; i < v.size(); ++i) {
    if (v[i] < 0) throw UsageError("--program: program ids are >= 0");
    pid[i] = v[i];
  }
  return pid;
}

void parse_size(const std::string& text, viz::ViewerOptions& opt) {
  int w = 0, h = 0;
  char x = 0;
  if (std::sscanf(text.c_str(), "%d%c%d", &w, &x, &h) != 3 || (x != 'x' && x != 'X') || w < 320 || h < 240 ||
      w > 16384 || h > 16384)
    throw UsageError("--size takes WIDTHxHEIGHT, at least 320x240, e.g. 1600x1000");
  opt.width = w;
  opt.height = h;
}

viz::ViewerOptions viewer_options(const Args& args) {
  viz::ViewerOptions opt;
  if (auto p = args.value("program")) opt.program = parse_program(*p);
  if (args.value("event")) {
    const long long e = args.int_value("event", 0);
    if (e < 0 || e > 1'000'000'000) throw UsageError("--event takes an event index >= 0");
    opt.event = static_cast<int>(e);
  }
  if (auto m = args.value("mode")) {
    opt.mode = viz::parse_color_mode(*m);
    if (!opt.mode) throw UsageError("--mode takes access, coverage or values, not '" + *m + "'");
  }
  if (auto v = args.value("values")) {
    opt.values = viz::parse_value_source(*v);
    if (!opt.values) throw UsageError("--values takes before, after or stored, not '" + *v + "'");
    if (!opt.mode) opt.mode = viz::ColorMode::Values;
  }
  if (auto t = args.value("tab")) {
    if (*t != "puzzle" && *t != "legend" && *t != "dot" && *t != "gpu")
      throw UsageError("--tab takes puzzle, legend, dot or gpu, not '" + *t + "'");
    opt.tab = *t;
  }
  if (auto f = args.value("frame")) {
    if (*f != "selection" && *f != "whole") throw UsageError("--frame takes selection or whole, not '" + *f + "'");
    opt.frame = *f == "selection" ? viz::FrameMode::Selection : viz::FrameMode::Whole;
  }
  if (auto s = args.value("size")) parse_size(*s, opt);
  if (auto m = args.value("mouse")) {
    const std::vector<long long> xy = parse_int_list(*m, "--mouse");
    if (xy.size() != 2) throw UsageError("--mouse takes X,Y in pixels");
    opt.mouse = std::make_pair(static_cast<float>(xy[0]), static_cast<float>(xy[1]));
  }
  const long long frames = args.int_value("frames", opt.frames);
  if (frames < 2 || frames > 10000) throw UsageError("--frames takes 2 to 10000");
  opt.frames = static_cast<int>(frames);
  return opt;
}

// --gpu: the same launch (kernel, size set, seed, so the same inputs) on
// the GPU, every buffer's values after it, for the interpreter-vs-GPU tab.
void attach_gpu_results(viz::ViewerDocument& doc) {
  if (!doc.puzzle || !doc.puzzle->kernel_def) {
    doc.gpu_note = "--gpu runs puzzles and broken kernels; a trace file has no kernel to run.";
    return;
  }
#ifdef TILESCOPE_HAVE_GPU
  const viz::PuzzleContext& pc = *doc.puzzle;
  const puzzles::Puzzle* p = puzzles::find_puzzle(pc.id);
  const puzzles::SizeSet* set = p ? puzzles::find_set(*p, pc.viewed.set) : nullptr;
  if (!set) return;
  const tl::gpu::GpuLaunchValues run = tl::gpu::run_puzzle_launch_on_gpu(*p, *pc.kernel_def, *set, pc.viewed.seed);
  if (!run.ok) {
    doc.gpu_note = "The GPU run failed: " + run.error;
    return;
  }
  viz::GpuResults r;
  r.device = run.device;
  r.relative_tolerance = run.tolerance.relative;
  for (const tl::gpu::BufferValues& b : run.buffers) r.buffers.push_back({b.name, b.values});
  doc.gpu = std::move(r);
#else
  doc.gpu_note = "This tilescope was built without the GPU backend (it needs the CUDA toolkit's NVRTC).";
#endif
}

int take_screenshot(const viz::ViewerDocument& doc, const viz::ViewerOptions& opt, const std::string& png,
                    const std::optional<std::string>& cells) {
  std::string error;
  const std::optional<viz::Screenshot> shot = viz::render_screenshot(doc, opt, error);
  if (!shot) {
    std::fprintf(stderr, "%s\n", error.c_str());
    return kExitFailed;
  }
  if (!viz::write_png(*shot, png)) {
    std::fprintf(stderr, "tilescope view: cannot write '%s'\n", png.c_str());
    return kExitFailed;
  }
  if (cells && !viz::write_cells_json(*shot, *cells)) {
    std::fprintf(stderr, "tilescope view: cannot write '%s'\n", cells->c_str());
    return kExitFailed;
  }
  // The steady state: the first frames build textures and fit the grids.
  auto median_after_warmup = [](std::vector<double> v) {
    v.erase(v.begin(), v.begin() + static_cast<long>(std::min<size_t>(2, v.size() - 1)));
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  std::printf("%s: %dx%d screenshot of %s\n  %zu frames: first %.1f ms, then median %.1f ms (UI %.1f ms, the rest is "
              "OpenGL drawing)\n",
              png.c_str(), shot->width, shot->height, doc.title.c_str(), shot->frame_ms.size(), shot->frame_ms.front(),
              median_after_warmup(shot->frame_ms), median_after_warmup(shot->ui_ms));
  return kExitOk;
}

}  // namespace

int cmd_view(const Args& args) {
  if (args.flag("help")) {
    print_help();
    return kExitOk;
  }
  if (args.positional().size() != 1)
    throw UsageError("view takes one puzzle (1-12 or its id), broken/NAME or a trace file");
  const viz::ViewerOptions opt = viewer_options(args);
  const auto screenshot = args.value("screenshot");
  const auto cells = args.value("cells");
  if (cells && !screenshot) throw UsageError("--cells goes with --screenshot");
  viz::OpenOptions open;
  open.stub = args.flag("stub");
  open.set = args.value("set").value_or("");
  const long long seed = args.int_value("seed", 0);
  if (seed < 0 || seed > 0xffffffffLL) throw UsageError("--seed must be in [0, 2^32)");
  open.seed = static_cast<uint32_t>(seed);
  // Load first: a bad trace file is reported as such, display or not.
  viz::ViewerDocument doc = viz::open_target(args.positional()[0], open);
  if (args.flag("gpu")) attach_gpu_results(doc);
  if (screenshot) return take_screenshot(doc, opt, *screenshot, cells);
  return viz::run_viewer(doc, opt);
}

#endif

}  // namespace cli
