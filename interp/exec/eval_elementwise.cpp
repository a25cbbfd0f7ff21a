// Elementwise tile kernels of the interpreter, one tight loop per
// (op, dtype). Integer arithmetic wraps (done in unsigned types); division
// by zero and over-wide shifts give SEMANTICS' defined results and are
// counted so the run can report them.
#include <cstring>

#include "eval.h"

namespace tl::eval {

namespace {

template <class T>
using Unsigned = std::conditional_t<std::is_integral_v<T>, std::make_unsigned<T>, std::type_identity<T>>::type;

template <DType D>
void unary_t(ir::Op op, const void* av, void* ov, int64_t n) {
  using S = typename StorageOf<D>::type;
  using C = Compute<D>;
  const S* a = static_cast<const S*>(av);
  S* o = static_cast<S*>(ov);
  auto each = [&](auto fn) {
    for (int64_t i = 0; i < n; ++i) o[i] = store_c<D>(fn(load_c<D>(a[i])));
  };
  switch (op) {
    case ir::Op::Copy: std::memcpy(ov, av, static_cast<size_t>(n) * sizeof(S)); return;
    case ir::Op::Neg:
      if constexpr (std::is_integral_v<C>) each([](C x) { return static_cast<C>(Unsigned<C>(0) - static_cast<Unsigned<C>>(x)); });
      else each([](C x) { return -x; });
      return;
    case ir::Op::Not:
      if constexpr (D == DType::i1) each([](C x) { return static_cast<C>(!x); });
      else if constexpr (std::is_integral_v<C>) each([](C x) { return static_cast<C>(~x); });
      return;
    case ir::Op::Abs:
      if constexpr (std::is_floating_point_v<C>) each([](C x) { return std::fabs(x); });
      else if constexpr (std::is_signed_v<C>)
        each([](C x) { return x < 0 ? static_cast<C>(Unsigned<C>(0) - static_cast<Unsigned<C>>(x)) : x; });
      else each([](C x) { return x; });
      return;
    default: break;
  }
  if constexpr (std::is_floating_point_v<C>) {
    switch (op) {
      case ir::Op::Exp: each([](C x) { return std::exp(x); }); return;
      case ir::Op::Exp2: each([](C x) { return std::exp2(x); }); return;
      case ir::Op::Log: each([](C x) { return std::log(x); }); return;
      case ir::Op::Log2: each([](C x) { return std::log2(x); }); return;
      case ir::Op::Sqrt: each([](C x) { return std::sqrt(x); }); return;
      case ir::Op::Rsqrt: each([](C x) { return C(1) / std::sqrt(x); }); return;
      case ir::Op::Sin: each([](C x) { return std::sin(x); }); return;
      case ir::Op::Cos: each([](C x) { return std::cos(x); }); return;
      case ir::Op::Sigmoid: each([](C x) { return C(1) / (C(1) + std::exp(-x)); }); return;
      case ir::Op::Tanh: each([](C x) { return std::tanh(x); }); return;
      case ir::Op::Floor: each([](C x) { return std::floor(x); }); return;
      case ir::Op::Ceil: each([](C x) { return std::ceil(x); }); return;
      default: break;
    }
  }
}

template <class C>
C int_div(C a, C b, ArithFlags& f) {
  if (b == 0) {
    ++f.div_by_zero;
    return 0;
  }
  if constexpr (std::is_signed_v<C>) {
    if (b == C(-1)) return static_cast<C>(Unsigned<C>(0) - static_cast<Unsigned<C>>(a));  // INT_MIN / -1 wraps
  }
  return static_cast<C>(a / b);
}

template <class C>
C int_mod(C a, C b, ArithFlags& f) {
  if (b == 0) {
    ++f.div_by_zero;
    return 0;
  }
  if constexpr (std::is_signed_v<C>) {
    if (b == C(-1)) return 0;
  }
  return static_cast<C>(a % b);
}

template <class C>
C shift(bool left, C a, C count, ArithFlags& f) {
  constexpr int width = sizeof(C) * 8;
  bool wide;
  if constexpr (std::is_signed_v<C>) wide = count < 0 || count >= width;
  else wide = count >= static_cast<C>(width);
  if (wide) {
    ++f.wide_shift;
    if (left) return 0;
    if constexpr (std::is_signed_v<C>) return a < 0 ? C(-1) : C(0);
    else return 0;
  }
  int c = static_cast<int>(count);
  if (left) return static_cast<C>(static_cast<Unsigned<C>>(a) << c);
  return static_cast<C>(a >> c);  // arithmetic for signed (C++20), logical for unsigned
}

// Calls body(fn) with the lane function of `op` on dtype D: fn(C, C)
// returns bool for a comparison (stored as an i1 byte), else the C value
// to store. One place for the ops' semantics, whatever the loop around it.
template <DType D, class Body>
void with_binary_fn(ir::Op op, bool propagate_nan, ArithFlags& f, Body&& body) {
  using C = Compute<D>;
  if (ir::is_compare(op)) {
    switch (op) {
      case ir::Op::Eq: body([](C x, C y) { return x == y; }); return;
      case ir::Op::Ne: body([](C x, C y) { return x != y; }); return;
      case ir::Op::Lt: body([](C x, C y) { return x < y; }); return;
      case ir::Op::Le: body([](C x, C y) { return x <= y; }); return;
      case ir::Op::Gt: body([](C x, C y) { return x > y; }); return;
      case ir::Op::Ge: body([](C x, C y) { return x >= y; }); return;
      default: return;
    }
  }
  if constexpr (D == DType::i1) {
    // 1-bit wrap-around: + and - are xor, * is and (Triton's i1 arithmetic).
    switch (op) {
      case ir::Op::Add: case ir::Op::Sub: body([](C x, C y) { return static_cast<C>((x ^ y) & 1); }); return;
      case ir::Op::Mul: body([](C x, C y) { return static_cast<C>(x & y & 1); }); return;
      default: break;
    }
  }
  if constexpr (std::is_integral_v<C>) {
    using U = Unsigned<C>;
    switch (op) {
      case ir::Op::Add: body([](C x, C y) { return static_cast<C>(static_cast<U>(x) + static_cast<U>(y)); }); return;
      case ir::Op::Sub: body([](C x, C y) { return static_cast<C>(static_cast<U>(x) - static_cast<U>(y)); }); return;
      case ir::Op::Mul: body([](C x, C y) { return static_cast<C>(static_cast<U>(x) * static_cast<U>(y)); }); return;
      case ir::Op::Div: body([&](C x, C y) { return int_div<C>(x, y, f); }); return;
      case ir::Op::Mod: body([&](C x, C y) { return int_mod<C>(x, y, f); }); return;
      case ir::Op::And: body([](C x, C y) { return static_cast<C>(x & y); }); return;
      case ir::Op::Or: body([](C x, C y) { return static_cast<C>(x | y); }); return;
      case ir::Op::Xor: body([](C x, C y) { return static_cast<C>(x ^ y); }); return;
      case ir::Op::Shl: body([&](C x, C y) { return shift<C>(true, x, y, f); }); return;
      case ir::Op::Shr: body([&](C x, C y) { return shift<C>(false, x, y, f); }); return;
      case ir::Op::Maximum: body([](C x, C y) { return x > y ? x : y; }); return;
      case ir::Op::Minimum: body([](C x, C y) { return x < y ? x : y; }); return;
      default: return;
    }
  } else {
    switch (op) {
      case ir::Op::Add: body([](C x, C y) { return x + y; }); return;
      case ir::Op::Sub: body([](C x, C y) { return x - y; }); return;
      case ir::Op::Mul: body([](C x, C y) { return x * y; }); return;
      case ir::Op::Div: body([](C x, C y) { return x / y; }); return;
      case ir::Op::Mod: body([](C x, C y) { return gpu_frem(x, y); }); return;
      case ir::Op::Maximum:
        if (propagate_nan) body([](C x, C y) { return (x != x || y != y) ? x + y : max_signed_zero(x, y); });
        else body([](C x, C y) { return max_signed_zero(x, y); });
        return;
      case ir::Op::Minimum:
        if (propagate_nan) body([](C x, C y) { return (x != x || y != y) ? x + y : min_signed_zero(x, y); });
        else body([](C x, C y) { return min_signed_zero(x, y); });
        return;
      default: return;
    }
  }
}

// A lane function's result as stored: an i1 byte for a comparison.
template <DType D, class R>
inline auto store_lane(R v) {
  if constexpr (std::is_same_v<R, bool>) return static_cast<uint8_t>(v ? 1 : 0);
  else return store_c<D>(v);
}
template <DType D, class Fn>
using LaneOut = decltype(store_lane<D>(std::declval<Fn>()(Compute<D>{}, Compute<D>{})));

template <DType D>
void binary_t(ir::Op op, const void* av, const void* bv, void* ov, int64_t n, bool propagate_nan, ArithFlags& f) {
  using S = typename StorageOf<D>::type;
  const S* a = static_cast<const S*>(av);
  const S* b = static_cast<const S*>(bv);
  with_binary_fn<D>(op, propagate_nan, f, [&](auto fn) {
    using O = LaneOut<D, decltype(fn)>;
    O* o = static_cast<O*>(ov);
    for (int64_t i = 0; i < n; ++i) o[i] = store_lane<D>(fn(load_c<D>(a[i]), load_c<D>(b[i])));
  });
}

// binary_t over a [rows, cols] result whose operands may be broadcasts
// read in place: per row, each operand is a row of `cols` elements or one
// value stretched along it, and each of the four cases is a plain loop.
template <DType D>
void binary_rows_t(ir::Op op, const RowOperand& ra, const RowOperand& rb, void* ov, int64_t rows, int64_t cols,
                   bool propagate_nan, ArithFlags& f) {
  using S = typename StorageOf<D>::type;
  using C = Compute<D>;
  const S* a = static_cast<const S*>(ra.data);
  const S* b = static_cast<const S*>(rb.data);
  with_binary_fn<D>(op, propagate_nan, f, [&](auto fn) {
    using O = LaneOut<D, decltype(fn)>;
    O* o = static_cast<O*>(ov);
    for (int64_t r = 0; r < rows; ++r) {
      // The result is a register of its own: no operand row aliases it.
      const S* __restrict ar = a + (ra.row_off ? ra.row_off[r] : r * cols);
      const S* __restrict br = b + (rb.row_off ? rb.row_off[r] : r * cols);
      O* __restrict orow = o + r * cols;
      if (ra.col_step && rb.col_step) {
        for (int64_t c = 0; c < cols; ++c) orow[c] = store_lane<D>(fn(load_c<D>(ar[c]), load_c<D>(br[c])));
      } else if (ra.col_step) {
        const C y = load_c<D>(br[0]);
        for (int64_t c = 0; c < cols; ++c) orow[c] = store_lane<D>(fn(load_c<D>(ar[c]), y));
      } else if (rb.col_step) {
        const C x = load_c<D>(ar[0]);
        for (int64_t c = 0; c < cols; ++c) orow[c] = store_lane<D>(fn(x, load_c<D>(br[c])));
      } else {
        // One value per row: computed per lane all the same, so flags
        // (a division by zero) count every lane as binary() would.
        const C x = load_c<D>(ar[0]), y = load_c<D>(br[0]);
        for (int64_t c = 0; c < cols; ++c) orow[c] = store_lane<D>(fn(x, y));
      }
    }
  });
}

// Float -> integer: truncate, NaN -> 0, saturate at the type's range.
template <class I>
I saturate_to_int(double v) {
  if (v != v) return 0;
  constexpr double lo = static_cast<double>(std::numeric_limits<I>::min());
  constexpr double hi_excl = static_cast<double>(std::numeric_limits<I>::max()) + 1.0;  // exact power of two
  if (v <= lo) return std::numeric_limits<I>::min();
  if (v >= hi_excl) return std::numeric_limits<I>::max();
  return static_cast<I>(std::trunc(v));
}

float double_to_f32(double v) {
  // Values past FLT_MAX round to infinity; converting them with a plain
  // cast would be undefined behaviour.
  if (std::isfinite(v) && std::fabs(v) >= 3.4028235677973366e+38) return v > 0 ? INFINITY : -INFINITY;
  return static_cast<float>(v);
}

}  // namespace

template <DType D>
typename StorageOf<D>::type from_double(double v) {
  using S = typename StorageOf<D>::type;
  if constexpr (D == DType::i1) return static_cast<uint8_t>(v != 0 || v != v);
  else if constexpr (D == DType::f64) return v;
  else if constexpr (D == DType::f32) return double_to_f32(v);
  else if constexpr (D == DType::f16 || D == DType::bf16) {
    // Round to odd on the way to f32, then to nearest even: one correct
    // rounding. Huge values go straight to +-inf.
    float f = std::isfinite(v) && std::fabs(v) > 3.0e38 ? double_to_f32(v) : double_to_float_odd(v);
    if constexpr (D == DType::f16) return Half{float_to_half(f)};
    else return BFloat{float_to_bf16(f)};
  }
  else return saturate_to_int<S>(v);
}

namespace {

template <DType From, DType To>
void cast_t(const void* av, void* ov, int64_t n) {
  using SF = typename StorageOf<From>::type;
  using ST = typename StorageOf<To>::type;
  const SF* a = static_cast<const SF*>(av);
  ST* o = static_cast<ST*>(ov);
  for (int64_t i = 0; i < n; ++i) {
    if constexpr (is_int(From) && is_int(To)) {
      if constexpr (To == DType::i1) o[i] = a[i] != 0;
      else o[i] = static_cast<ST>(a[i]);  // sign- or zero-extend, or keep the low bits
    } else if constexpr (From == DType::f32 && To == DType::f16) {
      o[i] = Half{float_to_half(a[i])};
    } else if constexpr (From == DType::f32 && To == DType::bf16) {
      o[i] = BFloat{float_to_bf16(a[i])};
    } else if constexpr (is_int(From) && bit_width(From) == 64 && is_float(To)) {
      // Large 64-bit integers: convert straight, to avoid rounding twice.
      if constexpr (To == DType::f64) o[i] = static_cast<double>(a[i]);
      else if constexpr (To == DType::f32) o[i] = static_cast<float>(a[i]);
      else o[i] = from_double<To>(static_cast<double>(a[i]));
    } else {
      o[i] = from_double<To>(static_cast<double>(load_c<From>(a[i])));
    }
  }
}

}  // namespace

void unary(ir::Op op, DType d, const void* a, void* out, int64_t n) {
  if ((op >= ir::Op::Erf && op <= ir::Op::Round) || ir::is_libdevice_unary(op)) return unary_math(op, d, a, out, n);
  dispatch(d, [&]<DType D>() { unary_t<D>(op, a, out, n); });
}

void binary(ir::Op op, DType d, const void* a, const void* b, void* out, int64_t n, bool propagate_nan,
            ArithFlags& flags) {
  if (op == ir::Op::Pow || op == ir::Op::UMulHi || ir::is_libdevice_binary(op))
    return binary_math(op, d, a, b, out, n);
  dispatch(d, [&]<DType D>() { binary_t<D>(op, a, b, out, n, propagate_nan, flags); });
}

void binary_rows(ir::Op op, DType d, const RowOperand& a, const RowOperand& b, void* out, int64_t rows, int64_t cols,
                 bool propagate_nan, ArithFlags& flags) {
  dispatch(d, [&]<DType D>() { binary_rows_t<D>(op, a, b, out, rows, cols, propagate_nan, flags); });
}

void cast(DType from, DType to, const void* a, void* out, int64_t n) {
  dispatch(from, [&]<DType F>() { dispatch(to, [&]<DType T>() { cast_t<F, T>(a, out, n); }); });
}

void where(DType, const uint8_t* c, const void* a, const void* b, void* out, int64_t n, size_t elem) {
  auto* o = static_cast<std::byte*>(out);
  auto* pa = static_cast<const std::byte*>(a);
  auto* pb = static_cast<const std::byte*>(b);
  if (elem == 4) {
    auto* o4 = reinterpret_cast<uint32_t*>(o);
    auto* a4 = reinterpret_cast<const uint32_t*>(pa);
    auto* b4 = reinterpret_cast<const uint32_t*>(pb);
    for (int64_t i = 0; i < n; ++i) o4[i] = c[i] ? a4[i] : b4[i];
    return;
  }
  for (int64_t i = 0; i < n; ++i) std::memcpy(o + i * elem, (c[i] ? pa : pb) + i * elem, elem);
}

void fma(DType d, const void* a, const void* b, const void* c, void* out, int64_t n) {
  dispatch(d, [&]<DType D>() {
    using S = typename StorageOf<D>::type;
    if constexpr (is_float(D)) {
      const S* x = static_cast<const S*>(a);
      const S* y = static_cast<const S*>(b);
      const S* z = static_cast<const S*>(c);
      S* o = static_cast<S*>(out);
      for (int64_t i = 0; i < n; ++i) o[i] = store_c<D>(std::fma(load_c<D>(x[i]), load_c<D>(y[i]), load_c<D>(z[i])));
    }
  });
}

void constant(DType d, int64_t ival, double fval, void* out) {
  dispatch(d, [&]<DType D>() {
    using S = typename StorageOf<D>::type;
    if constexpr (is_float(D)) *static_cast<S*>(out) = from_double<D>(fval);
    else *static_cast<S*>(out) = static_cast<S>(ival);
  });
}

double to_double(DType d, const void* p, int64_t i) {
  return dispatch(d, [&]<DType D>() -> double {
    return static_cast<double>(load_c<D>(static_cast<const typename StorageOf<D>::type*>(p)[i]));
  });
}

void from_double_into(DType d, void* p, int64_t i, double v) {
  dispatch(d, [&]<DType D>() { static_cast<typename StorageOf<D>::type*>(p)[i] = from_double<D>(v); });
}

void write_poison(DType d, void* p, int64_t i) {
  dispatch(d, [&]<DType D>() {
    using S = typename StorageOf<D>::type;
    S* o = static_cast<S*>(p);
    if constexpr (is_float(D)) o[i] = from_double<D>(std::numeric_limits<double>::quiet_NaN());
    else if constexpr (D == DType::i1) o[i] = 1;
    else o[i] = std::numeric_limits<S>::max();
  });
}

}  // namespace tl::eval
