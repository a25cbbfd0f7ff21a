// Reductions (SEMANTICS §7) and dot (§8).
#include "builder.h"

namespace tl {
using detail::Builder;
using detail::loc_of;

namespace {
std::string dn(DType d) { return std::string(name(d)); }

Tensor reduce(ir::ReduceKind kind, const Tensor& x, Axis axis, bool keep_dims, std::optional<DType> dtype,
              const SrcLoc& loc) {
  Builder& b = Builder::current(loc);
  ir::Type t = b.type(x.reg());
  const char* what = ir::reduce_name(kind);
  if (t.is_ptr) b.fail(loc, std::string(what) + " of a pointer tile");
  int r = x.reg();
  // Input conversion rules.
  if (dtype) {
    r = b.cast(r, *dtype, loc);
  } else if (kind == ir::ReduceKind::Sum) {
    r = b.cast(r, detail::sum_dtype(t.dtype), loc);
  } else if (kind == ir::ReduceKind::Max || kind == ir::ReduceKind::Min) {
    if (t.dtype == DType::f16 || t.dtype == DType::bf16) r = b.cast(r, DType::f32, loc);
    else if (is_int(t.dtype) && bit_width(t.dtype) < 32) r = b.cast(r, DType::i32, loc);
  }
  ir::Type in_t = b.type(r);
  int rank = static_cast<int>(in_t.shape.size());
  int ax;
  ir::Shape kept;  // the result shape with keep_dims
  if (!axis) {
    // Reduce everything: flatten, reduce axis 0, 0-d result.
    ir::Type flat = in_t;
    flat.shape = {ir::numel(in_t.shape)};
    if (rank != 1) r = b.emit_value(ir::Op::Reshape, flat, {r}, loc);
    ax = 0;
    kept = ir::Shape(rank, 1);
    in_t = flat;
  } else {
    if (rank == 0) b.fail(loc, std::string(what) + " along an axis of a 0-d tensor");
    ax = *axis < 0 ? *axis + rank : *axis;
    if (ax < 0 || ax >= rank)
      b.fail(loc, std::string(what) + ": axis " + std::to_string(*axis) + " is out of range for a tile " + t.str());
    kept = in_t.shape;
    kept[ax] = 1;
  }
  ir::Type rt = in_t;
  rt.shape.erase(rt.shape.begin() + ax);
  if (kind == ir::ReduceKind::ArgMax || kind == ir::ReduceKind::ArgMin) rt.dtype = DType::i32;
  ir::Instr& in = b.emit_op(ir::Op::Reduce, rt, {r}, loc);
  in.reduce = kind;
  in.axis = ax;
  int out = in.dst;
  if (keep_dims) {
    ir::Type kt = rt;
    kt.shape = kept;
    out = b.emit_value(ir::Op::Reshape, kt, {out}, loc);
  }
  return Tensor::wrap(out);
}
}  // namespace

Tensor sum(const Tensor& x, Axis axis, bool keep_dims, std::source_location l) {
  return reduce(ir::ReduceKind::Sum, x, axis, keep_dims, std::nullopt, loc_of(l));
}
Tensor sum(const Tensor& x, Axis axis, bool keep_dims, DType dtype, std::source_location l) {
  return reduce(ir::ReduceKind::Sum, x, axis, keep_dims, dtype, loc_of(l));
}
Tensor max(const Tensor& x, Axis axis, bool keep_dims, std::source_location l) {
  return reduce(ir::ReduceKind::Max, x, axis, keep_dims, std::nullopt, loc_of(l));
}
Tensor min(const Tensor& x, Axis axis, bool keep_dims, std::source_location l) {
  return reduce(ir::ReduceKind::Min, x, axis, keep_dims, std::nullopt, loc_of(l));
}
Tensor argmax(const Tensor& x, int axis, bool keep_dims, std::source_location l) {
  return reduce(ir::ReduceKind::ArgMax, x, axis, keep_dims, std::nullopt, loc_of(l));
}
Tensor argmin(const Tensor& x, int axis, bool keep_dims, std::source_location l) {
  return reduce(ir::ReduceKind::ArgMin, x, axis, keep_dims, std::nullopt, loc_of(l));
}

namespace {
Tensor build_dot(const Tensor& a, const Tensor& b, const Tensor* acc, Precision p, std::optional<DType> out,
                 const SrcLoc& loc) {
  Builder& bld = Builder::current(loc);
  const ir::Type ta = bld.type(a.reg()), tb = bld.type(b.reg());
  if (ta.is_ptr || tb.is_ptr) bld.fail(loc, "dot of pointer tiles; load the values first");
  int ra = static_cast<int>(ta.shape.size()), rb = static_cast<int>(tb.shape.size());
  if ((ra != 2 && ra != 3) || ra != rb)
    bld.fail(loc, "dot needs two 2-D tiles [M, K] x [K, N] or two 3-D tiles [B, M, K] x [B, K, N], got " +
                      ta.str() + " and " + tb.str());
  int64_t M = ta.shape[ra - 2], K = ta.shape[ra - 1], K2 = tb.shape[rb - 2], N = tb.shape[rb - 1];
  if (K != K2)
    bld.fail(loc, "dot shape mismatch: a is " + ir::shape_str(ta.shape) + " and b is " + ir::shape_str(tb.shape) +
                      "; a's last dimension (K = " + std::to_string(K) + ") must equal b's second-to-last (" +
                      std::to_string(K2) + ")");
  if (ra == 3 && ta.shape[0] != tb.shape[0])
    bld.fail(loc, "dot batch mismatch: a is " + ir::shape_str(ta.shape) + " and b is " + ir::shape_str(tb.shape) +
                      "; the batch dimensions must be equal");
  if (ta.dtype != tb.dtype)
    bld.fail(loc, "dot operands must have one dtype, got " + dn(ta.dtype) + " and " + dn(tb.dtype) +
                      "; convert one with .to()");
  DType d = ta.dtype;
  bool eight = d == DType::i8 || d == DType::u8;
  if (!(eight || d == DType::f16 || d == DType::bf16 || d == DType::f32 || d == DType::f64))
    bld.fail(loc, "dot does not support " + dn(d) + " inputs (supported: i8, u8, f16, bf16, f32, f64)");
  int64_t min_nk = eight ? 32 : 16;
  if (M < 16 || N < min_nk || K < min_nk)
    bld.fail(loc, "dot needs M, N, K >= 16" + std::string(eight ? " (N, K >= 32 for 8-bit inputs)" : "") +
                      ", got M = " + std::to_string(M) + ", N = " + std::to_string(N) + ", K = " + std::to_string(K) +
                      " (" + ir::shape_str(ta.shape) + " x " + ir::shape_str(tb.shape) + ")");
  DType rd = eight ? DType::i32 : d == DType::f64 ? DType::f64 : DType::f32;
  if (out && *out == DType::bf16)
    bld.fail(loc, "dot: out_dtype=bf16 is not supported (as in Triton); use out_dtype=f32 (or f16 for f16 inputs) "
                  "and convert the result with .to(tl::bf16)");
  if (out) {
    if (d == DType::f16 && (*out == DType::f16 || *out == DType::f32)) rd = *out;
    else if (*out != rd)
      bld.fail(loc, "dot of " + dn(d) + " inputs cannot produce " + dn(*out) + " (it gives " + dn(rd) + ")");
  }
  if (p != Precision::tf32 && d != DType::f32 && p != Precision::ieee)
    bld.fail(loc, std::string("input_precision ") + ir::precision_name(p) + " applies to f32 inputs only");
  ir::Shape rs = ta.shape;
  rs[ra - 1] = N;
  ir::Type rt{rd, false, rs};
  std::vector<int> args{a.reg(), b.reg()};
  if (acc) {
    const ir::Type& tc = bld.type(acc->reg());
    if (!(tc == rt))
      bld.fail(loc, "dot accumulator must be " + rt.str() + " (the product's shape and dtype), got " + tc.str());
    args.push_back(acc->reg());
  }
  ir::Instr& in = bld.emit_op(ir::Op::Dot, rt, args, loc);
  in.has_acc = acc != nullptr;
  in.precision = d == DType::f32 ? p : Precision::ieee;
  return Tensor::wrap(in.dst);
}
}  // namespace

Tensor dot(const Tensor& a, const Tensor& b, Precision p, std::source_location l) {
  return build_dot(a, b, nullptr, p, std::nullopt, loc_of(l));
}
Tensor dot(const Tensor& a, const Tensor& b, const Tensor& acc, Precision p, std::source_location l) {
  return build_dot(a, b, &acc, p, std::nullopt, loc_of(l));
}
Tensor dot(const Tensor& a, const Tensor& b, const Tensor& acc, Precision p, DType out, std::source_location l) {
  return build_dot(a, b, acc.defined() ? &acc : nullptr, p, out, loc_of(l));
}

}  // namespace tl
