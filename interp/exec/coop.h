// Cooperative scheduling of programs that wait on each other
// (docs/memory-model.md). Each program runs on a stack of its own; a
// program whose while loop spins (an iteration that read memory other
// programs may write, changed nothing and left its loop-carried values as
// they were) is suspended until an element it read holds another value,
// and the others run meanwhile. Which program runs next depends only on
// the programs' state, never on timing. Internal to interp/.
#pragma once
#include <cstdint>
#include <exception>
#include <map>
#include <memory>
#include <set>
#include <vector>

#include "exec.h"

namespace tl {

class Scheduler {
 public:
  Scheduler(LaunchState& L, RunResult& r, Trace* t, const RunOptions& opt);
  ~Scheduler();
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;

  // Runs the launch's programs; returns how many were started (a prefix of
  // the grid). Rethrows the first exception a program raised.
  int64_t run();
  // Called by the running program (on its own stack): it waits in the loop
  // at plan step `loop_step` until one of [begin, end) changes. Returns
  // when it is resumed; throws StopProgram when the launch ends first.
  void suspend(int loop_step, const Watch* begin, const Watch* end);

  // A program's stack and state, and what runs on that stack (internal:
  // the context's entry function calls it).
  struct Fiber;
  void fiber_body(Fiber* f);

 private:
  Fiber* take_fiber();
  Fiber* start(int64_t linear);
  void resume(Fiber* f);
  void after_segment(Fiber* f);
  void finish(Fiber* f);
  Fiber* next_ready();
  bool watch_changed(const Fiber& f) const;
  void stop_waiting(Fiber* f);
  // Findings made here, not by a program: attached to a waiting program's
  // log (the lowest), so they merge in program order.
  void report_deadlock(bool limit);
  void report_residency();
  std::string describe_wait(const Fiber& f) const;
  void kill_all();

  LaunchState& L_;
  RunResult& r_;
  Trace* t_;
  const RunOptions& opt_;
  int64_t n_ = 0, next_ = 0;
  int64_t resident_ = 0;  // programs a GPU holds at once (0: any number)
  bool residency_reported_ = false;
  int64_t traced_bytes_ = 0;
  std::vector<std::unique_ptr<Fiber>> fibers_;  // all, live or free
  std::vector<Fiber*> free_;
  std::map<int64_t, Fiber*> live_;  // started, not finished, by program
  // Waiting programs by the parameter whose elements they watch, and
  // those to look at again because a write may have changed their elements.
  std::vector<std::set<int64_t>> waiters_;
  std::set<int64_t> candidates_;
  Fiber* current_ = nullptr;
  std::exception_ptr error_;
  struct Context;
  std::unique_ptr<Context> main_;
};

}  // namespace tl
