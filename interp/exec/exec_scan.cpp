// The interpreter's scans, combine-function reductions, sort, flip,
// join/split, gather and histogram, and how undefined lanes flow
// through them. A combine block is evaluated on its own, vectorized over
// every (outer, inner) position of the axis at once: one pass of the block
// per element along the axis, in the order the IR fixes (left to right;
// right to left for a reverse scan), which the CUDA backend follows too.
#include <algorithm>
#include <cstring>
#include <numeric>
#include <unordered_map>

#include "exec.h"

namespace tl {

namespace {

// Reads element i of an integer register of dtype d as a 128-bit value
// (u64 beyond 2^63 stays positive).
__int128 int_at(DType d, const std::byte* p, int64_t i) {
  return eval::dispatch(d, [&]<DType D>() -> __int128 {
    using S = typename eval::StorageOf<D>::type;
    if constexpr (is_int(D)) return static_cast<__int128>(reinterpret_cast<const S*>(p)[i]);
    else return 0;
  });
}

// The order sort uses: numbers ascending, NaN above every number (all
// NaNs alike). `before(a, b)`: a sorts strictly before b.
template <DType D>
bool before(const typename eval::StorageOf<D>::type& x, const typename eval::StorageOf<D>::type& y, bool descending) {
  auto a = eval::load_c<D>(x), b = eval::load_c<D>(y);
  if constexpr (is_float(D)) {
    const bool na = a != a, nb = b != b;
    if (na || nb) return descending ? (na && !nb) : (!na && nb);
  }
  return descending ? a > b : a < b;
}

}  // namespace

void Exec::combined(const Step& s) {
  const ir::Instr& in = *s.in;
  const size_t N = in.args.size();
  const int64_t outer = s.outer, len = s.len, inner = s.inner, lanes = outer * inner;
  const bool scan = s.op == ir::Op::Scan, reverse = in.ival != 0;
  // Each block register holds `lanes` values.
  std::unordered_map<int, std::vector<std::byte>> vals;
  auto buf = [&](int r) -> std::byte* {
    auto& v = vals[r];
    if (v.empty()) v.resize(static_cast<size_t>(lanes) * 8 + 8);
    return v.data();
  };
  auto bytes = [&](int r) { return static_cast<size_t>(byte_size(type(r).dtype)); };
  std::vector<std::byte*> acc(N);
  for (size_t i = 0; i < N; ++i) acc[i] = buf(in.block_args[i]);
  const size_t out_bytes = bytes(s.dst);
  std::byte* out = reg(s.dst);
  // Copies element k along the axis of operand i into `dst` (lanes values).
  auto take = [&](size_t i, int64_t k, std::byte* dst) {
    const size_t e = bytes(in.args[i]);
    const std::byte* src = reg(in.args[i]);
    for (int64_t o = 0; o < outer; ++o)
      std::memcpy(dst + o * inner * e, src + ((o * len + k) * inner) * e, static_cast<size_t>(inner) * e);
  };
  auto put = [&](int64_t k) {  // the scan's output at position k along the axis
    const std::byte* a = acc[in.ival2];
    for (int64_t o = 0; o < outer; ++o)
      std::memcpy(out + ((o * len + k) * inner) * out_bytes, a + o * inner * out_bytes,
                  static_cast<size_t>(inner) * out_bytes);
  };
  std::vector<std::vector<std::byte>> next(N);
  for (int64_t step = 0; step < len; ++step) {
    const int64_t k = reverse ? len - 1 - step : step;
    if (step == 0) {
      for (size_t i = 0; i < N; ++i) take(i, k, acc[i]);
    } else {
      for (size_t i = 0; i < N; ++i) take(i, k, buf(in.block_args[N + i]));
      for (const ir::Instr& c : in.combine->instrs) {
        const int64_t n = lanes;
        std::byte* d = buf(c.dst);
        const DType od = type(c.dst).dtype;
        const DType ad = c.args.empty() ? od : type(c.args[0]).dtype;
        if (c.op == ir::Op::Const) {
          eval::constant(od, c.ival, c.fval, d);
          const size_t e = bytes(c.dst);
          for (int64_t l = 1; l < n; ++l) std::memcpy(d + l * e, d, e);
        } else if (c.op == ir::Op::Cast) {
          eval::cast(ad, od, buf(c.args[0]), d, n);
        } else if (c.op == ir::Op::Copy || c.op == ir::Op::Bitcast) {
          std::memcpy(d, buf(c.args[0]), static_cast<size_t>(n) * bytes(c.dst));
        } else if (c.op == ir::Op::Where) {
          eval::where(od, reinterpret_cast<const uint8_t*>(buf(c.args[0])), buf(c.args[1]), buf(c.args[2]), d, n,
                      bytes(c.dst));
        } else if (c.op == ir::Op::Fma) {
          eval::fma(od, buf(c.args[0]), buf(c.args[1]), buf(c.args[2]), d, n);
        } else if (ir::is_unary(c.op)) {
          eval::unary(c.op, ad, buf(c.args[0]), d, n);
        } else {
          eval::ArithFlags flags;
          eval::binary(c.op, ad, buf(c.args[0]), buf(c.args[1]), d, n, c.propagate_nan, flags);
          if (flags.div_by_zero) issue(in, "integer division or remainder by zero in a combine function (the result is 0)");
        }
      }
      // The yields become the running values (through a copy: a yield may
      // be another block argument).
      std::vector<std::vector<std::byte>> tmp(N);
      for (size_t i = 0; i < N; ++i) {
        const size_t e = bytes(in.args[i]);
        tmp[i].assign(buf(in.yields[i]), buf(in.yields[i]) + lanes * e);
      }
      for (size_t i = 0; i < N; ++i) std::memcpy(acc[i], tmp[i].data(), tmp[i].size());
    }
    if (scan) put(k);
  }
  if (!scan) std::memcpy(out, acc[in.ival2], static_cast<size_t>(lanes) * out_bytes);
  if (traced_) {
    Event e;
    e.kind = EventKind::Reduce;
    e.loc = s.loc;
    e.shape = type(in.args[0]).shape;
    e.axis = in.axis;
    e.op = scan ? "scan" : "reduce";
    trace_event(std::move(e));
  }
}

void Exec::permutation(const Step& s) {
  const ir::Instr& in = *s.in;
  const int64_t outer = s.outer, len = s.len, inner = s.inner;
  std::byte* out = reg(s.dst);
  switch (s.op) {
    case ir::Op::Flip: {
      const size_t e = s.elem;
      const std::byte* src = reg(s.a[0]);
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t k = 0; k < len; ++k)
          std::memcpy(out + (o * len + k) * inner * e, src + (o * len + (len - 1 - k)) * inner * e,
                      static_cast<size_t>(inner) * e);
      return;
    }
    case ir::Op::Join: {
      const size_t e = s.elem;
      const std::byte *a = reg(s.a[0]), *b = reg(s.a[1]);
      for (int64_t i = 0; i < s.n / 2; ++i) {
        std::memcpy(out + (2 * i) * e, a + i * e, e);
        std::memcpy(out + (2 * i + 1) * e, b + i * e, e);
      }
      return;
    }
    case ir::Op::Split: {
      const size_t e = s.elem;
      const std::byte* src = reg(s.a[0]);
      for (int64_t i = 0; i < s.n; ++i) std::memcpy(out + i * e, src + (2 * i + in.ival) * e, e);
      return;
    }
    case ir::Op::Sort: {
      eval::dispatch(s.out_dtype, [&]<DType D>() {
        using S = typename eval::StorageOf<D>::type;
        const S* x = as<S>(s.a[0]);
        S* o = reinterpret_cast<S*>(out);
        std::vector<int64_t> order(static_cast<size_t>(len));
        for (int64_t r = 0; r < outer; ++r) {
          const S* row = x + r * len;
          std::iota(order.begin(), order.end(), int64_t{0});
          std::stable_sort(order.begin(), order.end(),
                           [&](int64_t a, int64_t b) { return before<D>(row[a], row[b], in.ival != 0); });
          for (int64_t k = 0; k < len; ++k) o[r * len + k] = row[order[k]];
        }
      });
      return;
    }
    case ir::Op::Gather: {
      // result [outer, len (index's), inner] reads src [outer, src_len, inner].
      const size_t e = s.elem;
      const std::byte* src = reg(s.a[0]);
      const std::byte* idx = reg(s.a[1]);
      const DType id = type(s.a[1]).dtype;
      const int64_t src_len = type(s.a[0]).shape[in.axis];
      const ir::Shape& ishape = type(s.a[1]).shape;
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t k = 0; k < len; ++k)
          for (int64_t j = 0; j < inner; ++j) {
            const int64_t lane = (o * len + k) * inner + j;
            const __int128 v = int_at(id, idx, lane);
            if (v < 0 || v >= src_len) {
              // Never read outside the tile: the lane gets 0 and a finding.
              std::memset(out + lane * e, 0, e);
              note_value(FindingKind::IndexOutOfRange, s, lane, ishape, "gather index out of range",
                         [&] {
                           return "index " + std::to_string(static_cast<long long>(v)) + " is outside [0, " +
                                  std::to_string(src_len) + ") along axis " + std::to_string(in.axis);
                         });
              continue;
            }
            std::memcpy(out + lane * e, src + ((o * src_len + static_cast<int64_t>(v)) * inner + j) * e, e);
          }
      return;
    }
    case ir::Op::Histogram: {
      int32_t* o = reinterpret_cast<int32_t*>(out);
      std::fill(o, o + in.ival, 0);
      const DType d = s.dtype;
      const std::byte* x = reg(s.a[0]);
      const uint8_t* mask = in.has_mask ? as<uint8_t>(s.a[1]) : nullptr;
      const int64_t n = ir::numel(type(s.a[0]).shape);
      for (int64_t i = 0; i < n; ++i) {
        if (mask && !mask[i]) continue;
        const __int128 v = int_at(d, x, i);
        if (v >= 0 && v < in.ival) o[v] = static_cast<int32_t>(static_cast<uint32_t>(o[v]) + 1u);
      }
      return;
    }
    default: break;
  }
}

// Taint through the ops above. Values a scan, reduction, sort or histogram
// combines are reported where they meet (UndefinedValueUsed), as for Reduce.
void Exec::permutation_taint(const Step& s) {
  const ir::Instr& in = *s.in;
  bool any = false;
  for (int a : in.args)
    if (tainted(a)) any = true;
  if (!any) {
    clear_taint(s.dst);
    return;
  }
  const int64_t outer = s.outer, len = s.len, inner = s.inner;
  uint8_t* out = taint(s.dst);
  std::memset(out, 0, static_cast<size_t>(std::max<int64_t>(1, s.n)));
  auto report = [&](int a) {  // every undefined lane of operand a meets the others here
    const uint8_t* t = taint(a);
    const ir::Shape& shape = type(a).shape;
    const int64_t n = ir::numel(shape);
    for (int64_t lane = 0; lane < n; ++lane)
      if (t[lane] & kTaintUndefined) note(FindingKind::UndefinedValueUsed, s, -1, lane, shape, 0);
  };
  switch (s.op) {
    case ir::Op::Scan:
    case ir::Op::ReduceWith: {
      // Output (o, k, j) depends on the elements up to k (from k on when
      // reversed) of every operand; a reduction on all of them.
      const bool scan = s.op == ir::Op::Scan, reverse = in.ival != 0;
      for (int a : in.args) {
        if (!tainted(a)) continue;
        report(a);
        const uint8_t* t = taint(a);
        for (int64_t o = 0; o < outer; ++o)
          for (int64_t j = 0; j < inner; ++j) {
            uint8_t run = 0;
            for (int64_t step = 0; step < len; ++step) {
              const int64_t k = reverse ? len - 1 - step : step;
              run |= t[(o * len + k) * inner + j];
              if (scan) out[(o * len + k) * inner + j] |= run;
            }
            if (!scan) out[o * inner + j] |= run;
          }
      }
      break;
    }
    case ir::Op::Sort: {
      report(s.a[0]);
      const uint8_t* t = taint(s.a[0]);
      for (int64_t r = 0; r < outer; ++r) {
        uint8_t row = 0;
        for (int64_t k = 0; k < len; ++k) row |= t[r * len + k];
        for (int64_t k = 0; k < len; ++k) out[r * len + k] = row;
      }
      break;
    }
    case ir::Op::Histogram: {
      const uint8_t* t = taint(s.a[0]);
      const uint8_t* m = in.has_mask ? as<uint8_t>(s.a[1]) : nullptr;
      const uint8_t* tm = in.has_mask && tainted(s.a[1]) ? taint(s.a[1]) : nullptr;
      const ir::Shape& shape = type(s.a[0]).shape;
      uint8_t all = 0;
      for (int64_t i = 0; i < ir::numel(shape); ++i) {
        uint8_t li = static_cast<uint8_t>((tainted(s.a[0]) ? t[i] : 0) | (tm ? tm[i] : 0));
        if (!li || (m && !m[i] && !(tm && tm[i]))) continue;
        if (li & kTaintUndefined) note(FindingKind::UndefinedValueUsed, s, -1, i, shape, 0);
        all |= li;
      }
      std::fill(out, out + s.n, all);
      break;
    }
    default: {
      // Pure data movement: each result lane carries the taint of the lane
      // it was copied from. Run the op itself over the taint bytes.
      auto lane_of = [&](int a) { return tainted(a) ? taint(a) : nullptr; };
      const uint8_t* t0 = lane_of(s.a[0]);
      if (s.op == ir::Op::Flip) {
        for (int64_t o = 0; o < outer && t0; ++o)
          for (int64_t k = 0; k < len; ++k)
            std::memcpy(out + (o * len + k) * inner, t0 + (o * len + (len - 1 - k)) * inner, static_cast<size_t>(inner));
      } else if (s.op == ir::Op::Join) {
        const uint8_t* t1 = lane_of(s.a[1]);
        for (int64_t i = 0; i < s.n / 2; ++i) {
          out[2 * i] = t0 ? t0[i] : 0;
          out[2 * i + 1] = t1 ? t1[i] : 0;
        }
      } else if (s.op == ir::Op::Split) {
        for (int64_t i = 0; i < s.n && t0; ++i) out[i] = t0[2 * i + in.ival];
      } else if (s.op == ir::Op::Gather) {
        const uint8_t* t1 = lane_of(s.a[1]);
        const std::byte* idx = reg(s.a[1]);
        const DType id = type(s.a[1]).dtype;
        const int64_t src_len = type(s.a[0]).shape[in.axis];
        for (int64_t o = 0; o < outer; ++o)
          for (int64_t k = 0; k < len; ++k)
            for (int64_t j = 0; j < inner; ++j) {
              const int64_t lane = (o * len + k) * inner + j;
              const __int128 v = int_at(id, idx, lane);
              uint8_t t = t1 ? t1[lane] : 0;
              if (t0 && v >= 0 && v < src_len) t |= t0[(o * src_len + static_cast<int64_t>(v)) * inner + j];
              out[lane] = t;
            }
      }
      break;
    }
  }
  uint8_t seen = 0;
  for (int64_t i = 0; i < s.n; ++i) seen |= out[i];
  tainted_[s.dst] = seen != 0;
}

}  // namespace tl
