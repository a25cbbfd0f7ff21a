// How the viewer copes with a large buffer: a 4096 x 4096 copy in 64 x 64
// tiles (4096 programs, 33M lanes traced), drawn headless in each color
// mode. Prints the time to trace, to open the document and to draw frames;
// the viewer's own share of a frame (UI) is what must stay far below 16 ms,
// the rest is the OpenGL driver (Mesa's llvmpipe here: a CPU rasterizer).
//
//   xvfb-run -a -s "-screen 0 1600x1000x24" build/tilescope_viz_frames_bench
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "interpreter.h"
#include "kernel.h"
#include "tl.h"
#include "viewer.h"

namespace {

void copy_tiles(tl::Ptr x, tl::Ptr z, tl::Int N, tl::Const B) {
  auto rows = tl::program_id(1) * B + tl::arange(0, B);
  auto cols = tl::program_id(0) * B + tl::arange(0, B);
  auto off = rows.col() * N + cols.row();
  tl::store(z + off, tl::load(x + off));
}

double ms_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

double median_after_warmup(std::vector<double> v) {
  v.erase(v.begin(), v.begin() + 2);
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main() {
  constexpr int64_t kN = 4096, kB = 64;
  tl::Buffer x("x", tl::f32, {kN, kN}), z("z", tl::f32, {kN, kN});
  for (int64_t i = 0; i < kN * kN; ++i) x.set(i, static_cast<double>(i % 977));
  static const tl::KernelDef kernel("copy_tiles", copy_tiles, {"x", "z", "N", "B"});
  tl::RunOptions opt;
  opt.trace = tl::TraceMode::Full;
  opt.record_store_values = false;
  opt.trace_budget_bytes = int64_t{2} << 30;
  auto t0 = std::chrono::steady_clock::now();
  tl::RunResult r = tl::run(kernel, tl::Grid{kN / kB, kN / kB, 1}, {x, z, kN, static_cast<int>(kB)}, opt);
  std::printf("trace: %zu programs, %s, %.0f ms\n", r.trace->programs.size(),
              r.trace->truncated ? "truncated" : "complete", ms_since(t0));

  viz::ViewerDocument doc;
  doc.trace = r.trace;
  doc.title = "4096 x 4096 copy";
  constexpr int kFrames = 30;
  for (viz::ColorMode mode : viz::kColorModes) {
    viz::ViewerOptions v;
    v.mode = mode;
    v.program = viz::Pid{31, 17, 0};
    v.event = 1;
    v.frames = kFrames;
    // The pointer over the z grid: hover lookups run every frame.
    v.mouse = std::make_pair(800.0f, 600.0f);
    std::string error;
    t0 = std::chrono::steady_clock::now();
    std::optional<viz::Screenshot> shot = viz::render_screenshot(doc, v, error);
    if (!shot) {
      std::fprintf(stderr, "%s\n", error.c_str());
      return 1;
    }
    std::printf("%-8s total %6.0f ms for %d frames: first %6.1f ms, then median %5.1f ms (UI %.2f ms)\n",
                viz::color_mode_name(mode), ms_since(t0), kFrames, shot->frame_ms.front(),
                median_after_warmup(shot->frame_ms), median_after_warmup(shot->ui_ms));
    if (mode == viz::ColorMode::Access) viz::write_png(*shot, "viz_frames_bench.png");
  }
  return 0;
}
