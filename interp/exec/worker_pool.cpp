#include "worker_pool.h"

#include <unistd.h>

#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace tl {

namespace {

class WorkerPool {
 public:
  // Runs the job on threads 1..n-1 of the pool and fn(0) here. Returns
  // false, having run nothing, when the pool is in use.
  bool run(int n, const std::function<void(int)>& fn) {
    std::unique_lock<std::mutex> busy(busy_, std::try_to_lock);
    if (!busy.owns_lock()) return false;
    {
      std::lock_guard<std::mutex> lock(mu_);
      while (static_cast<int>(threads_.size()) < n - 1) {
        const int index = static_cast<int>(threads_.size()) + 1;
        threads_.emplace_back([this, index] { serve(index); });
      }
      job_ = &fn;
      width_ = n;
      pending_ = n - 1;
      ++generation_;
    }
    wake_.notify_all();
    fn(0);
    std::unique_lock<std::mutex> lock(mu_);
    done_.wait(lock, [&] { return pending_ == 0; });
    job_ = nullptr;
    return true;
  }

  // The threads live as long as the process: they are parked, and a
  // process exits without joining them (the pool is never destroyed).
 private:
  void serve(int index) {
    uint64_t seen = 0;
    for (;;) {
      const std::function<void(int)>* job;
      {
        std::unique_lock<std::mutex> lock(mu_);
        wake_.wait(lock, [&] { return generation_ != seen; });
        seen = generation_;
        if (index >= width_) continue;  // not needed for this launch
        job = job_;
      }
      (*job)(index);
      std::lock_guard<std::mutex> lock(mu_);
      if (--pending_ == 0) done_.notify_one();
    }
  }

  std::mutex busy_;  // held by the launch using the pool
  std::mutex mu_;    // guards everything below
  std::condition_variable wake_, done_;
  std::vector<std::thread> threads_;
  const std::function<void(int)>* job_ = nullptr;
  int width_ = 0, pending_ = 0;
  uint64_t generation_ = 0;
};

WorkerPool* pool_for_this_process() {
  // A child made by fork() has none of its parent's threads: it gets a
  // pool of its own (the parent's object is left alone, never freed).
  static pid_t owner = 0;
  static WorkerPool* pool = nullptr;
  static std::mutex mu;
  std::lock_guard<std::mutex> lock(mu);
  if (!pool || owner != getpid()) {
    pool = new WorkerPool;
    owner = getpid();
  }
  return pool;
}

}  // namespace

void run_on_workers(int n, const std::function<void(int)>& fn) {
  if (n <= 1) {
    fn(0);
    return;
  }
  if (pool_for_this_process()->run(n, fn)) return;
  std::vector<std::thread> own;
  for (int w = 1; w < n; ++w) own.emplace_back(fn, w);
  fn(0);
  for (std::thread& t : own) t.join();
}

}  // namespace tl
