// The interpreter's per-launch state and per-thread program executor.
// Internal to interp/.
#pragma once
#include <algorithm>
#include <atomic>
#include <functional>
#include <deque>
#include <cstdlib>
#include <unordered_set>
#include <memory>
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

#include "eval.h"
#include "exec_plan.h"
#include "exec_sync.h"
#include "interpreter.h"

namespace tl {

// A finding as one program saw it, before grouping across programs.
struct RawFinding {
  FindingKind kind;
  int step = -1;  // the op (index into the plan), -1 for runtime issues
  int param = -1;  // pointer parameter, -1 if none
  int64_t lanes = 0;
  std::vector<FindingExample> examples;
  std::string message;  // runtime issues only
  SrcLoc loc;
};

// Lane taint bits: where a value came from something undefined.
inline constexpr uint8_t kTaintUndefined = 1;  // a masked load lane without `other`
inline constexpr uint8_t kTaintPoison = 2;     // an out-of-bounds load lane

// A while loop stops (and is reported) after this many iterations in one
// program: a condition that never turns false would otherwise hang the run.
inline constexpr int64_t kMaxWhileIterations = int64_t{1} << 30;

// Thrown inside a program in strict mode at its first finding.
struct StopAtFinding {};
// Thrown inside a program that must stop part-way: it reached the step
// budget, or the launch was cancelled or stopped by another program's
// budget. What it recorded so far is kept.
struct StopProgram {};

// Steps between two looks at the stop and cancel flags (and the budget):
// about a millisecond at most, and no shared-memory traffic per step.
inline constexpr int64_t kPollSteps = 1024;

// What one program left behind: trace events, out-of-bounds lanes,
// runtime issues and printed text. Null when a program left nothing.
struct ProgramLog {
  std::array<int64_t, 3> pid{0, 0, 0};
  bool traced = false;
  std::vector<Event> events;
  int64_t trace_bytes = 0;
  int64_t oob_loads = 0, oob_stores = 0;
  std::vector<OobAccess> oob;
  std::vector<RuntimeIssue> issues;
  std::string printed;
  std::vector<RawFinding> findings;
  bool stopped = false;  // strict mode: this program hit the first finding
  bool interrupted = false;  // stopped part-way (budget, cancel)
  bool trace_over = false;   // stopped recording events: the trace budget would be exceeded
  bool empty() const {
    return events.empty() && oob_loads == 0 && oob_stores == 0 && issues.empty() && printed.empty() && !traced &&
           findings.empty() && !stopped && !interrupted;
  }
};

struct LaunchState {
  LaunchState(const ir::Kernel& kernel, Grid g);

  const ir::Kernel& k;
  Grid grid;
  std::vector<Buffer*> bufs;  // per parameter; null for non-pointers
  std::unordered_map<size_t, std::string> names;
  std::vector<int64_t> ints;
  std::vector<double> floats;
  TraceMode trace_mode = TraceMode::Off;
  std::set<int64_t> trace_set;
  bool record_values = true;
  int64_t trace_budget = 0;  // bytes of events the trace may keep
  std::vector<SrcLoc> locations;  // the trace's location table
  Plan plan;
  std::vector<bool> param_written;                      // stores/atomics may reach it
  std::vector<bool> param_read;                         // loads may reach it
  std::vector<uint64_t> provenance;  // per register: pointer parameters it may point into (bit i)
  // Per register: an integer that may flow into a pointer offset (through
  // the ops of exec_checks.cpp's carries_index); its wraps are findings.
  std::vector<bool> index_reg;
  // Per pointer parameter: which elements of an input some program read
  // (null for written buffers; two parameters on one buffer share a map).
  std::vector<std::shared_ptr<uint8_t[]>> read_seen;
  bool strict = false;
  bool track_values = true;
  bool check_unread_inputs = false;
  bool detect_details = false;  // sequential run: conflicts become findings
  bool fuse = true;             // run the fusion pass over the plan
  std::atomic<bool> stop{false};  // strict mode: a finding was hit; or the launch must stop
  int64_t max_steps = 0;             // per program; 0: none
  const std::atomic<bool>* cancel = nullptr;
  std::atomic<bool> cancelled{false};        // a worker saw `cancel` set
  std::atomic<bool> budget_exceeded{false};  // a program reached max_steps
  std::atomic<int64_t> programs_done{0};     // for progress reports
  // Per worker: steps of finished programs plus the running one's at its
  // last poll (progress), and the most steps one program took.
  struct alignas(64) WorkerSteps {
    std::atomic<int64_t> total{0};
    int64_t max_program = 0;
  };
  std::unique_ptr<WorkerSteps[]> worker_steps;
  bool cancel_requested() const { return cancel && cancel->load(std::memory_order_relaxed); }
  // Bytes of the trace merged so far (programs kept): a program stops
  // recording events once its own would take the trace past the budget
  // on top of these (see Exec::trace_event).
  std::atomic<int64_t> merged_trace_bytes{0};

  // Conflict detection: two programs on one element with a write involved
  // (their order on a GPU is undefined).
  //
  // Run in program order (one worker), each written buffer has per-element
  // records of the last program that wrote and that read each element, so a
  // conflict is seen on the spot and reported with both programs.
  //
  // A parallel run only needs to know whether any conflict happened (it
  // then replays in program order). Each worker logs the runs of
  // consecutive elements its programs wrote, and read of buffers that are
  // also written (exec_spans.cpp); after the run one sort and sweep per
  // buffer finds overlaps between programs. That costs a few instructions
  // a lane and a sort of the runs: nothing grows with the buffer's size
  // times the workers, and no fresh memory is paged in per launch.
  //
  // Memory: the per-element records come from calloc, whose large blocks
  // are fresh zero pages that cost nothing until written.
  struct FreeDeleter {
    void operator()(uint32_t* p) const { std::free(p); }
  };
  using Records = std::unique_ptr<uint32_t[], FreeDeleter>;
  struct Shadow {
    std::vector<Records> wrote, read;  // per parameter
    // With `sync`: the clock of the program at that write or read.
    std::vector<Records> wrote_clock, read_clock;
  };
  std::vector<Shadow> shadows;  // one worker, in program order
  // Elements [lo, hi), and when rows > 1 the same run again every
  // `stride` elements (a tile's rows: one span per store of a 2-D tile).
  struct Span {
    int64_t lo = 0, hi = 0;
    int64_t stride = 0;
    uint32_t program = 0;  // linear id + 1
    uint32_t param = 0;
    uint32_t rows = 1;
    bool write = false;
    int64_t end() const { return hi + (static_cast<int64_t>(rows) - 1) * stride; }
    // Takes [lo, hi) as its next row when it is one: the same length, at
    // the span's stride (the second row sets the stride).
    bool add_row(int64_t lo, int64_t hi) {
      const int64_t len = hi - lo;
      if (rows == 0 || len != this->hi - this->lo || rows == UINT32_MAX) return false;
      if (rows == 1 && lo - this->lo >= len) {
        stride = lo - this->lo;
        rows = 2;
        return true;
      }
      if (rows > 1 && lo == this->lo + static_cast<int64_t>(rows) * stride) {
        ++rows;
        return true;
      }
      return false;
    }
  };
  struct alignas(64) SpanLog {
    std::vector<Span> spans;
  };
  std::vector<SpanLog> span_logs;  // per worker, in a parallel run
  bool detect_conflicts = false;
  std::atomic<bool> conflict{false};
  // Ordering between programs (exec_sync.cpp): present when atomics
  // acquire or release, or programs may wait; conflicts then count only
  // between accesses that no synchronization orders.
  std::unique_ptr<SyncState> sync;
  // Programs may wait on each other: a while loop reads memory the kernel
  // writes. Such launches run on the cooperative scheduler (coop.h).
  bool cooperative = false;
  // Per While step: its loop-carried registers (written inside the loop
  // and outside it).
  std::unordered_map<int, std::vector<int>> carried;
  bool deadlocked = false;  // the scheduler found every unfinished program waiting
  ~LaunchState();

  void prepare();  // plan, locations, which buffers are written
  // Decides `cooperative`, `carried` and whether `sync` is needed (exec_wait.cpp).
  void prepare_waits();
  std::vector<Buffer*> written_buffers() const;
  // Per-element records (one worker, in program order, findings with both
  // programs) or spans (any number of workers: was there a conflict?).
  void enable_conflict_detection(int workers, bool per_element);
  // After a parallel run: did two programs touch one element with a write
  // involved (exec_spans.cpp)?
  bool spans_conflict() const;
  void disable_conflict_detection();
  // The span logs' storage is kept from launch to launch (exec_spans.cpp).
  void acquire_span_logs(int workers);
  void release_span_logs();
  bool wants_trace(int64_t linear) const {
    return trace_mode == TraceMode::Full || (trace_mode == TraceMode::Filtered && trace_set.count(linear));
  }
  std::array<int64_t, 3> pid_of(int64_t linear) const {
    return {linear / (grid.y * grid.z), (linear / grid.z) % grid.y, linear % grid.z};
  }
  // Concatenates the programs' logs in program order into the result and
  // the trace, each as soon as every earlier program has been deposited;
  // the trace stops (marked truncated) before the first program that would
  // take it past the byte budget. Findings are grouped by (op, kind).
  // deposit() is called once per program that ran, under one lock.
  void begin_merge(RunResult& r, Trace* t, int64_t budget);
  void deposit(int64_t linear, std::unique_ptr<ProgramLog> log);  // log may be null
  void end_merge();
  // The trace is full: no later program can be kept (under deposit's lock).
  bool trace_full() const { return merge_.trace_stopped; }
  // Elements of write-tracked buffers that the launch left unwritten.
  void add_never_written(RunResult& r) const;
  // The value checks (exec_checks.cpp).
  void mark_index_registers();
  void prepare_read_tracking();
  // Elements of inputs that no program read, as one warning per input.
  void add_never_read(RunResult& r) const;
  // The trace's buffer index of pointer parameter `param`.
  int buffer_index(int param) const;

 private:
  struct MergeState {
    RunResult* r = nullptr;
    Trace* t = nullptr;
    int64_t budget = 0, used = 0;
    int64_t frontier = 0;  // programs [0, frontier) are merged
    bool trace_stopped = false;
    // Programs frontier, frontier + 1, ...: done (log possibly null) or
    // still running. A deque: no allocation per program.
    struct Slot {
      bool done = false;
      std::unique_ptr<ProgramLog> log;
    };
    std::deque<Slot> window;
    std::vector<std::array<int64_t, 3>> last_program;         // per finding
  };
  MergeState merge_;
  void merge_one(int64_t linear, ProgramLog* log);
};

// A block-pointer finding's lane: the dim it is outside of, its index
// there, the shape there (dim -1: not a block-pointer finding).
struct BlockDetail {
  int dim = -1;
  int64_t index = 0, extent = 0;
};

class Scheduler;

// How an access takes part in ordering between programs.
enum class MemAccess : uint8_t { Load, Store, Atomic };

class Exec {
 public:
  Exec(LaunchState& L, int worker);
  std::unique_ptr<ProgramLog> run_program(int64_t linear, bool traced);
  // A cooperative launch's program: spinning loops suspend it (coop.h).
  void set_scheduler(Scheduler* s) { coop_ = s; }
  // Parameters whose memory this program changed since the last call
  // (bit i: parameter i; all bits for parameters past 63).
  uint64_t take_written_params() { return std::exchange(written_params_, 0); }
  // Can converting `from` to `to` change a value (a CastChangedValue check)?
  static bool cast_may_change_value(DType from, DType to);

 private:
  void run(int begin, int end);
  // Counts one step; every kPollSteps it looks at the flags and budget.
  void tick() {
    if (++steps_ >= poll_at_) poll();
  }
  void poll();
  [[noreturn]] void step_budget_exceeded();
  void step(const Step& s);
  // A step and its taint (the run loop's work for one non-control step).
  void step_with_taint(const Step& s) {
    step(s);
    if (L_.track_values && s.op != ir::Op::Load && s.op != ir::Op::Store) {
      // Clean operands (nearly always): the result is clean, decided here
      // without a call.
      if ((s.a[0] >= 0 && tainted_[s.a[0]]) || (s.a[1] >= 0 && tainted_[s.a[1]]) || (s.a[2] >= 0 && tainted_[s.a[2]]))
        propagate_taint(s);
      else if (s.dst >= 0)
        tainted_[s.dst] = 0;
    }
  }
  // A For's loop-invariant steps, before its first iteration (exec_hoist.cpp).
  void run_hoisted(const Step& loop);
  // Would the index-overflow check of this add, sub or mul find a lane?
  bool index_may_wrap(const Step& s);
  // The same for a binary step reading broadcasts in place (Step::bcast).
  bool rows_may_wrap(const Step& s, const eval::RowOperand* ops);
  // Does this binary step's result flow into a pointer offset, so that
  // its wraps are IndexOverflow findings?
  bool index_checked(const Step& s) const {
    using ir::Op;
    return (s.op == Op::Add || s.op == Op::Sub || s.op == Op::Mul || s.op == Op::Shl) && L_.index_reg[s.dst] &&
           is_signed_int(s.dtype);
  }
  // A binary step with fused broadcast operands, computed without them
  // (false: they were materialized instead, for the plain path to run).
  bool binary_in_place(const Step& s);
  // The same for a pointer add whose offsets are a fused broadcast.
  bool ptr_add_in_place(const Step& s);
  // A step's fused broadcast operands read in place (ops), or (false)
  // materialized because a source is tainted or an index op would wrap.
  bool broadcasts_in_place(const Step& s, eval::RowOperand* ops);
  // A binary op's flagged lanes (division by zero, over-wide shifts) as
  // runtime issues; nearly always none, decided inline.
  void binary_flags(const ir::Instr& in, const eval::ArithFlags& flags) {
    if (flags.div_by_zero | flags.wide_shift) [[unlikely]]
      binary_issues(in, flags);
  }
  void binary_issues(const ir::Instr& in, const eval::ArithFlags& flags);
  // What memory ops need of each pointer parameter's buffer, fetched once.
  struct BufView {
    std::byte* data = nullptr;
    int64_t extent = 0;
    uint32_t* wrote = nullptr;  // this worker's conflict records, when detecting
    uint32_t* read = nullptr;
    uint8_t* written = nullptr;  // the buffer's written map, when tracked
    uint8_t* seen = nullptr;  // an input's read map (InputNeverRead)
    uint32_t* wclk = nullptr;  // with LaunchState::sync: clocks of `wrote`, `read`
    uint32_t* rclk = nullptr;
    bool spans = false;       // a written buffer in a parallel run: log spans
  };
  // Logs elements [lo, hi) of parameter `param` as touched by this program
  // (a parallel run's conflict detection), extending the last span when
  // the new one continues it, or taking it as the last span's next row
  // (a tile's rows become one 2-D span).
  void log_span(int64_t param, int64_t lo, int64_t hi, bool write) {
    if (!spans_->empty()) {
      LaunchState::Span& t = spans_->back();
      if (t.program == me_ && t.param == param && t.write == write) {
        if (t.rows == 1 && lo <= t.hi && hi >= t.lo) {
          t.lo = std::min(t.lo, lo);
          t.hi = std::max(t.hi, hi);
          return;
        }
        if (t.add_row(lo, hi)) return;
      }
    }
    spans_->push_back(LaunchState::Span{lo, hi, 0, me_, static_cast<uint32_t>(param), 1, write});
  }
  // Logs a span of this program whose rows were gathered by the caller.
  void log_rows(const LaunchState::Span& s) {
    if (s.rows == 1) log_span(s.param, s.lo, s.hi, s.write);
    else spans_->push_back(s);
  }
  void bind_buffers();
  void memory(const Step& s);
  template <ir::Op OP>
  void memory_op(const Step& s);
  template <size_t ES, ir::Op OP, class Ptrs>
  void memory_lanes(const Step& s, const Ptrs& p);
  // A fused pointer tile (Step::vptr_off): its lanes written out, for the
  // paths that want the tile itself (tracing).
  const eval::PtrVal* materialize_pointers(const Step& s);
  void record_memory_event(const Step& s, const eval::PtrVal* p, const uint8_t* mask, const std::byte* value);
  void out_of_bounds(const Step& s, int64_t lane, const eval::PtrVal& pv, bool is_store);
  void print(const Step& s);
  // Ordering between programs (exec_sync.cpp): an access checked against
  // the element's last write and reads by their clocks, and an atomic
  // lane's acquire and release (`wrote`: it changed the element).
  void ordered_access(MemAccess kind, const Step& s, int64_t lane, const eval::PtrVal& pv, const BufView& bv);
  bool ordered_before_me(uint32_t program, uint32_t clock) const;
  void atomic_lane_order(const Step& s, const eval::PtrVal& pv, bool wrote);
  void end_atomic_order();
  // Waiting (exec_wait.cpp): a while loop of a cooperative launch, which
  // suspends the program when an iteration only spun; and what each
  // access tells it (the element read and its value, or a change).
  void run_while_waiting(int i);
  void observe(MemAccess kind, const eval::PtrVal& pv, const std::byte* now, const std::byte* old,
               const std::byte* cmp, size_t bytes);
  // A runtime issue: a note in RunResult::issues and (unless `finding` is
  // false, for what a finding of its own reports) a RuntimeIssue finding.
  void issue(const ir::Instr& in, const std::string& message, bool finding = true);
  void trace_event(Event e);
  // Records one lane of a finding at step `s` (strict mode stops here).
  // `block`: a block-pointer finding's dim, index and extent.
  void note(FindingKind kind, const Step& s, int param, int64_t lane, const ir::Shape& tile, int64_t offset,
            int64_t other_linear = -1, const BlockDetail& block = BlockDetail{});
  // The same for a value finding, grouped per (op, kind, message); `detail`
  // is asked for only when this lane is kept as an example.
  void note_value(FindingKind kind, const Step& s, int64_t lane, const ir::Shape& tile, const std::string& message,
                  const std::function<std::string()>& detail);
  FindingExample* record(FindingKind kind, const Step& s, int param, const std::string& message, int64_t lane,
                         const ir::Shape& tile, int64_t offset, int64_t other_linear, const BlockDetail& block);
  // The value checks (exec_checks.cpp), run before the op itself.
  void check_index_overflow(const Step& s);
  void check_shift(const Step& s);
  void check_cast(const Step& s);
  static void mark_read(uint8_t* seen, int64_t off);
  // A block-pointer access: active lanes outside the pointer's shape on a
  // dim that is not boundary-checked.
  void check_block_shape(const Step& s, const eval::PtrVal* p, const uint8_t* mask);
  // Taint: per register, per lane; absent while a register is clean.
  uint8_t* taint(int r);
  bool tainted(int r) const { return tainted_[r] != 0; }
  void clear_taint(int r) { tainted_[r] = 0; }
  void propagate_taint(const Step& s);
  // Scans, sorts and permutations (exec_scan.cpp).
  void combined(const Step& s);     // Scan, ReduceWith
  void permutation(const Step& s);  // Sort, Flip, Join, Split, Gather, Histogram
  void permutation_taint(const Step& s);
  int step_index(const Step& s) const { return static_cast<int>(&s - L_.plan.steps.data()); }

  // Every register's storage, laid out once per worker in one arena (a
  // program reuses its predecessor's): a table lookup, no allocation.
  std::byte* reg(int r) { return reg_ptr_[r]; }
  template <class T>
  T* as(int r) { return reinterpret_cast<T*>(reg(r)); }
  int64_t scalar_int(int r);
  const ir::Type& type(int r) const { return L_.k.regs[r].type; }
  ProgramLog& log();

  LaunchState& L_;
  int worker_;
  std::unique_ptr<std::byte[]> arena_;
  std::vector<std::byte*> reg_ptr_;
  std::vector<std::byte> scratch_;
  std::vector<BufView> views_;
  std::vector<LaunchState::Span>* spans_ = nullptr;  // this worker's span log
  std::vector<std::unique_ptr<uint8_t[]>> taint_;
  std::vector<uint8_t> tainted_;
  // Per step: hoisted and computed by its loop's pre-run (kHoistRan), or
  // left to run in place by it (kHoistFailed), or not yet pre-run; and how
  // many steps are kHoistFailed now.
  static constexpr uint8_t kHoistRan = 1, kHoistFailed = 2;
  std::vector<uint8_t> hoist_ok_;
  int64_t hoist_failed_ = 0;
  std::unique_ptr<ProgramLog> log_;
  std::array<int64_t, 3> pid_{0, 0, 0};
  // The loops running now, outermost first: their step and trip count.
  struct ActiveLoop {
    int step;
    int64_t trips;
  };
  std::vector<ActiveLoop> loops_;
  int64_t steps_ = 0, poll_at_ = 0;  // this program's steps; next poll
  int64_t steps_before_ = 0;         // this worker's steps in earlier programs
  uint32_t me_ = 0;  // linear program id + 1
  // Two active lanes of one store on one element: the keys (buffer,
  // offset) of the store's lanes so far, kept only once they stop rising
  // (a store's offsets almost always rise lane by lane, and rising keys
  // cannot repeat).
  std::unordered_set<uint64_t> store_keys_;
  bool traced_ = false;
  // Ordering: this program's vector clock and own clock, and an atomic
  // op's acquires (joined after its lanes) and whether it released.
  VectorClock vc_, acquired_;
  uint32_t clock_ = 1;
  bool released_ = false;
  // Waiting: the scheduler (null outside cooperative launches), the
  // elements read by the running while iterations, memory changes so far,
  // and the loop-carried values at each running iteration's start.
  Scheduler* coop_ = nullptr;
  std::vector<Watch> watch_;
  bool watch_overflow_ = false;
  int while_depth_ = 0;
  int64_t changes_ = 0;
  uint64_t written_params_ = 0;
  std::vector<std::byte> carried_start_;
};

}  // namespace tl
