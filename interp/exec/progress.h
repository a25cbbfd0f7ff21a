// Progress of a long launch: a monitor thread that reports how far the
// launch has got about once a second, and a printer for stderr.
// Internal to interp/ except stderr_progress(), which front ends use.
#pragma once
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "interpreter.h"

namespace tl {

struct LaunchState;

// Calls `report` about once a second while alive, starting after the first
// second (short launches stay silent), and once more with `finished` set
// when destroyed if it reported anything. Does nothing without `report`.
class ProgressMonitor {
 public:
  ProgressMonitor(std::function<void(const Progress&)> report, const LaunchState& L, int64_t programs, int workers);
  ~ProgressMonitor();
  ProgressMonitor(const ProgressMonitor&) = delete;
  ProgressMonitor& operator=(const ProgressMonitor&) = delete;

 private:
  Progress now() const;
  std::function<void(const Progress&)> report_;
  const LaunchState& L_;
  int64_t programs_;
  int workers_;
  std::chrono::steady_clock::time_point start_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool done_ = false;
  bool reported_ = false;
  std::thread thread_;
};

// A progress callback that rewrites one stderr line ("tilescope: kernel
// 'k': 1200 of 10000 programs (12%), 850 programs/s, 3.1e+08 steps") and
// ends it when the launch finishes.
std::function<void(const Progress&)> stderr_progress(std::string kernel);

// Whether stderr is a terminal: progress is shown by default only then, so
// pipes, logs and tests stay clean.
bool stderr_is_terminal();

}  // namespace tl
