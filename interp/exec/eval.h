// Shared pieces of the interpreter's evaluators: how each dtype is stored
// in a register, dtype dispatch, and the kernels over whole tiles.
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "half.h"
#include "ir.h"

namespace tl::eval {

// A pointer lane: which buffer (pointer parameter index) and element offset.
struct PtrVal {
  int64_t buf;
  int64_t off;
};

// Storage type of each dtype in a register (i1: one byte holding 0 or 1).
template <DType D> struct StorageOf;
template <> struct StorageOf<DType::i1> { using type = uint8_t; };
template <> struct StorageOf<DType::i8> { using type = int8_t; };
template <> struct StorageOf<DType::i16> { using type = int16_t; };
template <> struct StorageOf<DType::i32> { using type = int32_t; };
template <> struct StorageOf<DType::i64> { using type = int64_t; };
template <> struct StorageOf<DType::u8> { using type = uint8_t; };
template <> struct StorageOf<DType::u16> { using type = uint16_t; };
template <> struct StorageOf<DType::u32> { using type = uint32_t; };
template <> struct StorageOf<DType::u64> { using type = uint64_t; };
template <> struct StorageOf<DType::f16> { using type = Half; };
template <> struct StorageOf<DType::bf16> { using type = BFloat; };
template <> struct StorageOf<DType::f32> { using type = float; };
template <> struct StorageOf<DType::f64> { using type = double; };

// Calls f.template operator()<D>() for the runtime dtype d.
template <class F>
decltype(auto) dispatch(DType d, F&& f) {
  switch (d) {
    case DType::i1: return f.template operator()<DType::i1>();
    case DType::i8: return f.template operator()<DType::i8>();
    case DType::i16: return f.template operator()<DType::i16>();
    case DType::i32: return f.template operator()<DType::i32>();
    case DType::i64: return f.template operator()<DType::i64>();
    case DType::u8: return f.template operator()<DType::u8>();
    case DType::u16: return f.template operator()<DType::u16>();
    case DType::u32: return f.template operator()<DType::u32>();
    case DType::u64: return f.template operator()<DType::u64>();
    case DType::f16: return f.template operator()<DType::f16>();
    case DType::bf16: return f.template operator()<DType::bf16>();
    case DType::f32: return f.template operator()<DType::f32>();
    case DType::f64: return f.template operator()<DType::f64>();
  }
  return f.template operator()<DType::f32>();
}

// Arithmetic happens in float for f16/bf16, in the type itself otherwise.
template <DType D>
using Compute = std::conditional_t<D == DType::f16 || D == DType::bf16, float, typename StorageOf<D>::type>;

template <DType D>
inline Compute<D> load_c(typename StorageOf<D>::type s) {
  if constexpr (D == DType::f16) return half_to_float(s.bits);
  else if constexpr (D == DType::bf16) return bf16_to_float(s.bits);
  else return s;
}
template <DType D>
inline typename StorageOf<D>::type store_c(Compute<D> c) {
  if constexpr (D == DType::f16) return Half{float_to_half(c)};
  else if constexpr (D == DType::bf16) return BFloat{float_to_bf16(c)};
  else if constexpr (D == DType::i1) return static_cast<uint8_t>(c != 0);
  else return c;
}

// Triton's maximum/minimum of floats (fmax/fmin: a NaN loses to a number)
// orders -0.0 below +0.0, as the GPU's max.f32/min.f32 do, whichever
// operand comes first: max(-0, +0) = +0, min(+0, -0) = -0.
template <class C>
inline C max_signed_zero(C x, C y) {
  if (x == 0 && y == 0) return std::signbit(x) ? y : x;
  return std::fmax(x, y);
}
template <class C>
inline C min_signed_zero(C x, C y) {
  if (x == 0 && y == 0) return std::signbit(x) ? x : y;
  return std::fmin(x, y);
}

// Float % is LLVM's frem (fmod's sign convention: the result has x's
// sign), which the NVPTX backend Triton uses expands as
// x - trunc(x / y) * y (one fma), with y = +-inf giving x. Evaluated the
// same way, the interpreter gives the GPU's results: +0.0 where fmod would
// give -0.0, and the expansion's rounding when x / y is large or overflows.
template <class C>
inline C gpu_frem(C x, C y) {
  if (std::isinf(y)) return x;
  return std::fma(-std::trunc(x / y), y, x);
}

// Converts one value from double, with the cast rules of SEMANTICS §5.
template <DType D>
typename StorageOf<D>::type from_double(double v);
// Reads one element of any dtype as double.
double to_double(DType d, const void* p, int64_t i);
// Writes v converted per SEMANTICS §5 into element i of dtype d.
void from_double_into(DType d, void* p, int64_t i, double v);
// The poison an out-of-bounds load yields (NaN, or the type's maximum).
void write_poison(DType d, void* p, int64_t i);
// Size in bytes of one register element (pointers are PtrVal).
inline size_t elem_bytes(const ir::Type& t) { return t.is_ptr ? sizeof(PtrVal) : byte_size(t.dtype); }

// Flags an elementwise kernel raises for SEMANTICS' flagged cases.
struct ArithFlags {
  int64_t div_by_zero = 0;
  int64_t wide_shift = 0;
};

// ---- Whole-tile kernels ----------------------------------------------------
// `d` is the operand dtype; comparisons write i1 (uint8) results.
void unary(ir::Op op, DType d, const void* a, void* out, int64_t n);
void binary(ir::Op op, DType d, const void* a, const void* b, void* out, int64_t n, bool propagate_nan,
            ArithFlags& flags);
// One operand of binary_rows: lane (r, c) of the [rows, cols] result reads
// element row_off[r] + c * col_step of `data`; col_step is 1 (a row) or 0
// (one value stretched along the row); row_off null: a whole tile, r * cols.
struct RowOperand {
  const void* data = nullptr;
  const int64_t* row_off = nullptr;
  int64_t col_step = 1;
};
// binary() with operands that may be broadcasts read in place (the fusion
// pass, exec_fuse.cpp): the same lanes and flags as binary() on the
// materialized tiles. Not for Pow and UMulHi.
void binary_rows(ir::Op op, DType d, const RowOperand& a, const RowOperand& b, void* out, int64_t rows, int64_t cols,
                 bool propagate_nan, ArithFlags& flags);
void cast(DType from, DType to, const void* a, void* out, int64_t n);
void where(DType d, const uint8_t* c, const void* a, const void* b, void* out, int64_t n, size_t elem);
void fma(DType d, const void* a, const void* b, const void* c, void* out, int64_t n);
void constant(DType d, int64_t ival, double fval, void* out);
// Writes the result row-major while reading the input at
// sum(index[i] * strides[i]) (broadcast: stride 0 stretches; permute).
void strided_copy(int rank, const int64_t* dims, const int64_t* strides, size_t elem, const void* a, void* o);
// Reduces the middle axis of an [outer, len, inner] tile; `scratch` is
// reused between calls.
void reduce(ir::ReduceKind kind, DType d, int64_t outer, int64_t len, int64_t inner, bool propagate_nan,
            const void* a, void* out, std::vector<std::byte>& scratch);
void dot(DType in, DType out, ir::Precision p, const ir::Shape& a_shape, const ir::Shape& b_shape, const void* a,
         const void* b, const void* acc, void* o);
// tf32: clear the 13 low mantissa bits of an f32 (SEMANTICS §8).
float tf32_truncate(float x);

// ---- eval_math.cpp: atomics and math ops --------------------------------------
// Erf, Log1p, Expm1, Rint, Round (floats), Pow (floats), UMulHi (integers).
void unary_math(ir::Op op, DType d, const void* a, void* out, int64_t n);
void binary_math(ir::Op op, DType d, const void* a, const void* b, void* out, int64_t n);
// A float -> narrower float cast rounding toward zero (fp_downcast_rounding
// = "rtz"): overflow gives the largest finite value, not infinity.
void cast_rtz(DType from, DType to, const void* a, void* out, int64_t n);

// ---- eval_atomics.cpp ----------------------------------------------------------
// One lane of an AtomicRMW on the element at `addr` (dtype d): writes the old
// value to `old` and the combined one to `addr`. `cmp` is Cas's only.
void atomic_rmw(ir::AtomicKind k, DType d, void* addr, const void* value, const void* cmp, void* old);

}  // namespace tl::eval
