// One kernel launch on the interpreter and on its generated CUDA, over two
// copies of the same buffers, every buffer compared within the tolerance
// the kernel's ops call for: the CUDA either in the host emulation
// (gpu_host_runner.h) or on a GPU; and its NVRTC compilation. Shared by the
// test files of single features (test_while.cpp,
// test_block_ptr_kernels.cpp); test_gpu_emulated.cpp and test_gpu_run.cpp
// run the puzzle and case collections the same way.
#pragma once
#ifdef TILESCOPE_HAVE_GPU
#include <catch2/catch.hpp>

#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <memory>

#include "child_process.h"
#include "codegen.h"
#include "cubin_cache.h"
#include "device_runtime.h"
#include "gpu_compare.h"
#include "gpu_host_runner.h"
#include "interpreter.h"
#include "nvrtc_compiler.h"
#include "test_cache.h"

namespace gpu_check {

using Bind = std::function<std::vector<tl::Arg>(std::vector<tl::Buffer>&)>;

inline void compare_emulated(const tl::KernelDef& kernel, tl::Grid grid, std::vector<tl::Buffer> ib,
                             std::vector<tl::Buffer> eb, const Bind& bind, int warps) {
  tl::run(kernel, grid, bind(ib));
  const std::vector<tl::Arg> args = bind(eb);
  auto ir = tl::build_ir(kernel, args);
  tl::gpu::CodegenOptions cg;
  cg.num_warps = warps;
  gpu_host::HostKernel k(*ir, tl::gpu::lower(*ir, cg));
  k.run(grid, args);
  for (size_t i = 0; i < ib.size(); ++i) {
    tl::gpu::Tolerance tol = tl::gpu::tolerance_for(*ir, ib[i].dtype());
    tl::gpu::BufferDiff d = tl::gpu::diff_buffers(ib[i], eb[i], tol);
    INFO("kernel " << kernel.name() << ", " << warps << " warps, buffer " << ib[i].name() << ": " << d.str());
    CHECK(d.pass);
  }
}

// The same on a GPU, in a forked child while this process holds no CUDA
// context (so tests that fork GPU work later still can), else in this
// process. Without a driver it says "[SKIP] no CUDA driver" and passes.
inline void compare_on_device(const tl::KernelDef& kernel, tl::Grid grid, std::vector<tl::Buffer> ib,
                              std::vector<tl::Buffer> gb, const Bind& bind, int warps) {
  tl::run(kernel, grid, bind(ib));
  const std::vector<tl::Arg> args = bind(gb);
  auto ir = tl::build_ir(kernel, args);
  tl::gpu::CodegenOptions cg;
  cg.num_warps = warps;
  const tl::gpu::LoweredKernel lowered = tl::gpu::lower(*ir, cg);
  auto work = [&] {
    std::unique_ptr<tl::gpu::CudaDriver> driver;
    try {
      driver = std::make_unique<tl::gpu::CudaDriver>();
    } catch (const tl::gpu::NoDriver&) {
      return std::string("no driver");
    }
    tl::gpu::CompileOptions co;
    co.arch = driver->device().arch();
    tl::gpu::LoadedKernel k(*driver, tl::gpu::compile_cubin(lowered, co, nullptr), lowered, co);
    tl::gpu::run_on_device(*driver, k, *ir, grid, args);
    std::string bytes = "ok";  // then every buffer's bytes, in order
    for (const tl::Buffer& b : gb) bytes.append(reinterpret_cast<const char*>(b.data()), b.size_bytes());
    return bytes;
  };
  // A child forked after this process initialized CUDA (the in-process GPU
  // tests of test_gpu_run.cpp do, and Catch2 may run them first) cannot
  // initialize it again: its cuInit fails, which would read as "no driver"
  // and skip the test on a GPU machine. Then the launch runs here.
  tl::gpu::ChildOutcome out;
  if (tl::gpu::cuda_initialized_in_this_process()) {
    out.payload = work();
    out.completed = true;
  } else {
    out = tl::gpu::run_in_child(work);
  }
  if (out.completed && out.payload == "no driver") {
    WARN("[SKIP] no CUDA driver");
    return;
  }
  INFO("kernel " << kernel.name() << ", " << warps << " warps: " << out.failure);
  REQUIRE(out.completed);
  REQUIRE(out.payload.rfind("ok", 0) == 0);
  size_t at = 2;
  for (tl::Buffer& b : gb) {
    REQUIRE(out.payload.size() >= at + b.size_bytes());
    std::memcpy(b.data(), out.payload.data() + at, b.size_bytes());
    at += b.size_bytes();
  }
  for (size_t i = 0; i < ib.size(); ++i) {
    tl::gpu::Tolerance tol = tl::gpu::tolerance_for(*ir, ib[i].dtype());
    tl::gpu::BufferDiff d = tl::gpu::diff_buffers(ib[i], gb[i], tol);
    INFO("buffer " << ib[i].name() << ": " << d.str());
    CHECK(d.pass);
  }
}

// The generated CUDA source; NVRTC must accept it ("" when it does).
inline std::string nvrtc_error(const tl::KernelDef& kernel, const std::vector<tl::Arg>& args, int warps,
                               std::string* source = nullptr) {
  auto ir = tl::build_ir(kernel, args);
  tl::gpu::CodegenOptions cg;
  cg.num_warps = warps;
  tl::gpu::LoweredKernel k = tl::gpu::lower(*ir, cg);
  if (source) *source = k.source;
  try {
    test_cache::nvrtc_compile(k);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

}  // namespace gpu_check

#endif  // TILESCOPE_HAVE_GPU
