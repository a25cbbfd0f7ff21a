// Compiling generated CUDA with NVRTC (LOWERING §9): a cubin for one
// architecture (sm_90a by default), IEEE division and square root, FMA
// contraction on, -lineinfo where a tool will read it. NVRTC needs no GPU,
// so this runs everywhere the toolkit is installed.
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

namespace tl::gpu {

struct CompileOptions {
  std::string arch = "sm_90a";  // --gpu-architecture
  std::string include_dir;      // for cuda_fp16.h / cuda_bf16.h; empty: default_cuda_include_dir()
  // -lineinfo: source lines in the cubin for compute-sanitizer and Nsight
  // (`gpu-run` turns it on; `check`/`bench` with --line-info). Off by
  // default: it costs a quarter of the compile time of a large kernel
  // (p09: 1.09 s with it, 0.81 s without, NVRTC 13 on the 2-core machine).
  bool line_info = false;
};

// NVRTC rejected the source. what() holds the kernel's name, the
// architecture, NVRTC's log and the path of the generated source.
class CompileError : public std::runtime_error {
 public:
  CompileError(const std::string& what, std::string log) : std::runtime_error(what), log_(std::move(log)) {}
  const std::string& log() const { return log_; }

 private:
  std::string log_;
};

// The architecture to compile for on a device of compute capability
// major.minor: sm_90a on Hopper (wgmma and friends need the "a"), else
// sm_<major><minor>.
std::string arch_for(int major, int minor);
// $TILESCOPE_CUDA_INCLUDE, else the toolkit's include directory found at
// build time.
std::string default_cuda_include_dir();
// "13.0".
std::string nvrtc_version();
// The full option list NVRTC gets (part of the cubin cache key).
std::vector<std::string> nvrtc_options(const CompileOptions& opt);

// Compiles `source`, whose kernel is `kernel_name`, to a cubin. Throws
// CompileError; `source_path` (where the caller wrote the source) is named
// in the message.
//
// NVRTC initializes the CUDA driver (it calls cuInit), and a process that
// has initialized it can no longer fork GPU work. So unless this process
// already holds a CudaDriver, the compilation runs in a forked child and
// this process stays clean of driver state.
std::vector<char> nvrtc_compile(const std::string& source, const std::string& kernel_name,
                                const CompileOptions& opt, const std::string& source_path);
// The PTX NVVM makes of `source` on its way to the cubin: which
// instructions the kernel's code became before ptxas (tests read it). In a
// child process where nvrtc_compile would use one.
std::string nvrtc_ptx(const std::string& source, const std::string& kernel_name, const CompileOptions& opt);

}  // namespace tl::gpu
