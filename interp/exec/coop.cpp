// The cooperative scheduler (coop.h). Programs start in program order,
// each on a stack of its own (ucontext), and run until they finish or
// wait. The next to run is the lowest waiting program one of whose watched
// elements now holds another value, else the next program not started.
// When neither exists but programs wait, none can ever go on: a deadlock.
// A GPU of RunOptions::resident_programs slots starts a program only when
// a slot frees, so the launch hangs there once every resident program
// waits and more remain to start: reported, then run on anyway.
#include "coop.h"

#include <sys/mman.h>
#include <ucontext.h>

#include <cstring>
#include <sstream>

#include "progress.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#define TILESCOPE_FIBER_ASAN 1
#endif

namespace tl {

namespace {

// A program's stack: pages are only committed once touched. The
// interpreter recurses once per nesting level of the kernel's loops and
// ifs, a few hundred bytes each, so 256 KiB is far more than a kernel
// needs. (No guard page: an mprotect per stack splits its mapping in two,
// a system call and a mapping more per program when thousands wait.)
constexpr size_t kStackBytes = size_t{256} << 10;
// Programs alive at once (each holds a stack mapping and registers).
constexpr size_t kMaxLive = 16384;

}  // namespace

struct Scheduler::Context {
  ucontext_t ctx{};
#ifdef TILESCOPE_FIBER_ASAN
  const void* stack_bottom = nullptr;
  size_t stack_size = 0;
#endif
};

struct Scheduler::Fiber {
  Scheduler* owner = nullptr;
  Context ctx;
  std::byte* mapping = nullptr;
  size_t mapping_bytes = 0;
  std::unique_ptr<Exec> exec;
  int64_t linear = -1;
  bool traced = false, done = false, killed = false, waiting = false;
  std::unique_ptr<ProgramLog> log;
  std::exception_ptr error;
  std::vector<Watch> watch;
  int loop_step = -1;
  std::vector<RawFinding> pending;
  ~Fiber() {
    if (mapping) munmap(mapping, mapping_bytes);
  }
  std::byte* stack() const { return mapping; }
  size_t stack_bytes() const { return mapping_bytes; }
};

namespace {

// Switches from `from` to `to`; `to_stack`/`to_size` describe the stack
// being entered (AddressSanitizer must be told).
void switch_to(ucontext_t* from, const ucontext_t* to, [[maybe_unused]] const void* to_stack,
               [[maybe_unused]] size_t to_size) {
#ifdef TILESCOPE_FIBER_ASAN
  void* fake = nullptr;
  __sanitizer_start_switch_fiber(&fake, to_stack, to_size);
  swapcontext(from, to);
  __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
#else
  swapcontext(from, to);
#endif
}

void fiber_main(unsigned lo, unsigned hi);

}  // namespace

Scheduler::Scheduler(LaunchState& L, RunResult& r, Trace* t, const RunOptions& opt)
    : L_(L), r_(r), t_(t), opt_(opt), n_(L.grid.count()), resident_(std::max<int64_t>(0, opt.resident_programs)),
      waiters_(L.bufs.size()), main_(std::make_unique<Context>()) {}

Scheduler::~Scheduler() = default;

Scheduler::Fiber* Scheduler::take_fiber() {
  if (!free_.empty()) {
    Fiber* f = free_.back();
    free_.pop_back();
    return f;
  }
  auto f = std::make_unique<Fiber>();
  f->owner = this;
  f->mapping_bytes = kStackBytes;
  void* m = mmap(nullptr, f->mapping_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (m == MAP_FAILED) throw std::bad_alloc();
  f->mapping = static_cast<std::byte*>(m);
  f->exec = std::make_unique<Exec>(L_, 0);
  f->exec->set_scheduler(this);
  fibers_.push_back(std::move(f));
  return fibers_.back().get();
}

Scheduler::Fiber* Scheduler::start(int64_t linear) {
  Fiber* f = take_fiber();
  f->linear = linear;
  f->done = f->killed = f->waiting = false;
  f->log.reset();
  f->error = nullptr;
  f->watch.clear();
  f->pending.clear();
  f->traced = L_.wants_trace(linear) && traced_bytes_ <= opt_.trace_budget_bytes && !L_.trace_full();
  getcontext(&f->ctx.ctx);
  f->ctx.ctx.uc_stack.ss_sp = f->stack();
  f->ctx.ctx.uc_stack.ss_size = f->stack_bytes();
  f->ctx.ctx.uc_link = nullptr;
  const auto bits = reinterpret_cast<uintptr_t>(f);
  makecontext(&f->ctx.ctx, reinterpret_cast<void (*)()>(fiber_main), 2, static_cast<unsigned>(bits & 0xffffffffu),
              static_cast<unsigned>(bits >> 32));
  live_[linear] = f;
  return f;
}

namespace {

void fiber_main(unsigned lo, unsigned hi) {
  auto* f = reinterpret_cast<Scheduler::Fiber*>((static_cast<uintptr_t>(hi) << 32) | lo);
  f->owner->fiber_body(f);
}

}  // namespace

void Scheduler::fiber_body(Fiber* f) {
#ifdef TILESCOPE_FIBER_ASAN
  __sanitizer_finish_switch_fiber(nullptr, &main_->stack_bottom, &main_->stack_size);
#endif
  // Nothing may escape a context's entry function: an exception is handed
  // to the scheduler, which rethrows it on the launch's own stack.
  try {
    f->log = f->exec->run_program(f->linear, f->traced);
  } catch (...) {
    f->error = std::current_exception();
  }
  f->done = true;
#ifdef TILESCOPE_FIBER_ASAN
  // This stack is left for good (its next program starts it afresh).
  __sanitizer_start_switch_fiber(nullptr, main_->stack_bottom, main_->stack_size);
  setcontext(&main_->ctx);
#else
  setcontext(&main_->ctx);
#endif
}

void Scheduler::resume(Fiber* f) {
  current_ = f;
  switch_to(&main_->ctx, &f->ctx.ctx, f->stack(), f->stack_bytes());
  current_ = nullptr;
}

void Scheduler::suspend(int loop_step, const Watch* begin, const Watch* end) {
  Fiber* f = current_;
  f->watch.assign(begin, end);
  f->loop_step = loop_step;
  f->waiting = true;
  for (const Watch& w : f->watch) waiters_[static_cast<size_t>(w.param)].insert(f->linear);
#ifdef TILESCOPE_FIBER_ASAN
  switch_to(&f->ctx.ctx, &main_->ctx, main_->stack_bottom, main_->stack_size);
#else
  switch_to(&f->ctx.ctx, &main_->ctx, nullptr, 0);
#endif
  f->waiting = false;
  if (f->killed) throw StopProgram{};
}

void Scheduler::stop_waiting(Fiber* f) {
  for (const Watch& w : f->watch) waiters_[static_cast<size_t>(w.param)].erase(f->linear);
  candidates_.erase(f->linear);
}

bool Scheduler::watch_changed(const Fiber& f) const {
  for (const Watch& w : f.watch) {
    uint64_t now = 0;
    std::memcpy(&now, L_.bufs[static_cast<size_t>(w.param)]->data() + w.off * w.bytes, w.bytes);
    if (now != w.value) return true;
  }
  return false;
}

Scheduler::Fiber* Scheduler::next_ready() {
  for (auto it = candidates_.begin(); it != candidates_.end();) {
    Fiber* f = live_.at(*it);
    it = candidates_.erase(it);
    if (watch_changed(*f)) {
      stop_waiting(f);
      return f;
    }
  }
  return nullptr;
}

void Scheduler::after_segment(Fiber* f) {
  const uint64_t wrote = f->exec->take_written_params();
  if (f->done) finish(f);
  for (size_t p = 0; p < waiters_.size() && wrote; ++p)
    if ((p >= 64 || ((wrote >> p) & 1)) && !waiters_[p].empty())
      for (int64_t w : waiters_[p])
        if (!f->waiting || w != f->linear) candidates_.insert(w);
}

void Scheduler::finish(Fiber* f) {
  live_.erase(f->linear);
  if (f->error && !error_) error_ = f->error;
  std::unique_ptr<ProgramLog> lg = std::move(f->log);
  if (!f->pending.empty()) {
    if (!lg) {
      lg = std::make_unique<ProgramLog>();
      lg->pid = L_.pid_of(f->linear);
    }
    for (RawFinding& raw : f->pending) lg->findings.push_back(std::move(raw));
    f->pending.clear();
  }
  if (lg) traced_bytes_ += lg->trace_bytes;
  L_.deposit(f->linear, std::move(lg));
  ++L_.programs_done;
  free_.push_back(f);
}

void Scheduler::kill_all() {
  while (!live_.empty()) {
    Fiber* f = live_.begin()->second;
    stop_waiting(f);
    f->killed = true;
    resume(f);
    f->exec->take_written_params();
    if (f->done) finish(f);
  }
}

namespace {

std::string pid_str(const std::array<int64_t, 3>& p) {
  return "(" + std::to_string(p[0]) + ", " + std::to_string(p[1]) + ", " + std::to_string(p[2]) + ")";
}

std::string value_str(DType d, uint64_t bits) {
  std::ostringstream o;
  o << eval::to_double(d, reinterpret_cast<const std::byte*>(&bits), 0);
  return o.str();
}

}  // namespace

std::string Scheduler::describe_wait(const Fiber& f) const {
  std::string s = "program " + pid_str(L_.pid_of(f.linear));
  if (f.loop_step >= 0) s += " waits in the while loop at line " + std::to_string(L_.plan.steps[f.loop_step].in->loc.line);
  if (f.watch.empty()) return s;
  const Watch& w = f.watch.front();
  const Buffer* b = L_.bufs[static_cast<size_t>(w.param)];
  const std::string elem = L_.names.at(static_cast<size_t>(w.param)) + b->index_str(w.off);
  if (w.has_cmp)
    s += " for " + elem + " to hold " + value_str(b->dtype(), w.cmp) + " (it holds " + value_str(b->dtype(), w.value) + ")";
  else
    s += " for " + elem + " to change from " + value_str(b->dtype(), w.value);
  if (f.watch.size() > 1) s += " (or one of " + std::to_string(f.watch.size() - 1) + " more elements)";
  return s;
}

namespace {

// The first few waiting programs' descriptions, "; "-separated.
template <class Describe>
std::string list_waits(const std::vector<const void*>& fibers, size_t shown, const Describe& describe) {
  std::string s;
  for (size_t i = 0; i < fibers.size() && i < shown; ++i) s += (i ? "; " : "") + describe(fibers[i]);
  if (fibers.size() > shown) s += "; and " + std::to_string(fibers.size() - shown) + " more";
  return s;
}

}  // namespace

void Scheduler::report_deadlock(bool limit) {
  if (live_.empty()) return;
  std::vector<const void*> waiting;
  for (const auto& [linear, f] : live_) waiting.push_back(f);
  Fiber* first = live_.begin()->second;
  auto describe = [this](const void* f) { return describe_wait(*static_cast<const Fiber*>(f)); };
  std::string message;
  if (limit)
    message = "more than " + std::to_string(kMaxLive) +
              " programs wait at once, more than the interpreter holds; the launch was stopped: " +
              list_waits(waiting, 3, describe);
  else
    message = (waiting.size() == 1 ? std::string("the only unfinished program waits") :
               "all " + std::to_string(waiting.size()) + " unfinished programs wait") +
              ", and no program is left to change what they wait for: " + list_waits(waiting, 8, describe);
  const SrcLoc loc = first->loop_step >= 0 ? L_.plan.steps[first->loop_step].in->loc : SrcLoc{};
  RawFinding raw{FindingKind::Deadlock, first->loop_step, first->watch.empty() ? -1 : first->watch.front().param,
                 static_cast<int64_t>(waiting.size()), {}, message, loc};
  for (const auto& [linear, f] : live_) {
    if (raw.examples.size() >= 5) break;
    FindingExample e;
    e.pid = L_.pid_of(linear);
    if (!f->watch.empty()) e.offset = f->watch.front().off;
    raw.examples.push_back(std::move(e));
  }
  first->pending.push_back(std::move(raw));
  L_.deadlocked = true;
}

void Scheduler::report_residency() {
  residency_reported_ = true;
  std::vector<const void*> waiting;
  for (const auto& [linear, f] : live_) waiting.push_back(f);
  Fiber* first = live_.begin()->second;
  auto describe = [this](const void* f) { return describe_wait(*static_cast<const Fiber*>(f)); };
  const std::string r = std::to_string(resident_);
  std::string message = "a GPU that holds " + r + " programs at once hangs here: all " + r +
                        " resident programs wait, and program " + pid_str(L_.pid_of(next_)) +
                        " and the later ones start only after one of them finishes (" + list_waits(waiting, 3, describe) +
                        "); the interpreter ran more programs at once to finish the launch";
  const SrcLoc loc = first->loop_step >= 0 ? L_.plan.steps[first->loop_step].in->loc : SrcLoc{};
  RawFinding raw{FindingKind::CoResidency, first->loop_step, first->watch.empty() ? -1 : first->watch.front().param,
                 static_cast<int64_t>(waiting.size()), {}, message, loc};
  FindingExample e;
  e.pid = L_.pid_of(first->linear);
  if (!first->watch.empty()) e.offset = first->watch.front().off;
  e.other_pid = L_.pid_of(next_);
  raw.examples.push_back(std::move(e));
  first->pending.push_back(std::move(raw));
}

int64_t Scheduler::run() {
  L_.begin_merge(r_, t_, opt_.trace_budget_bytes);
  L_.worker_steps.reset(new LaunchState::WorkerSteps[1]);
  L_.programs_done = 0;
  ProgressMonitor monitor(opt_.progress, L_, n_, 1);
  for (;;) {
    if (L_.cancel_requested()) L_.cancelled = true;
    if (L_.stop || L_.cancelled || error_) break;
    Fiber* f = next_ready();
    if (!f) {
      if (next_ < n_ && live_.size() >= kMaxLive) {
        report_deadlock(true);
        break;
      }
      if (next_ < n_) {
        if (resident_ > 0 && static_cast<int64_t>(live_.size()) >= resident_ && !residency_reported_) report_residency();
        f = start(next_++);
      } else if (!live_.empty()) {
        report_deadlock(false);
        break;
      } else {
        break;
      }
    }
    resume(f);
    after_segment(f);
  }
  kill_all();
  if (error_) std::rethrow_exception(error_);
  return next_;
}

}  // namespace tl
