// The CUDA back end on a GPU: every case of gpu_cases.h and every puzzle
// solution runs on the interpreter and on the device, and the two agree
// within SEMANTICS' tolerances. Without a CUDA driver these tests say
// "[SKIP] no CUDA driver: ..." and pass.
#ifdef TILESCOPE_HAVE_GPU
#include <catch2/catch.hpp>
#include <unistd.h>

#include <bit>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <random>
#include <tuple>

#include "child_process.h"
#include "codegen.h"
#include "cubin_cache.h"
#include "device_runtime.h"
#include "dot_cases.h"
#include "driver_api.h"
#include "gpu_cases.h"
#include "gpu_bench.h"
#include "gpu_check.h"
#include "gpu_compare.h"
#include "harness.h"
#include "inputs.h"
#include "puzzle_launch.h"
#include "registry.h"
#include "wgmma16_cases.h"

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

// A generated kernel compiled for this GPU (no cubin cache) and loaded.
tl::gpu::LoadedKernel load_for(tl::gpu::CudaDriver& d, const tl::gpu::LoweredKernel& lowered) {
  tl::gpu::CompileOptions co;
  co.arch = d.device().arch();
  return tl::gpu::LoadedKernel(d, tl::gpu::compile_cubin(lowered, co, nullptr), lowered, co);
}

#define GPU_OR_SKIP(d)                                  \
  std::string why_;                                     \
  tl::gpu::CudaDriver* d = test_driver(why_);           \
  if (!d) {                                             \
    WARN("[SKIP] no CUDA driver: " << why_);            \
    return;                                             \
  }

// GPU_OR_SKIP, and the test skipped but on sm_90a, which `what` needs.
#define SM90A_OR_SKIP(d, what)                                                          \
  GPU_OR_SKIP(d);                                                                      \
  if (d->device().arch() != "sm_90a") {                                                \
    WARN("[SKIP] " << what << " needs sm_90a, this GPU is " << d->device().arch());    \
    return;                                                                            \
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
      tl::gpu::LoadedKernel loaded(*d, cubin, lowered, co);
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

// What the tensor cores make of the f32 operands they read from shared
// memory (CodegenOptions::tf32_cut_staged off, the default): with B^T
// one-hot, each product sum is one operand of A times 1, so the result is
// exactly what the hardware took A's value for. SEMANTICS §8 (the
// interpreter's tf32 truncation) clears the 13 low mantissa bits of every
// value; random mantissas put half the values where rounding to nearest
// would differ from that, and the special values include NaNs whose
// payload lies only in those bits (they become Inf). The hardware's wgmma,
// which the interpreter follows there: 0x7f800001 -> 0x7f800000, 0xff801000 -> 0xff800000.
TEST_CASE("the tensor cores read f32 operands as the interpreter's tf32 truncates them", "[gpu][run]") {
  GPU_OR_SKIP(d);
  static const tl::KernelDef one_hot("one_hot_dot", +[](tl::Ptr A, tl::Ptr Bt, tl::Ptr C, tl::Int M, tl::Int N, tl::Int K) {
    dot_cases::tile_dot(A, Bt, C, M, N, K, dot_cases::in_bounds);
  });
  const int64_t M = 128, N = 64, K = 64;
  tl::Buffer a("A", tl::DType::f32, {M, K}), bt("Bt", tl::DType::f32, {N, K});
  for (int64_t n = 0; n < N; ++n)
    for (int64_t k = 0; k < K; ++k) bt.as<float>()[n * K + k] = k == n ? 1.0f : 0.0f;
  // The interpreter's C into ci, the GPU's into cg; the generated source back.
  auto run_both = [&](const tl::gpu::CodegenOptions& opt, tl::Buffer& ci, tl::Buffer& cg) {
    const tl::Grid grid{M / 64, N / 64, 1};
    tl::run(one_hot, grid, {a, bt, ci, tl::Arg(M), tl::Arg(N), tl::Arg(K)});
    const std::vector<tl::Arg> args{a, bt, cg, tl::Arg(M), tl::Arg(N), tl::Arg(K)};
    auto ir = tl::build_ir(one_hot, args);
    tl::gpu::LoweredKernel lowered = tl::gpu::lower(*ir, opt);
    tl::gpu::run_on_device(*d, load_for(*d, lowered), *ir, grid, args);
    return lowered.source;
  };
  // Equal bits, or both NaN (the payload of a NaN result is the hardware's).
  auto same = [](uint32_t x, uint32_t y) { return x == y || (std::isnan(std::bit_cast<float>(x)) && std::isnan(std::bit_cast<float>(y))); };
  const uint32_t specials[] = {0x7f800000u, 0xff800000u, 0x7fc00000u, 0x7fa00000u, 0x7f800001u, 0xff801000u};
  for (const bool wgmma : {false, true}) {
    if (wgmma && d->device().arch() != "sm_90a") {
      WARN("[SKIP] wgmma needs sm_90a, this GPU is " << d->device().arch());
      continue;
    }
    for (const bool cut : {false, true}) {
      INFO((wgmma ? "wgmma" : "mma.sync") << ", staged operands " << (cut ? "cut in shared memory" : "read raw"));
      tl::gpu::CodegenOptions opt;
      opt.wgmma = wgmma;
      opt.tf32_cut_staged = cut;
      std::mt19937 gen(7);
      std::uniform_int_distribution<uint32_t> mantissa(0, (1u << 23) - 1), exponent(100, 150), sign(0, 1);
      for (int64_t i = 0; i < M * K; ++i) a.as<uint32_t>()[i] = sign(gen) << 31 | exponent(gen) << 23 | mantissa(gen);
      tl::Buffer ci("C", tl::DType::f32, {M, N}), cg("C", tl::DType::f32, {M, N});
      const std::string source = run_both(opt, ci, cg);
      REQUIRE(source.find(wgmma ? "ts_wgmma_tf32_n64(" : "ts_mma_tf32(") != std::string::npos);
      CHECK((source.find("ts_tf32_word(ts_x.x)") != std::string::npos) == cut);
      int64_t differ = 0, first = -1;
      for (int64_t i = 0; i < M * N; ++i)
        if (ci.as<uint32_t>()[i] != cg.as<uint32_t>()[i]) {
          ++differ;
          if (first < 0) first = i;
        }
      INFO(differ << " of " << M * N << " results differ in their bits; first at " << first);
      CHECK(differ == 0);
      // The special values, one per run in column 5 of A (the rest 1.0).
      for (const uint32_t bits : specials) {
        for (int64_t i = 0; i < M * K; ++i) a.as<uint32_t>()[i] = i % K == 5 ? bits : 0x3f800000u;
        tl::Buffer si("C", tl::DType::f32, {M, N}), sg("C", tl::DType::f32, {M, N});
        run_both(opt, si, sg);
        const uint32_t want = si.as<uint32_t>()[5], got = sg.as<uint32_t>()[5];
        INFO("A = 0x" << std::hex << bits << ": interpreter 0x" << want << ", GPU 0x" << got);
        CHECK(same(want, got));
      }
    }
  }
}

// Run in a fresh process by the test below (hidden: a process that already
// holds a CUDA context cannot fork GPU work).
// CodegenOptions::tma on the hardware: E1 with tails on every axis, at K = 80
// through the TMA unit (out-of-bounds boxes zero-filled) and at K = 78,
// whose rows the TMA unit cannot stride, through the kernel's cp.async form.
TEST_CASE("GPU: TMA copies compute what the interpreter computes", "[gpu][run]") {
  SM90A_OR_SKIP(d, "TMA with wgmma");
  for (auto [name, warps, stages, K] : {std::tuple{"e1_v1", 4, 2, 80}, std::tuple{"e1_v1", 4, 4, 80},
                                        std::tuple{"e1_v1_128", 8, 3, 80}, std::tuple{"e1_v1_128", 8, 3, 78}}) {
    const tl::gpu::BenchCase c = dot_cases::bench_case_at(name, 70, 100, K);
    REQUIRE(c.puzzle);
    INFO(name << " at " << c.set.sizes.str() << ", " << warps << " warps, " << stages << " stages");
    tl::gpu::CodegenOptions cg;
    cg.num_warps = warps;
    cg.num_stages = stages;
    cg.wgmma = cg.tma = true;
    dot_cases::check_against_interpreter(c, [&](const tl::ir::Kernel& ir, tl::Grid grid, const std::vector<tl::Arg>& args) {
      const tl::gpu::LoweredKernel lowered = tl::gpu::lower(ir, cg);
      REQUIRE(lowered.tensor_maps.size() == 3);
      bool tma_used = false;
      const tl::gpu::LoadedKernel k = load_for(*d, lowered);
      tl::gpu::run_on_device(*d, k, ir, grid, args, &tma_used);
      CHECK(tma_used == (K % 4 == 0));
      // The cp.async form is compiled only for the launch that needs it.
      CHECK(k.cp_async_form_loaded() == (K % 4 != 0));
    });
  }
}

// The transposed wgmma (B^T from registers, C^T's accumulator stored as C)
// on the hardware, at the forms the emulated test runs; compute-sanitizer
// memcheck runs this test too (TESTS=... bench/device_call.sh).
TEST_CASE("GPU: wgmma as C^T = B^T A^T computes what the interpreter computes", "[gpu][run]") {
  SM90A_OR_SKIP(d, "wgmma");
  dot_cases::check_transposed_forms([&](const tl::ir::Kernel& ir, tl::Grid grid, const std::vector<tl::Arg>& args,
                                         const tl::gpu::LoweredKernel& lowered, int64_t) {
    tl::gpu::run_on_device(*d, load_for(*d, lowered), ir, grid, args);
  });
}

// 16-bit wgmma on the hardware at the forms the emulated tests run
// (test_gpu_wgmma16.cpp): the descriptors' M- and N-major readings and
// swizzles, and E4's X from registers; memcheck runs it too.
TEST_CASE("GPU: bf16 wgmma computes what the interpreter computes", "[gpu][run]") {
  SM90A_OR_SKIP(d, "wgmma");
  wgmma16_cases::check_layout_forms([&](const tl::ir::Kernel& ir, const tl::gpu::LoweredKernel& k, tl::Grid grid,
                                        const std::vector<tl::Arg>& args) {
    tl::gpu::run_on_device(*d, load_for(*d, k), ir, grid, args);
  });
  for (auto [bn, bk, rows, split, stages, in_flight, suffix] : wgmma16_cases::e4_forms) {
    const tl::gpu::BenchCase c = wgmma16_cases::e4_rows_at(128, bn, bk, rows, split);
    INFO("e4_rows at " << c.set.sizes.str() << " | " << c.set.blocks.str() << ", stages " << stages << ", in flight "
                       << in_flight);
    dot_cases::check_against_interpreter(c, [&](const tl::ir::Kernel& ir, tl::Grid grid, const std::vector<tl::Arg>& args) {
      const tl::gpu::LoweredKernel lowered = tl::gpu::lower(ir, wgmma16_cases::wgmma_at(8, stages, in_flight));
      REQUIRE(lowered.source.find("ts_wgmma_bf16_n" + std::to_string(bn) + suffix) != std::string::npos);
      tl::gpu::run_on_device(*d, load_for(*d, lowered), ir, grid, args);
    });
  }
}

// With a CUDA context up, compile_in_parallel runs NVRTC on threads (the
// bench's tuner): the cubins it leaves in the cache are the kernels asked
// for, and they run (every puzzle's reference kernel at its canonical set,
// compiled together, then each checked on the GPU from the cache).
TEST_CASE("GPU: compile_in_parallel fills the cache with every kernel NVRTC accepts, and skips the rest", "[gpu][run]") {
  GPU_OR_SKIP(d);
  REQUIRE(tl::gpu::cuda_initialized_in_this_process());
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("tilescope-parallel-gpu-test-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  tl::gpu::CubinCache cache(dir.string());
  tl::gpu::CompileOptions co;
  co.arch = d->device().arch();
  struct Case {
    std::shared_ptr<const tl::ir::Kernel> ir;
    tl::Grid grid;
    std::vector<tl::Arg> args;
    puzzles::RunBuffers buffers;
  };
  std::vector<Case> cases;
  std::vector<tl::gpu::CompileJob> jobs;
  cases.reserve(puzzles::all_puzzles().size());  // the args point into each case's buffers
  for (const puzzles::Puzzle& p : puzzles::all_puzzles()) {
    const puzzles::SizeSet& set = p.sets.front();
    Case& c = cases.emplace_back(Case{nullptr, puzzles::grid_for(set), {}, puzzles::make_buffers(p, set, 0)});
    c.args = puzzles::launch_args(set, c.buffers);
    c.ir = tl::build_ir(*p.solution, c.args);
    jobs.push_back({tl::gpu::lower(*c.ir, {}), co});
  }
  tl::gpu::CompileJob broken{tl::gpu::LoweredKernel{}, co};
  broken.kernel.name = "broken";
  broken.kernel.source = "extern \"C\" __global__ void broken() { undefined_thing(); }";
  jobs.push_back(broken);
  CHECK(tl::gpu::compile_in_parallel(jobs, cache, 8) == cases.size());
  for (size_t i = 0; i < cases.size(); ++i) {
    INFO(jobs[i].kernel.name);
    const tl::gpu::Cubin cubin = cache.get(jobs[i].kernel, co);
    CHECK(cubin.from_cache);
    tl::gpu::run_on_device(*d, tl::gpu::LoadedKernel(*d, cubin, jobs[i].kernel, co, &cache), *cases[i].ir, cases[i].grid,
                           cases[i].args);
  }
  CHECK_THROWS_AS(cache.get(broken.kernel, co), tl::gpu::CompileError);
  fs::remove_all(dir);
}

// The bench's autotuner end to end at an anchor size (E3: memory-bound, 1,
// 2, 4 and 8 warps, persistent launches; E1 64: dots, stages, wgmma and
// TMA): its variants compiled together into a cache, each run on the one
// set of inputs made for the case, its output checked against the first
// variant's, and the winner's output against the reference.
TEST_CASE("GPU: the autotuner times every variant from one set of inputs and reports a verified winner", "[gpu][run]") {
  GPU_OR_SKIP(d);
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("tilescope-tuner-gpu-test-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  tl::gpu::CubinCache cache(dir.string());
  tl::gpu::BenchOptions opt;
  opt.cases = {"e3", "e1_v1"};
  opt.tune_warps = {4, 8};
  opt.tune_wgmma = d->device().arch() == "sm_90a";
  opt.verify = true;
  opt.cache = &cache;
  opt.compile.arch = d->device().arch();
  const std::vector<tl::gpu::BenchResult> results = tl::gpu::run_benchmarks(*d, tl::gpu::Ceilings{}, opt);
  REQUIRE(results.size() == 2);
  for (const tl::gpu::BenchResult& r : results) {
    INFO(r.bench.name << ": " << r.error);
    CHECK(r.error.empty());
    CHECK(r.tried.size() >= 4);
    CHECK(r.rejected.empty());
    CHECK(r.verified);
    CHECK(r.spec_err < 2e-2);
    CHECK(r.never_written == 0);
    CHECK(r.median_ms > 0);
  }
  fs::remove_all(dir);
}

// E4 as C^T with X^T fed to wgmma from registers on the hardware, at the
// forms the emulated test runs; compute-sanitizer memcheck runs it too.
TEST_CASE("GPU: E4 as C^T with X^T fed to wgmma from registers computes what the interpreter computes", "[gpu][run]") {
  SM90A_OR_SKIP(d, "wgmma");
  for (auto [bm, bn, bk, rows, split, stages] : wgmma16_cases::register_a_forms) {
    const tl::gpu::BenchCase c = wgmma16_cases::e4_rows_at(bm, bn, bk, rows, split);
    INFO("e4_rows at " << c.set.sizes.str() << " | " << c.set.blocks.str() << ", stages " << stages);
    dot_cases::check_against_interpreter(c, [&](const tl::ir::Kernel& ir, tl::Grid grid, const std::vector<tl::Arg>& args) {
      const tl::gpu::LoweredKernel lowered = tl::gpu::lower(ir, wgmma16_cases::register_a_at(stages));
      REQUIRE(lowered.source.find("ts_wgmma_bf16_rs_n" + std::to_string(bm) + "_t(r") != std::string::npos);
      tl::gpu::run_on_device(*d, load_for(*d, lowered), ir, grid, args);
    });
  }
}

// E4 with dY's tiles copied by TMA on the hardware, at the forms the
// emulated test runs; compute-sanitizer memcheck runs it too.
TEST_CASE("GPU: E4 with dY copied by TMA computes what the interpreter computes", "[gpu][run]") {
  SM90A_OR_SKIP(d, "TMA with wgmma");
  for (auto [bm, bn, bk, rows, stages, cout] : wgmma16_cases::e4_tma_forms) {
    const tl::gpu::BenchCase c = wgmma16_cases::e4_rows_at(bm, bn, bk, rows, 3, 300, cout);
    INFO("e4_rows at " << c.set.sizes.str() << " | " << c.set.blocks.str() << ", stages " << stages);
    dot_cases::check_against_interpreter(c, [&](const tl::ir::Kernel& ir, tl::Grid grid, const std::vector<tl::Arg>& args) {
      const tl::gpu::LoweredKernel lowered = tl::gpu::lower(ir, wgmma16_cases::e4_tma_at(bm, stages));
      REQUIRE(lowered.tensor_maps.size() == static_cast<size_t>(rows));
      bool tma_used = false;
      tl::gpu::run_on_device(*d, load_for(*d, lowered), ir, grid, args, &tma_used);
      CHECK(tma_used == (cout * 2 % 16 == 0));
    });
  }
}

// E4 warp-specialized on the hardware (a producer warpgroup and consumer
// warps, their mbarriers), at the forms the emulated test runs;
// compute-sanitizer memcheck runs it too.
TEST_CASE("GPU: E4 warp-specialized computes what the interpreter computes", "[gpu][run]") {
  SM90A_OR_SKIP(d, "TMA with wgmma");
  for (auto [bm, bn, bk, rows, stages, cout, producers] : wgmma16_cases::e4_specialized_forms) {
    const tl::gpu::BenchCase c = wgmma16_cases::e4_rows_at(bm, bn, bk, rows, 3, 300, cout);
    INFO("e4_rows at " << c.set.sizes.str() << " | " << c.set.blocks.str() << ", stages " << stages << ", "
                       << producers << " producer warpgroups");
    dot_cases::check_against_interpreter(c, [&](const tl::ir::Kernel& ir, tl::Grid grid, const std::vector<tl::Arg>& args) {
      const tl::gpu::LoweredKernel lowered = tl::gpu::lower(ir, wgmma16_cases::e4_specialized_at(bm, stages, producers));
      REQUIRE(lowered.warp_specialized == 1);
      bool tma_used = false;
      tl::gpu::run_on_device(*d, load_for(*d, lowered), ir, grid, args, &tma_used);
      CHECK(tma_used == (cout * 2 % 16 == 0));
    });
  }
}

// p11 at BK = 64 on the hardware: x's two 128-byte columns, each its own
// TMA box, read by the transposed wgmma's descriptors; the cp.async form
// where the TMA unit cannot stride the rows. compute-sanitizer memcheck runs
// this test too.
TEST_CASE("GPU: p11 at BK 64, a TMA box per 128-byte column, computes what the interpreter computes", "[gpu][run]") {
  SM90A_OR_SKIP(d, "TMA with wgmma");
  for (auto [b0, b1, bk, warps, stages, n0, n1, n2, mid] : dot_cases::p11_wide_k_tma_forms) {
    const tl::gpu::BenchCase c = dot_cases::p11_sized(b0, b1, bk, n0, n1, n2, mid);
    INFO("p11 at " << c.set.sizes.str() << " | " << c.set.blocks.str() << ", " << warps << " warps, stages " << stages);
    tl::gpu::CodegenOptions cg;
    cg.num_warps = warps;
    cg.num_stages = stages;
    cg.wgmma = cg.tma = true;
    dot_cases::check_against_interpreter(c, [&](const tl::ir::Kernel& ir, tl::Grid grid, const std::vector<tl::Arg>& args) {
      const tl::gpu::LoweredKernel lowered = tl::gpu::lower(ir, cg);
      REQUIRE(lowered.tensor_maps.size() == 2);  // x, and y
      bool tma_used = false;
      tl::gpu::run_on_device(*d, load_for(*d, lowered), ir, grid, args, &tma_used);
      CHECK(tma_used == (mid % 4 == 0 && n1 % 4 == 0));
    });
  }
}

// Clusters of two sharing p11's x tile by TMA multicast on the hardware,
// at the forms the emulated test runs (tails, an odd grid axis, rows the
// TMA unit cannot stride); compute-sanitizer memcheck runs this test too.
TEST_CASE("GPU: clusters sharing p11's x tile by TMA multicast compute what the interpreter computes", "[gpu][run]") {
  SM90A_OR_SKIP(d, "TMA multicast with wgmma");
  for (auto [b0, b1, bk, warps, stages, n0, n1, n2, mid] : dot_cases::p11_cluster_forms) {
    const tl::gpu::BenchCase c = dot_cases::p11_sized(b0, b1, bk, n0, n1, n2, mid);
    INFO("p11 at " << c.set.sizes.str() << " | " << c.set.blocks.str() << ", " << warps << " warps, stages " << stages);
    tl::gpu::CodegenOptions cg;
    cg.num_warps = warps;
    cg.num_stages = stages;
    cg.wgmma = cg.tma = cg.cluster_multicast = true;
    dot_cases::check_against_interpreter(c, [&](const tl::ir::Kernel& ir, tl::Grid grid, const std::vector<tl::Arg>& args) {
      const tl::gpu::LoweredKernel lowered = tl::gpu::lower(ir, cg);
      REQUIRE(lowered.cluster_axis == 1);
      bool tma_used = false, clusters_used = false;
      tl::gpu::run_on_device(*d, load_for(*d, lowered), ir, grid, args, &tma_used, &clusters_used);
      CHECK(tma_used == (mid % 4 == 0 && n1 % 4 == 0));
      CHECK(clusters_used == (mid % 4 == 0 && n1 % 4 == 0 && grid.y % 2 == 0));
    });
  }
}

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
    tl::gpu::LoadedKernel k(d, tl::gpu::compile_cubin(lowered, co, nullptr), lowered, co);
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
