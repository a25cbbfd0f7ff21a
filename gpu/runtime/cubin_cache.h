// The on-disk cubin cache (LOWERING §9): <dir>/<key>.cubin with the
// generated source beside it as <key>.cu, the key a hash of the source, the
// NVRTC options (architecture included), the NVRTC version and the code
// generator's version. Files are written to a temporary name and renamed,
// so a concurrent run never reads half a file.
#pragma once
#include <string>
#include <vector>

#include "codegen.h"
#include "nvrtc_compiler.h"

namespace tl::gpu {

struct Cubin {
  std::string kernel;  // the __global__ function's name
  std::vector<char> image;
  std::string key;
  std::string source_path;  // the .cu beside the cubin
  bool from_cache = false;
  double compile_seconds = 0;  // 0 when read from the cache
};

class CubinCache {
 public:
  // `dir` empty: default_dir(). A directory that cannot be created still
  // works: sources then go to a temporary directory and nothing is cached.
  // With `reuse` false every kernel is compiled again (and still stored).
  explicit CubinCache(std::string dir = "", bool reuse = true);
  // $TILESCOPE_CACHE_DIR, else $XDG_CACHE_HOME/tilescope, else
  // ~/.cache/tilescope.
  static std::string default_dir();
  const std::string& dir() const { return dir_; }
  // Whether a second get() of one kernel reads the first one's cubin.
  bool enabled() const { return usable_ && reuse_; }

  std::string key(const std::string& source, const CompileOptions& opt) const;
  // The kernel's cubin: read from the cache, or compiled and stored.
  // Throws CompileError (naming the saved source) when NVRTC fails.
  Cubin get(const LoweredKernel& k, const CompileOptions& opt);

 private:
  std::string dir_;
  bool usable_ = false;
  bool reuse_ = true;
};

// From `cache` when there is one, else compiled (and timed) right here.
Cubin compile_cubin(const LoweredKernel& k, const CompileOptions& opt, CubinCache* cache);

// One kernel for compile_in_parallel.
struct CompileJob {
  LoweredKernel kernel;
  CompileOptions options;
};
// Puts each job's cubin into `cache` (those it lacks), on `threads` threads
// (0: one per core) where NVRTC runs in this process (a CUDA context is
// up: cuda_initialized_in_this_process), else one after the other. For
// the bench's tuner, which then reads every variant from the cache. A job
// NVRTC refuses is skipped: its caller meets the error again, and reports
// it, when it compiles that kernel itself. Returns the jobs compiled.
size_t compile_in_parallel(const std::vector<CompileJob>& jobs, CubinCache& cache, unsigned threads = 0);

}  // namespace tl::gpu
