// The CPU interpreter's launch: argument checks, the program schedule over
// all cores, deterministic merging of what each program recorded, and the
// sequential re-run that keeps results deterministic when programs conflict.
#include "interpreter.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <set>
#include <exception>
#include <thread>

#include "coop.h"
#include "error.h"
#include "eval.h"
#include "exec.h"
#include "progress.h"
#include "worker_pool.h"

namespace tl {

namespace {

std::string param_name(const KernelDef& k, const RunOptions& opt, const std::vector<Arg>& args, size_t i) {
  if (i < opt.param_names.size() && !opt.param_names[i].empty()) return opt.param_names[i];
  if (i < k.param_names().size() && !k.param_names()[i].empty()) return k.param_names()[i];
  if (i < args.size() && args[i].kind() == Arg::Kind::Buffer && !args[i].buffer()->name().empty())
    return args[i].buffer()->name();
  return "arg" + std::to_string(i);
}

void check_launch(const KernelDef& k, const Grid& grid, const std::vector<Arg>& args, const RunOptions& opt) {
  const std::string who = "launch of kernel '" + k.name() + "'";
  if (args.size() != k.params().size())
    throw LaunchError(k.loc().str() + ": error: " + who + " passes " + std::to_string(args.size()) +
                      " arguments; the kernel takes " + std::to_string(k.params().size()));
  // An axis of 0 launches nothing (the kernel is still built), as Triton
  // does for empty inputs; a negative axis is a bug in the caller.
  for (int64_t g : {grid.x, grid.y, grid.z})
    if (g < 0)
      throw LaunchError(who + ": grid (" + std::to_string(grid.x) + ", " + std::to_string(grid.y) + ", " +
                        std::to_string(grid.z) + ") has an axis of size " + std::to_string(g) +
                        "; every axis needs 0 or more programs");
  if (grid.x > (int64_t{1} << 31) || grid.y > (int64_t{1} << 31) || grid.z > (int64_t{1} << 31) ||
      grid.count() > (int64_t{1} << 31))
    throw LaunchError(who + ": grid has more than 2^31 programs");
  for (size_t i = 0; i < args.size(); ++i) {
    const ParamSpec& p = k.params()[i];
    const Arg& a = args[i];
    std::string pn = "parameter " + std::to_string(i) + " ('" + param_name(k, opt, args, i) + "')";
    switch (p.kind) {
      case ir::ParamKind::Pointer:
        if (a.kind() != Arg::Kind::Buffer) throw LaunchError(who + ": " + pn + " is a tl::Ptr and needs a buffer");
        if (a.buffer()->extent() > 0 && a.buffer()->data() == nullptr)
          throw LaunchError(who + ": " + pn + ": buffer '" + a.buffer()->name() + "' has no storage");
        break;
      case ir::ParamKind::Scalar:
        if (p.dtype == DType::f32) {
          if (a.kind() == Arg::Kind::Buffer) throw LaunchError(who + ": " + pn + " is a tl::Float and needs a number");
        } else {
          if (a.kind() != Arg::Kind::Int)
            throw LaunchError(who + ": " + pn + " is an integer scalar and needs an integer");
          if (p.dtype == DType::i32 && (a.int_value() < INT32_MIN || a.int_value() > INT32_MAX))
            throw LaunchError(who + ": " + pn + " is a tl::Int (i32) but the value " + std::to_string(a.int_value()) +
                              " is out of the i32 range; use tl::Int64");
        }
        break;
      case ir::ParamKind::Constant:
        if (a.kind() != Arg::Kind::Int) throw LaunchError(who + ": " + pn + " is a tl::Const and needs an integer");
        if (a.int_value() < INT32_MIN || a.int_value() > INT32_MAX)
          throw LaunchError(who + ": " + pn + " = " + std::to_string(a.int_value()) + " is out of the int range");
        break;
    }
  }
}

void build_trace_header(Trace& t, const ir::Kernel& k, const LaunchState& L, const KernelDef& def,
                        const RunOptions& opt, const std::vector<Arg>& args, bool with_values) {
  t.kernel = k.name;
  t.source_file = k.loc.file;
  t.grid = {L.grid.x, L.grid.y, L.grid.z};
  for (size_t i = 0; i < k.params.size(); ++i) {
    const ir::Param& p = k.params[i];
    std::string nm = param_name(def, opt, args, i);
    if (p.kind == ir::ParamKind::Pointer) {
      const Buffer* b = L.bufs[i];
      TraceBuffer tb;
      tb.name = nm;
      tb.dtype = b->dtype();
      tb.shape = b->shape();
      tb.strides = b->strides();
      tb.extent = b->extent();
      tb.param_index = static_cast<int>(i);
      t.buffers.push_back(std::move(tb));
    } else if (p.kind == ir::ParamKind::Scalar) {
      t.scalars.push_back(TraceScalar{nm, p.dtype == DType::f32 ? L.floats[i] : static_cast<double>(L.ints[i]), false});
    } else {
      t.scalars.push_back(TraceScalar{nm, static_cast<double>(p.value), true});
    }
  }
  t.locations = L.locations;
  t.budget_bytes = opt.trace_budget_bytes;
  for (TraceBuffer& tb : t.buffers) {
    const Buffer* b = L.bufs[tb.param_index];
    if (!with_values || b->extent() > kTraceMaxValues || !opt.record_store_values) continue;
    tb.values_before.resize(static_cast<size_t>(b->extent()));
    for (int64_t i = 0; i < b->extent(); ++i) tb.values_before[i] = eval::to_double(b->dtype(), b->data(), i);
  }
}

// Threads pay off only when there is enough work to share: waking the
// pool's threads and merging costs microseconds. The estimate counts each
// step's lanes once.
int worker_count(const RunOptions& opt, int64_t programs, const Plan& plan) {
  int hw = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  int n = opt.threads > 0 ? opt.threads : hw;
  if (opt.threads == 0) {
    // A loop's body runs an unknown number of times: a kernel with a loop
    // is taken to have work enough (conv2d's 64 programs of 256 iterations
    // each ran on one thread when its body was counted once). Waking the
    // pool's threads costs microseconds, so the bar is low.
    int64_t lanes = 0;
    bool loops = false;
    for (const Step& s : plan.steps) {
      lanes += s.n;
      loops |= s.op == ir::Op::For || s.op == ir::Op::While;
    }
    constexpr int64_t kMinParallelLanes = int64_t{1} << 15;
    if (!loops && lanes * programs < kMinParallelLanes) n = 1;
  }
  return static_cast<int>(std::min<int64_t>(n, programs));
}

}  // namespace

std::shared_ptr<const ir::Kernel> build_ir(const KernelDef& def, const std::vector<Arg>& args) {
  check_launch(def, Grid{}, args, RunOptions{});
  Specialization spec;
  spec.dtypes.assign(args.size(), DType::f32);
  spec.constants.assign(args.size(), 0);
  for (size_t i = 0; i < args.size(); ++i) {
    if (def.params()[i].kind == ir::ParamKind::Pointer) spec.dtypes[i] = args[i].buffer()->dtype();
    if (def.params()[i].kind == ir::ParamKind::Constant) spec.constants[i] = args[i].int_value();
  }
  return def.specialize(spec);
}

RunResult run(const KernelDef& def, Grid grid, const std::vector<Arg>& args, const RunOptions& opt) {
  check_launch(def, grid, args, opt);
  RunResult result;
  result.kernel = build_ir(def, args);
  if (grid.count() == 0) return result;
  const ir::Kernel& k = *result.kernel;

  LaunchState L(k, grid);
  L.bufs.assign(args.size(), nullptr);
  L.ints.assign(args.size(), 0);
  L.floats.assign(args.size(), 0);
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].kind() == Arg::Kind::Buffer) {
      L.bufs[i] = args[i].buffer();
      L.names[i] = param_name(def, opt, args, i);
    }
    if (args[i].kind() == Arg::Kind::Int) {
      L.ints[i] = args[i].int_value();
      L.floats[i] = static_cast<double>(args[i].int_value());
    }
    if (args[i].kind() == Arg::Kind::Float) L.floats[i] = args[i].float_value();
  }
  L.trace_mode = opt.trace;
  for (auto& p : opt.trace_programs)
    if (p[0] >= 0 && p[1] >= 0 && p[2] >= 0 && p[0] < grid.x && p[1] < grid.y && p[2] < grid.z)
      L.trace_set.insert((p[0] * grid.y + p[1]) * grid.z + p[2]);
  L.record_values = opt.record_store_values;
  L.trace_budget = opt.trace_budget_bytes;
  L.strict = opt.strict;
  L.track_values = opt.track_values;
  L.check_unread_inputs = opt.check_unread_inputs;
  L.max_steps = std::max<int64_t>(0, opt.max_steps);
  L.cancel = opt.cancel;
  L.fuse = fusion_enabled(opt.fuse);
  L.prepare();

  const int64_t n = grid.count();
  int workers = worker_count(opt, n, L.plan);
  // Program order decides what a program reads of another's writes, so
  // such launches (and atomics, and strict mode) run in order; others run
  // in parallel and fall back to order if programs turn out to conflict.
  bool reads_unwritten = false;
  for (size_t i = 0; i < L.bufs.size(); ++i)
    if (L.bufs[i] && L.param_read[i] && L.bufs[i]->tracks_writes()) reads_unwritten = true;
  // A launch on one worker takes the parallel path too: spans detect
  // conflicts at a few instructions a lane, where per-element records cost
  // a cache miss a lane; only a conflict pays for the replay with records.
  // Programs that may wait on each other run in program order on the
  // cooperative scheduler (coop.h).
  bool sequential = k.has_atomics || opt.strict || reads_unwritten || L.cooperative;
  // The replay in program order must start from the buffers as they were,
  // but only buffers the kernel also loads from need a copy: a program's
  // stores never depend on a buffer it does not read, so the replay
  // rewrites the same elements of such a buffer and the first run's
  // writes to it vanish. (That saves a copy of every output.)
  std::vector<Buffer*> written = L.written_buffers(), saved;
  std::vector<std::vector<std::byte>> saved_data;
  std::vector<std::vector<uint8_t>> saved_written;
  if (!sequential) {
    for (Buffer* b : written) {
      bool loaded = false;
      for (size_t i = 0; i < L.bufs.size(); ++i) loaded |= L.bufs[i] == b && L.param_read[i];
      if (!loaded) continue;
      saved.push_back(b);
      saved_data.emplace_back(b->data(), b->data() + b->size_bytes());
      saved_written.push_back(b->written_map());
    }
    L.enable_conflict_detection(workers, false);
  } else {
    L.enable_conflict_detection(1, true);
    L.detect_details = true;
  }

  std::shared_ptr<Trace> trace;
  if (opt.trace != TraceMode::Off) {
    trace = std::make_shared<Trace>();
    build_trace_header(*trace, k, L, def, opt, args, true);
  }

  int64_t claimed = 0;  // programs [0, claimed) ran, fully or part-way
  auto execute = [&](int nworkers) {
    L.begin_merge(result, trace.get(), opt.trace_budget_bytes);
    L.worker_steps.reset(new LaunchState::WorkerSteps[static_cast<size_t>(nworkers)]);
    L.programs_done = 0;
    std::mutex claim_mu;
    int64_t& next = claimed;
    next = 0;
    ProgressMonitor monitor(opt.progress, L, n, nworkers);
    std::atomic<int64_t> traced_bytes{0};
    std::exception_ptr failure;
    // Untraced launches on several workers claim programs a chunk at a
    // time from an atomic counter, and take the lock only to hand in a
    // chunk's logs: with one lock per program, 16 workers running programs
    // of a few microseconds waited on the lock more than they ran. Every
    // program of a claimed chunk runs (one the launch has stopped returns at
    // its first step) and is deposited. Traced launches claim one program
    // at a time under the lock, which decides what is traced.
    const bool chunked = nworkers > 1 && opt.trace == TraceMode::Off;
    // A kernel with a loop has programs long enough for a claim each (and
    // a chunk of them would leave a worker with a long tail at the end).
    bool loops = false;
    for (const Step& s : L.plan.steps) loops |= s.op == ir::Op::For || s.op == ir::Op::While;
    const int64_t chunk = chunked && !loops ? std::clamp<int64_t>(n / (int64_t{nworkers} * 8), 1, 256) : 1;
    std::atomic<int64_t> next_chunk{0};
    auto run_programs = [&](Exec& ex) {
      int64_t first = -1;  // the programs this worker just ran, to deposit
      std::vector<std::unique_ptr<ProgramLog>> logs;
      for (;;) {
        int64_t begin = 0, count = 0;
        bool traced = false;
        {
          // One lock per chunk: hand in the last chunk's logs (and, traced,
          // claim the next program).
          std::lock_guard<std::mutex> lock(claim_mu);
          for (size_t k = 0; first >= 0 && k < logs.size(); ++k) {
            if (logs[k]) traced_bytes += logs[k]->trace_bytes;
            L.deposit(first + static_cast<int64_t>(k), std::move(logs[k]));
            ++L.programs_done;
          }
          if (L.cancel_requested()) L.cancelled = true;
          if (L.stop || L.cancelled) return;
          if (!chunked) {
            if (next >= n) return;
            begin = next++;
            count = 1;
            // Deciding to trace under the claim lock keeps truncation
            // deterministic (see LaunchState::merge_one): a program left
            // untraced here could not have been kept.
            traced = L.wants_trace(begin) && traced_bytes.load() <= opt.trace_budget_bytes && !L.trace_full();
          }
        }
        if (chunked) {
          begin = next_chunk.fetch_add(chunk, std::memory_order_relaxed);
          if (begin >= n) return;
          count = std::min(chunk, n - begin);
        }
        logs.resize(static_cast<size_t>(count));
        for (int64_t k = 0; k < count; ++k) logs[static_cast<size_t>(k)] = ex.run_program(begin + k, traced);
        first = begin;
      }
    };
    auto work = [&](int worker) {
      // An exception must not escape a worker thread (that would terminate
      // the process): the first one stops everyone and is rethrown below.
      try {
        Exec ex(L, worker);
        run_programs(ex);
      } catch (...) {
        std::lock_guard<std::mutex> lock(claim_mu);
        if (!failure) failure = std::current_exception();
        L.stop = true;
      }
    };
    run_on_workers(nworkers, work);
    if (chunked) next = std::min(next_chunk.load(), n);
    if (failure) std::rethrow_exception(failure);
  };

  if (L.cooperative) {
    Scheduler scheduler(L, result, trace.get(), opt);
    claimed = scheduler.run();
  } else {
    execute(sequential ? 1 : workers);
  }
  // A launch stopped part-way is reported as it stands: a replay would
  // only run into the same budget or cancel again.
  const bool cut_short = L.cancelled || L.budget_exceeded || L.deadlocked;
  if (!sequential && !cut_short && (L.conflict.load() || L.spans_conflict())) {
    // Two programs touched one element with a write involved: their order
    // would decide the result. Replay in program order for a
    // deterministic outcome.
    for (size_t i = 0; i < saved.size(); ++i) {
      std::memcpy(saved[i]->data(), saved_data[i].data(), saved_data[i].size());
      saved[i]->written_map() = saved_written[i];
    }
    L.enable_conflict_detection(1, true);
    L.detect_details = true;
    execute(1);
    sequential = true;
  }
  result.sequential = sequential;
  for (const Step& s : L.plan.steps) {
    result.fused_steps += s.fused;
    result.hoisted_steps += s.hoisted;
  }
  result.interrupted = L.cancelled;
  result.budget_exceeded = L.budget_exceeded;
  result.deadlocked = L.deadlocked;
  result.programs_run = claimed;
  for (int w = 0; w < (sequential ? 1 : workers); ++w)
    result.max_program_steps = std::max(result.max_program_steps, L.worker_steps[w].max_program);
  if (trace) {
    for (TraceBuffer& tb : trace->buffers) {
      const Buffer* b = L.bufs[tb.param_index];
      if (b->extent() > kTraceMaxValues || !opt.record_store_values) continue;
      tb.values_after.resize(static_cast<size_t>(b->extent()));
      for (int64_t i = 0; i < b->extent(); ++i) tb.values_after[i] = eval::to_double(b->dtype(), b->data(), i);
    }
  }
  L.end_merge();
  // Elements a cut-short launch never reached are not the kernel's fault.
  if (!cut_short) {
    L.add_never_written(result);
    L.add_never_read(result);
  }
  result.locations = L.locations;
  result.kernel_name = k.name;
  {
    Trace header;
    build_trace_header(header, k, L, def, opt, args, false);
    result.buffers = std::move(header.buffers);
  }
  if (trace) trace->findings = result.findings;
  result.trace = trace;
  return result;
}

}  // namespace tl
