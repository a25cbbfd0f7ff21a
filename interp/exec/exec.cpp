// Executing one program: a walk over the IR with one storage area per
// register, reused from program to program on the same thread.
#include "exec.h"

#include <algorithm>
#include <cstring>
#include <sstream>
#include <thread>

#include "error.h"

namespace tl {

LaunchState::LaunchState(const ir::Kernel& kernel, Grid g) : k(kernel), grid(g) {}

namespace {

// Which pointer parameters each pointer register may point into.
bool propagate_provenance(const ir::Block& b, std::vector<uint64_t>& from, uint64_t& written, uint64_t& read) {
  bool changed = false;
  auto join = [&](int dst, uint64_t m) {
    if ((from[dst] | m) != from[dst]) {
      from[dst] |= m;
      changed = true;
    }
  };
  for (const ir::Instr& in : b.instrs) {
    switch (in.op) {
      case ir::Op::PtrParam: join(in.dst, in.param_index < 64 ? uint64_t{1} << in.param_index : ~uint64_t{0}); break;
      case ir::Op::PtrAdd:
      case ir::Op::Broadcast:
      case ir::Op::Reshape:
      case ir::Op::Permute:
      case ir::Op::Copy: join(in.dst, from[in.args[0]]); break;
      case ir::Op::Where: join(in.dst, from[in.args[1]] | from[in.args[2]]); break;
      case ir::Op::Store: written |= from[in.args[0]]; break;
      case ir::Op::AtomicAdd:
      case ir::Op::AtomicRMW:
        written |= from[in.args[0]];
        read |= from[in.args[0]];
        break;
      case ir::Op::Load: read |= from[in.args[0]]; break;
      default: break;
    }
    if (in.cond_body) changed |= propagate_provenance(*in.cond_body, from, written, read);
    if (in.body) changed |= propagate_provenance(*in.body, from, written, read);
    if (in.else_body) changed |= propagate_provenance(*in.else_body, from, written, read);
  }
  return changed;
}

}  // namespace

void LaunchState::prepare() {
  plan = make_plan(k, locations);
  if (fuse) fuse_plan(plan, k);
  std::vector<uint64_t> from(k.regs.size(), 0);
  uint64_t written = 0, read = 0;
  // Loop-carried pointer registers need a second pass; a third confirms.
  for (int pass = 0; pass < 8 && propagate_provenance(k.body, from, written, read); ++pass) {
  }
  provenance = from;
  param_written.assign(k.params.size(), false);
  param_read.assign(k.params.size(), false);
  for (size_t i = 0; i < k.params.size(); ++i) {
    bool ptr = k.params[i].kind == ir::ParamKind::Pointer;
    param_written[i] = ptr && (i >= 64 || (written >> i) & 1);
    param_read[i] = ptr && (i >= 64 || (read >> i) & 1);
  }
  mark_index_registers();
  prepare_waits();
  if (fuse) {
    hoist_plan(plan, k, index_reg);
    fuse_broadcast_operands(plan, k);
    mark_skip_runs(plan);
  }
  prepare_read_tracking();
}

std::vector<Buffer*> LaunchState::written_buffers() const {
  std::vector<Buffer*> out;
  for (size_t i = 0; i < bufs.size(); ++i)
    if (bufs[i] && param_written[i] && std::find(out.begin(), out.end(), bufs[i]) == out.end()) out.push_back(bufs[i]);
  return out;
}

void LaunchState::enable_conflict_detection(int workers, bool per_element) {
  shadows.clear();
  release_span_logs();
  if (!per_element) {
    acquire_span_logs(workers);
  } else {
    shadows.resize(1);
    Shadow& sh = shadows[0];
    sh.wrote.resize(bufs.size());
    sh.read.resize(bufs.size());
    for (size_t i = 0; i < bufs.size(); ++i) {
      if (!bufs[i] || !param_written[i]) continue;
      size_t n = static_cast<size_t>(bufs[i]->extent());
      auto records = [n] {
        auto* p = static_cast<uint32_t*>(std::calloc(std::max<size_t>(n, 1), sizeof(uint32_t)));
        if (!p) throw std::bad_alloc();
        return Records(p);
      };
      sh.wrote[i] = records();
      if (param_read[i]) sh.read[i] = records();
      if (sync) {
        sh.wrote_clock.resize(bufs.size());
        sh.read_clock.resize(bufs.size());
        sh.wrote_clock[i] = records();
        if (param_read[i]) sh.read_clock[i] = records();
      }
    }
  }
  // Two parameters bound to one buffer alias: conflicts between them are
  // not tracked element-wise, so such launches run in program order.
  for (size_t i = 0; i < bufs.size(); ++i)
    for (size_t j = i + 1; j < bufs.size(); ++j)
      if (bufs[i] && bufs[i] == bufs[j] && (param_written[i] || param_written[j])) conflict = true;
  detect_conflicts = true;
}

void LaunchState::disable_conflict_detection() {
  detect_conflicts = false;
  shadows.clear();
  release_span_logs();
}

int LaunchState::buffer_index(int param) const {
  if (param < 0) return -1;
  int idx = 0;
  for (int i = 0; i < param; ++i) idx += bufs[i] != nullptr;
  return idx;
}

// ---- Exec ------------------------------------------------------------------

Exec::Exec(LaunchState& L, int worker)
    : L_(L),
      worker_(worker),
      reg_ptr_(L.k.regs.size()),
      taint_(L.k.regs.size()),
      tainted_(L.k.regs.size(), 0),
      hoist_ok_(L.plan.steps.size(), 0) {
  // 64-byte slots: no two registers share a cache line, and every dtype
  // (PtrVal included) is aligned.
  auto slot = [&](size_t r) {
    const ir::Type& t = type(static_cast<int>(r));
    size_t bytes = std::max<size_t>(static_cast<size_t>(ir::numel(t.shape)) * eval::elem_bytes(t), 16);
    return (bytes + 63) / 64 * 64;
  };
  size_t total = 64;
  for (size_t r = 0; r < reg_ptr_.size(); ++r) total += slot(r);
  arena_.reset(new std::byte[total]());
  std::byte* at = arena_.get();
  at += (64 - reinterpret_cast<uintptr_t>(at) % 64) % 64;
  for (size_t r = 0; r < reg_ptr_.size(); ++r) {
    reg_ptr_[r] = at;
    at += slot(r);
  }
  bind_buffers();
}

int64_t Exec::scalar_int(int r) {
  DType d = type(r).dtype;
  return eval::dispatch(d, [&]<DType D>() -> int64_t {
           using S = typename eval::StorageOf<D>::type;
           if constexpr (is_int(D)) return static_cast<int64_t>(*reinterpret_cast<const S*>(reg(r)));
           else return 0;
         });
}

ProgramLog& Exec::log() {
  if (!log_) {
    log_ = std::make_unique<ProgramLog>();
    log_->pid = pid_;
  }
  return *log_;
}

std::unique_ptr<ProgramLog> Exec::run_program(int64_t linear, bool traced) {
  pid_ = L_.pid_of(linear);
  me_ = static_cast<uint32_t>(linear + 1);
  traced_ = traced;
  log_.reset();
  if (traced) log().traced = true;
  std::fill(tainted_.begin(), tainted_.end(), 0);
  loops_.clear();
  vc_.clear();
  acquired_.clear();
  clock_ = 1;
  released_ = false;
  watch_.clear();
  watch_overflow_ = false;
  while_depth_ = 0;
  carried_start_.clear();
  steps_ = 0;
  poll_at_ = 0;  // look at the flags before the first step
  try {
    run(0, static_cast<int>(L_.plan.steps.size()));
  } catch (const StopAtFinding&) {
    log().stopped = true;
    L_.stop = true;
  } catch (const StopProgram&) {
    log().interrupted = true;
    L_.stop = true;
  }
  steps_before_ += steps_;
  LaunchState::WorkerSteps& ws = L_.worker_steps[worker_];
  ws.total.store(steps_before_, std::memory_order_relaxed);
  ws.max_program = std::max(ws.max_program, steps_);
  if (log_ && log_->empty()) log_.reset();
  return std::move(log_);
}

void Exec::poll() {
  L_.worker_steps[worker_].total.store(steps_before_ + steps_, std::memory_order_relaxed);
  if (L_.cancel_requested()) {
    L_.cancelled = true;
    throw StopProgram{};
  }
  if (L_.stop.load(std::memory_order_relaxed)) throw StopProgram{};
  if (L_.max_steps > 0 && steps_ > L_.max_steps) step_budget_exceeded();
  poll_at_ = steps_ + kPollSteps;
  if (L_.max_steps > 0) poll_at_ = std::min(poll_at_, L_.max_steps + 1);
}

void Exec::step_budget_exceeded() {
  // The loop to blame: the running one with the most trips so far (the
  // outermost of equals), which is where the time went.
  const ActiveLoop* blame = nullptr;
  for (const ActiveLoop& l : loops_)
    if (!blame || l.trips > blame->trips) blame = &l;
  const Step& s = blame ? L_.plan.steps[blame->step] : L_.plan.steps.front();
  std::string message;
  if (blame) {
    message = std::string(s.op == ir::Op::While ? "while" : "for") + " loop still running after " +
              std::to_string(blame->trips) + (blame->trips == 1 ? " iteration" : " iterations") +
              " when its program reached the step budget of " + std::to_string(L_.max_steps) +
              " steps; the launch was stopped (raise the budget with --max-steps or max_steps if the kernel is "
              "meant to run this long)";
  } else {
    message = "program reached the step budget of " + std::to_string(L_.max_steps) + " steps; the launch was stopped";
  }
  ProgramLog& lg = log();
  RawFinding f{FindingKind::StepBudgetExceeded, step_index(s), -1, 1, {}, message, s.in->loc};
  FindingExample e;
  e.pid = pid_;
  f.examples.push_back(e);
  lg.findings.push_back(std::move(f));
  L_.budget_exceeded = true;
  throw StopProgram{};
}

void Exec::issue(const ir::Instr& in, const std::string& message, bool finding) {
  ProgramLog& lg = log();
  for (const RuntimeIssue& is : lg.issues)
    if (is.loc == in.loc && is.message == message) return;
  lg.issues.push_back(RuntimeIssue{pid_, message, in.loc});
  if (!finding) return;
  RawFinding f{FindingKind::RuntimeIssue, -1, -1, 1, {}, message, in.loc};
  FindingExample e;
  e.pid = pid_;
  f.examples.push_back(e);
  lg.findings.push_back(std::move(f));
  if (L_.strict) throw StopAtFinding{};
}

void Exec::trace_event(Event e) {
  ProgramLog& lg = log();
  if (lg.trace_over) return;
  const int64_t bytes = Trace::event_bytes(e);
  // Past the budget even on top of the programs merged so far (all before
  // this one), this program cannot be kept whatever the others do: stop
  // recording it instead of holding events the merge will drop.
  if (lg.trace_bytes + bytes + L_.merged_trace_bytes.load(std::memory_order_relaxed) > L_.trace_budget) {
    lg.trace_over = true;
    lg.events.clear();
    lg.events.shrink_to_fit();
    return;
  }
  lg.trace_bytes += bytes;
  lg.events.push_back(std::move(e));
}

void Exec::run(int begin, int end) {
  const Step* steps = L_.plan.steps.data();
  for (int i = begin; i < end;) {
    const Step& s = steps[i];
    // Fused and hoisted steps only count: a run of them is passed over at
    // once when no poll falls inside it (so polls, and where a budget
    // stops a program, stay at the same step) and no hoisted step failed
    // its pre-run (which leaves it to run in place).
    if (s.skip_run > 0 && hoist_failed_ == 0 && steps_ + s.skip_run < poll_at_) {
      steps_ += s.skip_run;
      i += s.skip_run;
      continue;
    }
    tick();
    if (s.op == ir::Op::For) {
      int64_t lo = scalar_int(s.a[0]), hi = scalar_int(s.a[1]), st = scalar_int(s.a[2]);
      if (st == 0) {
        issue(*s.in, "loop step is 0; the loop was skipped");
      } else {
        if (s.hoist_end > s.hoist_begin && (st > 0 ? lo < hi : lo > hi)) run_hoisted(s);
        loops_.push_back(ActiveLoop{i, 0});
        const size_t depth = loops_.size() - 1;
        for (int64_t v = lo; st > 0 ? v < hi : v > hi; v += st) {
          tick();  // an empty body still costs a step per trip
          eval::constant(s.out_dtype, v, 0, reg(s.dst));
          run(i + 1, s.end);
          ++loops_[depth].trips;
        }
        loops_.pop_back();
      }
      i = s.else_end;
    } else if (s.op == ir::Op::While && coop_) {
      run_while_waiting(i);
      i = s.else_end;
    } else if (s.op == ir::Op::While) {
      // The condition block runs before every iteration, the body while it
      // leaves true. A loop that never ends would hang the run: past
      // kMaxWhileIterations it is stopped and reported.
      int64_t iterations = 0;
      loops_.push_back(ActiveLoop{i, 0});
      const size_t depth = loops_.size() - 1;
      for (;;) {
        tick();
        run(i + 1, s.end);
        if (!*as<uint8_t>(s.in->cond_reg)) break;
        if (++iterations > kMaxWhileIterations) {
          issue(*s.in, "while loop still running after " + std::to_string(kMaxWhileIterations) +
                           " iterations; stopped (does its condition ever become false?)");
          break;
        }
        run(s.end, s.else_end);
        loops_[depth].trips = iterations;
      }
      loops_.pop_back();
      i = s.else_end;
    } else if (s.op == ir::Op::If) {
      if (*as<uint8_t>(s.a[0])) run(i + 1, s.end);
      else run(s.end, s.else_end);
      i = s.else_end;
    } else if (s.fused || (s.hoisted && hoist_ok_[i] == kHoistRan)) {
      ++i;  // done inside the step that reads it, or before the loop
    } else {
      step_with_taint(s);
      ++i;
    }
  }
}

void Exec::step(const Step& s) {
  using ir::Op;
  const ir::Instr& in = *s.in;
  const int64_t n = s.n;
  switch (s.op) {
    case Op::PtrParam: *as<eval::PtrVal>(s.dst) = eval::PtrVal{in.param_index, 0}; return;
    case Op::ScalarParam:
      if (is_float(s.out_dtype)) eval::from_double_into(s.out_dtype, reg(s.dst), 0, L_.floats[in.param_index]);
      else eval::constant(s.out_dtype, L_.ints[in.param_index], 0, reg(s.dst));
      return;
    case Op::Const: eval::constant(s.out_dtype, in.ival, in.fval, reg(s.dst)); return;
    case Op::Arange: {
      int32_t* o = as<int32_t>(s.dst);
      for (int64_t i = 0; i < n; ++i) o[i] = static_cast<int32_t>(in.ival + i);
      return;
    }
    case Op::ProgramId: *as<int32_t>(s.dst) = static_cast<int32_t>(pid_[in.axis]); return;
    case Op::NumPrograms: {
      int64_t g[3] = {L_.grid.x, L_.grid.y, L_.grid.z};
      *as<int32_t>(s.dst) = static_cast<int32_t>(g[in.axis]);
      return;
    }
    case Op::Copy:
    case Op::Reshape:
      if (s.dst != s.a[0]) std::memcpy(reg(s.dst), reg(s.a[0]), static_cast<size_t>(n) * s.elem);
      return;
    case Op::Cast:
      // Rounding toward zero never overflows to inf: nothing to flag then.
      if (cast_may_change_value(s.dtype, s.out_dtype) && in.rounding != ir::Rounding::rtz) check_cast(s);
      if (in.rounding == ir::Rounding::rtz) eval::cast_rtz(s.dtype, s.out_dtype, reg(s.a[0]), reg(s.dst), n);
      else eval::cast(s.dtype, s.out_dtype, reg(s.a[0]), reg(s.dst), n);
      return;
    case Op::Bitcast: std::memcpy(reg(s.dst), reg(s.a[0]), static_cast<size_t>(n) * s.elem); return;
    case Op::PtrAdd: {
      if (s.bcast[1] >= 0 && ptr_add_in_place(s)) return;
      const eval::PtrVal* p = as<eval::PtrVal>(s.a[0]);
      eval::PtrVal* o = as<eval::PtrVal>(s.dst);
      DType od = type(s.a[1]).dtype;
      const std::byte* off = reg(s.a[1]);
      if (od == DType::i32) {
        const int32_t* o32 = reinterpret_cast<const int32_t*>(off);
        for (int64_t i = 0; i < n; ++i) o[i] = eval::PtrVal{p[i].buf, p[i].off + o32[i]};
      } else {
        eval::dispatch(od, [&]<DType D>() {
          using S = typename eval::StorageOf<D>::type;
          if constexpr (is_int(D)) {
            const S* v = reinterpret_cast<const S*>(off);
            // Signed offsets sign-extend, unsigned ones zero-extend (u64
            // beyond 2^63 wraps, as a 64-bit address would).
            for (int64_t i = 0; i < n; ++i)
              o[i] = eval::PtrVal{p[i].buf, static_cast<int64_t>(static_cast<uint64_t>(p[i].off) + static_cast<uint64_t>(v[i]))};
          }
        });
      }
      return;
    }
    case Op::Where:
      eval::where(s.out_dtype, as<uint8_t>(s.a[0]), reg(s.a[1]), reg(s.a[2]), reg(s.dst), n, s.elem);
      return;
    case Op::Fma: eval::fma(s.out_dtype, reg(s.a[0]), reg(s.a[1]), reg(s.a[2]), reg(s.dst), n); return;
    case Op::Broadcast:
    case Op::Permute: eval::strided_copy(s.rank, s.dims, s.strides, s.elem, reg(s.a[0]), reg(s.dst)); return;
    case Op::Reduce:
      eval::reduce(in.reduce, s.dtype, s.outer, s.len, s.inner, in.propagate_nan, reg(s.a[0]), reg(s.dst), scratch_);
      if (traced_) {
        Event e;
        e.kind = EventKind::Reduce;
        e.loc = s.loc;
        e.shape = type(s.a[0]).shape;
        e.axis = in.axis;
        e.op = ir::reduce_name(in.reduce);
        trace_event(std::move(e));
      }
      return;
    case Op::Dot:
      eval::dot(s.dtype, s.out_dtype, in.precision, type(s.a[0]).shape, type(s.a[1]).shape, reg(s.a[0]),
                reg(s.a[1]), in.has_acc ? reg(s.a[2]) : nullptr, reg(s.dst));
      if (traced_) {
        Event e;
        e.kind = EventKind::Dot;
        e.loc = s.loc;
        e.shape = type(s.dst).shape;
        e.a_shape = type(s.a[0]).shape;
        e.b_shape = type(s.a[1]).shape;
        e.op = ir::precision_name(in.precision);
        trace_event(std::move(e));
      }
      return;
    case Op::Load:
    case Op::Store:
    case Op::AtomicAdd:
    case Op::AtomicRMW: memory(s); return;
    case Op::Print: print(s); return;
    case Op::Scan:
    case Op::ReduceWith: combined(s); return;
    case Op::Sort:
    case Op::Flip:
    case Op::Join:
    case Op::Split:
    case Op::Gather:
    case Op::Histogram: permutation(s); return;
    case Op::Assert: {
      const uint8_t* c = as<uint8_t>(s.a[0]);
      int64_t m = ir::numel(type(s.a[0]).shape);
      for (int64_t i = 0; i < m; ++i)
        if (!c[i]) {
          issue(in, std::string("device_assert failed: ") + in.text);
          break;
        }
      return;
    }
    default: break;
  }
  if (s.unary) {
    eval::unary(s.op, s.dtype, reg(s.a[0]), reg(s.dst), n);
    return;
  }
  if (s.binary) {
    if ((s.bcast[0] >= 0 || s.bcast[1] >= 0) && binary_in_place(s)) return;
    // The value checks look at the operands, so they run first.
    if ((s.op == Op::Shl || s.op == Op::Shr) && is_int(s.dtype)) check_shift(s);
    if (index_checked(s)) check_index_overflow(s);
    eval::ArithFlags flags;
    eval::binary(s.op, s.dtype, reg(s.a[0]), reg(s.a[1]), reg(s.dst), n, in.propagate_nan, flags);
    binary_flags(in, flags);
    return;
  }
  throw std::logic_error(std::string("interpreter: unhandled op ") + ir::op_name(s.op));
}

void Exec::binary_issues(const ir::Instr& in, const eval::ArithFlags& flags) {
  if (flags.div_by_zero) issue(in, "integer division or remainder by zero (the result is 0)");
  // Each lane is a ShiftOutOfRange finding already; this keeps the note.
  if (flags.wide_shift) issue(in, "shift count negative or not below the bit width (the result is clamped)", false);
}

bool Exec::broadcasts_in_place(const Step& s, eval::RowOperand* ops) {
  const Step* steps = L_.plan.steps.data();
  bool clean = true;
  for (int k = 0; k < 2; ++k) {
    if (s.bcast[k] < 0) {
      ops[k] = eval::RowOperand{s.a[k] >= 0 ? reg(s.a[k]) : nullptr, nullptr, 1};
      continue;
    }
    const int src = steps[s.bcast[k]].a[0];
    if (L_.track_values && tainted_[src]) clean = false;
    ops[k] = eval::RowOperand{reg(src), L_.plan.row_offsets.data() + s.row_off[k], s.col_step[k]};
  }
  // A tainted source, or an index op that would wrap: the broadcasts are
  // materialized and the op runs as it would unfused (taint, findings).
  if (!clean || (s.binary && index_checked(s) && rows_may_wrap(s, ops))) {
    for (int k = 0; k < 2; ++k)
      if (s.bcast[k] >= 0) step_with_taint(steps[s.bcast[k]]);
    return false;
  }
  for (int k = 0; k < 2; ++k)
    if (s.bcast[k] >= 0) tainted_[steps[s.bcast[k]].dst] = 0;
  return true;
}

bool Exec::binary_in_place(const Step& s) {
  eval::RowOperand ops[2];
  if (!broadcasts_in_place(s, ops)) return false;
  eval::ArithFlags flags;
  eval::binary_rows(s.op, s.dtype, ops[0], ops[1], reg(s.dst), s.rows, s.cols, s.in->propagate_nan, flags);
  binary_flags(*s.in, flags);
  return true;
}

bool Exec::ptr_add_in_place(const Step& s) {
  eval::RowOperand ops[2];
  if (!broadcasts_in_place(s, ops)) return false;
  const eval::PtrVal* p = as<eval::PtrVal>(s.a[0]);
  eval::PtrVal* o = as<eval::PtrVal>(s.dst);
  const int64_t cols = s.cols;
  // The offsets as the unfused add reads them: i32 sign-extends, i64 wraps.
  auto rows = [&](auto* off) {
    for (int64_t r = 0; r < s.rows; ++r) {
      const auto* row = off + ops[1].row_off[r];
      const eval::PtrVal* pr = p + r * cols;
      eval::PtrVal* orow = o + r * cols;
      for (int64_t c = 0; c < cols; ++c) {
        const auto v = row[ops[1].col_step * c];
        orow[c] = eval::PtrVal{pr[c].buf, static_cast<int64_t>(static_cast<uint64_t>(pr[c].off) + static_cast<uint64_t>(v))};
      }
    }
  };
  if (type(s.a[1]).dtype == DType::i32) rows(static_cast<const int32_t*>(ops[1].data));
  else rows(static_cast<const int64_t*>(ops[1].data));
  return true;
}

void Exec::print(const Step& s) {
  const ir::Instr& in = *s.in;
  std::ostringstream out;
  const ir::Type& t0 = type(in.args[0]);
  int64_t n = ir::numel(t0.shape);
  for (int64_t i = 0; i < n; ++i) {
    out << "pid (" << pid_[0] << ", " << pid_[1] << ", " << pid_[2] << ") idx (";
    int64_t rest = i;
    std::vector<int64_t> idx(t0.shape.size());
    for (int d = static_cast<int>(t0.shape.size()) - 1; d >= 0; --d) {
      idx[d] = rest % t0.shape[d];
      rest /= t0.shape[d];
    }
    for (size_t d = 0; d < idx.size(); ++d) out << (d ? ", " : "") << idx[d];
    out << ") " << in.text;
    for (int a : in.args) {
      const ir::Type& t = type(a);
      int64_t j = ir::numel(t.shape) == n ? i : 0;
      if (t.is_ptr) {
        const eval::PtrVal& p = as<eval::PtrVal>(a)[j];
        out << " " << (L_.bufs[p.buf] ? L_.names[p.buf] : "?") << "+" << p.off;
      } else {
        out << " " << eval::to_double(t.dtype, reg(a), j);
      }
    }
    out << "\n";
  }
  ProgramLog& lg = log();
  lg.printed += out.str();
  if (traced_) {
    Event e;
    e.kind = EventKind::Print;
    e.loc = s.loc;
    e.shape = t0.shape;
    e.text = out.str();
    trace_event(std::move(e));
  }
}

}  // namespace tl
