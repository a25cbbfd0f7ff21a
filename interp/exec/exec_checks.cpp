// The value checks: integer overflow in index arithmetic, shift
// counts out of range, conversions that change a value, and inputs that no
// program read. All of them stay in bounds, so the memory checks of
// exec_memory.cpp never see them; each lane is reported with its values.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <cstdio>
#include <type_traits>
#include <utility>

#include "exec.h"

namespace tl {

namespace {

// The ops through which a wrapped value still lands in a pointer offset:
// sums, products, quotients, shifts (fixed-point index math: (i * s) >> 16),
// shapes, selections. Bit mixing (& | ^) and % stop the walk: hash
// arithmetic wraps on purpose and ends in a mask or a modulo before it
// indexes anything, so its wraps are not bugs.
bool carries_index(ir::Op op) {
  using ir::Op;
  switch (op) {
    case Op::Add: case Op::Sub: case Op::Mul: case Op::Shl: case Op::Shr: case Op::Div: case Op::Neg: case Op::Abs:
    case Op::Maximum: case Op::Minimum: case Op::Copy: case Op::Reshape: case Op::Broadcast: case Op::Permute:
    case Op::Cast: case Op::Where: return true;
    default: return false;
  }
}

bool mark_index_regs(const ir::Block& b, const ir::Kernel& k, std::vector<bool>& index) {
  bool changed = false;
  auto mark = [&](int r) {
    if (r >= 0 && !index[r] && !k.regs[r].type.is_ptr && is_int(k.regs[r].type.dtype)) {
      index[r] = true;
      changed = true;
    }
  };
  for (const ir::Instr& in : b.instrs) {
    if (in.op == ir::Op::PtrAdd) mark(in.args[1]);
    if (in.dst >= 0 && index[in.dst] && carries_index(in.op)) {
      if (in.op == ir::Op::Where) {
        mark(in.args[1]);
        mark(in.args[2]);
      } else {
        for (int a : in.args) mark(a);
      }
    }
    if (in.cond_body) changed |= mark_index_regs(*in.cond_body, k, index);
    if (in.body) changed |= mark_index_regs(*in.body, k, index);
    if (in.else_body) changed |= mark_index_regs(*in.else_body, k, index);
  }
  return changed;
}

const char* op_words(ir::Op op) {
  switch (op) {
    case ir::Op::Add: return "add";
    case ir::Op::Sub: return "subtract";
    case ir::Op::Mul: return "multiply";
    case ir::Op::Shl: return "left shift";
    case ir::Op::Shr: return "right shift";
    default: return ir::op_name(op);
  }
}

const char* op_symbol(ir::Op op) {
  switch (op) {
    case ir::Op::Add: return "+";
    case ir::Op::Sub: return "-";
    case ir::Op::Mul: return "*";
    case ir::Op::Shl: return "<<";
    default: return ">>";
  }
}

std::string num(double v) {
  if (v != v) return "NaN";
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

template <class T>
std::string int_str(T v) {
  if constexpr (std::is_signed_v<T>) return std::to_string(static_cast<long long>(v));
  else return std::to_string(static_cast<unsigned long long>(v));
}

}  // namespace

void LaunchState::mark_index_registers() {
  index_reg.assign(k.regs.size(), false);
  // Loop-carried registers are written after they are read: repeat until
  // nothing changes (each pass marks at least one more register).
  for (size_t pass = 0; pass <= k.regs.size() && mark_index_regs(k.body, k, index_reg); ++pass) {
  }
}

void LaunchState::prepare_read_tracking() {
  read_seen.clear();
  read_seen.resize(bufs.size());
  if (!check_unread_inputs) return;
  for (size_t p = 0; p < bufs.size(); ++p) {
    if (!bufs[p] || param_written[p]) continue;
    // An input bound to a written parameter too is an output in disguise;
    // bound to another read parameter, the two share one map.
    bool skip = false;
    for (size_t q = 0; q < bufs.size(); ++q) {
      if (q == p || bufs[q] != bufs[p]) continue;
      if (param_written[q]) skip = true;
      if (q < p && read_seen[q]) {
        read_seen[p] = read_seen[q];
        skip = true;
      }
    }
    if (skip || bufs[p]->extent() == 0) continue;
    read_seen[p] = std::shared_ptr<uint8_t[]>(new uint8_t[static_cast<size_t>(bufs[p]->extent())]());
  }
}

void LaunchState::add_never_read(RunResult& r) const {
  if (r.stopped) return;  // a strict stop leaves the rest unread by design
  for (size_t p = 0; p < bufs.size(); ++p) {
    const uint8_t* seen = read_seen.size() > p ? read_seen[p].get() : nullptr;
    if (!seen) continue;
    bool shared = false;  // one finding per buffer, even when bound twice
    for (size_t q = 0; q < p; ++q) shared |= read_seen[q].get() == seen;
    if (shared) continue;
    const Buffer& b = *bufs[p];
    const std::vector<int64_t>& shape = b.shape();
    const std::vector<int64_t>& strides = b.strides();
    const size_t rank = shape.size();
    int64_t count = 1;
    for (int64_t d : shape) count *= d;
    // Walk every element by index (strided buffers have gaps that are no
    // element), keeping the bounding box of the unread ones.
    std::vector<int64_t> idx(rank, 0), lo(rank, std::numeric_limits<int64_t>::max()), hi(rank, -1);
    Finding f;
    f.kind = FindingKind::InputNeverRead;
    f.buffer = buffer_index(static_cast<int>(p));
    for (int64_t e = 0; e < count; ++e) {
      int64_t off = 0;
      for (size_t d = 0; d < rank; ++d) off += idx[d] * strides[d];
      if (!seen[off]) {
        ++f.lanes;
        for (size_t d = 0; d < rank; ++d) {
          lo[d] = std::min(lo[d], idx[d]);
          hi[d] = std::max(hi[d], idx[d]);
        }
        if (f.examples.size() < 5) {
          FindingExample ex;
          ex.pid = {-1, -1, -1};
          ex.offset = off;
          f.examples.push_back(ex);
        }
      }
      for (size_t d = rank; d-- > 0;) {  // next index, row-major
        if (++idx[d] < shape[d]) break;
        idx[d] = 0;
      }
    }
    if (f.lanes == 0) continue;
    // "x[:, 192:200]" when the unread elements fill their bounding box,
    // "within x[0:4, 100:200]" when they do not.
    int64_t box = 1;
    std::string region;
    for (size_t d = 0; d < rank; ++d) {
      box *= hi[d] - lo[d] + 1;
      region += d ? ", " : "";
      region += lo[d] == 0 && hi[d] == shape[d] - 1 ? ":" : std::to_string(lo[d]) + ":" + std::to_string(hi[d] + 1);
    }
    f.message = (box == f.lanes ? "" : "within ") + names.at(p) + "[" + region + "]";
    // Point at the kernel's first load that may read this buffer.
    for (const Step& s : plan.steps)
      if (s.op == ir::Op::Load && s.loc >= 0 && (p >= 64 || (provenance[s.a[0]] >> p) & 1)) {
        f.loc = s.loc;
        break;
      }
    r.findings.push_back(std::move(f));
  }
}

void Exec::mark_read(uint8_t* seen, int64_t off) {
  // Programs on several threads may mark one element: a relaxed atomic
  // store keeps that defined and costs a plain byte store on x86.
  std::atomic_ref<uint8_t>(seen[off]).store(1, std::memory_order_relaxed);
}

namespace {

// Per lane of a signed integer op: did it wrap? `report(lane, detail)`.
template <class S, class F>
void overflow_lanes(ir::Op op, const S* a, const S* b, int64_t n, F&& report) {
  using U = std::make_unsigned_t<S>;
  constexpr int width = sizeof(S) * 8;
  for (int64_t i = 0; i < n; ++i) {
    S wrapped{};
    bool wraps = false;
    switch (op) {
      case ir::Op::Add: wraps = __builtin_add_overflow(a[i], b[i], &wrapped); break;
      case ir::Op::Sub: wraps = __builtin_sub_overflow(a[i], b[i], &wrapped); break;
      case ir::Op::Mul: wraps = __builtin_mul_overflow(a[i], b[i], &wrapped); break;
      default: {  // Shl; out-of-range counts are ShiftOutOfRange's business
        if (b[i] < 0 || b[i] >= width) continue;
        wrapped = static_cast<S>(static_cast<U>(a[i]) << b[i]);
        wraps = (wrapped >> b[i]) != a[i];
      }
    }
    if (!wraps) continue;
    report(i, [&] {
      std::string exact;
      if constexpr (sizeof(S) < 8) {
        const int64_t x = a[i], y = b[i];
        const int64_t v = op == ir::Op::Add ? x + y : op == ir::Op::Sub ? x - y : op == ir::Op::Mul ? x * y : x * (int64_t{1} << y);
        exact = " = " + std::to_string(v);
      }
      return int_str(a[i]) + " " + op_symbol(op) + " " + int_str(b[i]) + exact + ", wraps to " + int_str(wrapped);
    });
  }
}

}  // namespace

namespace {

// Does any lane of the op wrap? One branch-free pass (it vectorizes): the
// common case, no lane wraps, then costs about an instruction per lane,
// and the per-lane reporting below runs only when one does.
template <ir::Op OP, class S, class A, class B>
bool any_wraps(A a, B b, int64_t n) {
  using U = std::make_unsigned_t<S>;
  if constexpr (OP == ir::Op::Add || OP == ir::Op::Sub) {
    // In unsigned arithmetic, a sum wraps exactly when both operands have
    // one sign and the result the other (a difference: when the operands'
    // signs differ and the result's differs from a's). Plain integer ops
    // of one width: this loop vectorizes, where the overflow builtins did
    // not (the check was 8 instructions a lane of an elementwise kernel).
    U bad = 0;
    for (int64_t i = 0; i < n; ++i) {
      const U x = static_cast<U>(a(i)), y = static_cast<U>(b(i));
      const U r = OP == ir::Op::Add ? static_cast<U>(x + y) : static_cast<U>(x - y);
      bad |= OP == ir::Op::Add ? static_cast<U>((r ^ x) & (r ^ y)) : static_cast<U>((x ^ y) & (x ^ r));
    }
    return (bad >> (sizeof(U) * 8 - 1)) != 0;
  } else {
    bool any = false;
    for (int64_t i = 0; i < n; ++i) {
      S r;
      any |= __builtin_mul_overflow(a(i), b(i), &r);
    }
    return any;
  }
}

// Lane i of a tile, or one value for every lane.
template <class S>
auto lanes_of(const S* p) {
  return [p](int64_t i) { return p[i]; };
}
template <class S>
auto same_value(S v) {
  return [v](int64_t) { return v; };
}

template <class S, class A, class B>
bool may_wrap_lanes(ir::Op op, A a, B b, int64_t n) {
  switch (op) {
    case ir::Op::Add: return any_wraps<ir::Op::Add, S>(a, b, n);
    case ir::Op::Sub: return any_wraps<ir::Op::Sub, S>(a, b, n);
    case ir::Op::Mul: return any_wraps<ir::Op::Mul, S>(a, b, n);
    default: return true;  // Shl: the per-lane pass decides
  }
}

template <class S>
bool may_wrap(ir::Op op, const S* a, const S* b, int64_t n) {
  return may_wrap_lanes<S>(op, lanes_of(a), lanes_of(b), n);
}

}  // namespace

bool Exec::index_may_wrap(const Step& s) {
  return eval::dispatch(s.dtype, [&]<DType D>() {
    using S = typename eval::StorageOf<D>::type;
    if constexpr (is_int(D) && D != DType::i1 && std::is_signed_v<S>) return may_wrap<S>(s.op, as<S>(s.a[0]), as<S>(s.a[1]), s.n);
    else return false;
  });
}

bool Exec::rows_may_wrap(const Step& s, const eval::RowOperand* ops) {
  return eval::dispatch(s.dtype, [&]<DType D>() {
    using S = typename eval::StorageOf<D>::type;
    if constexpr (is_int(D) && D != DType::i1 && std::is_signed_v<S>) {
      const int64_t cols = s.cols;
      const S* extremes_of = nullptr;
      S extremes[2] = {0, 0};
      for (int64_t r = 0; r < s.rows; ++r) {
        const S* row[2];
        for (int k = 0; k < 2; ++k)
          row[k] = static_cast<const S*>(ops[k].data) + (ops[k].row_off ? ops[k].row_off[r] : r * cols);
        // The four cases of binary_rows: each operand a row or one value.
        bool wraps;
        if (ops[0].col_step && ops[1].col_step) {
          wraps = may_wrap_lanes<S>(s.op, lanes_of(row[0]), lanes_of(row[1]), cols);
        } else if (ops[0].col_step || ops[1].col_step) {
          // A row against one value: x + v, x - v, v - x and x * v are
          // monotonic in x, so some lane wraps exactly when the row's
          // smallest or largest element does. A row that repeats (the
          // usual [1, N] broadcast) has its extremes computed once.
          const int k = ops[0].col_step ? 0 : 1;
          if (row[k] != extremes_of) {
            extremes_of = row[k];
            const auto [lo, hi] = std::minmax_element(row[k], row[k] + cols);
            extremes[0] = *lo;
            extremes[1] = *hi;
          }
          wraps = k == 0 ? may_wrap_lanes<S>(s.op, lanes_of(extremes), same_value(*row[1]), 2)
                         : may_wrap_lanes<S>(s.op, same_value(*row[0]), lanes_of(extremes), 2);
        } else {
          wraps = may_wrap_lanes<S>(s.op, same_value(*row[0]), same_value(*row[1]), 1);
        }
        if (wraps) return true;
      }
      return false;
    } else {
      return false;
    }
  });
}

void Exec::check_index_overflow(const Step& s) {
  eval::dispatch(s.dtype, [&]<DType D>() {
    using S = typename eval::StorageOf<D>::type;
    if constexpr (is_int(D) && D != DType::i1 && std::is_signed_v<S>) {
      if (!may_wrap<S>(s.op, as<S>(s.a[0]), as<S>(s.a[1]), s.n)) return;
      const ir::Shape& tile = type(s.dst).shape;
      const std::string message = std::string(name(s.dtype)) + " " + op_words(s.op);
      overflow_lanes<S>(s.op, as<S>(s.a[0]), as<S>(s.a[1]), s.n, [&](int64_t lane, auto detail) {
        note_value(FindingKind::IndexOverflow, s, lane, tile, message, detail);
      });
    }
  });
}

void Exec::check_shift(const Step& s) {
  const ir::Shape& tile = type(s.dst).shape;
  const std::string message = std::string(name(s.dtype)) + " " + op_words(s.op);
  eval::dispatch(s.dtype, [&]<DType D>() {
    using S = typename eval::StorageOf<D>::type;
    if constexpr (is_int(D) && D != DType::i1) {
      constexpr int width = sizeof(S) * 8;
      const S* a = as<S>(s.a[0]);
      const S* c = as<S>(s.a[1]);
      for (int64_t i = 0; i < s.n; ++i) {
        bool wide;
        if constexpr (std::is_signed_v<S>) wide = c[i] < 0 || c[i] >= width;
        else wide = c[i] >= static_cast<S>(width);
        if (!wide) continue;
        note_value(FindingKind::ShiftOutOfRange, s, i, tile, message, [&] {
          bool negative = false;
          if constexpr (std::is_signed_v<S>) negative = c[i] < 0;
          return int_str(a[i]) + " " + op_symbol(s.op) + " " + int_str(c[i]) + ": the count is " +
                 (negative ? std::string("negative") : "not below the width " + std::to_string(width));
        });
      }
    }
  });
}

bool Exec::cast_may_change_value(DType from, DType to) {
  if (to == DType::i1 || from == DType::i1 || from == to) return false;  // x != 0, and 0/1: always defined
  if (is_int(from) && is_int(to)) {
    const bool sf = is_signed_int(from), st = is_signed_int(to);
    const int wf = bit_width(from), wt = bit_width(to);
    return !((sf == st && wt >= wf) || (!sf && st && wt > wf));  // else every value fits
  }
  if (is_float(from) && is_int(to)) return true;
  if (is_float(from) && is_float(to)) {
    // Only a narrower range can overflow: f64 -> f32/f16/bf16, f32 ->
    // f16/bf16 (bf16's largest finite value is below f32's), bf16 -> f16.
    return from == DType::f64 || (from == DType::f32 && (to == DType::f16 || to == DType::bf16)) ||
           (from == DType::bf16 && to == DType::f16);
  }
  return false;  // int -> float: rounds, never out of range (u64 max < f32 max)
}

namespace {

// The largest finite value of a float dtype (the formats' own constants).
double largest_finite(DType d) {
  switch (d) {
    case DType::f16: return 65504.0;
    case DType::bf16: return 3.3895313892515355e38;  // 0x7F7F
    case DType::f32: return static_cast<double>(std::numeric_limits<float>::max());
    default: return std::numeric_limits<double>::max();
  }
}

}  // namespace

void Exec::check_cast(const Step& s) {
  const ir::Shape& tile = type(s.dst).shape;
  const std::string message = "from " + std::string(name(s.dtype)) + " to " + std::string(name(s.out_dtype));
  eval::dispatch(s.dtype, [&]<DType F>() {
    eval::dispatch(s.out_dtype, [&]<DType T>() {
      using SF = typename eval::StorageOf<F>::type;
      using ST = typename eval::StorageOf<T>::type;
      const SF* a = as<SF>(s.a[0]);
      (void)a;  // unused by the conversions that cannot change a value
      if constexpr (is_int(F) && is_int(T) && F != DType::i1 && T != DType::i1) {
        for (int64_t i = 0; i < s.n; ++i) {
          const ST v = static_cast<ST>(a[i]);
          if (std::cmp_equal(a[i], v)) continue;
          note_value(FindingKind::LossyIntCast, s, i, tile, message,
                     [&] { return int_str(a[i]) + " becomes " + int_str(v); });
        }
      } else if constexpr (is_float(F) && is_int(T) && T != DType::i1) {
        constexpr double lo = static_cast<double>(std::numeric_limits<ST>::min());
        constexpr double hi_excl = static_cast<double>(std::numeric_limits<ST>::max()) + 1.0;  // a power of two
        for (int64_t i = 0; i < s.n; ++i) {
          const double x = static_cast<double>(eval::load_c<F>(a[i]));
          const double t = std::trunc(x);
          if (x == x && t >= lo && t < hi_excl) continue;
          note_value(FindingKind::FloatToIntOutOfRange, s, i, tile, message, [&] {
            ST out{};
            eval::from_double_into(T, &out, 0, x);  // what tl:: makes of it (SEMANTICS §5)
            return num(x) + (x != x ? " becomes " : " saturates to ") + int_str(out);
          });
        }
      } else if constexpr (is_float(F) && is_float(T)) {
        // Rounding is monotonic and T's largest finite value is one of T's
        // values, so no finite x with |x| at most that value becomes inf:
        // one branch-free pass finds the tile's largest |x| (NaN and inf
        // are skipped below anyway) and the exact check runs only past it.
        double largest = 0;
        for (int64_t i = 0; i < s.n; ++i) {
          const double x = std::fabs(static_cast<double>(eval::load_c<F>(a[i])));
          largest = x > largest && x != INFINITY ? x : largest;
        }
        if (largest <= largest_finite(T)) return;
        for (int64_t i = 0; i < s.n; ++i) {
          const double x = static_cast<double>(eval::load_c<F>(a[i]));
          if (!std::isfinite(x)) continue;
          ST narrow{};
          eval::from_double_into(T, &narrow, 0, x);
          const double y = eval::to_double(T, &narrow, 0);
          if (std::isfinite(y)) continue;
          note_value(FindingKind::FloatCastOverflow, s, i, tile, message,
                     [&] { return num(x) + " becomes " + num(y); });
        }
      }
    });
  });
}

}  // namespace tl
