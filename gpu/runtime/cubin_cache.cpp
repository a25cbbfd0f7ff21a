#include "cubin_cache.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

#include "driver_api.h"

namespace tl::gpu {

namespace fs = std::filesystem;

namespace {

// FNV-1a, run twice with different offset bases for a 128-bit key: the
// key must not change between runs or builds (std::hash may).
uint64_t fnv1a(const std::string& s, uint64_t h) {
  for (unsigned char c : s) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

bool read_file(const fs::path& p, std::vector<char>& out) {
  std::ifstream f(p, std::ios::binary);
  if (!f) return false;
  out.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  return !out.empty();
}

// Writes next to `p` under a unique name, then renames over `p`.
bool write_atomically(const fs::path& p, const char* data, size_t size) {
  thread_local std::mt19937_64 rng(std::random_device{}());  // compile_in_parallel's threads write too
  fs::path tmp = p;
  tmp += ".tmp." + std::to_string(::getpid()) + "." + std::to_string(rng());
  {
    std::ofstream f(tmp, std::ios::binary);
    if (!f) return false;
    f.write(data, static_cast<std::streamsize>(size));
    if (!f) return false;
  }
  std::error_code ec;
  fs::rename(tmp, p, ec);
  if (ec) fs::remove(tmp, ec);
  return !ec;
}

}  // namespace

std::string CubinCache::default_dir() {
  if (const char* d = std::getenv("TILESCOPE_CACHE_DIR"); d && *d) return d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/tilescope";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/tilescope";
  return (fs::temp_directory_path() / "tilescope-cache").string();
}

CubinCache::CubinCache(std::string dir, bool reuse) : dir_(dir.empty() ? default_dir() : std::move(dir)), reuse_(reuse) {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  usable_ = !ec && fs::is_directory(dir_, ec) && ::access(dir_.c_str(), W_OK) == 0;
  if (!usable_) {
    // Sources must still land somewhere an error message can name.
    dir_ = (fs::temp_directory_path() / ("tilescope-" + std::to_string(::getuid()))).string();
    fs::create_directories(dir_, ec);
  }
}

std::string CubinCache::key(const std::string& source, const CompileOptions& opt) const {
  std::string all = source;
  for (const std::string& o : nvrtc_options(opt)) all += '\0' + o;
  all += '\0' + nvrtc_version() + '\0' + std::to_string(kCodegenVersion);
  char buf[40];
  std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(fnv1a(all, 0xcbf29ce484222325ull)),
                static_cast<unsigned long long>(fnv1a(all, 0x84222325cbf29ce4ull)));
  return buf;
}

Cubin CubinCache::get(const LoweredKernel& k, const CompileOptions& opt) {
  Cubin c;
  c.kernel = k.name;
  c.key = key(k.source, opt);
  const fs::path base = fs::path(dir_) / c.key;
  c.source_path = base.string() + ".cu";
  if (usable_ && reuse_ && read_file(base.string() + ".cubin", c.image)) {
    c.from_cache = true;
    return c;
  }
  // The source first, so a compile error can point at it.
  std::error_code ec;
  if (!fs::exists(c.source_path, ec)) write_atomically(c.source_path, k.source.data(), k.source.size());
  auto t0 = std::chrono::steady_clock::now();
  c.image = nvrtc_compile(k.source, k.name, opt, c.source_path);
  c.compile_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (usable_) write_atomically(base.string() + ".cubin", c.image.data(), c.image.size());
  return c;
}

Cubin compile_cubin(const LoweredKernel& k, const CompileOptions& opt, CubinCache* cache) {
  if (cache) return cache->get(k, opt);
  Cubin c;
  c.kernel = k.name;
  auto t0 = std::chrono::steady_clock::now();
  c.image = nvrtc_compile(k.source, k.name, opt, "");
  c.compile_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return c;
}

size_t compile_in_parallel(const std::vector<CompileJob>& jobs, CubinCache& cache, unsigned threads) {
  if (!cache.enabled() || jobs.empty()) return 0;
  // Without a CUDA context NVRTC runs in a forked child per kernel
  // (nvrtc_compile), which a process forks safely from one thread only.
  if (!cuda_initialized_in_this_process()) threads = 1;
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  threads = std::min<unsigned>(threads, static_cast<unsigned>(jobs.size()));
  std::atomic<size_t> next{0}, compiled{0};
  auto work = [&] {
    for (size_t i; (i = next.fetch_add(1)) < jobs.size();) {
      try {
        if (!cache.get(jobs[i].kernel, jobs[i].options).from_cache) ++compiled;
      } catch (const std::exception&) {
      }  // met again, and reported, by the caller's own compile
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  return compiled.load();
}

}  // namespace tl::gpu
