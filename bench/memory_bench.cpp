#include "memory_bench.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "interpreter.h"
#include "kernel.h"
#include "tl.h"

namespace bench {
namespace {

void copy_kernel(tl::Ptr x, tl::Ptr z, tl::Int N, tl::Const B) {
  auto off = tl::program_id(0) * B + tl::arange(0, B);
  auto m = off < N;
  tl::store(z + off, tl::load(x + off, m), m);
}

// Every program's second lane is masked off without `other` and stored:
// one UndefinedValueUsed finding in every program.
void undefined_lane_kernel(tl::Ptr x, tl::Ptr z, tl::Int N, tl::Const B) {
  auto off = tl::program_id(0) * B + tl::arange(0, B);
  auto xv = tl::load(x + off, tl::arange(0, B) < 1);
  tl::store(z + off, xv, off < N);
}

const tl::KernelDef& copy_def() {
  static const tl::KernelDef k("copy", copy_kernel, {"x", "z", "N", "B"});
  return k;
}
const tl::KernelDef& undefined_def() {
  static const tl::KernelDef k("undefined_lane", undefined_lane_kernel, {"x", "z", "N", "B"});
  return k;
}

struct Case {
  const char* name;
  const char* what;
  int64_t n, block;
  const tl::KernelDef& (*kernel)();
  bool traced = false;
};

const std::vector<Case>& cases() {
  static const std::vector<Case> list = {
      {"copy64m", "copy of 64M f32 elements, B=1024 (65,536 programs)", int64_t{64} << 20, 1024, copy_def},
      {"programs1e7", "copy of 10^7 f32 elements, B=1 (10^7 programs)", 10'000'000, 1, copy_def},
      {"findings1e7", "10^7 programs with a finding each (2*10^7 elements, B=2)", 20'000'000, 2, undefined_def},
      {"traced64m", "copy64m with a full trace (budget 256 MB)", int64_t{64} << 20, 1024, copy_def, true},
  };
  return list;
}

long peak_rss_kb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

long current_rss_kb() {
  long pages = 0, rss = 0;
  if (FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%ld %ld", &pages, &rss) != 2) rss = 0;
    std::fclose(f);
  }
  return rss * (sysconf(_SC_PAGESIZE) / 1024);
}

// In the child: allocate, launch, report one line.
void run_case(const Case& c, bool json) {
  tl::Buffer x("x", tl::f32, {c.n}), z("z", tl::f32, {c.n});
  for (int64_t i = 0; i < c.n; ++i) x.as<float>()[i] = static_cast<float>(i & 1023);
  std::memset(z.data(), 0, z.size_bytes());  // touch it: the buffers are all resident before the launch
  const long before = current_rss_kb();
  const double buffers_mb = static_cast<double>(x.size_bytes() + z.size_bytes()) / (1 << 20);
  auto t0 = std::chrono::steady_clock::now();
  tl::RunOptions o;
  if (c.traced) o.trace = tl::TraceMode::Full;
  tl::RunResult r = tl::run(c.kernel(), tl::Grid{(c.n + c.block - 1) / c.block}, {x, z, c.n, c.block}, o);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double peak_mb = static_cast<double>(peak_rss_kb()) / 1024;
  int64_t lanes = 0;
  for (const tl::Finding& f : r.findings) lanes += f.lanes;
  if (json)
    std::printf("{\"case\": \"%s\", \"buffers_mb\": %.1f, \"rss_before_mb\": %.1f, \"peak_rss_mb\": %.1f, "
                "\"ratio\": %.2f, \"seconds\": %.2f, \"findings\": %zu, \"finding_lanes\": %lld}\n",
                c.name, buffers_mb, static_cast<double>(before) / 1024, peak_mb, peak_mb / buffers_mb, secs,
                r.findings.size(), static_cast<long long>(lanes));
  else
    std::printf("%-12s %-58s buffers %8.1f MB  before launch %8.1f MB  peak RSS %8.1f MB (%.2fx buffers)  %6.2f s  "
                "%zu findings (%lld lanes)\n",
                c.name, c.what, buffers_mb, static_cast<double>(before) / 1024, peak_mb, peak_mb / buffers_mb, secs,
                r.findings.size(), static_cast<long long>(lanes));
  std::fflush(stdout);
}

}  // namespace

int memory_cases(const char* only, bool json) {
  int status = 0;
  for (const Case& c : cases()) {
    if (only && std::strcmp(only, c.name) != 0) continue;
    std::fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
      run_case(c, json);
      _exit(0);
    }
    int ws = 0;
    waitpid(pid, &ws, 0);
    if (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0) {
      std::printf("%s: the child failed (status %d)\n", c.name, ws);
      status = 1;
    }
  }
  return status;
}

}  // namespace bench
