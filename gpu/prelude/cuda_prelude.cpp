#include "cuda_prelude.h"

namespace tl::gpu {

namespace {

// Kept as raw strings so `tilescope compile N --cuda` shows exactly what
// NVRTC compiles, in three parts one after the other: the semantics (this
// file's first), the tensor cores and asynchronous copies
// (cuda_prelude_async.cpp), memory access (this file's second). Every helper is small and force-inlined: the generated
// kernels read like the IR, and these say what each defined case computes.
constexpr const char* kPrelude = R"CUDA(// ---- tilescope prelude ---------------------------------------------------
#ifdef __CUDACC_RTC__
typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long long int64_t;
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long long uint64_t;
#else
#include <cstdint>
#endif
// A kernel with no f16 or bf16 value defines TS_NO_16BIT first: the two
// headers were a tenth of a small kernel's NVRTC time (p09: 0.19 s, 0.18
// without them; development machine).
#ifndef TS_NO_16BIT
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#endif

#define TS_INLINE static __device__ __forceinline__

// A fact the device compiler may use (NVVM's __builtin_assume); nothing on
// the host emulation's compilers, which lack it.
#ifdef __CUDA_ARCH__
#define TS_ASSUME(c) __builtin_assume(c)
#else
#define TS_ASSUME(c) ((void)0)
#endif

// Facts about each integer type. `wide` is an unsigned type of at least 32
// bits: + - * are done in it, so they wrap (SEMANTICS 3) instead of being
// undefined signed overflow, and u16 * u16 never overflows a promoted int.
template <class T> struct ts_int;
#define TS_INT(T, WIDE, SIGNED, BITS, LO, HI)                   \
  template <> struct ts_int<T> {                                \
    typedef WIDE wide;                                          \
    static constexpr bool is_signed = SIGNED;                   \
    static constexpr int bits = BITS;                           \
    static constexpr T lo = LO, hi = HI;                        \
  };
TS_INT(int8_t, uint32_t, true, 8, -128, 127)
TS_INT(int16_t, uint32_t, true, 16, -32768, 32767)
TS_INT(int32_t, uint32_t, true, 32, (-2147483647 - 1), 2147483647)
TS_INT(int64_t, uint64_t, true, 64, (-9223372036854775807LL - 1), 9223372036854775807LL)
TS_INT(uint8_t, uint32_t, false, 8, 0, 255)
TS_INT(uint16_t, uint32_t, false, 16, 0, 65535)
TS_INT(uint32_t, uint32_t, false, 32, 0u, 4294967295u)
TS_INT(uint64_t, uint64_t, false, 64, 0ull, 18446744073709551615ull)
#undef TS_INT

template <class T> TS_INLINE T ts_add(T a, T b) { typedef typename ts_int<T>::wide U; return (T)((U)a + (U)b); }
template <class T> TS_INLINE T ts_sub(T a, T b) { typedef typename ts_int<T>::wide U; return (T)((U)a - (U)b); }
template <class T> TS_INLINE T ts_mul(T a, T b) { typedef typename ts_int<T>::wide U; return (T)((U)a * (U)b); }
template <class T> TS_INLINE T ts_neg(T a) { typedef typename ts_int<T>::wide U; return (T)((U)0 - (U)a); }
// abs(INT_MIN) wraps to INT_MIN; called for signed types only.
template <class T> TS_INLINE T ts_abs(T a) { return a < (T)0 ? ts_neg(a) : a; }

// tl::: x / 0 and x % 0 give 0; INT_MIN / -1 wraps, its remainder is 0.
template <class T> TS_INLINE T ts_div(T a, T b) {
  if (b == (T)0) return (T)0;
  if (ts_int<T>::is_signed && b == (T)-1) return ts_neg(a);
  return (T)(a / b);
}
template <class T> TS_INLINE T ts_mod(T a, T b) {
  if (b == (T)0) return (T)0;
  if (ts_int<T>::is_signed && b == (T)-1) return (T)0;
  return (T)(a % b);
}

// tl::: a shift count that is negative or not below the width gives 0, or
// all sign bits for an arithmetic >> (PTX's clamping). A negative count
// converted to the wide unsigned type is huge, so one compare covers both.
template <class T> TS_INLINE T ts_shl(T a, T count) {
  typedef typename ts_int<T>::wide U;
  if ((U)count >= (U)ts_int<T>::bits) return (T)0;
  return (T)((U)a << (int)count);
}
template <class T> TS_INLINE T ts_shr(T a, T count) {
  typedef typename ts_int<T>::wide U;
  if ((U)count >= (U)ts_int<T>::bits) return ts_int<T>::is_signed ? (T)(a >> (ts_int<T>::bits - 1)) : (T)0;
  return (T)(a >> (int)count);  // arithmetic for signed types, logical for unsigned
}

// Float -> integer (SEMANTICS 5): truncate toward zero; tl::: NaN gives 0
// and out-of-range values saturate, at every width. Computed in f64, where
// every f32/f16/bf16 value is exact, as the interpreter does.
template <class I> TS_INLINE I ts_float_to_int(double v) {
  if (v != v) return (I)0;
  if (v <= (double)ts_int<I>::lo) return ts_int<I>::lo;
  if (v >= (double)ts_int<I>::hi + 1.0) return ts_int<I>::hi;
  return (I)v;
}
// The same rule for an f32 source, in f32 (an f64 conversion and
// compare per element cost E2's quantizer more than its arithmetic). Every
// bound compared against (lo, hi + 1) is a power of two or its negation, so
// exact in f32, and every f32 value is exactly the f64 one: the same answer.
// To 32 bits the GPU's own conversion is that rule: cvt.rzi clamps to the
// destination's range and gives 0 for NaN (PTX ISA, cvt). One instruction
// instead of three compares and branches per element (E2's quantizer
// converts 8 values a lane a row); the GPU test of the semantics cases'
// casts (NaN, infinities, 1e10, 3e38, 2^32, -0.0, ...) pins it down.
template <class I> TS_INLINE I ts_f32_to_int(float v) {
#ifdef __CUDA_ARCH__
  if constexpr (ts_int<I>::bits == 32) {
    I r;
    if constexpr (ts_int<I>::is_signed) asm("cvt.rzi.s32.f32 %0, %1;" : "=r"(r) : "f"(v));
    else asm("cvt.rzi.u32.f32 %0, %1;" : "=r"(r) : "f"(v));
    return r;
  }
#endif
  if (v != v) return (I)0;
  if (v <= (float)ts_int<I>::lo) return ts_int<I>::lo;
  if (v >= (float)ts_int<I>::hi + 1.0f) return ts_int<I>::hi;
  return (I)v;
}

// Same-width reinterpretation.
template <class To, class From> TS_INLINE To ts_bitcast(From x) {
  To to;
  memcpy(&to, &x, sizeof(To));
  return to;
}

// tf32 (SEMANTICS 8): clear the 13 low mantissa bits, as the tensor cores
// do with the f32 words they read (a NaN with its payload only there
// becomes Inf on both). On the bits for CodegenOptions::tf32_cut_staged.
TS_INLINE uint32_t ts_tf32_word(uint32_t b) { return b & 0xffffe000u; }
TS_INLINE float ts_tf32(float x) { return __uint_as_float(ts_tf32_word(__float_as_uint(x))); }

// max/min with propagate_nan = all: NaN wins (x + y is NaN then).
TS_INLINE float ts_fmax_nan(float a, float b) { return (a != a || b != b) ? a + b : fmaxf(a, b); }
TS_INLINE float ts_fmin_nan(float a, float b) { return (a != a || b != b) ? a + b : fminf(a, b); }
TS_INLINE double ts_fmax_nan(double a, double b) { return (a != a || b != b) ? a + b : fmax(a, b); }
TS_INLINE double ts_fmin_nan(double a, double b) { return (a != a || b != b) ? a + b : fmin(a, b); }

// atomic_add(ptr, val, mask, sem, scope) (SEMANTICS 9): SEM ir::MemSem
// (acq_rel, the default, acquire, release, relaxed), SCOPE ir::MemScope
// (gpu, the default, cta, sys), spelled into the PTX atom as Triton's
// lowering spells them; CUDA's atomicAdd would be relaxed. A relaxed add
// carries no fence, where acq_rel brackets each element's add with fences:
// split-K sums (E4) want relaxed. Returns the old value. (Tests that run
// generated kernels on the CPU define TS_HOST_ATOMICS and bring their own.)
#ifndef TS_HOST_ATOMICS
// Every pointer a kernel adds through is a global tensor's: the .global
// forms, where a generic address has ptxas test for the shared window at
// each add (E4's 128-add epilogue: NVRTC 0.46 s against 0.62 generic,
// development machine).
TS_INLINE size_t ts_global(const void* p) { return __cvta_generic_to_global(p); }
#define TS_ATOM_CASE(SEM_I, SCOPE_I, SEM_S, SCOPE_S, PTX, C, IN) \
  if constexpr (SEM == SEM_I && SCOPE == SCOPE_I)                 \
    asm volatile("atom." SEM_S "." SCOPE_S ".global.add." PTX " %0, [%1], %2;" : "=" C(old) : "l"(ts_global(p)), C(IN) : "memory");
#define TS_ATOM_SCOPES(SEM_I, SEM_S, PTX, C, IN)         \
  TS_ATOM_CASE(SEM_I, 0, SEM_S, "gpu", PTX, C, IN)       \
  TS_ATOM_CASE(SEM_I, 1, SEM_S, "cta", PTX, C, IN)       \
  TS_ATOM_CASE(SEM_I, 2, SEM_S, "sys", PTX, C, IN)
#define TS_ATOM(T, PTX, C, IN, U, BACK)                                    \
  template <int SEM, int SCOPE> TS_INLINE T ts_atomic_add(T* p, T v) {     \
    U old = 0;                                                             \
    TS_ATOM_SCOPES(0, "acq_rel", PTX, C, IN)                               \
    TS_ATOM_SCOPES(1, "acquire", PTX, C, IN)                               \
    TS_ATOM_SCOPES(2, "release", PTX, C, IN)                               \
    TS_ATOM_SCOPES(3, "relaxed", PTX, C, IN)                               \
    return BACK(old);                                                      \
  }
#define TS_ATOM_SAME(x) (x)
TS_ATOM(int32_t, "s32", "r", v, int32_t, TS_ATOM_SAME)
TS_ATOM(uint32_t, "u32", "r", v, uint32_t, TS_ATOM_SAME)
TS_ATOM(uint64_t, "u64", "l", v, uint64_t, TS_ATOM_SAME)
TS_ATOM(float, "f32", "f", v, float, TS_ATOM_SAME)
TS_ATOM(double, "f64", "d", v, double, TS_ATOM_SAME)
template <int SEM, int SCOPE> TS_INLINE int64_t ts_atomic_add(int64_t* p, int64_t v) {  // two's complement: u64 adds the same bits
  return (int64_t)ts_atomic_add<SEM, SCOPE>((uint64_t*)p, (uint64_t)v);
}
#ifndef TS_NO_16BIT
TS_ATOM(__half, "noftz.f16", "h", __half_as_ushort(v), unsigned short, __ushort_as_half)
TS_ATOM(__nv_bfloat16, "noftz.bf16", "h", __bfloat16_as_ushort(v), unsigned short, __ushort_as_bfloat16)
#endif
#undef TS_ATOM
#undef TS_ATOM_SAME
#undef TS_ATOM_SCOPES
#undef TS_ATOM_CASE

// An atomic_add whose old value the kernel never reads (a split-K
// epilogue's): PTX red, which answers nothing, for the orders red takes
// (relaxed and release, SEM 3 and 2; the code generator keeps atom for
// the others).
// TS_RED_ORDERS(OPERATION, operands...): the `red` of the template's SEM
// and SCOPE, "red.<sem>.<scope>.global.add." OPERATION.
#define TS_RED_CASE(SEM_I, SCOPE_I, SEM_S, SCOPE_S, OP, ...) \
  if constexpr (SEM == SEM_I && SCOPE == SCOPE_I)             \
    asm volatile("red." SEM_S "." SCOPE_S ".global.add." OP ::__VA_ARGS__ : "memory");
#define TS_RED_SCOPES(SEM_I, SEM_S, OP, ...)               \
  TS_RED_CASE(SEM_I, 0, SEM_S, "gpu", OP, __VA_ARGS__)     \
  TS_RED_CASE(SEM_I, 1, SEM_S, "cta", OP, __VA_ARGS__)     \
  TS_RED_CASE(SEM_I, 2, SEM_S, "sys", OP, __VA_ARGS__)
#define TS_RED_ORDERS(OP, ...)                                      \
  static_assert(SEM == 2 || SEM == 3, "red: relaxed or release"); \
  TS_RED_SCOPES(2, "release", OP, __VA_ARGS__)                      \
  TS_RED_SCOPES(3, "relaxed", OP, __VA_ARGS__)
#define TS_RED(T, PTX, C, IN) \
  template <int SEM, int SCOPE> TS_INLINE void ts_red_add(T* p, T v) { TS_RED_ORDERS(PTX " [%0], %1;", "l"(ts_global(p)), C(IN)) }
TS_RED(int32_t, "s32", "r", v)
TS_RED(uint32_t, "u32", "r", v)
TS_RED(uint64_t, "u64", "l", v)
TS_RED(float, "f32", "f", v)
TS_RED(double, "f64", "d", v)
template <int SEM, int SCOPE> TS_INLINE void ts_red_add(int64_t* p, int64_t v) {
  ts_red_add<SEM, SCOPE>((uint64_t*)p, (uint64_t)v);
}
#ifndef TS_NO_16BIT
TS_RED(__half, "noftz.f16", "h", __half_as_ushort(v))
TS_RED(__nv_bfloat16, "noftz.bf16", "h", __bfloat16_as_ushort(v))
#endif
// Two neighbouring f32 adds, p 8-byte aligned: one red.v2 on sm_90 (each
// element's add atomic on its own, as two reds), half the L2's requests.
template <int SEM, int SCOPE> TS_INLINE void ts_red_add_pair(float* p, float a, float b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  TS_RED_ORDERS("v2.f32 [%0], {%1, %2};", "l"(ts_global(p)), "f"(a), "f"(b))
#else
  ts_red_add<SEM, SCOPE>(p, a);
  ts_red_add<SEM, SCOPE>(p + 1, b);
#endif
}
#undef TS_RED
#undef TS_RED_ORDERS
#undef TS_RED_SCOPES
#undef TS_RED_CASE
#endif

// The other atomics: K is ir::AtomicKind (max, min, and, or,
// xor, xchg, cas), SEM ir::MemSem (acq_rel, acquire, release, relaxed),
// SCOPE ir::MemScope (gpu, cta, sys). CUDA's atomics are relaxed; a fence
// of the scope before gives release, one after gives acquire. Float
// max/min as Triton lowers them: a value with the sign bit clear takes a
// signed-integer max (min) of the bits, one with it set an unsigned min
// (max). Returns the old value.
template <int B> struct ts_uint_of;
template <> struct ts_uint_of<2> { typedef unsigned short u; typedef short s; };
template <> struct ts_uint_of<4> { typedef unsigned int u; typedef int s; };
template <> struct ts_uint_of<8> { typedef unsigned long long u; typedef long long s; };
template <class T> struct ts_is_fp { static const bool value = false; };
template <> struct ts_is_fp<float> { static const bool value = true; };
template <> struct ts_is_fp<double> { static const bool value = true; };
#ifndef TS_HOST_ATOMICS
template <int SCOPE> TS_INLINE void ts_fence() {
  if (SCOPE == 1) __threadfence_block();
  else if (SCOPE == 2) __threadfence_system();
  else __threadfence();
}
// Only the scope's own function is compiled: not every type has all three.
#define TS_SCOPED(F, ...)                                  \
  [&] {                                                    \
    if constexpr (SCOPE == 1) return F##_block(__VA_ARGS__);  \
    else if constexpr (SCOPE == 2) return F##_system(__VA_ARGS__); \
    else return F(__VA_ARGS__);                            \
  }()
template <int K, int SEM, int SCOPE, class T> TS_INLINE T ts_atomic_rmw(T* p, T v, T c = T()) {
  typedef typename ts_uint_of<sizeof(T)>::u U;
  typedef typename ts_uint_of<sizeof(T)>::s S;
  U* up = (U*)p;
  const U uv = ts_bitcast<U>(v);
  U old = 0;
  if (SEM == 0 || SEM == 2) ts_fence<SCOPE>();
  if constexpr (K == 6) {
    old = TS_SCOPED(atomicCAS, up, ts_bitcast<U>(c), uv);
  } else if constexpr (sizeof(T) >= 4) {
    const bool is_signed = ts_is_fp<T>::value ? !(uv >> (sizeof(U) * 8 - 1)) : (T)(-1) < (T)0;
    if constexpr (K == 0) old = is_signed ? (U)TS_SCOPED(atomicMax, (S*)p, (S)uv) : ts_is_fp<T>::value ? TS_SCOPED(atomicMin, up, uv) : TS_SCOPED(atomicMax, up, uv);
    if constexpr (K == 1) old = is_signed ? (U)TS_SCOPED(atomicMin, (S*)p, (S)uv) : ts_is_fp<T>::value ? TS_SCOPED(atomicMax, up, uv) : TS_SCOPED(atomicMin, up, uv);
    if constexpr (K == 2) old = TS_SCOPED(atomicAnd, up, uv);
    if constexpr (K == 3) old = TS_SCOPED(atomicOr, up, uv);
    if constexpr (K == 4) old = TS_SCOPED(atomicXor, up, uv);
    if constexpr (K == 5) old = TS_SCOPED(atomicExch, up, uv);
  }
  if (SEM == 0 || SEM == 1) ts_fence<SCOPE>();
  return ts_bitcast<T>(old);
}
#undef TS_SCOPED
#endif

// umulhi: the high half of the full unsigned product, in the operand type.
// (Host builds of the generated code, which the tests run on the CPU, take
// the 128-bit integer path.)
TS_INLINE uint64_t ts_umulhi64(uint64_t a, uint64_t b) {
#ifdef __CUDA_ARCH__
  return __umul64hi(a, b);
#else
  return (uint64_t)(((unsigned __int128)a * b) >> 64);
#endif
}
TS_INLINE uint32_t ts_umulhi(uint32_t a, uint32_t b) { return (uint32_t)(((uint64_t)a * b) >> 32); }
TS_INLINE int32_t ts_umulhi(int32_t a, int32_t b) { return (int32_t)ts_umulhi((uint32_t)a, (uint32_t)b); }
TS_INLINE uint64_t ts_umulhi(uint64_t a, uint64_t b) { return ts_umulhi64(a, b); }
TS_INLINE int64_t ts_umulhi(int64_t a, int64_t b) { return (int64_t)ts_umulhi64((uint64_t)a, (uint64_t)b); }

// The value lane (lane ^ offset) of this warp holds, for any type of up to
// 8 bytes (reductions combine partials with these).
template <class T> TS_INLINE T ts_shfl_xor(T v, int offset) {
  if constexpr (sizeof(T) == 8) {
    long long b;
    memcpy(&b, &v, 8);
    b = __shfl_xor_sync(0xffffffffu, b, offset);
    memcpy(&v, &b, 8);
  } else {
    int b = 0;
    memcpy(&b, &v, sizeof(T));
    b = __shfl_xor_sync(0xffffffffu, b, offset);
    memcpy(&v, &b, sizeof(T));
  }
  return v;
}

)CUDA";

// After those: stores, loads and conversions the generated code spells.
constexpr const char* kPreludeMemory = R"CUDA(// Four words of shared memory at once.
struct __align__(16) ts_u4 {
  uint32_t x, y, z, w;
};
// Four words into shared memory by one 16-byte store (the caller keeps the
// address 16-byte aligned): NVVM splits a ts_u4's store of computed words
// into four 4-byte stores (a wgmma operand written from registers).
TS_INLINE void ts_st_shared16(void* p, uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
#ifdef __CUDA_ARCH__
  asm volatile("st.shared.v4.b32 [%0], {%1, %2, %3, %4};" ::"r"(static_cast<unsigned>(__cvta_generic_to_shared(p))),
               "r"(a), "r"(b), "r"(c), "r"(d)
               : "memory");
#else
  *reinterpret_cast<ts_u4*>(p) = ts_u4{a, b, c, d};
#endif
}
// Two 4-byte values side by side, one 8-byte store (an MMA-layout store's
// column pairs; the caller checks that the address is 8-byte aligned).
template <class T> TS_INLINE void ts_store_pair(T* p, T a, T b) {
#ifdef __CUDA_ARCH__
  // A vector store: NVVM splits a struct's into two.
  asm volatile("st.v2.b32 [%0], {%1, %2};" ::"l"(p), "r"(ts_bitcast<uint32_t>(a)), "r"(ts_bitcast<uint32_t>(b)) : "memory");
#else
  p[0] = a;
  p[1] = b;
#endif
}
// Brings the line of `p` into L1 (a hint: no value, no fault). A pipelined
// loop's other loads are read one iteration ahead (codegen_pipeline.cpp);
// where only the broadcast's reloads use them (E4's packed words, scales
// and minima, read again at every value), NVRTC drops the early read as
// dead, and this keeps its line warm for the reloads.
TS_INLINE void ts_prefetch_l1(const void* p) {
#ifdef __CUDA_ARCH__
  asm volatile("prefetch.global.L1 [%0];" ::"l"(p));
#else
  (void)p;
#endif
}
// The 16 bits at `p` in a 32-bit register, zero-extended by the load itself
// (ld.u16 into a .b32 register): the warp-specialized producer's small
// loads, kept in flight across iterations. Read as unsigned short and
// widened, NVCC masked the value right after the load (LOP3 & 0xffff),
// which waited for it.
TS_INLINE uint32_t ts_load_bits16(const void* p) {
#ifdef __CUDA_ARCH__
  uint32_t v;
  asm volatile("ld.u16 %0, [%1];" : "=r"(v) : "l"(p));
  return v;
#else
  unsigned short v;
  memcpy(&v, p, sizeof v);
  return v;
#endif
}
// Two 16-bit values, lo first in memory, as one fragment word.
TS_INLINE uint32_t ts_pack2(unsigned short lo, unsigned short hi) { return (uint32_t)lo | ((uint32_t)hi << 16); }
#ifndef TS_NO_16BIT
// Two f32 values rounded to nearest even as one fragment word, lo first, by
// one paired conversion (cvt.rn.bf16x2.f32 / cvt.rn.f16x2.f32): each value
// rounds exactly as __float2bfloat16_rn / __float2half_rn rounds it alone.
TS_INLINE uint32_t ts_pack2_bf16_rn(float lo, float hi) { return ts_bitcast<uint32_t>(__floats2bfloat162_rn(lo, hi)); }
TS_INLINE uint32_t ts_pack2_f16_rn(float lo, float hi) { return ts_bitcast<uint32_t>(__floats2half2_rn(lo, hi)); }
#endif
// An i32 known to lie in [0, 2^23) as f32, exactly, without the conversion
// unit (a quarter-rate pipe): below 2^23's exponent its bits read 2^23 + x,
// and the subtraction is exact.
TS_INLINE float ts_u23_to_f32(int32_t x) { return ts_bitcast<float>(x | 0x4B000000) - 8388608.0f; }
// The same of x & mask (mask < 2^23): the mask and the exponent's OR in one
// lop3 ((a & b) | c), which ptxas keeps as one LOP3 (left to itself it
// emitted two: E4's `& 3` and the OR, 32 instructions an iteration of the
// warp-specialized producer).
TS_INLINE float ts_u23_mask_to_f32(int32_t x, uint32_t mask) {
#ifdef __CUDA_ARCH__
  uint32_t bits;
  asm("lop3.b32 %0, %1, %2, %3, 0xEA;" : "=r"(bits) : "r"(x), "r"(mask), "r"(0x4B000000u));
  return ts_bitcast<float>(bits) - 8388608.0f;
#else
  return ts_bitcast<float>((static_cast<uint32_t>(x) & mask) | 0x4B000000u) - 8388608.0f;
#endif
}

// A read the compiler may neither drop nor move (CodegenOptions::every_load):
// a volatile access of the same bytes, whatever the element type.
template <class T> TS_INLINE T ts_load_kept(const T* p) {
  T v;
  if constexpr (sizeof(T) == 1) {
    uint8_t b = *reinterpret_cast<const volatile uint8_t*>(p);
    memcpy(&v, &b, 1);
  } else if constexpr (sizeof(T) == 2) {
    uint16_t b = *reinterpret_cast<const volatile uint16_t*>(p);
    memcpy(&v, &b, 2);
  } else if constexpr (sizeof(T) == 4) {
    uint32_t b = *reinterpret_cast<const volatile uint32_t*>(p);
    memcpy(&v, &b, 4);
  } else {
    uint64_t b = *reinterpret_cast<const volatile uint64_t*>(p);
    memcpy(&v, &b, 8);
  }
  return v;
}
// ---- end of prelude -------------------------------------------------------
)CUDA";

}  // namespace

const std::string& cuda_prelude() {
  static const std::string text = std::string(kPrelude) + detail::cuda_prelude_async() + kPreludeMemory;
  return text;
}

}  // namespace tl::gpu
