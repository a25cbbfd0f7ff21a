// Loads, stores and atomics: every active lane is bounds-checked against its
// buffer; out-of-bounds lanes never touch memory (loads yield poison, stores
// are dropped) and are recorded with their program, lane and line.
#include <cstring>

#include "exec.h"

namespace tl {

namespace {

std::vector<int64_t> lane_coords(const ir::Shape& s, int64_t lane) {
  std::vector<int64_t> idx(s.size());
  for (int d = static_cast<int>(s.size()) - 1; d >= 0; --d) {
    idx[d] = lane % s[d];
    lane /= s[d];
  }
  return idx;
}

// Marks an element read by more than one program.
constexpr uint32_t kManyReaders = 0xffffffffu;

}  // namespace

void Exec::memory(const Step& s) {
  using ir::Op;
  const ir::Instr& in = *s.in;
  const bool is_load = in.op == Op::Load;
  const ir::Type& pt = type(in.args[0]);
  const int64_t n = ir::numel(pt.shape);
  const DType d = pt.dtype;
  const size_t es = static_cast<size_t>(byte_size(d));
  const eval::PtrVal* p = as<eval::PtrVal>(in.args[0]);
  const uint8_t* mask = nullptr;
  const std::byte* other = nullptr;
  const std::byte* value = nullptr;
  if (is_load) {
    if (in.has_mask) mask = as<uint8_t>(in.args[1]);
    if (in.has_other) other = reg(in.args[2]);
  } else {
    value = reg(in.args[1]);
    if (in.has_mask) mask = as<uint8_t>(in.args[2]);
  }
  std::byte* out = in.dst >= 0 ? reg(in.dst) : nullptr;

  Event* ev = nullptr;
  if (traced_) {
    ProgramLog& lg = log();
    lg.events.emplace_back();
    ev = &lg.events.back();
    ev->kind = is_load ? EventKind::Load : in.op == Op::Store ? EventKind::Store : EventKind::Atomic;
    ev->loc = s.loc;
    ev->shape = pt.shape;
    ev->has_other = in.has_other;
    ev->offsets.resize(static_cast<size_t>(n));
    ev->lanes.resize(static_cast<size_t>(n));
    if (!is_load && L_.record_values) ev->values.resize(static_cast<size_t>(n));
  }
  // The trace names the buffer of the first lane (a tile mixing buffers
  // through where() is rare; every lane is still checked against its own).
  if (ev && n > 0) {
    int buf = static_cast<int>(p[0].buf);
    int idx = 0;
    for (int i = 0; i < buf; ++i) idx += L_.bufs[i] != nullptr;
    ev->buffer = idx;
  }

  for (int64_t i = 0; i < n; ++i) {
    const eval::PtrVal pv = p[i];
    Buffer* b = L_.bufs[pv.buf];
    const bool active = !mask || mask[i];
    const bool in_bounds = pv.off >= 0 && pv.off < b->extent();
    if (ev) {
      ev->offsets[i] = pv.off;
      ev->lanes[i] = active ? (in_bounds ? LaneState::Active : LaneState::OutOfBounds)
                            : (in_bounds ? LaneState::Masked : LaneState::MaskedOutOfBounds);
      if (!is_load && L_.record_values) ev->values[i] = eval::to_double(d, value, i);
    }
    if (!active) {
      if (is_load) {
        if (other) std::memcpy(out + i * es, other + i * es, es);
        else std::memset(out + i * es, 0, es);  // tl:: defines 0 (SEMANTICS §9)
      } else if (out) {
        std::memset(out + i * es, 0, es);  // masked atomic lanes return 0
      }
      continue;
    }
    if (!in_bounds) {
      ProgramLog& lg = log();
      (is_load ? lg.oob_loads : lg.oob_stores)++;
      if (lg.oob.size() < RunResult::kMaxOob)
        lg.oob.push_back(OobAccess{pid_, !is_load, L_.names[pv.buf], i, lane_coords(pt.shape, i), pt.shape, pv.off,
                                   b->extent(), in.loc});
      if (out) eval::write_poison(d, out, i);
      continue;
    }
    std::byte* addr = b->data() + pv.off * static_cast<int64_t>(es);
    if (L_.detect_conflicts && L_.param_written[pv.buf]) {
      LaunchState::Shadow& sh = L_.shadows[worker_];
      uint32_t& w = sh.wrote[pv.buf][pv.off];
      uint32_t& r = sh.read[pv.buf][pv.off];
      // Within this worker: another program's write, or (for a write)
      // another program's read, of the same element is a conflict.
      if (w && w != me_) L_.conflict = true;
      if (is_load) r = (r && r != me_) ? kManyReaders : me_;
      else {
        if (r && r != me_) L_.conflict = true;
        w = me_;
      }
    }
    if (is_load) {
      if (es == 4) std::memcpy(out + i * 4, addr, 4);
      else std::memcpy(out + i * es, addr, es);
    } else if (in.op == Op::Store) {
      std::memcpy(addr, value + i * es, es);
    } else {
      // Atomic add: return the old value, write old + value (element dtype).
      std::memcpy(out + i * es, addr, es);
      eval::ArithFlags flags;
      eval::binary(Op::Add, d, addr, value + i * es, addr, 1, false, flags);
    }
  }
  if (ev) log().trace_bytes += Trace::event_bytes(*ev);
}

}  // namespace tl
