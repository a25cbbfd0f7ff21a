// Tile-producing, memory, shape, reduction and dot operations of the front
// end (SEMANTICS §6–§10).
#include "builder.h"

namespace tl {
using detail::Builder;
using detail::loc_of;

namespace {
bool is_pow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

void check_shape(Builder& b, const Shape& s, const SrcLoc& loc) {
  for (int64_t d : s)
    if (!is_pow2(d))
      b.fail(loc, "tile shape " + ir::shape_str(s) + " has a dimension of " + std::to_string(d) +
                      "; every tile dimension must be a power of two");
}

int axis_index(Builder& b, int axis, int rank, const SrcLoc& loc, const char* what) {
  int a = axis < 0 ? axis + rank : axis;
  if (a < 0 || a >= rank)
    b.fail(loc, std::string(what) + ": axis " + std::to_string(axis) + " is out of range for a tile of rank " +
                    std::to_string(rank));
  return a;
}
}  // namespace

// ---- Leaves -----------------------------------------------------------------

static Tensor grid_query(ir::Op op, int axis, std::source_location l) {
  SrcLoc loc = loc_of(l);
  Builder& b = Builder::current(loc);
  if (axis < 0 || axis > 2) b.fail(loc, std::string(ir::op_name(op)) + " axis must be 0, 1 or 2, got " + std::to_string(axis));
  ir::Instr& in = b.emit_op(op, ir::Type{DType::i32, false, {}}, {}, loc);
  in.axis = axis;
  return Tensor::wrap(in.dst);
}

Tensor program_id(int axis, std::source_location l) {
  Tensor t = grid_query(ir::Op::ProgramId, axis, l);
  return t;
}
Tensor num_programs(int axis, std::source_location l) { return grid_query(ir::Op::NumPrograms, axis, l); }

Tensor arange(int64_t start, int64_t end, std::source_location l) {
  SrcLoc loc = loc_of(l);
  Builder& b = Builder::current(loc);
  if (start < INT32_MIN || end > INT32_MAX) b.fail(loc, "arange bounds must be in the i32 range");
  if (end <= start)
    b.fail(loc, "arange(" + std::to_string(start) + ", " + std::to_string(end) + ") is empty; end must be greater than start");
  int64_t n = end - start;
  if (!is_pow2(n))
    b.fail(loc, "arange(" + std::to_string(start) + ", " + std::to_string(end) + ") has " + std::to_string(n) +
                    " elements; the length must be a power of two (tile dimensions are powers of two)");
  ir::Instr& in = b.emit_op(ir::Op::Arange, ir::Type{DType::i32, false, {n}}, {}, loc);
  in.ival = start;
  in.ival2 = end;
  return Tensor::wrap(in.dst);
}

Tensor full(Shape shape, const Operand& value, DType dtype, std::source_location l) {
  SrcLoc loc = loc_of(l);
  Builder& b = Builder::current(loc);
  check_shape(b, shape, loc);
  int v;
  if (value.is_tensor()) {
    const ir::Type& t = b.type(value.reg());
    if (!t.shape.empty()) b.fail(loc, "full() needs a scalar value, got a tile " + t.str());
    v = b.cast(value.reg(), dtype, loc);
  } else if (value.kind() == Operand::Kind::Float && !is_float(dtype)) {
    v = b.constant(dtype, value, loc);
  } else {
    v = b.constant(dtype, value, loc);
  }
  return Tensor::wrap(b.fresh(b.broadcast(v, shape, loc), value.is_tensor() ? value.reg() : -2, loc));
}

Tensor zeros(Shape shape, DType dtype, std::source_location l) { return full(std::move(shape), 0, dtype, l); }
Tensor zeros_like(const Tensor& x, std::source_location l) { return full(x.shape(), 0, x.dtype(), l); }

Tensor scalar(const Operand& value, std::source_location l) {
  SrcLoc loc = loc_of(l);
  Builder& b = Builder::current(loc);
  if (value.is_tensor()) return Tensor::wrap(b.fresh(value.reg(), value.reg(), loc));
  return Tensor::wrap(b.constant(Builder::literal_dtype(value), value, loc));
}

// ---- Memory -----------------------------------------------------------------

// Shared with the atomics (frontend_atomics.cpp): one rule for masks and
// pointer operands.
namespace detail {

int mask_reg(Builder& b, const Operand& mask, const SrcLoc& loc, const char* what) {
  if (mask.is_tensor()) {
    const ir::Type& t = b.type(mask.reg());
    if (t.dtype != DType::i1)
      b.fail(loc, std::string(what) + " mask must be i1 (a comparison such as `offs < N`), got " + t.str() +
                      "; write `m != 0`");
    return mask.reg();
  }
  if (mask.kind() != Operand::Kind::Bool)
    b.fail(loc, std::string(what) + " mask must be i1 or a bool, got a number");
  return b.constant(DType::i1, mask, loc);
}

void check_ptr(Builder& b, const Tensor& ptr, const SrcLoc& loc, const char* what) {
  if (!b.type(ptr.reg()).is_ptr)
    b.fail(loc, std::string(what) + " needs a pointer (a tl::Ptr plus offsets), got a value tile " +
                    b.type(ptr.reg()).str());
}

}  // namespace detail

namespace {
using detail::check_ptr;
using detail::mask_reg;

Tensor build_load(const Tensor& ptr, const Operand* mask, const Operand* other, const SrcLoc& loc) {
  Builder& b = Builder::current(loc);
  check_ptr(b, ptr, loc, "load");
  const ir::Type pt = b.type(ptr.reg());
  if (other && !mask) b.fail(loc, "load: `other` needs a mask (masked-off lanes are what `other` fills)");
  ir::Shape s = pt.shape;
  int m = -1, o = -1;
  if (mask) {
    m = mask_reg(b, *mask, loc, "load");
    // Pointer, mask and other broadcast together; the pointer tile may
    // stretch (SEMANTICS §9).
    s = b.broadcast_shapes(pt.shape, b.type(m).shape, loc, "load (pointer and mask)");
  }
  if (other) {
    o = b.materialize(*other, pt.dtype, loc);
    s = b.broadcast_shapes(s, b.type(o).shape, loc, "load (other)");
  }
  ir::Instr in{};
  in.op = ir::Op::Load;
  in.args.push_back(b.broadcast(ptr.reg(), s, loc));
  if (m >= 0) {
    in.args.push_back(b.broadcast(m, s, loc));
    in.has_mask = true;
  }
  if (o >= 0) {
    in.args.push_back(b.broadcast(o, s, loc));
    in.has_other = true;
  }
  in.dst = b.new_reg(ir::Type{pt.dtype, false, s});
  in.loc = loc;
  return Tensor::wrap(b.emit(std::move(in)).dst);
}

Tensor build_store(ir::Op op, const Tensor& ptr, const Operand& value, const Operand* mask, const SrcLoc& loc) {
  Builder& b = Builder::current(loc);
  const char* what = "store";
  check_ptr(b, ptr, loc, what);
  const ir::Type pt = b.type(ptr.reg());
  if (value.is_tensor() && b.type(value.reg()).is_ptr) b.fail(loc, std::string(what) + ": cannot store pointers");
  int v = b.materialize(value, pt.dtype, loc);
  const ir::Shape& vs = b.type(v).shape;
  if (b.broadcast_shapes(pt.shape, vs, loc, what) != pt.shape)
    b.fail(loc, std::string(what) + ": value shape " + ir::shape_str(vs) + " does not fit pointer shape " +
                    ir::shape_str(pt.shape) + " (the value may broadcast to the pointers, never widen them)");
  ir::Instr in{};
  in.op = op;
  in.args = {ptr.reg(), b.broadcast(v, pt.shape, loc)};
  if (mask) {
    int m = mask_reg(b, *mask, loc, what);
    const ir::Shape& ms = b.type(m).shape;
    if (b.broadcast_shapes(pt.shape, ms, loc, what) != pt.shape)
      b.fail(loc, std::string(what) + ": mask shape " + ir::shape_str(ms) + " does not fit pointer shape " +
                      ir::shape_str(pt.shape));
    in.args.push_back(b.broadcast(m, pt.shape, loc));
    in.has_mask = true;
  }
  in.loc = loc;
  b.emit(std::move(in));
  return Tensor();
}
}  // namespace

Tensor load(const Tensor& ptr, std::source_location l) { return build_load(ptr, nullptr, nullptr, loc_of(l)); }
Tensor load(const Tensor& ptr, const Operand& mask, std::source_location l) {
  return build_load(ptr, &mask, nullptr, loc_of(l));
}
Tensor load(const Tensor& ptr, const Operand& mask, const Operand& other, std::source_location l) {
  return build_load(ptr, &mask, &other, loc_of(l));
}
void store(const Tensor& ptr, const Operand& value, std::source_location l) {
  build_store(ir::Op::Store, ptr, value, nullptr, loc_of(l));
}
void store(const Tensor& ptr, const Operand& value, const Operand& mask, std::source_location l) {
  build_store(ir::Op::Store, ptr, value, &mask, loc_of(l));
}
Tensor atomic_add(const Tensor& ptr, const Operand& value, std::source_location l) {
  return atomic("add", ptr, value, std::nullopt, std::nullopt, "", "", l);
}
Tensor atomic_add(const Tensor& ptr, const Operand& value, const Operand& mask, std::source_location l) {
  return atomic("add", ptr, value, mask, std::nullopt, "", "", l);
}

// ---- Shapes -----------------------------------------------------------------

Tensor expand_dims(const Tensor& x, std::vector<int> axes, std::source_location l) {
  SrcLoc loc = loc_of(l);
  Builder& b = Builder::current(loc);
  ir::Type t = b.type(x.reg());
  int out_rank = static_cast<int>(t.shape.size() + axes.size());
  std::vector<bool> inserted(out_rank, false);
  for (int a : axes) {
    int ai = axis_index(b, a, out_rank, loc, "expand_dims");
    if (inserted[ai]) b.fail(loc, "expand_dims: axis " + std::to_string(a) + " given twice");
    inserted[ai] = true;
  }
  ir::Shape s;
  size_t k = 0;
  for (int i = 0; i < out_rank; ++i) s.push_back(inserted[i] ? 1 : t.shape[k++]);
  t.shape = s;
  return Tensor::wrap(b.emit_value(ir::Op::Reshape, t, {x.reg()}, loc));
}
Tensor expand_dims(const Tensor& x, int axis, std::source_location l) { return expand_dims(x, std::vector<int>{axis}, l); }
Tensor Tensor::expand_dims(int axis, std::source_location l) const { return tl::expand_dims(*this, axis, l); }

Tensor Tensor::col(std::source_location l) const {
  if (rank() != 1)
    throw BuildError(loc_of(l), ".col() makes a [N, 1] column from a 1-D tile, got " + type().str());
  return tl::expand_dims(*this, 1, l);
}
Tensor Tensor::row(std::source_location l) const {
  if (rank() != 1)
    throw BuildError(loc_of(l), ".row() makes a [1, N] row from a 1-D tile, got " + type().str());
  return tl::expand_dims(*this, 0, l);
}

Tensor broadcast_to(const Tensor& x, Shape shape, std::source_location l) {
  SrcLoc loc = loc_of(l);
  Builder& b = Builder::current(loc);
  check_shape(b, shape, loc);
  return Tensor::wrap(b.fresh(b.broadcast(x.reg(), shape, loc), x.reg(), loc));
}
Tensor Tensor::broadcast_to(Shape shape, std::source_location l) const { return tl::broadcast_to(*this, shape, l); }

Tensor reshape(const Tensor& x, Shape shape, std::source_location l) {
  SrcLoc loc = loc_of(l);
  Builder& b = Builder::current(loc);
  check_shape(b, shape, loc);
  ir::Type t = b.type(x.reg());
  if (ir::numel(shape) != ir::numel(t.shape))
    b.fail(loc, "reshape from " + ir::shape_str(t.shape) + " (" + std::to_string(ir::numel(t.shape)) +
                    " elements) to " + ir::shape_str(shape) + " (" + std::to_string(ir::numel(shape)) +
                    " elements): the element count must stay the same");
  t.shape = shape;
  return Tensor::wrap(b.emit_value(ir::Op::Reshape, t, {x.reg()}, loc));
}
Tensor Tensor::reshape(Shape shape, std::source_location l) const { return tl::reshape(*this, shape, l); }

Tensor permute(const Tensor& x, std::vector<int> dims, std::source_location l) {
  SrcLoc loc = loc_of(l);
  Builder& b = Builder::current(loc);
  ir::Type t = b.type(x.reg());
  int rank = static_cast<int>(t.shape.size());
  if (static_cast<int>(dims.size()) != rank)
    b.fail(loc, "permute needs " + std::to_string(rank) + " axes for a tile " + t.str() + ", got " +
                    std::to_string(dims.size()));
  std::vector<bool> seen(rank, false);
  ir::Shape s;
  for (int& d : dims) {
    d = axis_index(b, d, rank, loc, "permute");
    if (seen[d]) b.fail(loc, "permute: axis " + std::to_string(d) + " appears twice");
    seen[d] = true;
    s.push_back(t.shape[d]);
  }
  ir::Type rt = t;
  rt.shape = s;
  ir::Instr& in = b.emit_op(ir::Op::Permute, rt, {x.reg()}, loc);
  in.dims = dims;
  return Tensor::wrap(in.dst);
}

Tensor trans(const Tensor& x, std::source_location l) {
  if (x.rank() != 2)
    throw BuildError(loc_of(l), "trans() swaps the two axes of a 2-D tile, got " + x.type().str() +
                                    "; use permute() for other ranks");
  return permute(x, {1, 0}, l);
}
Tensor Tensor::trans(std::source_location l) const { return tl::trans(*this, l); }
Tensor Tensor::permute(std::vector<int> dims, std::source_location l) const { return tl::permute(*this, dims, l); }

}  // namespace tl
