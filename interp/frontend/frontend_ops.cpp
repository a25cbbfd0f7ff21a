// Elementwise operations: type promotion (SEMANTICS §2), the operator
// spellings of §3, where (§4), casts (§5) and math functions (§10).
#include <cmath>

#include "builder.h"

namespace tl {
using detail::Builder;
using detail::loc_of;

namespace {

enum class Kind { Bool = 0, Int = 1, Float = 2 };
Kind kind_of(DType d) { return d == DType::i1 ? Kind::Bool : is_float(d) ? Kind::Float : Kind::Int; }

std::string dn(DType d) { return std::string(name(d)); }

// Tile ⊕ tile promotion; `div_or_mod` applies the `/`, `%` column.
DType promote_tiles(DType a, DType b, bool div_or_mod, Builder& bld, const SrcLoc& loc, const char* opname) {
  if (a == DType::f64 || b == DType::f64) return DType::f64;
  if (a == DType::f32 || b == DType::f32) return DType::f32;
  if (a == DType::f16 || b == DType::f16) return div_or_mod ? DType::f32 : DType::f16;
  if (a == DType::bf16 && b == DType::bf16) return div_or_mod ? DType::f32 : DType::bf16;
  if (a == DType::bf16 || b == DType::bf16) return DType::f32;
  // Both integers (i1 counts as a 1-bit unsigned integer).
  bool sa = is_signed_int(a), sb = is_signed_int(b);
  int wa = bit_width(a), wb = bit_width(b);
  if (sa == sb) {
    return wa >= wb ? a : b;  // i1 op i1 stays i1 here; binary() widens arithmetic
  }
  if (div_or_mod)
    bld.fail(loc, std::string("integer ") + opname + " of mixed signedness (" + dn(a) + " and " + dn(b) +
                      ") is ambiguous; convert one side with .to() first");
  DType u = sa ? b : a, s = sa ? a : b;
  if (bit_width(u) >= bit_width(s)) return u == DType::i1 ? s : u;
  return s;
}

struct Promoted {
  DType compute;  // operands are converted to this
  ir::Shape shape;
};

DType operand_dtype(const Operand& x, Builder& b) {
  return x.is_tensor() ? b.type(x.reg()).dtype : Builder::literal_dtype(x);
}

// Promotion of two operands, either of which may be a literal.
DType promote(const Operand& a, const Operand& b, bool div_or_mod, Builder& bld, const SrcLoc& loc,
              const char* opname) {
  DType da = operand_dtype(a, bld), db = operand_dtype(b, bld);
  bool la = !a.is_tensor(), lb = !b.is_tensor();
  if (la != lb) {
    // Tile ⊕ literal: the literal is weak when its kind is not above the tile's.
    DType tile = la ? db : da, lit = la ? da : db;
    if (kind_of(lit) <= kind_of(tile)) {
      if (div_or_mod && (tile == DType::f16 || tile == DType::bf16)) return DType::f32;
      if (tile == DType::i1 && kind_of(lit) == Kind::Bool) return DType::i1;
      if (tile == DType::i1) return DType::i32;
      return tile;
    }
    return promote_tiles(tile, lit, div_or_mod, bld, loc, opname);
  }
  return promote_tiles(da, db, div_or_mod, bld, loc, opname);
}

ir::Shape shape_of(const Operand& x, Builder& b) { return x.is_tensor() ? b.type(x.reg()).shape : ir::Shape{}; }

bool is_ptr(const Operand& x, Builder& b) { return x.is_tensor() && b.type(x.reg()).is_ptr; }

// Both operands converted to `d` and broadcast to their common shape.
std::pair<int, int> prepare(const Operand& a, const Operand& b, DType d, Builder& bld, const SrcLoc& loc,
                            const char* what) {
  ir::Shape s = bld.broadcast_shapes(shape_of(a, bld), shape_of(b, bld), loc, what);
  int ra = bld.broadcast(bld.materialize(a, d, loc), s, loc);
  int rb = bld.broadcast(bld.materialize(b, d, loc), s, loc);
  return {ra, rb};
}

Tensor pointer_arith(const Operand& a, const Operand& b, bool subtract, Builder& bld, const SrcLoc& loc) {
  if (is_ptr(a, bld) && is_ptr(b, bld)) bld.fail(loc, "cannot add or subtract two pointers");
  const Operand& p = is_ptr(a, bld) ? a : b;
  const Operand& off = is_ptr(a, bld) ? b : a;
  if (subtract && !is_ptr(a, bld)) bld.fail(loc, "cannot subtract a pointer from an integer");
  DType od = operand_dtype(off, bld);
  if (!is_int(od) || od == DType::i1)
    bld.fail(loc, "pointer offsets must be integers (in elements), got " + dn(od));
  const ir::Type& pt = bld.type(p.reg());
  ir::Shape s = bld.broadcast_shapes(pt.shape, shape_of(off, bld), loc, "pointer arithmetic");
  int ro = bld.materialize(off, od, loc);
  if (subtract) {
    ir::Type t = bld.type(ro);
    ro = bld.emit_value(ir::Op::Neg, t, {ro}, loc);
  }
  ro = bld.broadcast(ro, s, loc);
  int rp = bld.broadcast(p.reg(), s, loc);
  ir::Type rt{pt.dtype, true, s};
  return Tensor::wrap(bld.emit_value(ir::Op::PtrAdd, rt, {rp, ro}, loc));
}

const char* symbol(ir::Op op) {
  switch (op) {
    case ir::Op::Add: return "+";
    case ir::Op::Sub: return "-";
    case ir::Op::Mul: return "*";
    case ir::Op::Div: return "/";
    case ir::Op::Mod: return "%";
    case ir::Op::And: return "&";
    case ir::Op::Or: return "|";
    case ir::Op::Xor: return "^";
    case ir::Op::Shl: return "<<";
    case ir::Op::Shr: return ">>";
    case ir::Op::Eq: return "==";
    case ir::Op::Ne: return "!=";
    case ir::Op::Lt: return "<";
    case ir::Op::Le: return "<=";
    case ir::Op::Gt: return ">";
    case ir::Op::Ge: return ">=";
    case ir::Op::Maximum: return "maximum";
    case ir::Op::Minimum: return "minimum";
    default: return ir::op_name(op);
  }
}

}  // namespace

namespace detail {
Tensor binary(ir::Op op, const Operand& a, const Operand& b, const SrcLoc& loc) {
  Builder& bld = Builder::current(loc);
  if (!a.is_tensor() && !b.is_tensor()) {
    // Only reachable through functions such as maximum(1, 2): literals
    // become 0-d tensors of their own types.
    return binary(op, Operand(Tensor::wrap(bld.constant(Builder::literal_dtype(a), a, loc))), b, loc);
  }
  if (is_ptr(a, bld) || is_ptr(b, bld)) {
    if (op == ir::Op::Add) return pointer_arith(a, b, false, bld, loc);
    if (op == ir::Op::Sub) return pointer_arith(a, b, true, bld, loc);
    bld.fail(loc, std::string("operator ") + symbol(op) + " is not defined on pointers; only ptr + offset and ptr - offset are");
  }
  bool div_or_mod = op == ir::Op::Div || op == ir::Op::Mod;
  DType d = promote(a, b, div_or_mod, bld, loc, symbol(op));
  bool bitwise = op == ir::Op::And || op == ir::Op::Or || op == ir::Op::Xor || op == ir::Op::Shl || op == ir::Op::Shr;
  if (bitwise && is_float(d))
    bld.fail(loc, std::string("operator ") + symbol(op) + " needs integer operands, got " +
                      dn(operand_dtype(a, bld)) + " and " + dn(operand_dtype(b, bld)));
  // i1 & i1 stays i1 (logical and of masks), and so do i1 + - * i1, as in
  // Triton (1-bit wrap-around: + and - are xor, * is and); other i1
  // arithmetic is i32.
  bool one_bit = op == ir::Op::And || op == ir::Op::Or || op == ir::Op::Xor || ir::is_compare(op) ||
                 (a.is_tensor() && b.is_tensor() && (op == ir::Op::Add || op == ir::Op::Sub || op == ir::Op::Mul));
  if (d == DType::i1 && !one_bit) d = DType::i32;
  // libdevice's pow and umulhi take these dtypes only (Triton checks them
  // the same way, after promotion).
  if ((op == ir::Op::Pow || ir::is_libdevice_binary(op)) && d != DType::f32 && d != DType::f64)
    bld.fail(loc, std::string(ir::op_name(op)) + " needs f32 or f64 operands, got " + dn(operand_dtype(a, bld)) + " and " +
                      dn(operand_dtype(b, bld)) + "; convert with .to(tl::f32) first");
  if (op == ir::Op::UMulHi && !(d == DType::i32 || d == DType::u32 || d == DType::i64 || d == DType::u64))
    bld.fail(loc, "umulhi needs i32, u32, i64 or u64 operands, got " + dn(operand_dtype(a, bld)) + " and " +
                      dn(operand_dtype(b, bld)));
  auto [ra, rb] = prepare(a, b, d, bld, loc, symbol(op));
  ir::Type rt = bld.type(ra);
  if (ir::is_compare(op)) rt.dtype = DType::i1;
  return Tensor::wrap(bld.emit_value(op, rt, {ra, rb}, loc));
}

Tensor unary(ir::Op op, const Tensor& x, const SrcLoc& loc) {
  Builder& b = Builder::current(loc);
  ir::Type t = b.type(x.reg());
  if (t.is_ptr) b.fail(loc, std::string(ir::op_name(op)) + " is not defined on pointers");
  int r = x.reg();
  switch (op) {
    case ir::Op::Exp: case ir::Op::Exp2: case ir::Op::Log: case ir::Op::Log2: case ir::Op::Sqrt:
    case ir::Op::Rsqrt: case ir::Op::Sin: case ir::Op::Cos: case ir::Op::Sigmoid: case ir::Op::Tanh:
    case ir::Op::Floor: case ir::Op::Ceil: case ir::Op::Erf: case ir::Op::Log1p: case ir::Op::Expm1:
    case ir::Op::Rint: case ir::Op::Round:
#define TL_X(OP, NAME) case ir::Op::OP:
    TL_LIBDEVICE_UNARY(TL_X)
#undef TL_X
      if (t.dtype != DType::f32 && t.dtype != DType::f64)
        b.fail(loc, std::string(ir::op_name(op)) + " needs an f32 or f64 tile, got " + t.str() +
                        "; convert with .to(tl::f32) first");
      break;
    case ir::Op::Not:
      if (is_float(t.dtype)) b.fail(loc, "operator ~ needs an integer or i1 tile, got " + t.str());
      break;
    case ir::Op::Neg:
      if (t.dtype == DType::i1) { r = b.cast(r, DType::i32, loc); t.dtype = DType::i32; }
      if (is_float(t.dtype)) {
        // Triton's -x is 0 - x (semantic.minus), so -(+0.0) is +0.0, not -0.0.
        int zero = b.broadcast(b.materialize(Operand(0.0), t.dtype, loc), t.shape, loc);
        return Tensor::wrap(b.emit_value(ir::Op::Sub, t, {zero, r}, loc));
      }
      break;
    default: break;
  }
  return Tensor::wrap(b.emit_value(op, t, {r}, loc));
}
}  // namespace detail

namespace {
using detail::binary;
using detail::unary;

SrcLoc first_loc(const Operand& a) { return loc_of(a.loc()); }

}  // namespace

#define TL_BINARY(SYM, OP) \
  Tensor operator SYM(const Operand& a, const Operand& b) { return binary(ir::Op::OP, a, b, first_loc(a)); }
TL_BINARY(+, Add)
TL_BINARY(-, Sub)
TL_BINARY(*, Mul)
TL_BINARY(%, Mod)
TL_BINARY(&, And)
TL_BINARY(|, Or)
TL_BINARY(^, Xor)
TL_BINARY(<<, Shl)
TL_BINARY(>>, Shr)
TL_BINARY(==, Eq)
TL_BINARY(!=, Ne)
TL_BINARY(<, Lt)
TL_BINARY(<=, Le)
TL_BINARY(>, Gt)
TL_BINARY(>=, Ge)
#undef TL_BINARY

Tensor operator/(const Operand& a, const Operand& b) {
  SrcLoc loc = first_loc(a);
  Builder& bld = Builder::current(loc);
  DType da = operand_dtype(a, bld), db = operand_dtype(b, bld);
  if (is_float(da) || is_float(db)) return truediv(a, b, a.loc());
  return binary(ir::Op::Div, a, b, loc);
}

Tensor truediv(const Operand& a, const Operand& b, std::source_location l) {
  SrcLoc loc = loc_of(l);
  Builder& bld = Builder::current(loc);
  if (is_ptr(a, bld) || is_ptr(b, bld)) bld.fail(loc, "division is not defined on pointers");
  DType d = promote(a, b, true, bld, loc, "/");
  if (!is_float(d)) d = DType::f32;  // int / int is true division in f32
  auto [ra, rb] = prepare(a, b, d, bld, loc, "/");
  return Tensor::wrap(bld.emit_value(ir::Op::Div, bld.type(ra), {ra, rb}, loc));
}

Tensor operator-(const Operand& a) {
  SrcLoc loc = first_loc(a);
  Builder& b = Builder::current(loc);
  // -literal never reaches here (C++ negates it); a Tensor operand does.
  return unary(ir::Op::Neg, a.is_tensor() ? Tensor::wrap(a.reg()) : Tensor::wrap(b.constant(Builder::literal_dtype(a), a, loc)), loc);
}
Tensor operator~(const Operand& a) {
  SrcLoc loc = first_loc(a);
  Builder& b = Builder::current(loc);
  return unary(ir::Op::Not, a.is_tensor() ? Tensor::wrap(a.reg()) : Tensor::wrap(b.constant(Builder::literal_dtype(a), a, loc)), loc);
}

// maximum and minimum take their operands as tensors (Triton's to_tensor):
// a literal is a 0-d tensor of its own type (i32, i64 or f32), never weak,
// so maximum(i8 tile, 2) is i32 and maximum(bf16 tile, 2) is f32.
Operand strong(const Operand& x, const SrcLoc& loc) {
  if (x.is_tensor()) return x;
  Builder& bld = Builder::current(loc);
  return Operand(Tensor::wrap(bld.constant(Builder::literal_dtype(x), x, loc)));
}

namespace {
// maximum/minimum: a literal operand is a real tensor here (Triton's rule).
Tensor max_min(ir::Op op, const Operand& a, const Operand& b, bool propagate_nan, const SrcLoc& l) {
  Tensor t = binary(op, strong(a, l), strong(b, l), l);
  std::vector<ir::Instr>& instrs = detail::Builder::current(l).current_block().instrs;
  if (propagate_nan && !instrs.empty() && instrs.back().dst == t.reg()) instrs.back().propagate_nan = true;
  return t;
}
}  // namespace

Tensor maximum(const Operand& a, const Operand& b, bool propagate_nan, std::source_location loc) {
  return max_min(ir::Op::Maximum, a, b, propagate_nan, loc_of(loc));
}
Tensor minimum(const Operand& a, const Operand& b, bool propagate_nan, std::source_location loc) {
  return max_min(ir::Op::Minimum, a, b, propagate_nan, loc_of(loc));
}

Tensor where(const Operand& cond, const Operand& a, const Operand& b, std::source_location l) {
  SrcLoc loc = loc_of(l);
  Builder& bld = Builder::current(loc);
  DType dc = operand_dtype(cond, bld);
  if (dc != DType::i1)
    bld.fail(loc, "where() needs an i1 condition, got " + dn(dc) + "; write `c != 0` to make one");
  if (!a.is_tensor() && !b.is_tensor()) {
    Tensor ta = Tensor::wrap(bld.constant(Builder::literal_dtype(a), a, loc));
    return where(cond, ta, b, l);
  }
  if (is_ptr(a, bld) != is_ptr(b, bld)) bld.fail(loc, "where() cannot mix a pointer and a value");
  ir::Shape s = bld.broadcast_shapes(shape_of(cond, bld), shape_of(a, bld), loc, "where");
  s = bld.broadcast_shapes(s, shape_of(b, bld), loc, "where");
  int rc = bld.broadcast(bld.materialize(cond, DType::i1, loc), s, loc);
  int ra, rb;
  ir::Type rt;
  if (is_ptr(a, bld)) {
    if (bld.type(a.reg()).dtype != bld.type(b.reg()).dtype)
      bld.fail(loc, "where() on pointers of different element types");
    ra = bld.broadcast(a.reg(), s, loc);
    rb = bld.broadcast(b.reg(), s, loc);
  } else {
    DType d = promote(a, b, false, bld, loc, "where");
    ra = bld.broadcast(bld.materialize(a, d, loc), s, loc);
    rb = bld.broadcast(bld.materialize(b, d, loc), s, loc);
  }
  rt = bld.type(ra);
  return Tensor::wrap(bld.emit_value(ir::Op::Where, rt, {rc, ra, rb}, loc));
}

Tensor fma(const Operand& a, const Operand& b, const Operand& c, std::source_location l) {
  SrcLoc loc = loc_of(l);
  Builder& bld = Builder::current(loc);
  DType d = promote(a, b, false, bld, loc, "fma");
  Tensor tc = c.is_tensor() ? Tensor::wrap(c.reg()) : Tensor::wrap(bld.constant(Builder::literal_dtype(c), c, loc));
  Operand oc(tc, l);
  if (!a.is_tensor() && !b.is_tensor()) d = operand_dtype(oc, bld);
  else {
    Tensor pa = a.is_tensor() ? Tensor::wrap(a.reg()) : Tensor::wrap(bld.constant(d, a, loc));
    d = promote(Operand(pa, l), oc, false, bld, loc, "fma");
  }
  if (!is_float(d)) bld.fail(loc, "fma needs float operands, got " + dn(d));
  ir::Shape s = bld.broadcast_shapes(shape_of(a, bld), shape_of(b, bld), loc, "fma");
  s = bld.broadcast_shapes(s, shape_of(oc, bld), loc, "fma");
  int ra = bld.broadcast(bld.materialize(a, d, loc), s, loc);
  int rb = bld.broadcast(bld.materialize(b, d, loc), s, loc);
  int rc = bld.broadcast(bld.materialize(oc, d, loc), s, loc);
  return Tensor::wrap(bld.emit_value(ir::Op::Fma, bld.type(ra), {ra, rb, rc}, loc));
}

#define TL_UNARY(FN, OP) \
  Tensor FN(const Tensor& x, std::source_location loc) { return unary(ir::Op::OP, x, loc_of(loc)); }
TL_UNARY(exp, Exp)
TL_UNARY(exp2, Exp2)
TL_UNARY(log, Log)
TL_UNARY(log2, Log2)
TL_UNARY(sqrt, Sqrt)
TL_UNARY(rsqrt, Rsqrt)
TL_UNARY(sin, Sin)
TL_UNARY(cos, Cos)
TL_UNARY(sigmoid, Sigmoid)
TL_UNARY(tanh, Tanh)
TL_UNARY(abs, Abs)
TL_UNARY(floor, Floor)
TL_UNARY(ceil, Ceil)
#undef TL_UNARY

Tensor cdiv(const Operand& x, const Operand& d, std::source_location l) {
  SrcLoc loc = loc_of(l);
  Tensor num = binary(ir::Op::Add, x, d, loc);
  Tensor num2 = binary(ir::Op::Sub, num, 1, loc);
  return binary(ir::Op::Div, num2, d, loc);
}

Tensor Tensor::to(DType d, bool bitcast, std::source_location l) const {
  SrcLoc loc = loc_of(l);
  Builder& b = Builder::current(loc);
  ir::Type t = b.type(reg_);
  if (t.is_ptr) b.fail(loc, "cannot convert a pointer tile with .to()");
  if (!bitcast) return Tensor::wrap(b.fresh(b.cast(reg_, d, loc), reg_, loc));
  if (bit_width(t.dtype) != bit_width(d))
    b.fail(loc, "bitcast needs types of the same width: " + dn(t.dtype) + " is " +
                    std::to_string(bit_width(t.dtype)) + " bits, " + dn(d) + " is " + std::to_string(bit_width(d)));
  if (t.dtype == d) return Tensor::wrap(b.fresh(reg_, reg_, loc));
  t.dtype = d;
  return Tensor::wrap(b.emit_value(ir::Op::Bitcast, t, {reg_}, loc));
}

}  // namespace tl
