// Shape, reduction and dot kernels of the interpreter.
#include <cstring>
#include <vector>

#include "eval.h"

namespace tl::eval {

namespace {

template <size_t E>
struct Lane {
  std::byte b[E];
};

// One loop nest per element size keeps the copies tight.
template <class T>
void walk(int rank, const int64_t* dims, const int64_t* strides, const T* src, T* dst) {
  if (rank == 1) {
    int64_t n = dims[0], s = strides[0];
    if (s == 0) {
      T v = src[0];
      for (int64_t i = 0; i < n; ++i) dst[i] = v;
    } else if (s == 1) {
      std::memcpy(dst, src, static_cast<size_t>(n) * sizeof(T));
    } else {
      for (int64_t i = 0; i < n; ++i) dst[i] = src[i * s];
    }
    return;
  }
  int64_t step = 1;
  for (int i = 1; i < rank; ++i) step *= dims[i];
  for (int64_t i = 0; i < dims[0]; ++i) walk(rank - 1, dims + 1, strides + 1, src + i * strides[0], dst + i * step);
}

}  // namespace

void strided_copy(int rank, const int64_t* dims, const int64_t* strides, size_t elem, const void* a, void* o) {
  switch (elem) {
    case 1: walk(rank, dims, strides, static_cast<const uint8_t*>(a), static_cast<uint8_t*>(o)); return;
    case 2: walk(rank, dims, strides, static_cast<const uint16_t*>(a), static_cast<uint16_t*>(o)); return;
    case 4: walk(rank, dims, strides, static_cast<const uint32_t*>(a), static_cast<uint32_t*>(o)); return;
    case 8: walk(rank, dims, strides, static_cast<const uint64_t*>(a), static_cast<uint64_t*>(o)); return;
    case 16: walk(rank, dims, strides, static_cast<const Lane<16>*>(a), static_cast<Lane<16>*>(o)); return;
    default: break;
  }
}

namespace {

template <DType D>
void reduce_t(ir::ReduceKind kind, int64_t outer, int64_t n, int64_t inner, bool propagate_nan, const void* av,
              void* ov, std::vector<std::byte>& scratch) {
  using S = typename StorageOf<D>::type;
  using C = Compute<D>;
  const S* a = static_cast<const S*>(av);
  bool arg = kind == ir::ReduceKind::ArgMax || kind == ir::ReduceKind::ArgMin;
  bool is_max = kind == ir::ReduceKind::Max || kind == ir::ReduceKind::ArgMax;
  // One running value per output element; the axis is walked in order, so
  // every output sees x[0] + x[1] + ... exactly (a fixed summation order).
  // The index array starts 8-byte aligned after the values (i8 values of
  // an odd count would misalign it).
  const size_t where_at = (static_cast<size_t>(inner) * sizeof(C) + 7) & ~size_t{7};
  const size_t need = where_at + static_cast<size_t>(inner) * sizeof(int32_t);
  if (scratch.size() < need) scratch.resize(need);
  C* acc = reinterpret_cast<C*>(scratch.data());
  int32_t* where = reinterpret_cast<int32_t*>(scratch.data() + where_at);
  if (inner == 1 && !arg && !(propagate_nan && std::is_floating_point_v<C>)) {
    // Reducing the innermost axis (the common case): one running value per
    // row, the same order as below, without the per-element bookkeeping.
    S* out = static_cast<S*>(ov);
    for (int64_t o = 0; o < outer; ++o) {
      const S* x = a + o * n;
      C r = load_c<D>(x[0]);
      if (kind == ir::ReduceKind::Sum) {
        if constexpr (std::is_integral_v<C>) {
          using U = std::make_unsigned_t<C>;
          U u = static_cast<U>(r);
          for (int64_t k = 1; k < n; ++k) u += static_cast<U>(x[k]);
          r = static_cast<C>(u);
        } else {
          for (int64_t k = 1; k < n; ++k) r = load_c<D>(store_c<D>(r + load_c<D>(x[k])));
        }
      } else if (kind == ir::ReduceKind::Max) {
        // fmax semantics, inline: a NaN operand loses to a number.
        for (int64_t k = 1; k < n; ++k) {
          C v = load_c<D>(x[k]);
          if constexpr (std::is_floating_point_v<C>) r = (r != r) ? v : max_signed_zero(r, v);
          else r = v > r ? v : r;
        }
      } else {
        for (int64_t k = 1; k < n; ++k) {
          C v = load_c<D>(x[k]);
          if constexpr (std::is_floating_point_v<C>) r = (r != r) ? v : min_signed_zero(r, v);
          else r = v < r ? v : r;
        }
      }
      out[o] = store_c<D>(r);
    }
    return;
  }
  for (int64_t o = 0; o < outer; ++o) {
    const S* base = a + o * n * inner;
    for (int64_t j = 0; j < inner; ++j) acc[j] = load_c<D>(base[j]);
    if (arg) std::fill(where, where + inner, 0);
    for (int64_t k = 1; k < n; ++k) {
      const S* row = base + k * inner;
      if (kind == ir::ReduceKind::Sum) {
        if constexpr (std::is_integral_v<C>) {
          using U = std::make_unsigned_t<C>;
          for (int64_t j = 0; j < inner; ++j) acc[j] = static_cast<C>(static_cast<U>(acc[j]) + static_cast<U>(row[j]));
        } else {
          for (int64_t j = 0; j < inner; ++j) acc[j] = load_c<D>(store_c<D>(acc[j] + load_c<D>(row[j])));
        }
      } else if (arg) {
        for (int64_t j = 0; j < inner; ++j) {
          C v = load_c<D>(row[j]);
          bool better = is_max ? v > acc[j] : v < acc[j];
          if (acc[j] != acc[j] && v == v) better = true;  // NaN never wins
          if (better) {
            acc[j] = v;
            where[j] = static_cast<int32_t>(k);
          }
        }
      } else {
        for (int64_t j = 0; j < inner; ++j) {
          C v = load_c<D>(row[j]);
          if constexpr (std::is_floating_point_v<C>) {
            if (propagate_nan && (v != v || acc[j] != acc[j])) acc[j] = v + acc[j];
            else acc[j] = is_max ? max_signed_zero(acc[j], v) : min_signed_zero(acc[j], v);
          } else {
            acc[j] = is_max ? (v > acc[j] ? v : acc[j]) : (v < acc[j] ? v : acc[j]);
          }
        }
      }
    }
    if (arg) {
      std::memcpy(static_cast<int32_t*>(ov) + o * inner, where, static_cast<size_t>(inner) * 4);
    } else {
      S* out = static_cast<S*>(ov) + o * inner;
      for (int64_t j = 0; j < inner; ++j) out[j] = store_c<D>(acc[j]);
    }
  }
}

}  // namespace

void reduce(ir::ReduceKind kind, DType d, int64_t outer, int64_t len, int64_t inner, bool propagate_nan,
            const void* a, void* out, std::vector<std::byte>& scratch) {
  dispatch(d, [&]<DType D>() { reduce_t<D>(kind, outer, len, inner, propagate_nan, a, out, scratch); });
}

// SEMANTICS 8: the 13 low mantissa bits cleared, whatever the value. Inf
// stays Inf and a NaN with a high payload bit stays NaN; a NaN whose payload
// lies only in those bits becomes Inf, as on the tensor cores (wgmma and
// mma.sync read f32 operands this way; docs/semantics.md).
float tf32_truncate(float x) {
  uint32_t b;
  std::memcpy(&b, &x, 4);
  b &= 0xffffe000u;
  std::memcpy(&x, &b, 4);
  return x;
}

namespace {

// c[m][n] = acc[m][n] + sum_k a[m][k] * b[k][n], k in order, one rounding per
// multiply and per add. The i-k-j loop order keeps that order per element
// while the innermost loop runs over contiguous n.
template <class T>
void matmul(int64_t M, int64_t N, int64_t K, const T* a, const T* b, T* c) {
  for (int64_t m = 0; m < M; ++m) {
    T* crow = c + m * N;
    for (int64_t k = 0; k < K; ++k) {
      T av = a[m * K + k];
      const T* brow = b + k * N;
      for (int64_t n = 0; n < N; ++n) {
        T prod = av * brow[n];
        crow[n] = crow[n] + prod;
      }
    }
  }
}

void matmul_int(int64_t M, int64_t N, int64_t K, const int32_t* a, const int32_t* b, uint32_t* c) {
  for (int64_t m = 0; m < M; ++m)
    for (int64_t k = 0; k < K; ++k) {
      uint32_t av = static_cast<uint32_t>(a[m * K + k]);
      for (int64_t n = 0; n < N; ++n) c[m * N + n] += av * static_cast<uint32_t>(b[k * N + n]);
    }
}

template <class T>
std::vector<T> widen(DType d, const void* p, int64_t n) {
  std::vector<T> out(static_cast<size_t>(n));
  if (d == DType::f32 && std::is_same_v<T, float>) {
    std::memcpy(out.data(), p, static_cast<size_t>(n) * sizeof(float));
    return out;
  }
  for (int64_t i = 0; i < n; ++i) out[i] = static_cast<T>(to_double(d, p, i));
  return out;
}

}  // namespace

void dot(DType in, DType out, ir::Precision p, const ir::Shape& as, const ir::Shape& bs, const void* a,
         const void* b, const void* acc, void* o) {
  size_t r = as.size();
  int64_t batch = r == 3 ? as[0] : 1, M = as[r - 2], K = as[r - 1], N = bs[r - 1];
  int64_t na = batch * M * K, nb = batch * K * N, nc = batch * M * N;
  if (in == DType::i8 || in == DType::u8) {
    std::vector<int32_t> wa(na), wb(nb);
    for (int64_t i = 0; i < na; ++i) wa[i] = static_cast<int32_t>(to_double(in, a, i));
    for (int64_t i = 0; i < nb; ++i) wb[i] = static_cast<int32_t>(to_double(in, b, i));
    auto* c = static_cast<uint32_t*>(o);
    if (acc) std::memcpy(c, acc, nc * 4);
    else std::memset(c, 0, nc * 4);
    for (int64_t bi = 0; bi < batch; ++bi)
      matmul_int(M, N, K, wa.data() + bi * M * K, wb.data() + bi * K * N, c + bi * M * N);
    return;
  }
  if (in == DType::f64) {
    auto* c = static_cast<double*>(o);
    if (acc) std::memcpy(c, acc, nc * 8);
    else std::memset(c, 0, nc * 8);
    for (int64_t bi = 0; bi < batch; ++bi)
      matmul(M, N, K, static_cast<const double*>(a) + bi * M * K, static_cast<const double*>(b) + bi * K * N,
             c + bi * M * N);
    return;
  }
  // Floating inputs of 32 bits or fewer accumulate in f32.
  std::vector<float> fa = widen<float>(in, a, na), fb = widen<float>(in, b, nb), fc(nc, 0.0f);
  if (acc) fc = widen<float>(out, acc, nc);
  if (in == DType::f32 && p == ir::Precision::tf32) {
    for (float& v : fa) v = tf32_truncate(v);
    for (float& v : fb) v = tf32_truncate(v);
  }
  for (int64_t bi = 0; bi < batch; ++bi) {
    float* c = fc.data() + bi * M * N;
    const float* pa = fa.data() + bi * M * K;
    const float* pb = fb.data() + bi * K * N;
    if (in == DType::f32 && p == ir::Precision::tf32x3) {
      // big = tf32(x), small = tf32(x - big); small products first.
      std::vector<float> ab(M * K), asm_(M * K), bb(K * N), bsm(K * N);
      for (int64_t i = 0; i < M * K; ++i) {
        ab[i] = tf32_truncate(pa[i]);
        asm_[i] = tf32_truncate(pa[i] - ab[i]);
      }
      for (int64_t i = 0; i < K * N; ++i) {
        bb[i] = tf32_truncate(pb[i]);
        bsm[i] = tf32_truncate(pb[i] - bb[i]);
      }
      matmul(M, N, K, asm_.data(), bb.data(), c);
      matmul(M, N, K, ab.data(), bsm.data(), c);
      matmul(M, N, K, ab.data(), bb.data(), c);
    } else {
      matmul(M, N, K, pa, pb, c);
    }
  }
  if (out == DType::f32) std::memcpy(o, fc.data(), static_cast<size_t>(nc) * sizeof(float));
  else
    for (int64_t i = 0; i < nc; ++i) from_double_into(out, o, i, fc[i]);
}

}  // namespace tl::eval
