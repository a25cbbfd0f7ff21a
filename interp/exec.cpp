// Executing one program: a walk over the IR with one storage area per
// register, reused from program to program on the same thread.
#include "exec.h"

#include <cstring>
#include <sstream>

#include "error.h"

namespace tl {

LaunchState::LaunchState(const ir::Kernel& kernel, Grid g) : k(kernel), grid(g) {}

namespace {

void collect_locations(const ir::Block& b, LaunchState& L) {
  for (const ir::Instr& in : b.instrs) {
    if (in.loc.known()) {
      auto it = std::find(L.locations.begin(), L.locations.end(), in.loc);
      int idx = static_cast<int>(it - L.locations.begin());
      if (it == L.locations.end()) L.locations.push_back(in.loc);
      L.loc_index[&in] = idx;
    }
    if (in.body) collect_locations(*in.body, L);
    if (in.else_body) collect_locations(*in.else_body, L);
  }
}

// Which pointer parameters each pointer register may point into.
bool propagate_provenance(const ir::Block& b, std::vector<uint64_t>& from, uint64_t& written) {
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
      case ir::Op::Store:
      case ir::Op::AtomicAdd: written |= from[in.args[0]]; break;
      default: break;
    }
    if (in.body) changed |= propagate_provenance(*in.body, from, written);
    if (in.else_body) changed |= propagate_provenance(*in.else_body, from, written);
  }
  return changed;
}

}  // namespace

void LaunchState::prepare() {
  collect_locations(k.body, *this);
  std::vector<uint64_t> from(k.regs.size(), 0);
  uint64_t written = 0;
  // Loop-carried pointer registers need a second pass; a third confirms.
  for (int pass = 0; pass < 8 && propagate_provenance(k.body, from, written); ++pass) {
  }
  param_written.assign(k.params.size(), false);
  for (size_t i = 0; i < k.params.size(); ++i)
    param_written[i] = k.params[i].kind == ir::ParamKind::Pointer && (i >= 64 || (written >> i) & 1);
}

std::vector<Buffer*> LaunchState::written_buffers() const {
  std::vector<Buffer*> out;
  for (size_t i = 0; i < bufs.size(); ++i)
    if (bufs[i] && param_written[i] && std::find(out.begin(), out.end(), bufs[i]) == out.end()) out.push_back(bufs[i]);
  return out;
}

void LaunchState::enable_conflict_detection() {
  writer.clear();
  reader.clear();
  writer.resize(bufs.size());
  reader.resize(bufs.size());
  for (size_t i = 0; i < bufs.size(); ++i) {
    if (!bufs[i] || !param_written[i]) continue;
    size_t n = static_cast<size_t>(bufs[i]->extent());
    writer[i].reset(new std::atomic<uint32_t>[n]());
    reader[i].reset(new std::atomic<uint32_t>[n]());
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
  writer.clear();
  reader.clear();
}

void LaunchState::merge_logs(RunResult& r, Trace* t, int64_t budget) {
  int64_t used = 0;
  bool stopped = false;
  for (size_t i = 0; i < logs.size(); ++i) {
    ProgramLog* lg = logs[i].get();
    if (!lg) {
      if (t && !stopped && wants_trace(static_cast<int64_t>(i))) t->programs.push_back(ProgramTrace{pid_of(i), {}});
      continue;
    }
    r.oob_loads += lg->oob_loads;
    r.oob_stores += lg->oob_stores;
    for (auto& o : lg->oob)
      if (r.oob.size() < RunResult::kMaxOob) r.oob.push_back(std::move(o));
    for (auto& is : lg->issues) r.issues.push_back(std::move(is));
    r.printed += lg->printed;
    if (!t || stopped || !wants_trace(static_cast<int64_t>(i))) continue;
    if (!lg->traced || used + lg->trace_bytes > budget) {
      stopped = true;
      t->truncated = true;
      continue;
    }
    used += lg->trace_bytes;
    t->programs.push_back(ProgramTrace{lg->pid, std::move(lg->events)});
  }
  if (t) t->recorded_bytes = used;
  logs.clear();
}

// ---- Exec ------------------------------------------------------------------

Exec::Exec(LaunchState& L) : L_(L), regs_(L.k.regs.size()) {}

std::byte* Exec::reg(int r) {
  auto& p = regs_[r];
  if (!p) {
    const ir::Type& t = type(r);
    size_t bytes = static_cast<size_t>(ir::numel(t.shape)) * eval::elem_bytes(t);
    p.reset(new std::byte[std::max<size_t>(bytes, 16)]());
  }
  return p.get();
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
  block(L_.k.body);
  if (log_ && log_->empty()) log_.reset();
  return std::move(log_);
}

void Exec::issue(const ir::Instr& in, const std::string& message) {
  ProgramLog& lg = log();
  for (const RuntimeIssue& is : lg.issues)
    if (is.loc == in.loc && is.message == message) return;
  lg.issues.push_back(RuntimeIssue{pid_, message, in.loc});
}

void Exec::block(const ir::Block& b) {
  for (const ir::Instr& in : b.instrs) instr(in);
}

void Exec::instr(const ir::Instr& in) {
  using ir::Op;
  const int64_t n = in.dst >= 0 ? ir::numel(type(in.dst).shape) : 0;
  switch (in.op) {
    case Op::PtrParam: *as<eval::PtrVal>(in.dst) = eval::PtrVal{in.param_index, 0}; return;
    case Op::ScalarParam: {
      DType d = type(in.dst).dtype;
      if (is_float(d)) eval::from_double_into(d, reg(in.dst), 0, L_.floats[in.param_index]);
      else eval::constant(d, L_.ints[in.param_index], 0, reg(in.dst));
      return;
    }
    case Op::Const: eval::constant(type(in.dst).dtype, in.ival, in.fval, reg(in.dst)); return;
    case Op::Arange: {
      int32_t* o = as<int32_t>(in.dst);
      for (int64_t i = 0; i < n; ++i) o[i] = static_cast<int32_t>(in.ival + i);
      return;
    }
    case Op::ProgramId: *as<int32_t>(in.dst) = static_cast<int32_t>(pid_[in.axis]); return;
    case Op::NumPrograms: {
      int64_t g[3] = {L_.grid.x, L_.grid.y, L_.grid.z};
      *as<int32_t>(in.dst) = static_cast<int32_t>(g[in.axis]);
      return;
    }
    case Op::Copy:
    case Op::Reshape:
      if (in.dst != in.args[0])
        std::memcpy(reg(in.dst), reg(in.args[0]), static_cast<size_t>(n) * eval::elem_bytes(type(in.dst)));
      return;
    case Op::Cast: eval::cast(type(in.args[0]).dtype, type(in.dst).dtype, reg(in.args[0]), reg(in.dst), n); return;
    case Op::Bitcast: std::memcpy(reg(in.dst), reg(in.args[0]), static_cast<size_t>(n) * byte_size(type(in.dst).dtype)); return;
    case Op::PtrAdd: {
      const eval::PtrVal* p = as<eval::PtrVal>(in.args[0]);
      eval::PtrVal* o = as<eval::PtrVal>(in.dst);
      DType od = type(in.args[1]).dtype;
      const std::byte* off = reg(in.args[1]);
      if (od == DType::i32) {
        const int32_t* o32 = reinterpret_cast<const int32_t*>(off);
        for (int64_t i = 0; i < n; ++i) o[i] = eval::PtrVal{p[i].buf, p[i].off + o32[i]};
      } else {
        eval::dispatch(od, [&]<DType D>() {
          using S = typename eval::StorageOf<D>::type;
          if constexpr (is_int(D)) {
            const S* s = reinterpret_cast<const S*>(off);
            // Signed offsets sign-extend, unsigned ones zero-extend (u64
            // beyond 2^63 wraps, as a 64-bit address would).
            for (int64_t i = 0; i < n; ++i)
              o[i] = eval::PtrVal{p[i].buf, static_cast<int64_t>(static_cast<uint64_t>(p[i].off) + static_cast<uint64_t>(s[i]))};
          }
        });
      }
      return;
    }
    case Op::Where:
      eval::where(type(in.dst).dtype, as<uint8_t>(in.args[0]), reg(in.args[1]), reg(in.args[2]), reg(in.dst), n,
                  eval::elem_bytes(type(in.dst)));
      return;
    case Op::Fma: eval::fma(type(in.dst).dtype, reg(in.args[0]), reg(in.args[1]), reg(in.args[2]), reg(in.dst), n); return;
    case Op::Broadcast:
      eval::broadcast(type(in.args[0]).shape, type(in.dst).shape, eval::elem_bytes(type(in.dst)), reg(in.args[0]),
                      reg(in.dst));
      return;
    case Op::Permute:
      eval::permute(type(in.args[0]).shape, in.dims, eval::elem_bytes(type(in.dst)), reg(in.args[0]), reg(in.dst));
      return;
    case Op::Reduce:
      eval::reduce(in.reduce, type(in.args[0]).dtype, type(in.args[0]).shape, in.axis, in.propagate_nan,
                   reg(in.args[0]), reg(in.dst));
      if (traced_) {
        Event e;
        e.kind = EventKind::Reduce;
        e.loc = L_.loc_index.count(&in) ? L_.loc_index.at(&in) : -1;
        e.shape = type(in.args[0]).shape;
        e.axis = in.axis;
        e.op = ir::reduce_name(in.reduce);
        log().trace_bytes += Trace::event_bytes(e);
        log().events.push_back(std::move(e));
      }
      return;
    case Op::Dot:
      eval::dot(type(in.args[0]).dtype, type(in.dst).dtype, in.precision, type(in.args[0]).shape,
                type(in.args[1]).shape, reg(in.args[0]), reg(in.args[1]), in.has_acc ? reg(in.args[2]) : nullptr,
                reg(in.dst));
      if (traced_) {
        Event e;
        e.kind = EventKind::Dot;
        e.loc = L_.loc_index.count(&in) ? L_.loc_index.at(&in) : -1;
        e.shape = type(in.dst).shape;
        e.a_shape = type(in.args[0]).shape;
        e.b_shape = type(in.args[1]).shape;
        e.op = ir::precision_name(in.precision);
        log().trace_bytes += Trace::event_bytes(e);
        log().events.push_back(std::move(e));
      }
      return;
    case Op::Load:
    case Op::Store:
    case Op::AtomicAdd: memory(in); return;
    case Op::Print: print(in); return;
    case Op::Assert: {
      const uint8_t* c = as<uint8_t>(in.args[0]);
      int64_t m = ir::numel(type(in.args[0]).shape);
      for (int64_t i = 0; i < m; ++i)
        if (!c[i]) {
          issue(in, std::string("device_assert failed: ") + in.text);
          break;
        }
      return;
    }
    case Op::For: {
      int64_t lo = scalar_int(in.args[0]), hi = scalar_int(in.args[1]), step = scalar_int(in.args[2]);
      if (step == 0) {
        issue(in, "loop step is 0; the loop was skipped");
        return;
      }
      DType d = type(in.dst).dtype;
      for (int64_t i = lo; step > 0 ? i < hi : i > hi; i += step) {
        eval::constant(d, i, 0, reg(in.dst));
        block(*in.body);
      }
      return;
    }
    case Op::If:
      if (*as<uint8_t>(in.args[0])) block(*in.body);
      else if (in.else_body) block(*in.else_body);
      return;
    default: break;
  }
  if (ir::is_unary(in.op)) {
    eval::unary(in.op, type(in.args[0]).dtype, reg(in.args[0]), reg(in.dst), n);
    return;
  }
  if (ir::is_binary(in.op)) {
    eval::ArithFlags flags;
    eval::binary(in.op, type(in.args[0]).dtype, reg(in.args[0]), reg(in.args[1]), reg(in.dst), n, in.propagate_nan,
                 flags);
    if (flags.div_by_zero) issue(in, "integer division or remainder by zero (the result is 0)");
    if (flags.wide_shift) issue(in, "shift count negative or not below the bit width (the result is clamped)");
    return;
  }
  throw std::logic_error(std::string("interpreter: unhandled op ") + ir::op_name(in.op));
}

void Exec::print(const ir::Instr& in) {
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
    e.loc = L_.loc_index.count(&in) ? L_.loc_index.at(&in) : -1;
    e.shape = t0.shape;
    e.text = out.str();
    lg.trace_bytes += Trace::event_bytes(e);
    lg.events.push_back(std::move(e));
  }
}

}  // namespace tl
