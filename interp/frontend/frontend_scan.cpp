// Scans, reductions with a combine function, sort, flip, join/split,
// interleave, gather and histogram: their shape and dtype rules.
#include "builder.h"

namespace tl {
using detail::Builder;
using detail::loc_of;

namespace {

std::string dn(DType d) { return std::string(name(d)); }

// The combine function built once into a block of its own. Registers from
// `first_reg` on were created while building it.
struct CombineBlock {
  std::unique_ptr<ir::Block> block;
  std::vector<int> args, yields;
};

CombineBlock build_combine(Builder& b, const std::vector<DType>& dtypes, const CombineN& f, const char* what,
                           const SrcLoc& loc) {
  if (!f) b.fail(loc, std::string(what) + " needs a combine function");
  CombineBlock cb;
  cb.block = std::make_unique<ir::Block>();
  const int first_reg = static_cast<int>(b.kernel().regs.size());
  b.push_block(cb.block.get());
  std::vector<int> yields;
  try {
    std::vector<Tensor> lhs, rhs;
    for (int side = 0; side < 2; ++side)
      for (DType d : dtypes) {
        int r = b.new_reg(ir::Type{d, false, {}});
        cb.args.push_back(r);
        (side == 0 ? lhs : rhs).push_back(Tensor::wrap(r));
      }
    std::vector<Tensor> out = f(lhs, rhs);
    if (out.size() != dtypes.size())
      b.fail(loc, std::string(what) + ": the combine function returned " + std::to_string(out.size()) +
                      " values, expected " + std::to_string(dtypes.size()) + " (one per operand)");
    for (size_t i = 0; i < out.size(); ++i) {
      if (!out[i].defined()) b.fail(loc, std::string(what) + ": the combine function returned an undefined tensor");
      ir::Type t = b.type(out[i].reg());
      if (!t.shape.empty() || t.is_ptr)
        b.fail(loc, std::string(what) + ": the combine function must return 0-d values, got " + t.str());
      if (t.dtype != dtypes[i])
        b.fail(loc, std::string(what) + ": the combine function returned " + dn(t.dtype) + " for operand " +
                        std::to_string(i) + ", expected " + dn(dtypes[i]) +
                        " (a combine function keeps its operands' dtype; convert with .to())");
      yields.push_back(out[i].reg());
    }
  } catch (...) {
    b.pop_block();
    throw;
  }
  b.pop_block();
  cb.yields = yields;
  // Only elementwise math on the arguments and on values made inside: the
  // block is evaluated apart from the kernel, once per combined pair.
  std::vector<bool> inside(b.kernel().regs.size(), false);
  for (int r : cb.args) inside[r] = true;
  for (const ir::Instr& in : cb.block->instrs) {
    const SrcLoc& at = in.loc.known() ? in.loc : loc;
    bool ok = ir::is_unary(in.op) || ir::is_binary(in.op) || in.op == ir::Op::Where || in.op == ir::Op::Fma ||
              in.op == ir::Op::Const;
    if (!ok || in.op == ir::Op::PtrAdd)
      b.fail(at, std::string(what) + ": `" + ir::op_name(in.op) +
                     "` inside a combine function; only elementwise math on its arguments is allowed there");
    for (int a : in.args)
      if (!inside[a])
        b.fail(at, std::string(what) + ": the combine function uses a tile from outside it; a combine function "
                                       "may only use its arguments and literals");
    if (in.dst >= 0) {
      if (in.dst < first_reg)
        b.fail(at, std::string(what) + ": the combine function assigns a tile from outside it");
      inside[in.dst] = true;
    }
  }
  for (int y : cb.yields)
    if (!inside[y])
      b.fail(loc, std::string(what) + ": the combine function returns a tile from outside it; it may only return "
                                      "values computed from its arguments");
  return cb;
}

// A copy of a combine block (elementwise instructions only: no nested blocks).
std::unique_ptr<ir::Block> clone_flat(const ir::Block& src) {
  auto out = std::make_unique<ir::Block>();
  for (const ir::Instr& in : src.instrs) {
    ir::Instr c;
    c.op = in.op;
    c.dst = in.dst;
    c.args = in.args;
    c.cond_reg = in.cond_reg;
    c.ival = in.ival;
    c.ival2 = in.ival2;
    c.fval = in.fval;
    c.axis = in.axis;
    c.param_index = in.param_index;
    c.dims = in.dims;
    c.reduce = in.reduce;
    c.precision = in.precision;
    c.has_mask = in.has_mask;
    c.has_other = in.has_other;
    c.has_acc = in.has_acc;
    c.propagate_nan = in.propagate_nan;
    c.text = in.text;
    c.shape_dims = in.shape_dims;
    c.loc = in.loc;
    out->instrs.push_back(std::move(c));
  }
  return out;
}

int normalize_axis(Builder& b, int axis, const ir::Type& t, const char* what, const char* word, const SrcLoc& loc) {
  const int rank = static_cast<int>(t.shape.size());
  const int ax = axis < 0 ? axis + rank : axis;
  if (ax < 0 || ax >= rank)
    b.fail(loc, std::string(what) + ": " + word + " " + std::to_string(axis) + " is out of range for a tile " +
                    t.str() + " (expected " + std::to_string(-rank) + " to " + std::to_string(rank - 1) + ")");
  return ax;
}

void check_values(Builder& b, const std::vector<int>& regs, const char* what, const SrcLoc& loc) {
  if (regs.empty()) b.fail(loc, std::string(what) + " needs at least one tile");
  const ir::Type t0 = b.type(regs[0]);
  for (int r : regs) {
    ir::Type t = b.type(r);
    if (t.is_ptr) b.fail(loc, std::string(what) + " of a pointer tile; load the values first");
    if (t.shape != t0.shape)
      b.fail(loc, std::string(what) + ": the tiles must have one shape, got " + t0.str() + " and " + t.str());
  }
}

// One Scan or ReduceWith per output, each with its own copy of the block.
std::vector<Tensor> build_combined(ir::Op op, std::vector<int> regs, Axis axis, const CombineN& f, bool reverse,
                                   bool keep_dims, const char* what, const SrcLoc& loc) {
  Builder& b = Builder::current(loc);
  check_values(b, regs, what, loc);
  ir::Type t0 = b.type(regs[0]);
  const int rank = static_cast<int>(t0.shape.size());
  int ax = 0;
  ir::Shape kept;
  if (!axis) {
    if (op == ir::Op::Scan) b.fail(loc, std::string(what) + " needs an axis");
    // Reduce everything: flatten, reduce axis 0, 0-d result.
    kept = ir::Shape(rank, 1);
    if (rank != 1)
      for (int& r : regs) {
        ir::Type flat = b.type(r);
        flat.shape = {ir::numel(flat.shape)};
        r = b.emit_value(ir::Op::Reshape, flat, {r}, loc);
      }
  } else {
    if (rank == 0) b.fail(loc, std::string(what) + " along an axis of a 0-d tensor");
    ax = normalize_axis(b, *axis, t0, what, "axis", loc);
    kept = t0.shape;
    kept[ax] = 1;
  }
  std::vector<DType> dtypes;
  for (int r : regs) dtypes.push_back(b.type(r).dtype);
  CombineBlock cb = build_combine(b, dtypes, f, what, loc);
  std::vector<Tensor> out;
  for (size_t i = 0; i < regs.size(); ++i) {
    ir::Type rt = b.type(regs[i]);
    if (op == ir::Op::ReduceWith) rt.shape.erase(rt.shape.begin() + ax);
    ir::Instr& in = b.emit_op(op, rt, regs, loc);
    in.axis = ax;
    in.ival = reverse ? 1 : 0;
    in.ival2 = static_cast<int64_t>(i);
    in.combine = i + 1 == regs.size() ? std::move(cb.block) : clone_flat(*cb.block);
    in.block_args = cb.args;
    in.yields = cb.yields;
    int r = in.dst;
    if (op == ir::Op::ReduceWith && keep_dims) {
      ir::Type kt = b.type(r);
      kt.shape = kept;
      r = b.emit_value(ir::Op::Reshape, kt, {r}, loc);
    }
    out.push_back(Tensor::wrap(r));
  }
  return out;
}

// One Tensor as a vector, moved: copying a Tensor emits an IR Copy.
std::vector<Tensor> one(Tensor t) {
  std::vector<Tensor> v;
  v.push_back(std::move(t));
  return v;
}

Tensor first(std::vector<Tensor> v) { return std::move(v[0]); }

CombineN single(const Combine& f) {
  return [f](const std::vector<Tensor>& a, const std::vector<Tensor>& b) { return one(f(a[0], b[0])); };
}

Tensor scan_with(ir::Op combine_op, const Tensor& x, int axis, bool reverse, std::optional<DType> widen,
                 const char* what, const SrcLoc& loc) {
  Builder& b = Builder::current(loc);
  ir::Type t = b.type(x.reg());
  if (t.is_ptr) b.fail(loc, std::string(what) + " of a pointer tile; load the values first");
  int r = widen ? b.cast(x.reg(), *widen, loc) : x.reg();
  CombineN f = [combine_op, loc](const std::vector<Tensor>& a, const std::vector<Tensor>& c) {
    Builder& bb = Builder::current(loc);
    return one(Tensor::wrap(bb.emit_value(combine_op, bb.type(a[0].reg()), {a[0].reg(), c[0].reg()}, loc)));
  };
  return first(build_combined(ir::Op::Scan, {r}, axis, f, reverse, false, what, loc));
}

// Triton's cumsum and cumprod scan bf16 in f32 (the result stays f32),
// as its recorded outputs' dtypes show (tests/fidelity, scan family).
std::optional<DType> bf16_in_f32(DType d) {
  return d == DType::bf16 ? std::optional<DType>(DType::f32) : std::nullopt;
}

}  // namespace

Tensor cumsum(const Tensor& x, int axis, bool reverse, std::source_location l) {
  SrcLoc loc = loc_of(l);
  const DType d = Builder::current(loc).type(x.reg()).dtype;
  return scan_with(ir::Op::Add, x, axis, reverse, bf16_in_f32(d).value_or(detail::sum_dtype(d)), "cumsum", loc);
}
Tensor cumsum(const Tensor& x, int axis, bool reverse, DType dtype, std::source_location l) {
  return scan_with(ir::Op::Add, x, axis, reverse, dtype, "cumsum", loc_of(l));
}
Tensor cumprod(const Tensor& x, int axis, bool reverse, std::source_location l) {
  SrcLoc loc = loc_of(l);
  return scan_with(ir::Op::Mul, x, axis, reverse, bf16_in_f32(Builder::current(loc).type(x.reg()).dtype), "cumprod",
                   loc);
}

Tensor associative_scan(const Tensor& x, int axis, const Combine& combine, bool reverse, std::source_location l) {
  return first(build_combined(ir::Op::Scan, {x.reg()}, axis, single(combine), reverse, false, "associative_scan",
                              loc_of(l)));
}
std::vector<Tensor> associative_scan(const std::vector<Tensor>& xs, int axis, const CombineN& combine, bool reverse,
                                     std::source_location l) {
  std::vector<int> regs;
  for (const Tensor& x : xs) regs.push_back(x.reg());
  return build_combined(ir::Op::Scan, regs, axis, combine, reverse, false, "associative_scan", loc_of(l));
}

Tensor reduce(const Tensor& x, Axis axis, const Combine& combine, bool keep_dims, std::source_location l) {
  return first(build_combined(ir::Op::ReduceWith, {x.reg()}, axis, single(combine), false, keep_dims, "reduce",
                              loc_of(l)));
}
std::vector<Tensor> reduce(const std::vector<Tensor>& xs, Axis axis, const CombineN& combine, bool keep_dims,
                           std::source_location l) {
  std::vector<int> regs;
  for (const Tensor& x : xs) regs.push_back(x.reg());
  return build_combined(ir::Op::ReduceWith, regs, axis, combine, false, keep_dims, "reduce", loc_of(l));
}

Tensor xor_sum(const Tensor& x, Axis axis, bool keep_dims, std::source_location l) {
  SrcLoc loc = loc_of(l);
  Builder& b = Builder::current(loc);
  ir::Type t = b.type(x.reg());
  if (t.is_ptr || !is_int(t.dtype))
    b.fail(loc, "xor_sum only supported for integers, got " + t.str());
  CombineN f = [loc](const std::vector<Tensor>& a, const std::vector<Tensor>& c) {
    Builder& bb = Builder::current(loc);
    return one(Tensor::wrap(bb.emit_value(ir::Op::Xor, bb.type(a[0].reg()), {a[0].reg(), c[0].reg()}, loc)));
  };
  return first(build_combined(ir::Op::ReduceWith, {x.reg()}, axis, f, false, keep_dims, "xor_sum", loc));
}

namespace {
// The dim sort and flip work on: the last when none is given.
int pick_dim(Builder& b, const Tensor& x, Axis dim, const char* what, const SrcLoc& loc) {
  ir::Type t = b.type(x.reg());
  if (t.is_ptr) b.fail(loc, std::string(what) + " of a pointer tile; load the values first");
  if (t.shape.empty()) b.fail(loc, std::string(what) + " of a 0-d tensor; it needs a tile");
  return dim ? normalize_axis(b, *dim, t, what, "dim", loc) : static_cast<int>(t.shape.size()) - 1;
}
}  // namespace

Tensor sort(const Tensor& x, Axis dim, bool descending, std::source_location l) {
  SrcLoc loc = loc_of(l);
  Builder& b = Builder::current(loc);
  int d = pick_dim(b, x, dim, "sort", loc);
  ir::Type t = b.type(x.reg());
  if (d != static_cast<int>(t.shape.size()) - 1)
    b.fail(loc, "sort along dim " + std::to_string(*dim) + " of a tile " + t.str() +
                    ": only the last dim can be sorted (as in Triton); permute the tile first");
  ir::Instr& in = b.emit_op(ir::Op::Sort, t, {x.reg()}, loc);
  in.ival = descending ? 1 : 0;
  in.axis = d;
  return Tensor::wrap(in.dst);
}

Tensor flip(const Tensor& x, Axis dim, std::source_location l) {
  SrcLoc loc = loc_of(l);
  Builder& b = Builder::current(loc);
  int d = pick_dim(b, x, dim, "flip", loc);
  ir::Instr& in = b.emit_op(ir::Op::Flip, b.type(x.reg()), {x.reg()}, loc);
  in.axis = d;
  return Tensor::wrap(in.dst);
}

Tensor join(const Tensor& a, const Tensor& c, std::source_location l) {
  SrcLoc loc = loc_of(l);
  Builder& b = Builder::current(loc);
  ir::Type ta = b.type(a.reg()), tc = b.type(c.reg());
  if (ta.is_ptr || tc.is_ptr) b.fail(loc, "join of a pointer tile; load the values first");
  if (ta.dtype != tc.dtype)
    b.fail(loc, "join of " + ta.str() + " and " + tc.str() + ": the two must have one dtype; convert one with .to()");
  ir::Shape s = b.broadcast_shapes(ta.shape, tc.shape, loc, "join");
  int ra = b.broadcast(a.reg(), s, loc), rc = b.broadcast(c.reg(), s, loc);
  ir::Type rt{ta.dtype, false, s};
  rt.shape.push_back(2);
  return Tensor::wrap(b.emit_value(ir::Op::Join, rt, {ra, rc}, loc));
}

std::pair<Tensor, Tensor> split(const Tensor& x, std::source_location l) {
  SrcLoc loc = loc_of(l);
  Builder& b = Builder::current(loc);
  ir::Type t = b.type(x.reg());
  if (t.is_ptr) b.fail(loc, "split of a pointer tile; load the values first");
  if (t.shape.empty() || t.shape.back() != 2)
    b.fail(loc, "split needs a tile whose last dimension is 2, got " + t.str());
  ir::Type rt = t;
  rt.shape.pop_back();
  ir::Instr& lo = b.emit_op(ir::Op::Split, rt, {x.reg()}, loc);
  lo.ival = 0;
  int first = lo.dst;
  ir::Instr& hi = b.emit_op(ir::Op::Split, rt, {x.reg()}, loc);
  hi.ival = 1;
  return {Tensor::wrap(first), Tensor::wrap(hi.dst)};
}

Tensor interleave(const Tensor& a, const Tensor& c, std::source_location l) {
  SrcLoc loc = loc_of(l);
  Builder& b = Builder::current(loc);
  Tensor j = join(a, c, l);
  ir::Type t = b.type(j.reg());
  // [..., n, 2] -> [..., 2n]: row-major order puts a[k], c[k] side by side.
  ir::Type rt = t;
  rt.shape.pop_back();
  if (rt.shape.empty()) rt.shape.push_back(2);
  else rt.shape.back() *= 2;
  return Tensor::wrap(b.emit_value(ir::Op::Reshape, rt, {j.reg()}, loc));
}

Tensor gather(const Tensor& src, const Tensor& index, int axis, std::source_location l) {
  SrcLoc loc = loc_of(l);
  Builder& b = Builder::current(loc);
  ir::Type ts = b.type(src.reg()), ti = b.type(index.reg());
  if (ts.is_ptr) b.fail(loc, "gather from a pointer tile; load the values first");
  if (ti.is_ptr || !is_int(ti.dtype) || ti.dtype == DType::i1)
    b.fail(loc, "gather's index must be an integer tile, got " + ti.str());
  if (ts.shape.empty()) b.fail(loc, "gather from a 0-d tensor; it needs a tile");
  if (ti.shape.size() != ts.shape.size())
    b.fail(loc, "gather's index must have the source's rank: source " + ts.str() + ", index " + ti.str());
  int ax = normalize_axis(b, axis, ts, "gather", "axis", loc);
  for (size_t d = 0; d < ts.shape.size(); ++d)
    if (static_cast<int>(d) != ax && ts.shape[d] != ti.shape[d])
      b.fail(loc, "gather: index " + ti.str() + " and source " + ts.str() + " differ on dim " + std::to_string(d) +
                      "; every dim but axis " + std::to_string(ax) + " must match");
  ir::Instr& in = b.emit_op(ir::Op::Gather, ir::Type{ts.dtype, false, ti.shape}, {src.reg(), index.reg()}, loc);
  in.axis = ax;
  return Tensor::wrap(in.dst);
}

namespace {
Tensor build_histogram(const Tensor& x, int num_bins, const Tensor* mask, const SrcLoc& loc) {
  Builder& b = Builder::current(loc);
  ir::Type t = b.type(x.reg());
  if (t.is_ptr || !is_int(t.dtype)) b.fail(loc, "histogram only supports integer input, got " + t.str());
  if (t.shape.size() != 1) b.fail(loc, "histogram only supports 1-D input, got " + t.str());
  if (num_bins < 1 || (num_bins & (num_bins - 1)) != 0)
    b.fail(loc, "histogram: num_bins = " + std::to_string(num_bins) +
                    " must be a power of two (it is the result's tile dimension)");
  std::vector<int> args{x.reg()};
  if (mask) {
    ir::Type tm = b.type(mask->reg());
    if (tm.is_ptr || tm.dtype != DType::i1) b.fail(loc, "histogram's mask must be i1, got " + tm.str());
    b.broadcast_shapes(tm.shape, t.shape, loc, "histogram mask");
    if (tm.shape.size() > t.shape.size() || ir::numel(tm.shape) > ir::numel(t.shape))
      b.fail(loc, "histogram's mask " + tm.str() + " does not broadcast to the input " + t.str());
    args.push_back(b.broadcast(mask->reg(), t.shape, loc));
  }
  ir::Instr& in = b.emit_op(ir::Op::Histogram, ir::Type{DType::i32, false, {num_bins}}, args, loc);
  in.ival = num_bins;
  in.has_mask = mask != nullptr;
  return Tensor::wrap(in.dst);
}
}  // namespace

Tensor histogram(const Tensor& x, int num_bins, std::source_location l) {
  return build_histogram(x, num_bins, nullptr, loc_of(l));
}
Tensor histogram(const Tensor& x, int num_bins, const Tensor& mask, std::source_location l) {
  return build_histogram(x, num_bins, &mask, loc_of(l));
}

}  // namespace tl
