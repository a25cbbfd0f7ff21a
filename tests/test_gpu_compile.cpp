// Compiling the CUDA back end's kernels, without a GPU: every puzzle kernel
// (solution and stub, every size set), every example kernel and every
// broken kernel lowers to CUDA that NVRTC compiles for sm_90a, so
// code-generation errors surface in CI; NVRTC's errors, the cubin cache,
// the parallel warm-up of the tuner, and the child processes that keep
// NVRTC's CUDA initialization out of this one.
#ifdef TILESCOPE_HAVE_GPU
#include <catch2/catch.hpp>

#include <dlfcn.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "broken/registry.h"
#include "child_process.h"
#include "codegen.h"
#include "codegen_text.h"
#include "cubin_cache.h"
#include "error.h"
#include "gpu_cases.h"
#include "harness.h"
#include "nvrtc_compiler.h"
#include "registry.h"
#include "test_cache.h"
#include "tl.h"

using codegen_text::has;

namespace {

// Lowers and compiles one kernel for one size set; "" on success, else why.
std::string compile_for_set(const puzzles::Puzzle& p, const tl::KernelDef& k, const puzzles::SizeSet& set) {
  puzzles::RunBuffers bufs = puzzles::make_buffers(p, set, 0);
  std::shared_ptr<const tl::ir::Kernel> ir;
  try {
    ir = tl::build_ir(k, puzzles::launch_args(set, bufs));
  } catch (const tl::BuildError&) {
    return "build error";  // the front end rejects it: there is no IR to lower
  }
  try {
    tl::gpu::LoweredKernel lowered = tl::gpu::lower(*ir);
    test_cache::nvrtc_compile(lowered);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("every puzzle solution and stub compiles with NVRTC for sm_90a at every size set", "[gpu][nvrtc]") {
  int compiled = 0;
  for (const puzzles::Puzzle& p : puzzles::all_puzzles()) {
    for (const puzzles::SizeSet& set : p.sets) {
      for (const tl::KernelDef* k : {p.solution, p.stub}) {
        INFO("puzzle " << p.number << " (" << p.id << "), kernel " << k->name() << ", set " << set.name);
        std::string error = compile_for_set(p, *k, set);
        CHECK(error == "");
        compiled += error.empty();
      }
    }
  }
  CHECK(compiled >= 100);
}

TEST_CASE("every example kernel compiles with NVRTC for sm_90a at every size set, benchmark sizes included",
          "[gpu][nvrtc]") {
  int compiled = 0;
  for (const puzzles::Puzzle& p : puzzles::all_examples()) {
    for (const puzzles::SizeSet& set : p.sets) {
      INFO("example " << p.id << ", kernel " << p.solution->name() << ", set " << set.name);
      std::string error = compile_for_set(p, *p.solution, set);
      CHECK(error == "");
      compiled += error.empty();
    }
  }
  CHECK(compiled >= 8 * 4);
}

TEST_CASE("every broken kernel that builds compiles with NVRTC", "[gpu][nvrtc]") {
  for (const puzzles::BrokenKernel& b : puzzles::all_broken()) {
    const puzzles::Puzzle* p = puzzles::find_puzzle(b.puzzle_id);
    REQUIRE(p);
    const puzzles::SizeSet* set = puzzles::find_set(*p, b.set);
    REQUIRE(set);
    INFO("broken/" << b.name);
    std::string error = compile_for_set(*p, *b.kernel, *set);
    CHECK((error.empty() || error == "build error"));
  }
}

TEST_CASE("every GPU test case compiles with NVRTC at 1, 4 and 8 warps", "[gpu][nvrtc]") {
  for (const gpu_cases::Case& c : gpu_cases::all_cases()) {
    std::vector<tl::Buffer> b = c.buffers();
    auto ir = tl::build_ir(*c.kernel, c.args(b));
    for (int warps : {1, 4, 8}) {
      INFO("case " << c.name << ", " << warps << " warps");
      tl::gpu::CodegenOptions cg;
      cg.num_warps = warps;
      tl::gpu::LoweredKernel k = tl::gpu::lower(*ir, cg);
      CHECK(k.threads == 32 * warps);
      CHECK_NOTHROW(test_cache::nvrtc_compile(k));
    }
  }
}

TEST_CASE("the puzzles' kernels lower at 2 warps, less than a warpgroup, their dots staged", "[gpu][codegen]") {
  // A staged copy's split by warpgroup (Pipeline::decoupled) divided by
  // the warpgroups of every block, which is 0 below 4 warps: p11 at 2
  // warps stopped `tilescope compile` with a floating-point exception.
  for (const puzzles::Puzzle& p : puzzles::all_puzzles()) {
    const puzzles::SizeSet& set = p.sets.front();
    INFO("puzzle " << p.number << " (" << p.id << ") at " << set.name);
    puzzles::RunBuffers b = puzzles::make_buffers(p, set, 0);
    auto ir = tl::build_ir(*p.solution, puzzles::launch_args(set, b));
    tl::gpu::CodegenOptions cg;
    cg.num_warps = 2;
    CHECK(tl::gpu::lower(*ir, cg).threads == 64);
  }
}

TEST_CASE("NVRTC errors carry the log and the generated source's path", "[gpu][nvrtc]") {
  try {
    tl::gpu::nvrtc_compile("extern \"C\" __global__ void broken() { undefined_thing(); }", "broken", {}, "/tmp/broken.cu");
    FAIL("compiled");
  } catch (const tl::gpu::CompileError& e) {
    std::string what = e.what();
    CHECK(has(what, "kernel broken"));
    CHECK(has(what, "undefined_thing"));
    CHECK(has(what, "generated source: /tmp/broken.cu"));
  }
}

TEST_CASE("the cubin cache stores each kernel once, beside its source", "[gpu][nvrtc]") {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("tilescope-cache-test-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  tl::gpu::CubinCache cache(dir.string());
  tl::gpu::LoweredKernel k;
  k.name = "cached";
  k.source = "extern \"C\" __global__ void cached(float* x) { x[threadIdx.x] = 1.0f; }";
  tl::gpu::Cubin first = cache.get(k, {});
  CHECK_FALSE(first.from_cache);
  CHECK(fs::exists(dir / (first.key + ".cubin")));
  CHECK(fs::exists(dir / (first.key + ".cu")));
  tl::gpu::Cubin second = cache.get(k, {});
  CHECK(second.from_cache);
  CHECK(second.image == first.image);
  tl::gpu::CompileOptions other;
  other.arch = "sm_80";
  CHECK(cache.key(k.source, other) != first.key);
  fs::remove_all(dir);
}

// The bench's tuner compiles its variants first (compile_in_parallel): into
// the cache, skipping what it holds and what NVRTC refuses. Without a CUDA
// context (as here) NVRTC runs in a child per kernel, one at a time; the
// GPU test of the same name runs it on threads.
TEST_CASE("compile_in_parallel fills the cache with every kernel NVRTC accepts, and skips the rest", "[gpu][nvrtc]") {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("tilescope-parallel-test-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  tl::gpu::CubinCache cache(dir.string());
  std::vector<tl::gpu::CompileJob> jobs;
  for (const char* name : {"first", "second", "broken", "third"}) {
    tl::gpu::LoweredKernel k;
    k.name = name;
    k.source = std::string("extern \"C\" __global__ void ") + name + "(float* x) { x[threadIdx.x] = " +
               (std::string(name) == "broken" ? "undefined_thing" : "2.0f") + "; }";
    jobs.push_back({k, {}});
  }
  CHECK(tl::gpu::compile_in_parallel(jobs, cache, 4) == 3);
  for (const tl::gpu::CompileJob& j : jobs) {
    if (j.kernel.name == "broken") {
      CHECK_THROWS_AS(cache.get(j.kernel, j.options), tl::gpu::CompileError);
    } else {
      const tl::gpu::Cubin c = cache.get(j.kernel, j.options);
      CHECK(c.from_cache);
      CHECK_FALSE(c.image.empty());
    }
  }
  // Everything already there: nothing compiled again.
  jobs.erase(jobs.begin() + 2);
  CHECK(tl::gpu::compile_in_parallel(jobs, cache) == 0);
  // A cache that does not reuse its cubins is no use to warm.
  tl::gpu::CubinCache fresh(dir.string(), /*reuse=*/false);
  CHECK(tl::gpu::compile_in_parallel(jobs, fresh) == 0);
  fs::remove_all(dir);
}

TEST_CASE("a child process reports its result, its exception or its crash", "[gpu][child]") {
  tl::gpu::ChildOutcome ok = tl::gpu::run_in_child([] { return std::string("payload\n with \0 bytes", 22); });
  CHECK(ok.completed);
  CHECK(ok.payload == std::string("payload\n with \0 bytes", 22));

  tl::gpu::ChildOutcome threw = tl::gpu::run_in_child([]() -> std::string { throw std::runtime_error("it broke\nbadly"); });
  CHECK_FALSE(threw.completed);
  CHECK(threw.failure == "it broke\nbadly");

  tl::gpu::ChildOutcome crashed = tl::gpu::run_in_child_streaming([](const std::function<void(const std::string&)>& send) {
    send("first");
    std::raise(SIGSEGV);
  });
  CHECK_FALSE(crashed.completed);
  CHECK(crashed.payload == "first");
  CHECK(has(crashed.failure, "signal 11"));
}

TEST_CASE("NVRTC initializes the CUDA driver only in a child, so this process can still fork GPU work", "[gpu][nvrtc][child]") {
  // NVRTC calls cuInit while it compiles; after that, a forked child cannot
  // use CUDA. With the fake driver (it logs each cuInit caller's pid)
  // loaded in place of libcuda.so.1, a compile must leave no cuInit in the
  // compiling process. Done in a child so the fake never meets the tests
  // that use a real driver.
  namespace fs = std::filesystem;
  const fs::path log = fs::temp_directory_path() / ("tilescope-cuinit-" + std::to_string(::getpid()) + ".log");
  fs::remove(log);
  tl::gpu::ChildOutcome out = tl::gpu::run_in_child([&] {
    if (!dlopen(TILESCOPE_FAKE_LIBCUDA, RTLD_NOW | RTLD_GLOBAL)) return std::string("cannot load the fake driver");
    ::setenv("TILESCOPE_FAKE_CUINIT_LOG", log.c_str(), 1);
    tl::gpu::nvrtc_compile("extern \"C\" __global__ void k(float* x) { x[threadIdx.x] = 1.0f; }", "k", {}, "");
    return std::to_string(::getpid());
  });
  REQUIRE(out.completed);
  std::vector<std::string> callers;
  std::string listed;
  std::ifstream in(log);
  for (std::string line; std::getline(in, line);) {
    callers.push_back(line);
    listed += " " + line;
  }
  fs::remove(log);
  INFO("compiling process " << out.payload << "; cuInit called by:" << listed);
  // NVRTC 13 does call it (from the compiler process), which is why the
  // compile is isolated at all.
  CHECK_FALSE(callers.empty());
  for (const std::string& c : callers) CHECK(c != out.payload);
}

#endif  // TILESCOPE_HAVE_GPU
