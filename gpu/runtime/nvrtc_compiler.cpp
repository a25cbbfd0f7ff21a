#include "nvrtc_compiler.h"

#include <nvrtc.h>

#include <cstdint>
#include <cstdlib>
#include <memory>

#include "child_process.h"
#include "driver_api.h"
#include "wire.h"

namespace tl::gpu {

namespace {

// Throws for any NVRTC call that fails outside compilation itself.
void check(nvrtcResult r, const char* call, const std::string& kernel) {
  if (r != NVRTC_SUCCESS)
    throw CompileError(std::string(call) + " failed for kernel " + kernel + ": " + nvrtcGetErrorString(r), "");
}

struct ProgramDeleter {
  void operator()(nvrtcProgram* p) const {
    nvrtcDestroyProgram(p);
    delete p;
  }
};

}  // namespace

std::string arch_for(int major, int minor) {
  std::string a = "sm_" + std::to_string(major) + std::to_string(minor);
  return major == 9 && minor == 0 ? a + "a" : a;
}

std::string default_cuda_include_dir() {
  if (const char* env = std::getenv("TILESCOPE_CUDA_INCLUDE"); env && *env) return env;
  return TILESCOPE_CUDA_INCLUDE_DIR;
}

std::string nvrtc_version() {
  int major = 0, minor = 0;
  nvrtcVersion(&major, &minor);
  return std::to_string(major) + "." + std::to_string(minor);
}

std::vector<std::string> nvrtc_options(const CompileOptions& opt) {
  std::vector<std::string> o = {
      "--gpu-architecture=" + opt.arch,
      "--std=c++17",
      "-default-device",
      "--include-path=" + (opt.include_dir.empty() ? default_cuda_include_dir() : opt.include_dir),
      // IEEE / and sqrt (no --use_fast_math); FMA contraction stays on, as
      // in Triton. Code that must round like the interpreter says so itself.
      "--fmad=true",
  };
  if (opt.line_info) o.push_back("-lineinfo");
  return o;
}

namespace {

// The cubin, or with `ptx` the PTX NVVM made on the way to it.
std::vector<char> compile_here(const std::string& source, const std::string& kernel_name, const CompileOptions& opt,
                               const std::string& source_path, bool ptx) {
  std::unique_ptr<nvrtcProgram, ProgramDeleter> prog(new nvrtcProgram{});
  const std::string file = source_path.empty() ? kernel_name + ".cu" : source_path;
  check(nvrtcCreateProgram(prog.get(), source.c_str(), file.c_str(), 0, nullptr, nullptr), "nvrtcCreateProgram",
        kernel_name);
  std::vector<std::string> options = nvrtc_options(opt);
  std::vector<const char*> argv;
  for (const std::string& s : options) argv.push_back(s.c_str());
  nvrtcResult r = nvrtcCompileProgram(*prog, static_cast<int>(argv.size()), argv.data());
  size_t log_size = 0;
  nvrtcGetProgramLogSize(*prog, &log_size);
  std::string log(log_size, '\0');
  if (log_size > 1) nvrtcGetProgramLog(*prog, log.data());
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  if (r != NVRTC_SUCCESS)
    throw CompileError("NVRTC could not compile kernel " + kernel_name + " for " + opt.arch + " (" +
                           nvrtcGetErrorString(r) + "):\n" + log + "\ngenerated source: " + file,
                       log);
  size_t size = 0;
  if (ptx) {
    check(nvrtcGetPTXSize(*prog, &size), "nvrtcGetPTXSize", kernel_name);
    std::vector<char> text(size);
    check(nvrtcGetPTX(*prog, text.data()), "nvrtcGetPTX", kernel_name);
    while (!text.empty() && text.back() == '\0') text.pop_back();
    return text;
  }
  check(nvrtcGetCUBINSize(*prog, &size), "nvrtcGetCUBINSize", kernel_name);
  if (size == 0)
    throw CompileError("NVRTC produced no cubin for kernel " + kernel_name + " (architecture " + opt.arch +
                           " gives PTX only; use sm_XY, not compute_XY)",
                       log);
  std::vector<char> cubin(size);
  check(nvrtcGetCUBIN(*prog, cubin.data()), "nvrtcGetCUBIN", kernel_name);
  return cubin;
}


std::vector<char> compile_in_child(const std::string& source, const std::string& kernel_name,
                                   const CompileOptions& opt, const std::string& source_path, bool ptx) {
  // The child's answer: 1 and the cubin (or PTX), or 0, the message and NVRTC's log.
  ChildOutcome out = run_in_child([&] {
    std::string answer;
    try {
      std::vector<char> output = compile_here(source, kernel_name, opt, source_path, ptx);
      wire::put(answer, 1);
      wire::put(answer, std::string(output.begin(), output.end()));
    } catch (const CompileError& e) {
      wire::put(answer, 0);
      wire::put(answer, e.what());
      wire::put(answer, e.log());
    }
    return answer;
  });
  if (!out.completed)
    throw CompileError("NVRTC could not compile kernel " + kernel_name + ": the compiler process failed (" +
                           out.failure + ")",
                       "");
  wire::Reader rd(out.payload);
  uint64_t ok = 0;
  std::string first, log;
  if (!rd.u64(ok) || !rd.str(first) || (!ok && !rd.str(log)))
    throw CompileError("NVRTC could not compile kernel " + kernel_name + ": the compiler process sent a garbled answer", "");
  if (!ok) throw CompileError(first, log);
  return std::vector<char>(first.begin(), first.end());
}

// In this process where it already holds the driver, else in a child.
std::vector<char> compile_output(const std::string& source, const std::string& kernel_name, const CompileOptions& opt,
                                 const std::string& source_path, bool ptx) {
  if (cuda_initialized_in_this_process()) return compile_here(source, kernel_name, opt, source_path, ptx);
  return compile_in_child(source, kernel_name, opt, source_path, ptx);
}

}  // namespace

std::vector<char> nvrtc_compile(const std::string& source, const std::string& kernel_name, const CompileOptions& opt,
                                const std::string& source_path) {
  return compile_output(source, kernel_name, opt, source_path, false);
}

std::string nvrtc_ptx(const std::string& source, const std::string& kernel_name, const CompileOptions& opt) {
  const std::vector<char> text = compile_output(source, kernel_name, opt, "", true);
  return std::string(text.begin(), text.end());
}

}  // namespace tl::gpu
