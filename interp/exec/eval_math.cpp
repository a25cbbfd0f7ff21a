// Interpreter kernels for the math ops: erf, log1p, expm1, rint,
// round, pow, umulhi, and casts that round toward zero. Each computes in
// the operand's own precision (f32 math for f32), as libdevice does.
#include <bit>
#include <cmath>

#include "eval.h"

namespace tl::eval {

namespace {

template <DType D>
void unary_t(ir::Op op, const void* av, void* ov, int64_t n) {
  using S = typename StorageOf<D>::type;
  if constexpr (D == DType::f32 || D == DType::f64) {
    const S* a = static_cast<const S*>(av);
    S* o = static_cast<S*>(ov);
    auto each = [&](auto fn) {
      for (int64_t i = 0; i < n; ++i) o[i] = fn(a[i]);
    };
    switch (op) {
      case ir::Op::Erf: each([](S x) { return std::erf(x); }); return;
      case ir::Op::Log1p: each([](S x) { return std::log1p(x); }); return;
      case ir::Op::Expm1: each([](S x) { return std::expm1(x); }); return;
      // The default floating-point environment rounds to nearest even.
      case ir::Op::Rint: each([](S x) { return std::nearbyint(x); }); return;
      case ir::Op::Round: each([](S x) { return std::round(x); }); return;
#define TL_X(OP, NAME) \
  case ir::Op::OP: each([](S x) { return std::NAME(x); }); return;
      TL_LIBDEVICE_UNARY(TL_X)
#undef TL_X
      default: return;
    }
  } else {
    (void)op, (void)av, (void)ov, (void)n;  // the front end allows f32 and f64 only
  }
}

// The high half of the full product, the bits read as unsigned (Triton's
// umulhi lowers to an unsigned multiply-high whatever the signedness).
template <class U>
U mulhi(U x, U y) {
  if constexpr (sizeof(U) == 4) return static_cast<U>((static_cast<uint64_t>(x) * y) >> 32);
  else return static_cast<U>((static_cast<unsigned __int128>(x) * y) >> 64);
}

template <DType D>
void binary_t(ir::Op op, const void* av, const void* bv, void* ov, int64_t n) {
  using S = typename StorageOf<D>::type;
  const S* a = static_cast<const S*>(av);
  const S* b = static_cast<const S*>(bv);
  S* o = static_cast<S*>(ov);
  if constexpr (D == DType::f32 || D == DType::f64) {
    auto each = [&](auto fn) {
      for (int64_t i = 0; i < n; ++i) o[i] = fn(a[i], b[i]);
    };
    switch (op) {
      case ir::Op::Pow: each([](S x, S y) { return std::pow(x, y); }); return;
#define TL_X(OP, NAME) \
  case ir::Op::OP: each([](S x, S y) { return std::NAME(x, y); }); return;
      TL_LIBDEVICE_BINARY(TL_X)
#undef TL_X
      default: return;
    }
  } else if constexpr (is_int(D) && D != DType::i1 && sizeof(S) >= 4) {
    using U = std::make_unsigned_t<S>;
    if (op == ir::Op::UMulHi)
      for (int64_t i = 0; i < n; ++i) o[i] = static_cast<S>(mulhi<U>(static_cast<U>(a[i]), static_cast<U>(b[i])));
  } else {
    (void)op, (void)a, (void)b, (void)o, (void)n;
  }
}

// The value of dtype `To` nearest to v in the direction of zero: round to
// nearest, then step one ulp back toward zero when that went past v.
template <DType To>
typename StorageOf<To>::type toward_zero(double v) {
  using S = typename StorageOf<To>::type;
  S r;
  from_double_into(To, &r, 0, v);  // round to nearest even
  if (v != v) return r;
  const double rv = static_cast<double>(load_c<To>(r));
  if (std::fabs(rv) <= std::fabs(v)) return r;
  // |r| > |v|: the magnitude one step smaller is the bits minus one (the
  // sign bit stays; the encodings of one sign are ordered by magnitude).
  if constexpr (To == DType::f32) return std::bit_cast<float>(std::bit_cast<uint32_t>(r) - 1u);
  else if constexpr (To == DType::f16) return Half{static_cast<uint16_t>(r.bits - 1u)};
  else if constexpr (To == DType::bf16) return BFloat{static_cast<uint16_t>(r.bits - 1u)};
  else return r;
}

}  // namespace

void unary_math(ir::Op op, DType d, const void* a, void* out, int64_t n) {
  dispatch(d, [&]<DType D>() { unary_t<D>(op, a, out, n); });
}

void binary_math(ir::Op op, DType d, const void* a, const void* b, void* out, int64_t n) {
  dispatch(d, [&]<DType D>() { binary_t<D>(op, a, b, out, n); });
}

void cast_rtz(DType from, DType to, const void* av, void* ov, int64_t n) {
  dispatch(to, [&]<DType T>() {
    if constexpr (T == DType::f32 || T == DType::f16 || T == DType::bf16) {
      auto* o = static_cast<typename StorageOf<T>::type*>(ov);
      for (int64_t i = 0; i < n; ++i) o[i] = toward_zero<T>(to_double(from, av, i));
    } else {
      cast(from, T, av, ov, n);  // not a narrowing float cast: nothing to round
    }
  });
}

}  // namespace tl::eval
