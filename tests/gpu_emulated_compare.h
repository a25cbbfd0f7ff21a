// One kernel launch on the interpreter and on the host emulation of its
// generated CUDA (gpu_host_runner.h), over two copies of the same buffers,
// every buffer compared within the tolerance the kernel's ops call for; and
// its NVRTC compilation. Shared by the test files of single features
// (test_while.cpp, test_block_ptr_kernels.cpp); test_gpu_emulated.cpp runs
// the puzzle and case collections the same way.
#pragma once
#ifdef TILESCOPE_HAVE_GPU
#include <catch2/catch.hpp>

#include <functional>
#include <string>
#include <vector>

#include "codegen.h"
#include "gpu_compare.h"
#include "gpu_host_runner.h"
#include "interpreter.h"
#include "nvrtc_compiler.h"

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

// The generated CUDA source; NVRTC must accept it ("" when it does).
inline std::string nvrtc_error(const tl::KernelDef& kernel, const std::vector<tl::Arg>& args, int warps,
                               std::string* source = nullptr) {
  auto ir = tl::build_ir(kernel, args);
  tl::gpu::CodegenOptions cg;
  cg.num_warps = warps;
  tl::gpu::LoweredKernel k = tl::gpu::lower(*ir, cg);
  if (source) *source = k.source;
  try {
    tl::gpu::nvrtc_compile(k.source, k.name, tl::gpu::CompileOptions{}, "");
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

}  // namespace gpu_check

#endif  // TILESCOPE_HAVE_GPU
