#include "progress.h"

#include <unistd.h>

#include <cstdio>

#include "exec.h"

namespace tl {

ProgressMonitor::ProgressMonitor(std::function<void(const Progress&)> report, const LaunchState& L, int64_t programs,
                                 int workers)
    : report_(std::move(report)), L_(L), programs_(programs), workers_(workers),
      start_(std::chrono::steady_clock::now()) {
  if (!report_) return;
  thread_ = std::thread([this] {
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
      if (cv_.wait_for(lock, std::chrono::seconds(1), [this] { return done_; })) return;
      lock.unlock();
      report_(now());
      lock.lock();
      reported_ = true;
    }
  });
}

ProgressMonitor::~ProgressMonitor() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mu_);
    done_ = true;
  }
  cv_.notify_all();
  thread_.join();
  if (reported_) {
    Progress p = now();
    p.finished = true;
    report_(p);
  }
}

Progress ProgressMonitor::now() const {
  Progress p;
  p.programs_total = programs_;
  p.programs_done = L_.programs_done.load(std::memory_order_relaxed);
  for (int w = 0; w < workers_; ++w) p.steps += L_.worker_steps[w].total.load(std::memory_order_relaxed);
  p.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  return p;
}

std::function<void(const Progress&)> stderr_progress(std::string kernel) {
  return [kernel = std::move(kernel)](const Progress& p) {
    const double s = p.elapsed_s > 0 ? p.elapsed_s : 1;
    std::fprintf(stderr, "\rtilescope: kernel '%s': %lld of %lld programs (%.0f%%), %.3g programs/s, %.3g steps/s, %.0f s%s",
                 kernel.c_str(), static_cast<long long>(p.programs_done), static_cast<long long>(p.programs_total),
                 p.programs_total ? 100.0 * static_cast<double>(p.programs_done) / static_cast<double>(p.programs_total) : 0.0,
                 static_cast<double>(p.programs_done) / s, static_cast<double>(p.steps) / s, p.elapsed_s,
                 p.finished ? "\n" : "   ");
    std::fflush(stderr);
  };
}

bool stderr_is_terminal() { return isatty(STDERR_FILENO) == 1; }

}  // namespace tl
