// The interpreter's per-launch state and per-thread program executor.
// Internal to interp/.
#pragma once
#include <atomic>
#include <memory>
#include <set>
#include <unordered_map>
#include <vector>

#include "eval.h"
#include "exec_plan.h"
#include "interpreter.h"

namespace tl {

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
  bool empty() const {
    return events.empty() && oob_loads == 0 && oob_stores == 0 && issues.empty() && printed.empty() && !traced;
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
  std::vector<SrcLoc> locations;  // the trace's location table
  Plan plan;
  std::vector<bool> param_written;                      // stores/atomics may reach it
  std::vector<std::unique_ptr<ProgramLog>> logs;        // per program, by linear id

  // Cross-program conflict detection for the parallel run. Each worker
  // thread keeps, per element of each written buffer, the last program of
  // its own that wrote it and that read it (plain memory, no atomics);
  // conflicts within a thread are seen on the spot, those across threads
  // by comparing the workers' records after the run.
  struct Shadow {
    std::vector<std::unique_ptr<uint32_t[]>> wrote, read;  // per parameter
  };
  std::vector<Shadow> shadows;  // per worker
  bool detect_conflicts = false;
  std::atomic<bool> conflict{false};

  void prepare();  // plan, locations, which buffers are written
  std::vector<Buffer*> written_buffers() const;
  void enable_conflict_detection(int workers);
  // After a parallel run: did programs on different workers touch one
  // element with a write involved?
  bool cross_worker_conflict() const;
  void disable_conflict_detection();
  bool wants_trace(int64_t linear) const {
    return trace_mode == TraceMode::Full || (trace_mode == TraceMode::Filtered && trace_set.count(linear));
  }
  std::array<int64_t, 3> pid_of(int64_t linear) const {
    return {linear / (grid.y * grid.z), (linear / grid.z) % grid.y, linear % grid.z};
  }
  // Concatenates the logs in program order into the result and the trace;
  // the trace stops (marked truncated) before the first program that would
  // take it past the byte budget.
  void merge_logs(RunResult& r, Trace* t, int64_t budget);
};

class Exec {
 public:
  Exec(LaunchState& L, int worker);
  std::unique_ptr<ProgramLog> run_program(int64_t linear, bool traced);

 private:
  void run(int begin, int end);
  void step(const Step& s);
  // What memory ops need of each pointer parameter's buffer, fetched once.
  struct BufView {
    std::byte* data = nullptr;
    int64_t extent = 0;
    uint32_t* wrote = nullptr;  // this worker's conflict records, when detecting
    uint32_t* read = nullptr;
  };
  void bind_buffers();
  void memory(const Step& s);
  template <ir::Op OP>
  void memory_op(const Step& s);
  template <size_t ES, ir::Op OP>
  void memory_lanes(const Step& s);
  void record_memory_event(const Step& s, const eval::PtrVal* p, const uint8_t* mask, const std::byte* value);
  void out_of_bounds(const Step& s, int64_t lane, const eval::PtrVal& pv, bool is_store);
  void print(const Step& s);
  void issue(const ir::Instr& in, const std::string& message);
  void trace_event(Event e);

  std::byte* reg(int r);
  template <class T>
  T* as(int r) { return reinterpret_cast<T*>(reg(r)); }
  int64_t scalar_int(int r);
  const ir::Type& type(int r) const { return L_.k.regs[r].type; }
  ProgramLog& log();

  LaunchState& L_;
  int worker_;
  std::vector<std::unique_ptr<std::byte[]>> regs_;
  std::vector<std::byte> scratch_;
  std::vector<BufView> views_;
  std::unique_ptr<ProgramLog> log_;
  std::array<int64_t, 3> pid_{0, 0, 0};
  uint32_t me_ = 0;  // linear program id + 1
  bool traced_ = false;
};

}  // namespace tl
