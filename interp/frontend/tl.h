// tl:: — the tile DSL kernels are written in.
//
// A kernel is an ordinary C++ function over tl:: parameter types:
//   tl::Ptr    a pointer to a buffer's elements (its dtype comes from the launch)
//   tl::Int    a runtime i32 scalar (tl::Int64, tl::Float for i64 / f32)
//   tl::Const  a compile-time integer (Triton's tl.constexpr): a plain int
// Running the function once per set of constants builds the kernel's IR; the
// interpreter and the CUDA backend then only execute or translate that IR.
//
// Triton ↔ tl::            x[:, None] ↔ x.col()     x[None, :] ↔ x.row()
//   a // b (ints) ↔ a / b   a / b (true division) ↔ a / b on floats, tl::truediv
//   tl.static_assert ↔ tl::static_assert_   tl.device_print ↔ tl::print
//   for i in range(a, b, s) ↔ for (auto i : tl::range(a, b, s))
//   if on a runtime scalar ↔ tl::if_(cond, [&] { ... }, [&] { ... })
//   while cond: ... ↔ tl::while_([&] { return cond; }, [&] { ... })
//   tl.make_block_ptr / tl.advance ↔ tl::make_block_ptr / tl::advance
//
// Every function takes a defaulted std::source_location as its last
// argument, so errors and traces name the kernel's own line.
#pragma once
#include <array>
#include <concepts>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <utility>
#include <source_location>
#include <string_view>
#include <vector>

#include "dtype.h"
#include "ir.h"

namespace tl {

using Shape = ir::Shape;
using Precision = ir::Precision;
inline constexpr Precision tf32 = Precision::tf32, tf32x3 = Precision::tf32x3, ieee = Precision::ieee;
using Loc = std::source_location;
#define TL_HERE std::source_location loc = std::source_location::current()

class Operand;

// A tile or 0-d tensor in the kernel being built. Each Tensor object owns a
// register of the IR; assigning to a Tensor that was declared outside the
// current loop or if writes that register, which makes it loop-carried.
class Tensor {
 public:
  Tensor();
  Tensor(const Tensor& other, TL_HERE);
  Tensor(Tensor&& other) noexcept;
  Tensor& operator=(const Tensor& other);
  Tensor& operator=(Tensor&& other);
  Tensor& operator=(const Operand& value);  // `acc = 0.0f` or `m = other_tile`

  bool defined() const { return reg_ >= 0; }
  ir::Type type() const;
  DType dtype() const { return type().dtype; }
  Shape shape() const { return type().shape; }
  int rank() const { return static_cast<int>(shape().size()); }
  int reg() const { return reg_; }

  Tensor col(TL_HERE) const;  // [N] -> [N, 1]  (x[:, None])
  Tensor row(TL_HERE) const;  // [N] -> [1, N]  (x[None, :])
  Tensor expand_dims(int axis, TL_HERE) const;
  Tensor to(DType dtype, bool bitcast = false, TL_HERE) const;
  Tensor reshape(Shape shape, TL_HERE) const;
  Tensor broadcast_to(Shape shape, TL_HERE) const;
  Tensor trans(TL_HERE) const;
  Tensor permute(std::vector<int> dims, TL_HERE) const;

  Tensor& operator+=(const Operand& v);
  Tensor& operator-=(const Operand& v);
  Tensor& operator*=(const Operand& v);
  Tensor& operator/=(const Operand& v);
  Tensor& operator%=(const Operand& v);
  Tensor& operator&=(const Operand& v);
  Tensor& operator|=(const Operand& v);
  Tensor& operator^=(const Operand& v);
  Tensor& operator<<=(const Operand& v);
  Tensor& operator>>=(const Operand& v);

  // Internal: wrap a fresh register at the current scope.
  static Tensor wrap(int reg);

 private:
  void assign_from(int src_reg, bool src_is_temporary, const SrcLoc& loc);
  int reg_ = -1;
  int depth_ = 0;
};

// Parameter types. They are Tensors; the launcher tells them apart.
struct Ptr : Tensor {
  using Tensor::Tensor;
  Ptr(Tensor&& t) : Tensor(std::move(t)) {}
};
struct Int : Tensor {
  using Tensor::Tensor;
  Int(Tensor&& t) : Tensor(std::move(t)) {}
};
struct Int64 : Tensor {
  using Tensor::Tensor;
  Int64(Tensor&& t) : Tensor(std::move(t)) {}
};
struct Float : Tensor {
  using Tensor::Tensor;
  Float(Tensor&& t) : Tensor(std::move(t)) {}
};
using Const = int;

// Anything that may stand in an arithmetic expression: a Tensor or a C++
// number (a "literal", typed by its value as SEMANTICS.md §1 says).
class Operand {
 public:
  enum class Kind : uint8_t { Tensor, Int, Float, Bool };
  Operand(const Tensor& t, TL_HERE);
  template <std::integral I>
  Operand(I v, TL_HERE) : kind_(std::same_as<I, bool> ? Kind::Bool : Kind::Int), int_(v), loc_(loc) {}
  template <std::floating_point F>
  Operand(F v, TL_HERE) : kind_(Kind::Float), float_(static_cast<double>(v)), loc_(loc) {}

  Kind kind() const { return kind_; }
  bool is_tensor() const { return kind_ == Kind::Tensor; }
  int reg() const { return reg_; }
  __int128 int_value() const { return int_; }
  double float_value() const { return float_; }
  const std::source_location& loc() const { return loc_; }

 private:
  Kind kind_;
  int reg_ = -1;
  __int128 int_ = 0;
  double float_ = 0;
  std::source_location loc_;
};

// ---- Program and tile creation -------------------------------------------
Tensor program_id(int axis, TL_HERE);
Tensor num_programs(int axis, TL_HERE);
Tensor arange(int64_t start, int64_t end, TL_HERE);
Tensor full(Shape shape, const Operand& value, DType dtype, TL_HERE);
Tensor zeros(Shape shape, DType dtype = DType::f32, TL_HERE);
Tensor zeros_like(const Tensor& x, TL_HERE);
Tensor scalar(const Operand& value, TL_HERE);  // a literal as a 0-d tensor

// ---- Memory -----------------------------------------------------------------
Tensor load(const Tensor& ptr, TL_HERE);
Tensor load(const Tensor& ptr, const Operand& mask, TL_HERE);
Tensor load(const Tensor& ptr, const Operand& mask, const Operand& other, TL_HERE);
void store(const Tensor& ptr, const Operand& value, TL_HERE);
void store(const Tensor& ptr, const Operand& value, const Operand& mask, TL_HERE);
Tensor atomic_add(const Tensor& ptr, const Operand& value, TL_HERE);
Tensor atomic_add(const Tensor& ptr, const Operand& value, const Operand& mask, TL_HERE);

// ---- Atomics (frontend_atomics.cpp) -------------------------------------------
// Each returns the values the elements held before (0 on masked lanes) and
// writes old ⊕ value. Rules as Triton's: f16/bf16 buffers take only add;
// 8- and 16-bit integers none; and/or/xor need integers; max/min on floats
// (f32, f64) order by value as Triton does through the bits (signed max for
// a value >= +0, unsigned min for one with the sign bit set). `sem` is one
// of acquire, release, acq_rel (default), relaxed; `scope` gpu (default),
// cta, sys; an empty string is the default. The sanitizer treats atomics
// as ordered among themselves (never a conflict with each other).
// `op` is add, max, min, and, or, xor, xchg or cas; `cmp` is cas's only.
Tensor atomic(std::string_view op, const Tensor& ptr, const Operand& value, const std::optional<Operand>& mask,
              const std::optional<Operand>& cmp, std::string_view sem, std::string_view scope, TL_HERE);
// (`and`, `or`, `xor` are C++ alternative tokens: the names are spelled out.)
#define TL_ATOMIC(FN, OP)                                                                                  \
  inline Tensor FN(const Tensor& ptr, const Operand& value, TL_HERE) {                                     \
    return atomic(OP, ptr, value, std::nullopt, std::nullopt, "", "", loc);                                \
  }                                                                                                        \
  inline Tensor FN(const Tensor& ptr, const Operand& value, const Operand& mask, std::string_view sem = "", \
                   std::string_view scope = "", TL_HERE) {                                                 \
    return atomic(OP, ptr, value, mask, std::nullopt, sem, scope, loc);                                    \
  }
inline Tensor atomic_add(const Tensor& ptr, const Operand& value, const Operand& mask, std::string_view sem,
                         std::string_view scope = "", TL_HERE) {
  return atomic("add", ptr, value, mask, std::nullopt, sem, scope, loc);
}
TL_ATOMIC(atomic_max, "max")
TL_ATOMIC(atomic_min, "min")
TL_ATOMIC(atomic_and, "and")
TL_ATOMIC(atomic_or, "or")
TL_ATOMIC(atomic_xor, "xor")
TL_ATOMIC(atomic_xchg, "xchg")
#undef TL_ATOMIC
// Where *ptr == cmp (bitwise), writes val; returns the old values.
inline Tensor atomic_cas(const Tensor& ptr, const Operand& cmp, const Operand& val, std::string_view sem = "",
                         std::string_view scope = "", TL_HERE) {
  return atomic("cas", ptr, val, std::nullopt, cmp, sem, scope, loc);
}

// ---- Elementwise ------------------------------------------------------------
Tensor operator+(const Operand& a, const Operand& b);
Tensor operator-(const Operand& a, const Operand& b);
Tensor operator*(const Operand& a, const Operand& b);
Tensor operator/(const Operand& a, const Operand& b);  // ints: truncating; else true division
Tensor operator%(const Operand& a, const Operand& b);
Tensor operator&(const Operand& a, const Operand& b);
Tensor operator|(const Operand& a, const Operand& b);
Tensor operator^(const Operand& a, const Operand& b);
Tensor operator<<(const Operand& a, const Operand& b);
Tensor operator>>(const Operand& a, const Operand& b);
Tensor operator==(const Operand& a, const Operand& b);
Tensor operator!=(const Operand& a, const Operand& b);
Tensor operator<(const Operand& a, const Operand& b);
Tensor operator<=(const Operand& a, const Operand& b);
Tensor operator>(const Operand& a, const Operand& b);
Tensor operator>=(const Operand& a, const Operand& b);
Tensor operator-(const Operand& a);  // the Operand carries the kernel line
Tensor operator~(const Operand& a);
Tensor truediv(const Operand& a, const Operand& b, TL_HERE);
Tensor where(const Operand& cond, const Operand& a, const Operand& b, TL_HERE);
// propagate_nan: a NaN operand wins (tl.PropagateNan.ALL); by default the
// other operand does.
Tensor maximum(const Operand& a, const Operand& b, bool propagate_nan = false, TL_HERE);
Tensor minimum(const Operand& a, const Operand& b, bool propagate_nan = false, TL_HERE);
Tensor fma(const Operand& a, const Operand& b, const Operand& c, TL_HERE);
Tensor exp(const Tensor& x, TL_HERE);
Tensor exp2(const Tensor& x, TL_HERE);
Tensor log(const Tensor& x, TL_HERE);
Tensor log2(const Tensor& x, TL_HERE);
Tensor sqrt(const Tensor& x, TL_HERE);
Tensor rsqrt(const Tensor& x, TL_HERE);
Tensor sin(const Tensor& x, TL_HERE);
Tensor cos(const Tensor& x, TL_HERE);
Tensor sigmoid(const Tensor& x, TL_HERE);
Tensor tanh(const Tensor& x, TL_HERE);
Tensor abs(const Tensor& x, TL_HERE);
Tensor floor(const Tensor& x, TL_HERE);
Tensor ceil(const Tensor& x, TL_HERE);
Tensor cdiv(const Operand& x, const Operand& d, TL_HERE);
constexpr int64_t cdiv(int64_t x, int64_t d) { return (x + d - 1) / d; }
inline Tensor cast(const Tensor& x, DType d, TL_HERE) { return x.to(d, false, loc); }

// ---- Random numbers (frontend_random.cpp) -------------------------------------
// Triton's Philox: counters of one integer dtype (32 or 64 bits) and an
// integer seed give four tiles of random bits (u32 / u64); randint4x uses
// the counter (offset, 0, 0, 0). rand is uniform in [0, 1) (f32 for 32-bit
// offsets), randn standard normal (Box-Muller). Bit-exact with Triton but
// for randn, which goes through log, sqrt, cos and sin.
using Tensor4 = std::array<Tensor, 4>;
Tensor4 philox(const Operand& seed, const Operand& c0, const Operand& c1, const Operand& c2, const Operand& c3,
               int n_rounds = 10, TL_HERE);
Tensor4 randint4x(const Operand& seed, const Operand& offset, int n_rounds = 10, TL_HERE);
Tensor randint(const Operand& seed, const Operand& offset, int n_rounds = 10, TL_HERE);
Tensor uint_to_uniform_float(const Tensor& x, TL_HERE);
Tensor rand(const Operand& seed, const Operand& offset, int n_rounds = 10, TL_HERE);
Tensor4 rand4x(const Operand& seed, const Operand& offset, int n_rounds = 10, TL_HERE);
std::array<Tensor, 2> pair_uniform_to_normal(const Tensor& u1, const Tensor& u2, TL_HERE);
Tensor randn(const Operand& seed, const Operand& offset, int n_rounds = 10, TL_HERE);
Tensor4 randn4x(const Operand& seed, const Operand& offset, int n_rounds = 10, TL_HERE);

// ---- More math (frontend_math.cpp) -------------------------------------------
// clamp(x, lo, hi) = min(max(x, lo), hi), floats only (as Triton). With
// propagate_nan false a NaN x gives lo... as min/max drop NaN; true keeps NaN.
Tensor clamp(const Operand& x, const Operand& lo, const Operand& hi, bool propagate_nan = false, TL_HERE);
Tensor erf(const Tensor& x, TL_HERE);    // f32/f64
Tensor log1p(const Tensor& x, TL_HERE);  // libdevice
Tensor expm1(const Tensor& x, TL_HERE);  // libdevice
Tensor rint(const Tensor& x, TL_HERE);   // libdevice: nearest, ties to even
Tensor round(const Tensor& x, TL_HERE);  // libdevice: nearest, ties away from zero
Tensor pow(const Operand& x, const Operand& y, TL_HERE);     // libdevice pow: f32/f64
// libdevice's functions of C's math library (ir.h lists them): f32/f64.
#define TL_X(OP, NAME) Tensor NAME(const Tensor& x, TL_HERE);
TL_LIBDEVICE_UNARY(TL_X)
#undef TL_X
#define TL_X(OP, NAME) Tensor NAME(const Operand& x, const Operand& y, TL_HERE);
TL_LIBDEVICE_BINARY(TL_X)
#undef TL_X
Tensor div_rn(const Operand& x, const Operand& y, TL_HERE);  // f32 only, IEEE division
Tensor sqrt_rn(const Tensor& x, TL_HERE);                   // f32 only, IEEE square root
Tensor fdiv(const Operand& x, const Operand& y, TL_HERE);    // true division (IEEE here)
// The high half of the double-width unsigned product (i32, u32, i64, u64).
Tensor umulhi(const Operand& x, const Operand& y, TL_HERE);
// x.to(d) with Triton's fp_downcast_rounding: "rtne" (default) or "rtz",
// allowed only for a float -> narrower float cast; `bitcast` as Tensor::to.
Tensor cast(const Tensor& x, DType d, bool bitcast, std::string_view fp_downcast_rounding, TL_HERE);
// Hints for Triton's compiler: accepted and checked for their shape, no effect.
Tensor multiple_of(const Tensor& x, std::vector<int64_t> values, TL_HERE);
Tensor max_contiguous(const Tensor& x, std::vector<int64_t> values, TL_HERE);
Tensor max_constancy(const Tensor& x, std::vector<int64_t> values, TL_HERE);
void assume(const Operand& cond, TL_HERE);
void debug_barrier(TL_HERE);
// Prints at build time (Triton prints when it compiles): the values' types.
void static_print(const char* prefix, const Tensor& x, TL_HERE);

// Python's `and`, `or`, `not` on tiles mean what Triton's compiler makes of
// them: each operand is made i1 (i1 as is, anything else `x != 0`) and the
// two are combined elementwise with broadcasting. (Triton's interpreter
// instead applies Python truthiness and silently keeps one operand.)
// Python's `//` (Triton's floordiv): on integers exactly `a / b` above,
// truncating toward zero (SEMANTICS §3); Triton has no `//` for floats, so
// a float operand is a build error that says to use `/`.
Tensor floordiv(const Operand& a, const Operand& b, TL_HERE);
Tensor logical_and(const Operand& a, const Operand& b, TL_HERE);
Tensor logical_or(const Operand& a, const Operand& b, TL_HERE);
Tensor logical_not(const Operand& a, TL_HERE);

// ---- Shapes -----------------------------------------------------------------
Tensor expand_dims(const Tensor& x, int axis, TL_HERE);
Tensor expand_dims(const Tensor& x, std::vector<int> axes, TL_HERE);
Tensor broadcast_to(const Tensor& x, Shape shape, TL_HERE);
Tensor reshape(const Tensor& x, Shape shape, TL_HERE);
Tensor trans(const Tensor& x, TL_HERE);
Tensor permute(const Tensor& x, std::vector<int> dims, TL_HERE);
// Triton's indexing, x[None, :, ...]: each item either keeps the next axis
// (`:`) or inserts a new one of size 1 (None); axes past the last item are
// kept. Anything else (an integer, a bounded slice) is not tile indexing.
enum class Index : uint8_t { Keep, NewAxis };
Tensor subscript(const Tensor& x, const std::vector<Index>& items, TL_HERE);

// ---- Reductions (no axis: reduce everything to a 0-d tensor) ----------------
using Axis = std::optional<int>;
Tensor sum(const Tensor& x, Axis axis = {}, bool keep_dims = false, TL_HERE);
Tensor sum(const Tensor& x, Axis axis, bool keep_dims, DType dtype, TL_HERE);
Tensor max(const Tensor& x, Axis axis = {}, bool keep_dims = false, TL_HERE);
Tensor min(const Tensor& x, Axis axis = {}, bool keep_dims = false, TL_HERE);
Tensor argmax(const Tensor& x, int axis, bool keep_dims = false, TL_HERE);
Tensor argmin(const Tensor& x, int axis, bool keep_dims = false, TL_HERE);

// ---- Scans, sorts and permutations -----------------------------------------
// A combine function gets two 0-d tensors (the running value, the next
// element) and returns their combination, of their dtype. It is built once
// into the op's combine block: only elementwise math on its arguments and
// literals; no loads, no tiles from outside it.
using Combine = std::function<Tensor(const Tensor&, const Tensor&)>;
// The tuple form: N running values, N next values -> N results.
using CombineN = std::function<std::vector<Tensor>(const std::vector<Tensor>&, const std::vector<Tensor>&)>;
// cumsum widens like sum (narrow integers to 32 bits); cumprod keeps the dtype.
Tensor cumsum(const Tensor& x, int axis = 0, bool reverse = false, TL_HERE);
Tensor cumsum(const Tensor& x, int axis, bool reverse, DType dtype, TL_HERE);
Tensor cumprod(const Tensor& x, int axis = 0, bool reverse = false, TL_HERE);
Tensor associative_scan(const Tensor& x, int axis, const Combine& combine, bool reverse = false, TL_HERE);
std::vector<Tensor> associative_scan(const std::vector<Tensor>& xs, int axis, const CombineN& combine,
                                     bool reverse = false, TL_HERE);
// tl.reduce: folds the axis left to right (no axis: everything, 0-d result).
Tensor reduce(const Tensor& x, Axis axis, const Combine& combine, bool keep_dims = false, TL_HERE);
std::vector<Tensor> reduce(const std::vector<Tensor>& xs, Axis axis, const CombineN& combine, bool keep_dims = false,
                           TL_HERE);
Tensor xor_sum(const Tensor& x, Axis axis = {}, bool keep_dims = false, TL_HERE);  // integers only
// Along the last dim (no dim: the last); stable; NaN sorts above every number.
Tensor sort(const Tensor& x, Axis dim = {}, bool descending = false, TL_HERE);
Tensor flip(const Tensor& x, Axis dim = {}, TL_HERE);  // no dim: the last
Tensor join(const Tensor& a, const Tensor& b, TL_HERE);  // shape + [2]
std::pair<Tensor, Tensor> split(const Tensor& x, TL_HERE);  // [..., 2] -> two [...]
Tensor interleave(const Tensor& a, const Tensor& b, TL_HERE);  // [..., n] x2 -> [..., 2n]
// result[i] = src[i with its `axis` coordinate replaced by index[i]]; an
// index outside [0, src.shape[axis]) is an IndexOutOfRange finding.
Tensor gather(const Tensor& src, const Tensor& index, int axis, TL_HERE);
// Counts of each value in [0, num_bins) as i32[num_bins]; values outside
// are not counted, nor lanes where mask is false.
Tensor histogram(const Tensor& x, int num_bins, TL_HERE);
Tensor histogram(const Tensor& x, int num_bins, const Tensor& mask, TL_HERE);

// ---- dot: a [(B,) M, K] x b [(B,) K, N] (+ acc) -----------------------------
Tensor dot(const Tensor& a, const Tensor& b, Precision p = Precision::tf32, TL_HERE);
Tensor dot(const Tensor& a, const Tensor& b, const Tensor& acc, Precision p = Precision::tf32, TL_HERE);
Tensor dot(const Tensor& a, const Tensor& b, const Tensor& acc, Precision p, DType out_dtype, TL_HERE);
// tl.dot_scaled: always a build error (not supported by tilescope).
Tensor dot_scaled(const Tensor& a, const Tensor& b, TL_HERE);

// ---- Control flow -----------------------------------------------------------
// for (auto i : tl::range(lo, hi, step)) { ... } builds one IR loop: the body
// runs once while building, whatever the trip count. No break/continue.
class Range {
 public:
  Range(const Operand& lo, const Operand& hi, const Operand& step, const std::source_location& loc);
  class Iter {
   public:
    explicit Iter(Range* r) : r_(r) {}
    Tensor operator*() const;
    Iter& operator++();
    bool operator!=(const Iter&) const { return r_ != nullptr; }
   private:
    Range* r_;
  };
  Iter begin();
  Iter end() { return Iter(nullptr); }

 private:
  friend class Iter;
  int lo_, hi_, step_, iv_ = -1;
  SrcLoc loc_;
};
Range range(const Operand& hi, TL_HERE);
Range range(const Operand& lo, const Operand& hi, TL_HERE);
Range range(const Operand& lo, const Operand& hi, const Operand& step, TL_HERE);

// if on a runtime 0-d i1: both branches are built, one runs.
void if_(const Tensor& cond, const std::function<void()>& then_body, TL_HERE);
void if_(const Tensor& cond, const std::function<void()>& then_body,
         const std::function<void()>& else_body, TL_HERE);

// while cond(): body() — one IR loop. `cond` is built once into a block that
// runs before every iteration and must return a 0-d i1; tiles declared
// outside and assigned in either function are loop-carried, as in
// tl::range. No break/continue. The interpreter stops a loop after 2^30
// iterations in one program and reports it (most likely it never ends).
void while_(const std::function<Tensor()>& cond, const std::function<void()>& body,
            std::source_location loc = std::source_location::current());

// ---- Block pointers (Triton's tl.make_block_ptr) ---------------------------
// A BlockPtr describes a block_shape tile of an N-d tensor at `base`:
// element (i0, i1, ...) of the block is at
//   base + sum_d (offsets[d] + i_d) * strides[d].
// Rules (as Triton's, where SEMANTICS.md says nothing):
// - base is a 0-d pointer; shape, strides and offsets are integer scalars
//   or literals, one per dim. shape and strides are i64; offsets are i32,
//   or i64 when one of them is i64. Addresses are computed in i64.
// - block_shape dims are powers of two; `order` must be a permutation of
//   the dims and does not change addressing.
// - load/store with boundary_check = dims: lanes with offsets[d] + i_d
//   outside [0, shape[d]) on a listed dim are masked (a load gives 0 for
//   Padding::Zero, NaN for Padding::Nan (floats only), and for
//   Padding::None 0 marked undefined, like a masked load without other).
// - an active lane outside the shape on a dim NOT listed is a sanitizer
//   finding (BlockPtrOutOfShape); the access itself is still bounds-checked
//   against the buffer as every access is.
// - advance() adds to the offsets, converted to the offsets' dtype.
// - a stored value has the block's shape or is a scalar (broadcast).
enum class Padding : uint8_t { None, Zero, Nan };

class BlockPtr {
 public:
  BlockPtr() = default;
  BlockPtr(const BlockPtr& other) = default;
  // Assigns each component Tensor, so a block pointer declared outside a
  // loop and reassigned inside it (`a = tl::advance(a, {0, BK})`) is
  // loop-carried like any tile. Its block shape may not change.
  BlockPtr& operator=(const BlockPtr& other);

  bool defined() const { return base_.defined(); }
  const Shape& block_shape() const { return block_shape_; }
  int rank() const { return static_cast<int>(block_shape_.size()); }
  DType dtype() const;  // the element dtype
  const std::vector<int>& order() const { return order_; }
  const Tensor& base() const { return base_; }
  const std::vector<Tensor>& shape() const { return shape_; }      // i64 scalars
  const std::vector<Tensor>& strides() const { return strides_; }  // i64 scalars
  const std::vector<Tensor>& offsets() const { return offsets_; }  // i32 or i64 scalars

 private:
  friend BlockPtr make_block_ptr(const Tensor&, std::vector<Operand>, std::vector<Operand>, std::vector<Operand>,
                                 Shape, std::vector<int>, std::source_location);
  friend BlockPtr advance(const BlockPtr&, std::vector<Operand>, std::source_location);
  Tensor base_;
  std::vector<Tensor> shape_, strides_, offsets_;
  Shape block_shape_;
  std::vector<int> order_;
};

BlockPtr make_block_ptr(const Tensor& base, std::vector<Operand> shape, std::vector<Operand> strides,
                        std::vector<Operand> offsets, Shape block_shape, std::vector<int> order, TL_HERE);
BlockPtr advance(const BlockPtr& p, std::vector<Operand> offsets, TL_HERE);
Tensor load(const BlockPtr& p, std::vector<int> boundary_check = {}, Padding padding = Padding::None, TL_HERE);
void store(const BlockPtr& p, const Operand& value, std::vector<int> boundary_check = {}, TL_HERE);
// For bindings that pass Triton's keyword through: any padding but None is
// a build error (a store has nothing to pad).
void store(const BlockPtr& p, const Operand& value, std::vector<int> boundary_check, Padding padding, TL_HERE);

// ---- Debugging -------------------------------------------------------------
void static_assert_(bool cond, const char* message = "static_assert failed", TL_HERE);
void print(const char* prefix, const Tensor& x, TL_HERE);
void print(const char* prefix, const Tensor& x, const Tensor& y, TL_HERE);
inline void device_print(const char* prefix, const Tensor& x, TL_HERE) { print(prefix, x, loc); }
// A runtime check (tl.device_assert): lanes where cond is false are reported.
void device_assert(const Tensor& cond, const char* message = "device_assert failed", TL_HERE);

}  // namespace tl

#undef TL_HERE
