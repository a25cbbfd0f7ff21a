// The CUDA back end on a GPU: every case of gpu_cases.h and every puzzle
// solution runs on the interpreter and on the device, and the two agree
// within SEMANTICS' tolerances. Without a CUDA driver these tests say
// "[SKIP] no CUDA driver: ..." and pass.
#ifdef TILESCOPE_HAVE_GPU
#include <catch2/catch.hpp>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <memory>

#include "child_process.h"
#include "codegen.h"
#include "cubin_cache.h"
#include "device_runtime.h"
#include "gpu_cases.h"
#include "gpu_check.h"
#include "gpu_compare.h"
#include "harness.h"
#include "inputs.h"
#include "puzzle_launch.h"
#include "registry.h"

namespace {

// One driver for the whole test process, or why there is none. Once it
// exists this process must not fork GPU work (check_on_gpu gets it as
// GpuCheckOptions::driver instead). It is never destroyed: a static's
// destructor would release the context after libcuda's own exit-time
// teardown has run.
tl::gpu::CudaDriver* test_driver(std::string& why) {
  static tl::gpu::CudaDriver* driver = nullptr;
  static std::string reason;
  static bool tried = false;
  if (!tried) {
    tried = true;
    try {
      driver = new tl::gpu::CudaDriver();
    } catch (const tl::gpu::NoDriver& e) {
      reason = e.what();
    }
  }
  why = reason;
  return driver;
}

#define GPU_OR_SKIP(d)                                  \
  std::string why_;                                     \
  tl::gpu::CudaDriver* d = test_driver(why_);           \
  if (!d) {                                             \
    WARN("[SKIP] no CUDA driver: " << why_);            \
    return;                                             \
  }

}  // namespace

TEST_CASE("a puzzle launch for the viewer gives every buffer's values, or why not", "[gpu][run]") {
  // Runs in a child process, so it comes first in this file: a child forked
  // after this process made its own CUDA context (the tests below do) cannot
  // use CUDA. Then it says so; the contract is an answer, never a crash.
  const puzzles::Puzzle& p = *puzzles::find_puzzle("4");
  tl::gpu::GpuLaunchValues v = tl::gpu::run_puzzle_launch_on_gpu(p, *p.solution, p.sets[0], 0);
  if (!v.ok) {
    WARN("[SKIP] no GPU launch: " << v.error);
    CHECK_FALSE(v.error.empty());
    return;
  }
  REQUIRE(v.buffers.size() == 3);
  CHECK(v.buffers[2].name == "z");
  puzzles::RunBuffers b = puzzles::make_buffers(p, p.sets[0], 0);
  tl::run(*p.solution, puzzles::grid_for(p.sets[0]), puzzles::launch_args(p.sets[0], b));
  for (int64_t i = 0; i < b.output.extent(); ++i) CHECK(v.buffers[2].values[static_cast<size_t>(i)] == b.output.get(i));
}

TEST_CASE("GPU runs of the semantics cases match the interpreter", "[gpu][run]") {
  GPU_OR_SKIP(d);
  tl::gpu::CompileOptions co;
  co.arch = d->device().arch();
  for (int warps : {1, 4, 8}) {
    for (const gpu_cases::Case& c : gpu_cases::all_cases()) {
      INFO("case " << c.name << ", " << warps << " warps");
      std::vector<tl::Buffer> ib = c.buffers(), gb = c.buffers();
      tl::run(*c.kernel, c.grid, c.args(ib));
      auto ir = tl::build_ir(*c.kernel, c.args(gb));
      tl::gpu::CodegenOptions cg;
      cg.num_warps = warps;
      tl::gpu::LoweredKernel lowered = tl::gpu::lower(*ir, cg);
      tl::gpu::Cubin cubin = tl::gpu::compile_cubin(lowered, co, nullptr);
      tl::gpu::LoadedKernel loaded(*d, cubin, lowered);
      tl::gpu::run_on_device(*d, loaded, *ir, c.grid, c.args(gb));
      for (size_t k = 0; k < ib.size(); ++k) {
        tl::gpu::Tolerance tol = tl::gpu::tolerance_for(*ir, ib[k].dtype());
        tl::gpu::BufferDiff diff = tl::gpu::diff_buffers(ib[k], gb[k], tol);
        INFO("buffer " << ib[k].name() << ": " << diff.str() << " (tolerance " << tol.str() << ")");
        CHECK(diff.pass);
      }
    }
  }
}

TEST_CASE("every puzzle solution on the GPU matches the interpreter at every size set", "[gpu][run]") {
  GPU_OR_SKIP(d);
  tl::gpu::GpuCheckOptions opt;
  opt.driver = d;
  opt.seeds = {0, 1};
  opt.compile.arch = d->device().arch();
  for (const puzzles::Puzzle& p : puzzles::all_puzzles()) {
    tl::gpu::GpuPuzzleReport r = tl::gpu::check_on_gpu(p, *p.solution, opt);
    INFO(tl::gpu::format_gpu_report(r));
    CHECK(r.all_match);
    CHECK(r.all_spec_pass);
  }
}

// Run in a fresh process by the test below (hidden: a process that already
// holds a CUDA context cannot fork GPU work).
TEST_CASE("child: a faulting launch in a forked process is reported", "[.][gpu][gpu_fault_child]") {
  static const tl::KernelDef wild("wild_load", +[](tl::Ptr x, tl::Ptr z) {
    tl::store(z + tl::arange(0, 32), tl::load(x + (int64_t{1} << 40) + tl::arange(0, 32)));
  });
  tl::Buffer x("x", tl::DType::f32, {32}), z("z", tl::DType::f32, {32});
  std::vector<tl::Arg> args{x, z};
  auto ir = tl::build_ir(wild, args);
  tl::gpu::ChildOutcome out = tl::gpu::run_in_child([&] {
    std::unique_ptr<tl::gpu::CudaDriver> driver;
    try {
      driver = std::make_unique<tl::gpu::CudaDriver>();
    } catch (const tl::gpu::NoDriver&) {
      return std::string("no driver");
    }
    tl::gpu::CudaDriver& d = *driver;
    tl::gpu::LoweredKernel lowered = tl::gpu::lower(*ir);
    tl::gpu::CompileOptions co;
    co.arch = d.device().arch();
    tl::gpu::LoadedKernel k(d, tl::gpu::compile_cubin(lowered, co, nullptr), lowered);
    tl::gpu::run_on_device(d, k, *ir, tl::Grid{1, 1, 1}, args);
    return std::string("completed");
  });
  if (out.completed && out.payload == "no driver") {
    WARN("[SKIP] no CUDA driver");
    return;
  }
  INFO(out.failure);
  CHECK(!out.completed);
  CHECK(out.failure.find("CUDA_ERROR") != std::string::npos);
}

TEST_CASE("a faulting GPU launch does not take the process down", "[gpu][run]") {
  GPU_OR_SKIP(d);
  (void)d;
  char self[PATH_MAX] = {};
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  REQUIRE(n > 0);
  std::string cmd = std::string("'") + self + "' '[gpu_fault_child]' > /dev/null 2>&1";
  CHECK(std::system(cmd.c_str()) == 0);
}

#endif  // TILESCOPE_HAVE_GPU
