// Loads, stores and atomics: every active lane is bounds-checked against its
// buffer; out-of-bounds lanes never touch memory (loads yield poison, stores
// are dropped) and are recorded with their program, lane and line.
#include <cstring>
#include <type_traits>

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
// Set on a writer record when the write was an atomic (program ids stay
// below 2^31: the launch checks the grid).
constexpr uint32_t kAtomicWriter = 0x80000000u;

template <size_t ES>
inline void copy_elem(std::byte* dst, const std::byte* src) {
  std::memcpy(dst, src, ES);
}

// A memory op's pointer lanes: a materialized tile, or (fused, see
// exec_fuse.cpp) one base pointer plus a tile of offsets, added here as
// the pointer add would have (i32 offsets on int64, i64 ones wrapping).
struct DensePtrs {
  const eval::PtrVal* p;
  eval::PtrVal operator[](int64_t i) const { return p[i]; }
};
template <class O>
struct OffsetPtrs {
  int64_t buf, base;
  const O* off;
  eval::PtrVal operator[](int64_t i) const {
    if constexpr (sizeof(O) == 4) return eval::PtrVal{buf, base + off[i]};
    else return eval::PtrVal{buf, static_cast<int64_t>(static_cast<uint64_t>(base) + static_cast<uint64_t>(off[i]))};
  }
};

}  // namespace

void Exec::bind_buffers() {
  views_.assign(L_.bufs.size(), BufView{});
  spans_ = worker_ < static_cast<int>(L_.span_logs.size()) ? &L_.span_logs[worker_].spans : nullptr;
  for (size_t i = 0; i < L_.bufs.size(); ++i) {
    Buffer* b = L_.bufs[i];
    if (!b) continue;
    BufView& v = views_[i];
    v.data = b->data();
    v.extent = b->extent();
    if (L_.detect_conflicts && L_.param_written[i]) {
      if (worker_ < static_cast<int>(L_.shadows.size())) {
        v.wrote = L_.shadows[worker_].wrote[i].get();
        v.read = L_.shadows[worker_].read[i].get();
        if (L_.sync) {
          v.wclk = L_.shadows[worker_].wrote_clock[i].get();
          v.rclk = L_.shadows[worker_].read_clock[i].get();
        }
      } else if (worker_ < static_cast<int>(L_.span_logs.size())) {
        v.spans = true;
      }
    }
    if (b->tracks_writes()) v.written = b->written_map().data();
    if (i < L_.read_seen.size()) v.seen = L_.read_seen[i].get();
  }
}

void Exec::record_memory_event(const Step& s, const eval::PtrVal* p, const uint8_t* mask, const std::byte* value) {
  const ir::Instr& in = *s.in;
  const ir::Type& pt = type(in.args[0]);
  const bool is_load = in.op == ir::Op::Load;
  Event e;
  e.kind = is_load ? EventKind::Load : in.op == ir::Op::Store ? EventKind::Store : EventKind::Atomic;
  e.loc = s.loc;
  e.shape = pt.shape;
  e.has_other = in.has_other;
  const int64_t n = s.n;
  e.offsets.resize(static_cast<size_t>(n));
  e.lanes.resize(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    const bool active = !mask || mask[i];
    const bool in_bounds = static_cast<uint64_t>(p[i].off) < static_cast<uint64_t>(views_[p[i].buf].extent);
    e.offsets[i] = p[i].off;
    e.lanes[i] = active ? (in_bounds ? LaneState::Active : LaneState::OutOfBounds)
                        : (in_bounds ? LaneState::Masked : LaneState::MaskedOutOfBounds);
  }
  if (!is_load && L_.record_values) {
    e.values.resize(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) e.values[i] = eval::to_double(pt.dtype, value, i);
  }
  // The trace names the buffer of the first lane (a tile mixing buffers
  // through where() is rare; every lane is still checked against its own).
  if (n > 0) {
    int idx = 0;
    for (int64_t i = 0; i < p[0].buf; ++i) idx += L_.bufs[i] != nullptr;
    e.buffer = idx;
  }
  trace_event(std::move(e));
}

void Exec::out_of_bounds(const Step& s, int64_t lane, const eval::PtrVal& pv, bool is_store) {
  ProgramLog& lg = log();
  (is_store ? lg.oob_stores : lg.oob_loads)++;
  const ir::Shape& shape = type(s.in->args[0]).shape;
  if (lg.oob.size() < RunResult::kMaxOob)
    lg.oob.push_back(OobAccess{pid_, is_store, L_.names[pv.buf], lane, lane_coords(shape, lane), shape, pv.off,
                               views_[pv.buf].extent, s.in->loc});
  note(is_store ? FindingKind::OutOfBoundsStore : FindingKind::OutOfBoundsLoad, s, static_cast<int>(pv.buf), lane,
       shape, pv.off);
}

void Exec::note(FindingKind kind, const Step& s, int param, int64_t lane, const ir::Shape& tile, int64_t offset,
                int64_t other_linear, const BlockDetail& block) {
  // Block-pointer findings are kept apart per dim: each asks for its own
  // boundary_check entry, which the message names (the viewer shows it).
  std::string message;
  if (block.dim >= 0) {
    const std::string d = std::to_string(block.dim);
    message = std::string(s.op == ir::Op::Load ? "load" : "store") + " through a block pointer outside its shape on dim " +
              d + ", which is not boundary-checked; add boundary_check=(" + d + ",) to mask those lanes";
  }
  record(kind, s, param, message, lane, tile, offset, other_linear, block);
  if (L_.strict) throw StopAtFinding{};
}

void Exec::note_value(FindingKind kind, const Step& s, int64_t lane, const ir::Shape& tile, const std::string& message,
                      const std::function<std::string()>& detail) {
  if (FindingExample* e = record(kind, s, -1, message, lane, tile, 0, -1, BlockDetail{})) e->detail = detail();
  if (L_.strict) throw StopAtFinding{};
}

FindingExample* Exec::record(FindingKind kind, const Step& s, int param, const std::string& message, int64_t lane,
                             const ir::Shape& tile, int64_t offset, int64_t other_linear, const BlockDetail& block) {
  ProgramLog& lg = log();
  int idx = step_index(s);
  RawFinding* f = nullptr;
  for (RawFinding& r : lg.findings)
    if (r.kind == kind && r.step == idx && r.param == param && r.message == message) f = &r;
  if (!f) {
    lg.findings.push_back(RawFinding{kind, idx, param, 0, {}, message, s.in->loc});
    f = &lg.findings.back();
  }
  ++f->lanes;
  FindingExample* kept = nullptr;
  if (f->examples.size() < 4) {
    FindingExample e;
    e.pid = pid_;
    e.lane = lane;
    if (lane >= 0) e.lane_index = lane_coords(tile, lane);
    e.offset = offset;
    if (other_linear >= 0) e.other_pid = L_.pid_of(other_linear);
    e.dim = block.dim;
    e.index = block.index;
    e.extent = block.extent;
    e.event = traced_ && !lg.events.empty() ? static_cast<int>(lg.events.size()) - 1 : -1;
    f->examples.push_back(std::move(e));
    kept = &f->examples.back();
  }
  return kept;
}

void Exec::check_block_shape(const Step& s, const eval::PtrVal* p, const uint8_t* mask) {
  const ir::Instr& in = *s.in;
  const ir::Shape& tile = type(in.args[0]).shape;
  const size_t own = ir::operand_count(in);
  const size_t checks = in.shape_dims.size();
  int64_t offs[kMaxPlanRank], exts[kMaxPlanRank], strides[kMaxPlanRank];
  for (size_t k = 0; k < checks && k < static_cast<size_t>(kMaxPlanRank); ++k) {
    offs[k] = *as<int64_t>(in.args[own + 2 * k]);
    exts[k] = *as<int64_t>(in.args[own + 2 * k + 1]);
    // Row-major stride of the checked dim, to read a lane's index on it.
    const int d = in.shape_dims[k];
    strides[k] = 1;
    for (size_t j = static_cast<size_t>(d) + 1; j < tile.size(); ++j) strides[k] *= tile[j];
  }
  for (int64_t i = 0; i < s.n; ++i) {
    if (mask && !mask[i]) continue;  // boundary-checked away: never accessed
    for (size_t k = 0; k < checks && k < static_cast<size_t>(kMaxPlanRank); ++k) {
      const int d = in.shape_dims[k];
      const int64_t index = offs[k] + (i / strides[k]) % tile[d];
      if (index >= 0 && index < exts[k]) continue;
      // One report per lane, for its first dim outside.
      note(FindingKind::BlockPtrOutOfShape, s, static_cast<int>(p[i].buf), i, tile, p[i].off, -1,
           BlockDetail{d, index, exts[k]});
      break;
    }
  }
}

template <size_t ES, ir::Op OP, class Ptrs>
void Exec::memory_lanes(const Step& s, const Ptrs& p) {
  using ir::Op;
  constexpr bool kLoad = OP == Op::Load;
  constexpr bool kDense = std::is_same_v<Ptrs, DensePtrs>;
  constexpr bool kAtomic = OP == Op::AtomicAdd || OP == Op::AtomicRMW;
  const ir::Instr& in = *s.in;
  const int64_t n = s.n;
  const uint8_t* mask = nullptr;
  const std::byte* other = nullptr;
  const std::byte* value = nullptr;
  if constexpr (kLoad) {
    if (in.has_mask) mask = as<uint8_t>(in.args[1]);
    if (in.has_other) other = reg(in.args[2]);
  } else {
    value = reg(in.args[1]);
    if (in.has_mask) mask = as<uint8_t>(in.args[2]);
  }
  // Cas's expected values: its last operand.
  const std::byte* cmp = OP == Op::AtomicRMW && in.atomic == ir::AtomicKind::Cas ? reg(in.args.back()) : nullptr;
  std::byte* out = in.dst >= 0 ? reg(in.dst) : nullptr;
  if constexpr (kDense) {
    // (Fused pointers never come here traced or through a block pointer.)
    if (traced_) record_memory_event(s, p.p, mask, value);
    if (!in.shape_dims.empty()) check_block_shape(s, p.p, mask);
  }
  // Store lanes' keys while they rise; see store_keys_.
  uint64_t last_key = 0;
  bool keys_rising = true, have_key = false;
  auto key_of = [](const eval::PtrVal& pv) { return (static_cast<uint64_t>(pv.buf) << 48) | static_cast<uint64_t>(pv.off); };
  const ir::Shape& tile = type(in.args[0]).shape;
  // Taint in: the stored values' (stores); out: the loaded lanes' (loads).
  const uint8_t* value_taint = !kLoad && L_.track_values && tainted(in.args[1]) ? taint(in.args[1]) : nullptr;
  const uint8_t* other_taint = kLoad && other && tainted(in.args[2]) ? taint(in.args[2]) : nullptr;
  uint8_t* out_taint = nullptr;
  if (in.dst >= 0) clear_taint(in.dst);
  auto mark = [&](int64_t i, uint8_t bits) {
    if (!L_.track_values || !kLoad || !bits) return;
    if (!out_taint) {
      out_taint = taint(in.dst);
      std::memset(out_taint, 0, static_cast<size_t>(n));
    }
    out_taint[i] = bits;
  };

  // An active, in-bounds lane: conflict records, the access itself, and the
  // buffer's written map.
  auto access = [&](int64_t i, const eval::PtrVal& pv, const BufView& bv) {
    if (bv.spans) {
      // A parallel run: the sweep after it compares the programs' spans.
      log_span(pv.buf, pv.off, pv.off + 1, !kLoad);
    } else if (bv.wclk) {
      // Synchronization may order the two accesses (exec_sync.cpp).
      ordered_access(kLoad ? MemAccess::Load : kAtomic ? MemAccess::Atomic : MemAccess::Store, s, i, pv, bv);
    } else if (bv.wrote) {
      // Another program's write, or (for a write) another program's read,
      // of the same element: their order on a GPU is undefined. Atomics
      // may meet each other freely, but not a plain store or load.
      uint32_t& w = bv.wrote[pv.off];
      uint32_t unread = 0;  // a buffer the kernel never loads keeps no read records
      uint32_t& r = bv.read ? bv.read[pv.off] : unread;
      const uint32_t writer = w & ~kAtomicWriter;
      const bool clash = kAtomic ? (w && !(w & kAtomicWriter) && writer != me_) : (w && writer != me_);
      if (clash) {
        if (L_.detect_details)
          note(kLoad ? FindingKind::ReadWriteRace : FindingKind::WriteConflict, s, static_cast<int>(pv.buf), i, tile,
               pv.off, static_cast<int64_t>(writer) - 1);
        else
          L_.conflict = true;
      }
      if constexpr (kLoad) {
        r = (r && r != me_) ? kManyReaders : me_;
      } else {
        if (r && r != me_) {
          if (L_.detect_details)
            note(FindingKind::ReadWriteRace, s, static_cast<int>(pv.buf), i, tile, pv.off,
                 r == kManyReaders ? -1 : static_cast<int64_t>(r) - 1);
          else
            L_.conflict = true;
        }
        if constexpr (kAtomic) {
          if (!w || (w & kAtomicWriter)) w = me_ | kAtomicWriter;
        } else {
          w = me_;
        }
      }
    }
    std::byte* addr = bv.data + pv.off * static_cast<int64_t>(ES);
    if constexpr (kLoad) {
      if (bv.seen) mark_read(bv.seen, pv.off);
      if (bv.written && !bv.written[pv.off]) note(FindingKind::UninitializedRead, s, static_cast<int>(pv.buf), i, tile, pv.off);
      copy_elem<ES>(out + i * ES, addr);
      if (coop_) observe(MemAccess::Load, pv, addr, nullptr, nullptr, ES);
    } else if constexpr (OP == Op::Store) {
      if (bv.wrote || bv.spans) {
        // Two active lanes of this store on one element: the GPU keeps
        // either; tl:: keeps the last lane (row-major) and flags it.
        const uint64_t key = key_of(pv);
        bool repeat = false;
        if (keys_rising && (!have_key || key > last_key)) {
          last_key = key;
          have_key = true;
        } else {
          if (keys_rising) {
            // The first key that does not rise: collect the earlier lanes'.
            keys_rising = false;
            store_keys_.clear();
            for (int64_t j = 0; j < i; ++j)
              if ((!mask || mask[j]) && static_cast<uint64_t>(p[j].off) < static_cast<uint64_t>(views_[p[j].buf].extent))
                store_keys_.insert(key_of(p[j]));
          }
          repeat = !store_keys_.insert(key).second;
        }
        if (repeat)
          note(FindingKind::WriteConflict, s, static_cast<int>(pv.buf), i, tile, pv.off, static_cast<int64_t>(me_) - 1);
      }
      copy_elem<ES>(addr, value + i * ES);
      if (bv.written) bv.written[pv.off] = 1;
      if (coop_) observe(MemAccess::Store, pv, addr, nullptr, nullptr, ES);
    } else if constexpr (OP == Op::AtomicAdd) {
      // Atomic add: return the old value, write old + value (element dtype).
      if (bv.written && !bv.written[pv.off]) note(FindingKind::UninitializedRead, s, static_cast<int>(pv.buf), i, tile, pv.off);
      copy_elem<ES>(out + i * ES, addr);
      eval::ArithFlags flags;
      eval::binary(Op::Add, s.dtype, addr, value + i * ES, addr, 1, false, flags);
      if (bv.written) bv.written[pv.off] = 1;
      if (L_.sync) atomic_lane_order(s, pv, true);
      if (coop_) observe(MemAccess::Atomic, pv, addr, out + i * ES, nullptr, ES);
    } else {
      // The other read-modify-writes. An exchange does not use the old
      // value to compute the new one, so it may initialize an element.
      if (bv.written && !bv.written[pv.off] && in.atomic != ir::AtomicKind::Xchg)
        note(FindingKind::UninitializedRead, s, static_cast<int>(pv.buf), i, tile, pv.off);
      eval::atomic_rmw(in.atomic, s.dtype, addr, value + i * ES, cmp ? cmp + i * ES : nullptr, out + i * ES);
      if (bv.written) bv.written[pv.off] = 1;
      // A compare-and-swap that found another value wrote nothing.
      const std::byte* expected = cmp ? cmp + i * ES : nullptr;
      if (L_.sync) atomic_lane_order(s, pv, !expected || std::memcmp(out + i * ES, expected, ES) == 0);
      if (coop_) observe(MemAccess::Atomic, pv, addr, out + i * ES, expected, ES);
    }
  };

  // Fast path for the common case: every lane in one buffer, no tainted
  // values to check, the untracked case without any bookkeeping. It stops
  // at the first lane that needs more (another buffer, out of bounds) and
  // the general loop takes over there.
  int64_t first_general = 0;
  if (n > 0 && !value_taint && !other_taint && !kAtomic) {
    const int64_t buf0 = p[0].buf;
    const BufView& b0 = views_[buf0];
    const uint64_t extent = static_cast<uint64_t>(b0.extent);
    // Lanes [i, end) active, in buf0, at consecutive elements from off0:
    // a row of a tile. Such runs move with one memcpy (most loads and
    // stores of real kernels are rows of contiguous elements).
    auto run_end = [&](const Ptrs& ptrs, const uint8_t* m, int64_t i, int64_t off0) {
      int64_t j = i + 1;
      if constexpr (std::is_same_v<Ptrs, OffsetPtrs<int32_t>>) {
        // Fused i32 offsets: eight lanes at a time, branch-free inside (a
        // tile's row is mostly tens of lanes). The offsets are compared
        // in i32, which is exact while first + n stays below 2^31.
        const int32_t* off = ptrs.off;
        const int64_t first = off[i];
        if (first + n <= INT32_MAX) {
          while (j + 8 <= n) {
            if (m) {
              uint64_t bytes;
              std::memcpy(&bytes, m + j, 8);
              if ((bytes - 0x0101010101010101ull) & ~bytes & 0x8080808080808080ull) break;  // a zero byte
            }
            const int32_t want = static_cast<int32_t>(first + (j - i));
            int32_t differ = 0;
            for (int t = 0; t < 8; ++t) differ |= off[j + t] ^ (want + t);
            if (differ) break;
            j += 8;
          }
        }
      }
      while (j < n && (!m || m[j])) {
        const eval::PtrVal q = ptrs[j];
        if (q.buf != buf0 || q.off != off0 + (j - i)) break;
        ++j;
      }
      return j;
    };
    auto fast = [&]<bool kTracked>() {
      int64_t i = 0;
      for (; i < n; ++i) {
        if (mask && !mask[i]) {
          if constexpr (kLoad) {
            if (other) {
              copy_elem<ES>(out + i * ES, other + i * ES);
            } else {
              std::memset(out + i * ES, 0, ES);
              mark(i, kTaintUndefined);
            }
          }
          continue;
        }
        const eval::PtrVal pv = p[i];
        if (pv.buf != buf0 || static_cast<uint64_t>(pv.off) >= extent) break;
        if constexpr (!kTracked) {
          const int64_t j = run_end(p, mask, i, pv.off);
          if (j - i > 1 && static_cast<uint64_t>(pv.off + (j - i)) <= extent) {
            const size_t bytes = static_cast<size_t>(j - i) * ES;
            if constexpr (kLoad) std::memcpy(out + i * ES, b0.data + pv.off * static_cast<int64_t>(ES), bytes);
            else std::memcpy(b0.data + pv.off * static_cast<int64_t>(ES), value + i * ES, bytes);
            i = j - 1;
            continue;
          }
        }
        if constexpr (kTracked) access(i, pv, b0);
        else if constexpr (kLoad) copy_elem<ES>(out + i * ES, b0.data + pv.off * static_cast<int64_t>(ES));
        else copy_elem<ES>(b0.data + pv.off * static_cast<int64_t>(ES), value + i * ES);
      }
      return i;
    };
    // The common tracked store, inline: a fresh element (no other
    // program's write or read), a key above the last. Anything else leaves
    // lane i to the general loop below, untouched. Everything it reads is
    // copied to locals first: the byte stores to the written map may alias
    // any memory, which would reload every field on every lane.
    auto store_fast = [&]() {
      const Ptrs ptrs = p;
      uint32_t* const wrote = b0.wrote;
      const uint32_t* const read = b0.read;
      const bool spans = b0.spans;
      // The run of consecutive elements stored so far (spans only), and
      // the runs before it as rows of one 2-D span (a tile's rows, logged
      // as one span when a run breaks the pattern and at the end).
      int64_t run_lo = 0, run_hi = -1;
      LaunchState::Span rows{0, 0, 0, me_, static_cast<uint32_t>(buf0), 0, true};
      auto add_row = [&](int64_t lo, int64_t hi) {
        if (rows.add_row(lo, hi)) return;
        if (rows.rows > 0) log_rows(rows);
        rows.lo = lo;
        rows.hi = hi;
        rows.rows = 1;
      };
      auto extend_run = [&](int64_t off, int64_t len) {
        if (off == run_hi) {
          run_hi += len;
          return;
        }
        if (run_hi >= 0) add_row(run_lo, run_hi);
        run_lo = off;
        run_hi = off + len;
      };
      uint8_t* const written = b0.written;
      std::byte* const data = b0.data;
      const std::byte* const val = value;
      const uint8_t* const m = mask;
      const uint32_t me = me_;
      const bool rising = keys_rising;
      bool have = have_key;
      uint64_t last = last_key;
      int64_t i = 0;
      for (; i < n; ++i) {
        if (m && !m[i]) continue;
        const eval::PtrVal pv = ptrs[i];
        if (pv.buf != buf0 || static_cast<uint64_t>(pv.off) >= extent) break;
        if (spans && !read) {
          // A row of fresh elements above the last key: one memcpy, one
          // memset of the written map, one span.
          const int64_t j = run_end(ptrs, m, i, pv.off);
          const int64_t len = j - i;
          if (len > 1 && static_cast<uint64_t>(pv.off + len) <= extent && rising && (!have || key_of(pv) > last)) {
            std::memcpy(data + pv.off * static_cast<int64_t>(ES), val + i * ES, static_cast<size_t>(len) * ES);
            if (written) std::memset(written + pv.off, 1, static_cast<size_t>(len));
            extend_run(pv.off, len);
            last = key_of(eval::PtrVal{buf0, pv.off + len - 1});
            have = true;
            i = j - 1;
            continue;
          }
        }
        if (wrote || spans) {
          if (wrote) {
            const uint32_t w = wrote[pv.off];
            if ((w && w != me) || (read && read[pv.off] && read[pv.off] != me)) break;
          }
          const uint64_t key = key_of(pv);
          if (!rising || (have && key <= last)) break;
          if (wrote) {
            wrote[pv.off] = me;
          } else {
            extend_run(pv.off, 1);
          }
          last = key;
          have = true;
        }
        copy_elem<ES>(data + pv.off * static_cast<int64_t>(ES), val + i * ES);
        if (written) written[pv.off] = 1;
      }
      if (run_hi >= 0) add_row(run_lo, run_hi);
      if (rows.rows > 0) log_rows(rows);
      last_key = last;
      have_key = have;
      return i;
    };
    if constexpr (OP == Op::Store) {
      if (!b0.seen && !b0.wclk && (b0.wrote || b0.written || b0.spans)) first_general = store_fast();
      else
        first_general = b0.wrote || b0.written || b0.seen || b0.spans ? fast.template operator()<true>()
                                                                      : fast.template operator()<false>();
    } else {
      first_general = b0.wrote || b0.written || b0.seen || b0.spans ? fast.template operator()<true>()
                                                                    : fast.template operator()<false>();
    }
  }

  for (int64_t i = first_general; i < n; ++i) {
    const eval::PtrVal pv = p[i];
    const BufView& bv = views_[pv.buf];
    if (mask && !mask[i]) {
      if constexpr (kLoad) {
        if (other) {
          copy_elem<ES>(out + i * ES, other + i * ES);
          if (other_taint) mark(i, other_taint[i]);
        } else {
          std::memset(out + i * ES, 0, ES);  // tl:: defines 0 (SEMANTICS §9)
          mark(i, kTaintUndefined);          // a GPU leaves it undefined
        }
      } else if constexpr (kAtomic) {
        std::memset(out + i * ES, 0, ES);  // masked atomic lanes return 0
      }
      continue;
    }
    if (static_cast<uint64_t>(pv.off) >= static_cast<uint64_t>(bv.extent)) {
      out_of_bounds(s, i, pv, !kLoad);
      if (out) eval::write_poison(s.dtype, out, i);
      mark(i, kTaintPoison);
      continue;
    }
    if (value_taint && value_taint[i]) {
      if (value_taint[i] & kTaintUndefined) note(FindingKind::UndefinedValueUsed, s, static_cast<int>(pv.buf), i, tile, pv.off);
      if (value_taint[i] & kTaintPoison) note(FindingKind::PoisonStored, s, static_cast<int>(pv.buf), i, tile, pv.off);
    }
    access(i, pv, bv);
  }
  if (out_taint) tainted_[in.dst] = 1;
  if constexpr (kAtomic)
    if (L_.sync) end_atomic_order();
  // i1 in memory is a byte: anything nonzero reads as true (SEMANTICS §9).
  if (kLoad && s.dtype == DType::i1)
    for (int64_t i = 0; i < n; ++i) out[i] = std::byte{out[i] != std::byte{0}};
}

template <ir::Op OP>
void Exec::memory_op(const Step& s) {
  auto lanes = [&](const auto& ptrs) {
    switch (s.elem) {
      case 1: memory_lanes<1, OP>(s, ptrs); return;
      case 2: memory_lanes<2, OP>(s, ptrs); return;
      case 4: memory_lanes<4, OP>(s, ptrs); return;
      default: memory_lanes<8, OP>(s, ptrs); return;
    }
  };
  if (s.vptr_off < 0 || traced_) {
    lanes(DensePtrs{s.vptr_off < 0 ? as<eval::PtrVal>(s.a[0]) : materialize_pointers(s)});
    return;
  }
  const eval::PtrVal base = *as<eval::PtrVal>(s.vptr_base);
  if (s.vptr_off64) lanes(OffsetPtrs<int64_t>{base.buf, base.off, as<int64_t>(s.vptr_off)});
  else lanes(OffsetPtrs<int32_t>{base.buf, base.off, as<int32_t>(s.vptr_off)});
}

const eval::PtrVal* Exec::materialize_pointers(const Step& s) {
  // The tile the fused broadcast and pointer add would have left in the
  // pointer register (exec_fuse.cpp guarantees nothing else wrote it).
  const eval::PtrVal base = *as<eval::PtrVal>(s.vptr_base);
  eval::PtrVal* out = as<eval::PtrVal>(s.a[0]);
  if (s.vptr_off64) {
    const OffsetPtrs<int64_t> p{base.buf, base.off, as<int64_t>(s.vptr_off)};
    for (int64_t i = 0; i < s.n; ++i) out[i] = p[i];
  } else {
    const OffsetPtrs<int32_t> p{base.buf, base.off, as<int32_t>(s.vptr_off)};
    for (int64_t i = 0; i < s.n; ++i) out[i] = p[i];
  }
  return out;
}

void Exec::memory(const Step& s) {
  switch (s.op) {
    case ir::Op::Load: memory_op<ir::Op::Load>(s); return;
    case ir::Op::Store: memory_op<ir::Op::Store>(s); return;
    case ir::Op::AtomicRMW: memory_op<ir::Op::AtomicRMW>(s); return;
    default: memory_op<ir::Op::AtomicAdd>(s); return;
  }
}

}  // namespace tl
