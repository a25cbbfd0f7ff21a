// Caches for the GPU tests' two slow steps, NVRTC and the host compiler
// (gpu_host_runner.h): CI runs the GPU tests in its release and again in
// its sanitizer build, whose code generators emit the same sources, and
// compiling them is most of those tests' time. Both caches key on
// everything a compile reads (the source byte for byte, options, compiler
// versions), so a hit is what the compiler would make now; the code
// generator, which is what these tests check, runs every time.
//
// The folder: $TILESCOPE_TEST_CACHE, else tilescope-test-cache-<uid> in
// the temp folder; TILESCOPE_TEST_CACHE=off compiles everything again.
#pragma once
#ifdef TILESCOPE_HAVE_GPU
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "codegen.h"
#include "cubin_cache.h"
#include "nvrtc_compiler.h"

namespace test_cache {

// `sub` inside the tests' cache folder; empty when caching is off.
inline std::filesystem::path dir(const std::string& sub) {
  const char* env = std::getenv("TILESCOPE_TEST_CACHE");
  if (env && std::string(env) == "off") return {};
  const std::filesystem::path base = env && *env ? std::filesystem::path(env)
                                                 : std::filesystem::temp_directory_path() /
                                                       ("tilescope-test-cache-" + std::to_string(::getuid()));
  return base / sub;
}

// NVRTC's cubin of `k` (default options), through the cubin cache
// (gpu/cubin_cache.h: its key is the source, the NVRTC options and
// version and the code generator's version). Throws CompileError as
// nvrtc_compile does.
inline void nvrtc_compile(const tl::gpu::LoweredKernel& k) {
  static const std::filesystem::path where = dir("nvrtc");
  if (where.empty()) {
    tl::gpu::nvrtc_compile(k.source, k.name, tl::gpu::CompileOptions{}, "");
    return;
  }
  static tl::gpu::CubinCache cache(where.string());
  cache.get(k, tl::gpu::CompileOptions{});
}

}  // namespace test_cache
#endif  // TILESCOPE_HAVE_GPU
