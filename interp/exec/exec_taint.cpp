// Following undefined and poisoned lanes: a masked load without `other`
// yields lanes a GPU leaves undefined, an out-of-bounds load yields poison.
// Their taint flows through arithmetic and shape ops, lane by lane, and is
// reported where it reaches a reduction or a dot (here) or memory
// (exec_memory.cpp). Clean registers carry no taint array at all, so
// kernels without such lanes pay one flag test per instruction.
#include <cstring>

#include "exec.h"

namespace tl {

uint8_t* Exec::taint(int r) {
  auto& t = taint_[r];
  if (!t) t.reset(new uint8_t[std::max<int64_t>(1, ir::numel(type(r).shape))]());
  return t.get();
}

void Exec::propagate_taint(const Step& s) {
  using ir::Op;
  if (s.dst < 0) return;
  switch (s.op) {  // scans and permutations: any number of operands (exec_scan.cpp)
    case Op::Scan: case Op::ReduceWith: case Op::Sort: case Op::Flip: case Op::Join: case Op::Split:
    case Op::Gather: case Op::Histogram:
      permutation_taint(s);
      return;
    default: break;
  }
  bool any = false;
  for (int a : s.a)
    if (a >= 0 && tainted(a)) any = true;
  if (!any || s.op == Op::For) {
    // Loads set their own taint; everything else computed from clean
    // operands is clean.
    if (s.op != Op::Load) clear_taint(s.dst);
    return;
  }
  const int64_t n = s.n;
  auto src = [&](int k) -> const uint8_t* { return tainted(s.a[k]) ? taint(s.a[k]) : nullptr; };
  switch (s.op) {
    case Op::Broadcast:
    case Op::Permute: {
      uint8_t* out = taint(s.dst);
      eval::strided_copy(s.rank, s.dims, s.strides, 1, taint(s.a[0]), out);
      tainted_[s.dst] = 1;
      return;
    }
    case Op::Where: {
      uint8_t* out = taint(s.dst);
      const uint8_t* c = as<uint8_t>(s.a[0]);
      const uint8_t *tc = src(0), *ta = src(1), *tb = src(2);
      uint8_t seen = 0;
      for (int64_t i = 0; i < n; ++i) {
        out[i] = static_cast<uint8_t>((tc ? tc[i] : 0) | (c[i] ? (ta ? ta[i] : 0) : (tb ? tb[i] : 0)));
        seen |= out[i];
      }
      tainted_[s.dst] = seen != 0;
      return;
    }
    case Op::Reduce: {
      const uint8_t* in = taint(s.a[0]);
      uint8_t* out = taint(s.dst);
      std::memset(out, 0, static_cast<size_t>(n));
      uint8_t seen = 0;
      const ir::Shape& shape = type(s.a[0]).shape;
      for (int64_t o = 0; o < s.outer; ++o)
        for (int64_t k = 0; k < s.len; ++k)
          for (int64_t j = 0; j < s.inner; ++j) {
            int64_t lane = (o * s.len + k) * s.inner + j;
            uint8_t t = in[lane];
            if (!t) continue;
            out[o * s.inner + j] |= t;
            seen |= t;
            if (t & kTaintUndefined) note(FindingKind::UndefinedValueUsed, s, -1, lane, shape, 0);
          }
      tainted_[s.dst] = seen != 0;
      return;
    }
    case Op::Dot: {
      // C[m, n] depends on row m of A and column n of B (and acc[m, n]).
      const ir::Shape& as = type(s.a[0]).shape;
      const ir::Shape& bs = type(s.a[1]).shape;
      size_t r = as.size();
      int64_t batch = r == 3 ? as[0] : 1, M = as[r - 2], K = as[r - 1], N = bs[r - 1];
      const uint8_t *ta = src(0), *tb = src(1), *tacc = s.a[2] >= 0 ? src(2) : nullptr;
      uint8_t* out = taint(s.dst);
      uint8_t seen = 0;
      std::vector<uint8_t> row(static_cast<size_t>(M)), col(static_cast<size_t>(N));
      for (int64_t b = 0; b < batch; ++b) {
        std::fill(row.begin(), row.end(), 0);
        std::fill(col.begin(), col.end(), 0);
        for (int64_t m = 0; m < M; ++m)
          for (int64_t k = 0; k < K && ta; ++k) {
            int64_t lane = (b * M + m) * K + k;
            row[m] |= ta[lane];
            if (ta[lane] & kTaintUndefined) note(FindingKind::UndefinedValueUsed, s, -1, lane, as, 0);
          }
        for (int64_t k = 0; k < K && tb; ++k)
          for (int64_t c = 0; c < N; ++c) {
            int64_t lane = (b * K + k) * N + c;
            col[c] |= tb[lane];
            if (tb[lane] & kTaintUndefined) note(FindingKind::UndefinedValueUsed, s, -1, lane, bs, 0);
          }
        for (int64_t m = 0; m < M; ++m)
          for (int64_t c = 0; c < N; ++c) {
            int64_t i = (b * M + m) * N + c;
            out[i] = static_cast<uint8_t>(row[m] | col[c] | (tacc ? tacc[i] : 0));
            seen |= out[i];
          }
      }
      tainted_[s.dst] = seen != 0;
      return;
    }
    case Op::AtomicAdd:
    case Op::AtomicRMW:
      clear_taint(s.dst);  // the old values come from memory
      return;
    default: break;
  }
  // Elementwise (and reshape, copy, cast): lane i depends on lane i of each
  // operand of the same shape.
  uint8_t* out = taint(s.dst);
  const uint8_t *t0 = src(0), *t1 = s.a[1] >= 0 ? src(1) : nullptr, *t2 = s.a[2] >= 0 ? src(2) : nullptr;
  uint8_t seen = 0;
  for (int64_t i = 0; i < n; ++i) {
    out[i] = static_cast<uint8_t>((t0 ? t0[i] : 0) | (t1 ? t1[i] : 0) | (t2 ? t2[i] : 0));
    seen |= out[i];
  }
  tainted_[s.dst] = seen != 0;
}

}  // namespace tl
