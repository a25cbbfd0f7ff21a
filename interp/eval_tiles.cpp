// Shape, reduction and dot kernels of the interpreter.
#include <cstring>
#include <vector>

#include "eval.h"

namespace tl::eval {

namespace {
std::vector<int64_t> row_major_strides(const ir::Shape& s) {
  std::vector<int64_t> st(s.size(), 1);
  for (int i = static_cast<int>(s.size()) - 2; i >= 0; --i) st[i] = st[i + 1] * s[i + 1];
  return st;
}
}  // namespace

void broadcast(const ir::Shape& in, const ir::Shape& out, size_t elem, const void* a, void* o) {
  auto* src = static_cast<const std::byte*>(a);
  auto* dst = static_cast<std::byte*>(o);
  int64_t n_out = ir::numel(out), n_in = ir::numel(in);
  if (n_in == 1) {  // splat
    if (elem == 4) {
      uint32_t v;
      std::memcpy(&v, src, 4);
      auto* d4 = reinterpret_cast<uint32_t*>(dst);
      for (int64_t i = 0; i < n_out; ++i) d4[i] = v;
    } else {
      for (int64_t i = 0; i < n_out; ++i) std::memcpy(dst + i * elem, src, elem);
    }
    return;
  }
  // Input strides aligned to the output's axes, 0 where the input stretches.
  size_t r = out.size(), pad = r - in.size();
  std::vector<int64_t> in_st = row_major_strides(in), st(r, 0);
  for (size_t i = 0; i < in.size(); ++i) st[pad + i] = in[i] == 1 ? 0 : in_st[i];
  // The innermost axis is copied as a run when it is not stretched.
  int64_t inner = out[r - 1];
  bool inner_contig = st[r - 1] == 1;
  std::vector<int64_t> idx(r, 0);
  int64_t outer = n_out / inner;
  for (int64_t o_i = 0; o_i < outer; ++o_i) {
    int64_t base = 0;
    for (size_t k = 0; k + 1 < r; ++k) base += idx[k] * st[k];
    std::byte* d = dst + o_i * inner * elem;
    if (inner_contig) {
      std::memcpy(d, src + base * elem, static_cast<size_t>(inner) * elem);
    } else {
      for (int64_t j = 0; j < inner; ++j) std::memcpy(d + j * elem, src + base * elem, elem);
    }
    for (int k = static_cast<int>(r) - 2; k >= 0; --k) {
      if (++idx[k] < out[k]) break;
      idx[k] = 0;
    }
  }
}

void permute(const ir::Shape& in, const std::vector<int>& dims, size_t elem, const void* a, void* o) {
  auto* src = static_cast<const std::byte*>(a);
  auto* dst = static_cast<std::byte*>(o);
  size_t r = in.size();
  std::vector<int64_t> in_st = row_major_strides(in), out_shape(r), st(r);
  for (size_t i = 0; i < r; ++i) {
    out_shape[i] = in[dims[i]];
    st[i] = in_st[dims[i]];
  }
  int64_t n = ir::numel(in);
  std::vector<int64_t> idx(r, 0);
  for (int64_t i = 0; i < n; ++i) {
    int64_t off = 0;
    for (size_t k = 0; k < r; ++k) off += idx[k] * st[k];
    std::memcpy(dst + i * elem, src + off * elem, elem);
    for (int k = static_cast<int>(r) - 1; k >= 0; --k) {
      if (++idx[k] < out_shape[k]) break;
      idx[k] = 0;
    }
  }
}

namespace {

template <DType D>
void reduce_t(ir::ReduceKind kind, const ir::Shape& in, int axis, bool propagate_nan, const void* av, void* ov) {
  using S = typename StorageOf<D>::type;
  using C = Compute<D>;
  const S* a = static_cast<const S*>(av);
  int64_t outer = 1, n = in[axis], inner = 1;
  for (int i = 0; i < axis; ++i) outer *= in[i];
  for (size_t i = axis + 1; i < in.size(); ++i) inner *= in[i];
  bool arg = kind == ir::ReduceKind::ArgMax || kind == ir::ReduceKind::ArgMin;
  bool is_max = kind == ir::ReduceKind::Max || kind == ir::ReduceKind::ArgMax;
  // One running value per output element; the axis is walked in order, so
  // every output sees x[0] + x[1] + ... exactly (a fixed summation order).
  std::vector<C> acc(static_cast<size_t>(inner));
  std::vector<int32_t> where(arg ? static_cast<size_t>(inner) : 0);
  for (int64_t o = 0; o < outer; ++o) {
    const S* base = a + o * n * inner;
    for (int64_t j = 0; j < inner; ++j) acc[j] = load_c<D>(base[j]);
    if (arg) std::fill(where.begin(), where.end(), 0);
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
            else acc[j] = is_max ? std::fmax(acc[j], v) : std::fmin(acc[j], v);
          } else {
            acc[j] = is_max ? (v > acc[j] ? v : acc[j]) : (v < acc[j] ? v : acc[j]);
          }
        }
      }
    }
    if (arg) {
      std::memcpy(static_cast<int32_t*>(ov) + o * inner, where.data(), static_cast<size_t>(inner) * 4);
    } else {
      S* out = static_cast<S*>(ov) + o * inner;
      for (int64_t j = 0; j < inner; ++j) out[j] = store_c<D>(acc[j]);
    }
  }
}

}  // namespace

void reduce(ir::ReduceKind kind, DType d, const ir::Shape& in, int axis, bool propagate_nan, const void* a,
            void* out) {
  dispatch(d, [&]<DType D>() { reduce_t<D>(kind, in, axis, propagate_nan, a, out); });
}

float tf32_truncate(float x) {
  uint32_t b;
  std::memcpy(&b, &x, 4);
  if ((b & 0x7f800000u) == 0x7f800000u) return x;  // inf and NaN unchanged
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
