// Triton's math beyond the basic elementwise set: clamp, erf, the libdevice
// functions (log1p, expm1, rint, round, pow), div_rn / fdiv, umulhi; casts
// with fp_downcast_rounding; the compiler hints (no-ops here), static_print
// and the dot_scaled refusal.
#include <iostream>

#include "builder.h"

namespace tl {
using detail::Builder;
using detail::loc_of;

namespace {
std::string dn(DType d) { return std::string(name(d)); }

DType dtype_of(const Operand& x, Builder& b) {
  return x.is_tensor() ? b.type(x.reg()).dtype : Builder::literal_dtype(x);
}

// Sets propagate_nan on the instruction that defined `t` just now.
Tensor with_nan_rule(Builder& b, Tensor t, bool propagate_nan) {
  std::vector<ir::Instr>& instrs = b.current_block().instrs;
  if (!instrs.empty() && instrs.back().dst == t.reg()) instrs.back().propagate_nan = propagate_nan;
  return t;
}
}  // namespace

Tensor clamp(const Operand& x, const Operand& lo, const Operand& hi, bool propagate_nan, std::source_location l) {
  const SrcLoc loc = loc_of(l);
  Builder& b = Builder::current(loc);
  const DType d = dtype_of(x, b);
  if (!is_float(d))
    b.fail(loc, "clamp supports floating-point tiles only, got " + dn(d) + "; use minimum(maximum(x, lo), hi)");
  Tensor up = with_nan_rule(b, detail::binary(ir::Op::Maximum, x, lo, loc), propagate_nan);
  return with_nan_rule(b, detail::binary(ir::Op::Minimum, up, hi, loc), propagate_nan);
}

#define TL_MATH1(FN, OP) \
  Tensor FN(const Tensor& x, std::source_location l) { return detail::unary(ir::Op::OP, x, loc_of(l)); }
TL_MATH1(erf, Erf)
TL_MATH1(log1p, Log1p)
TL_MATH1(expm1, Expm1)
TL_MATH1(rint, Rint)
TL_MATH1(round, Round)
#define TL_X(OP, NAME) TL_MATH1(NAME, OP)
TL_LIBDEVICE_UNARY(TL_X)
#undef TL_X
#undef TL_MATH1
#define TL_X(OP, NAME) \
  Tensor NAME(const Operand& x, const Operand& y, std::source_location l) { \
    return detail::binary(ir::Op::OP, x, y, loc_of(l));                      \
  }
TL_LIBDEVICE_BINARY(TL_X)
#undef TL_X

Tensor pow(const Operand& x, const Operand& y, std::source_location l) {
  return detail::binary(ir::Op::Pow, x, y, loc_of(l));
}

Tensor umulhi(const Operand& x, const Operand& y, std::source_location l) {
  return detail::binary(ir::Op::UMulHi, x, y, loc_of(l));
}

// Triton's div_rn and sqrt_rn are libdevice's f32 functions: any other
// dtype is a compile error there ("Expected dtype ['fp32']"), and so here.
Tensor div_rn(const Operand& x, const Operand& y, std::source_location l) {
  const SrcLoc loc = loc_of(l);
  Builder& b = Builder::current(loc);
  for (const Operand* o : {&x, &y})
    if (o->is_tensor() && b.type(o->reg()).dtype != DType::f32)
      b.fail(loc, "div_rn needs f32 operands, got " + b.type(o->reg()).str());
  return truediv(x, y, l);
}

Tensor sqrt_rn(const Tensor& x, std::source_location l) {
  const SrcLoc loc = loc_of(l);
  Builder& b = Builder::current(loc);
  if (b.type(x.reg()).dtype != DType::f32)
    b.fail(loc, "sqrt_rn needs an f32 tile (as Triton's), got " + b.type(x.reg()).str() +
                    "; convert with .to(tl::f32) first");
  // The interpreter's sqrt is already IEEE (correctly rounded).
  return sqrt(x, l);
}

Tensor fdiv(const Operand& x, const Operand& y, std::source_location l) {
  const SrcLoc loc = loc_of(l);
  Builder& b = Builder::current(loc);
  for (const Operand* o : {&x, &y})
    if (!is_float(dtype_of(*o, b)))
      b.fail(loc, "both operands of fdiv must be floats, got " + dn(dtype_of(x, b)) + " and " + dn(dtype_of(y, b)));
  return truediv(x, y, l);
}

Tensor cast(const Tensor& x, DType d, bool bitcast, std::string_view rounding, std::source_location l) {
  const SrcLoc loc = loc_of(l);
  Builder& b = Builder::current(loc);
  if (rounding.empty() || bitcast) return x.to(d, bitcast, l);
  if (rounding != "rtne" && rounding != "rtz")
    b.fail(loc, "invalid fp_downcast_rounding '" + std::string(rounding) + "' (expected 'rtne' or 'rtz')");
  const ir::Type t = b.type(x.reg());
  if (t.is_ptr || !is_float(t.dtype) || !is_float(d) || bit_width(d) >= bit_width(t.dtype))
    b.fail(loc, "fp_downcast_rounding applies to a float cast to a narrower float, not " + t.str() + " to " + dn(d));
  Tensor r = x.to(d, false, l);
  if (rounding == "rtz") {
    std::vector<ir::Instr>& instrs = b.current_block().instrs;
    if (!instrs.empty() && instrs.back().dst == r.reg() && instrs.back().op == ir::Op::Cast)
      instrs.back().rounding = ir::Rounding::rtz;
  }
  return r;
}

namespace {
Tensor hint(const char* what, const Tensor& x, const std::vector<int64_t>& values, bool scalar_ok,
            const SrcLoc& loc) {
  Builder& b = Builder::current(loc);
  const size_t rank = b.type(x.reg()).shape.size();
  const size_t want = scalar_ok ? std::max<size_t>(rank, 1) : rank;
  if (values.size() != want)
    b.fail(loc, std::string(what) + " needs one value per dimension of " + b.type(x.reg()).str() + " (" +
                    std::to_string(want) + "), got " + std::to_string(values.size()));
  for (int64_t v : values)
    if (v <= 0) b.fail(loc, std::string(what) + " values must be positive, got " + std::to_string(v));
  return Tensor::wrap(b.fresh(x.reg(), x.reg(), loc));
}
}  // namespace

Tensor multiple_of(const Tensor& x, std::vector<int64_t> values, std::source_location l) {
  return hint("multiple_of", x, values, true, loc_of(l));
}
Tensor max_contiguous(const Tensor& x, std::vector<int64_t> values, std::source_location l) {
  return hint("max_contiguous", x, values, false, loc_of(l));
}
Tensor max_constancy(const Tensor& x, std::vector<int64_t> values, std::source_location l) {
  return hint("max_constancy", x, values, false, loc_of(l));
}

void assume(const Operand& cond, std::source_location l) {
  const SrcLoc loc = loc_of(l);
  Builder& b = Builder::current(loc);
  if (cond.is_tensor() && b.type(cond.reg()).dtype != DType::i1)
    b.fail(loc, "assume needs an i1 condition, got " + b.type(cond.reg()).str());
}

void debug_barrier(std::source_location l) { Builder::current(loc_of(l)); }

void static_print(const char* prefix, const Tensor& x, std::source_location l) {
  Builder& b = Builder::current(loc_of(l));
  std::cout << prefix << (*prefix ? " " : "") << b.type(x.reg()).str() << "\n";
}

Tensor dot_scaled(const Tensor&, const Tensor&, std::source_location l) {
  const SrcLoc loc = loc_of(l);
  Builder::current(loc).fail(loc, "dot_scaled is not supported by tilescope (microscaled fp8/fp4 formats are not "
                                  "modelled); dequantize and use dot");
}

}  // namespace tl
