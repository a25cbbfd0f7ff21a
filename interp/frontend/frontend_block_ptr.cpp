// Block pointers (Triton's tl.make_block_ptr, tl.advance, and load/store
// with boundary_check). A BlockPtr is only a bundle of scalar Tensors; a
// load or store through it is lowered here, in the one semantic layer, to
// the ordinary IR a hand-written kernel would have: a pointer tile
//   base + sum_d (offsets[d] + arange(0, B_d)) * strides[d]     (in i64)
// and, for the boundary-checked dims, the mask
//   0 <= offsets[d] + i_d < shape[d].
// The dims that are NOT boundary-checked travel with the Load/Store as
// trailing 0-d args (offset, extent) so the interpreter can flag an active
// lane outside the shape (FindingKind::BlockPtrOutOfShape); the backends
// ignore them. The rules are listed next to the API in tl.h.
#include <cmath>
#include <limits>

#include "builder.h"

namespace tl {

using detail::Builder;
using detail::loc_of;

namespace {

bool is_index_dtype(DType d) { return is_int(d) && d != DType::i1; }

// Shape, strides and offsets are integer scalars or integer literals.
void check_index(Builder& b, const Operand& o, const SrcLoc& loc, const std::string& what) {
  if (o.is_tensor()) {
    const ir::Type t = b.type(o.reg());
    if (!t.shape.empty() || t.is_ptr || !is_index_dtype(t.dtype))
      b.fail(loc, what + " must be integer scalars or literals, got " + t.str());
    return;
  }
  if (o.kind() != Operand::Kind::Int)
    b.fail(loc, what + " must be integers, got a " + (o.kind() == Operand::Kind::Float ? "float" : "bool") + " literal");
}

DType dtype_of(Builder& b, const Operand& o) { return o.is_tensor() ? b.type(o.reg()).dtype : Builder::literal_dtype(o); }

// `o` as a register of dtype `d` that the new Tensor owns (a copy when it
// would otherwise share the caller's register).
Tensor owned(Builder& b, const Operand& o, DType d, const SrcLoc& loc) {
  const int r = b.materialize(o, d, loc);
  return Tensor::wrap(o.is_tensor() ? b.fresh(r, o.reg(), loc) : r);
}

Tensor copy_of(Builder& b, const Tensor& t, const SrcLoc& loc) { return Tensor::wrap(b.fresh(t.reg(), t.reg(), loc)); }

bool power_of_two(int64_t v) { return v >= 1 && (v & (v - 1)) == 0; }

void require_defined(const BlockPtr& p, const SrcLoc& loc, const char* what) {
  if (!p.defined()) throw BuildError(loc, std::string(what) + ": the block pointer has no value (make it with tl::make_block_ptr)");
}

// What a load or store through `p` is built from.
struct Access {
  int ptr = -1;                 // pointer tile of the block's shape
  int mask = -1;                // i1 tile, -1 when no dim is boundary-checked
  std::vector<int> shape_dims;  // dims not boundary-checked
  std::vector<int> checks;      // per such dim: offset (i64), extent (i64)
};

Access block_access(Builder& b, const BlockPtr& p, const std::vector<int>& boundary_check, const SrcLoc& loc,
                    const char* what) {
  const int rank = p.rank();
  const ir::Shape& bs = p.block_shape();
  std::vector<bool> checked(static_cast<size_t>(rank), false);
  for (int d : boundary_check) {
    if (d < 0 || d >= rank)
      b.fail(loc, std::string(what) + ": boundary_check dim " + std::to_string(d) + " is out of range for a rank-" +
                      std::to_string(rank) + " block pointer (dims are 0.." + std::to_string(rank - 1) + ")");
    checked[static_cast<size_t>(d)] = true;
  }
  Access a;
  int sum = -1;
  for (int d = 0; d < rank; ++d) {
    const int64_t n = bs[static_cast<size_t>(d)];
    const int off = b.cast(p.offsets()[static_cast<size_t>(d)].reg(), DType::i64, loc);
    const int extent = p.shape()[static_cast<size_t>(d)].reg();
    // The block's indices along d, shaped [1, .., n, .., 1].
    ir::Instr& ar = b.emit_op(ir::Op::Arange, ir::Type{DType::i32, false, {n}}, {}, loc);
    ar.ival = 0;
    ar.ival2 = n;
    const int ar_reg = ar.dst;
    int idx = b.emit_value(ir::Op::Add, ir::Type{DType::i64, false, {n}},
                           {b.broadcast(off, {n}, loc), b.cast(ar_reg, DType::i64, loc)}, loc);
    ir::Shape along(static_cast<size_t>(rank), 1);
    along[static_cast<size_t>(d)] = n;
    if (rank > 1) idx = b.emit_value(ir::Op::Reshape, ir::Type{DType::i64, false, along}, {idx}, loc);
    const int term = b.emit_value(ir::Op::Mul, ir::Type{DType::i64, false, along},
                                  {idx, b.broadcast(p.strides()[static_cast<size_t>(d)].reg(), along, loc)}, loc);
    const int full = b.broadcast(term, bs, loc);
    sum = sum < 0 ? full : b.emit_value(ir::Op::Add, ir::Type{DType::i64, false, bs}, {sum, full}, loc);
    if (checked[static_cast<size_t>(d)]) {
      const ir::Type i1_along{DType::i1, false, along};
      const int lo = b.emit_value(ir::Op::Ge, i1_along, {idx, b.broadcast(b.constant_int(DType::i64, 0, loc), along, loc)}, loc);
      const int hi = b.emit_value(ir::Op::Lt, i1_along, {idx, b.broadcast(extent, along, loc)}, loc);
      const int in = b.broadcast(b.emit_value(ir::Op::And, i1_along, {lo, hi}, loc), bs, loc);
      a.mask = a.mask < 0 ? in : b.emit_value(ir::Op::And, ir::Type{DType::i1, false, bs}, {a.mask, in}, loc);
    } else {
      a.shape_dims.push_back(d);
      a.checks.push_back(off);
      a.checks.push_back(extent);
    }
  }
  const ir::Type base = b.type(p.base().reg());
  a.ptr = b.emit_value(ir::Op::PtrAdd, ir::Type{base.dtype, true, bs}, {b.broadcast(p.base().reg(), bs, loc), sum}, loc);
  return a;
}

}  // namespace

DType BlockPtr::dtype() const { return base_.dtype(); }

BlockPtr& BlockPtr::operator=(const BlockPtr& other) {
  if (this == &other || !other.defined()) return *this;
  if (defined() && block_shape_ != other.block_shape_) {
    Builder& b = Builder::current(SrcLoc{});
    b.fail(b.last_loc(), "a block pointer assigned a new value must keep its block shape: it is " +
                             ir::shape_str(block_shape_) + " and the new one is " + ir::shape_str(other.block_shape_));
  }
  // The base first: assigning to an undefined BlockPtr declared outside
  // the current loop fails there, with Tensor's own message.
  base_ = other.base_;
  const size_t rank = other.block_shape_.size();
  if (shape_.size() != rank) {
    shape_.resize(rank);
    strides_.resize(rank);
    offsets_.resize(rank);
  }
  for (size_t d = 0; d < rank; ++d) {
    shape_[d] = other.shape_[d];
    strides_[d] = other.strides_[d];
    offsets_[d] = other.offsets_[d];
  }
  block_shape_ = other.block_shape_;
  order_ = other.order_;
  return *this;
}

BlockPtr make_block_ptr(const Tensor& base, std::vector<Operand> shape, std::vector<Operand> strides,
                        std::vector<Operand> offsets, Shape block_shape, std::vector<int> order, std::source_location l) {
  const SrcLoc loc = loc_of(l);
  Builder& b = Builder::current(loc);
  if (!base.defined()) b.fail(loc, "make_block_ptr: the base is an undefined tl::Tensor");
  const ir::Type bt = b.type(base.reg());
  if (!bt.is_ptr || !bt.shape.empty())
    b.fail(loc, "make_block_ptr needs a scalar pointer as its base (a tl::Ptr, or one plus a scalar offset), got " +
                    bt.str());
  const size_t rank = block_shape.size();
  if (rank == 0) b.fail(loc, "make_block_ptr needs at least one dim (block_shape is empty)");
  auto same_rank = [&](size_t n, const char* what) {
    if (n != rank)
      b.fail(loc, std::string("make_block_ptr: ") + what + " has " + std::to_string(n) + " entries but block_shape has " +
                      std::to_string(rank) + "; shape, strides, offsets, block_shape and order need one entry per dim");
  };
  same_rank(shape.size(), "shape");
  same_rank(strides.size(), "strides");
  same_rank(offsets.size(), "offsets");
  same_rank(order.size(), "order");
  for (size_t d = 0; d < rank; ++d)
    if (!power_of_two(block_shape[d]))
      b.fail(loc, "make_block_ptr: block_shape dim " + std::to_string(d) + " is " + std::to_string(block_shape[d]) +
                      "; block dims must be powers of two");
  std::vector<bool> seen(rank, false);
  for (int o : order) {
    if (o < 0 || static_cast<size_t>(o) >= rank || seen[static_cast<size_t>(o)])
      b.fail(loc, "make_block_ptr: order must be a permutation of the dims 0.." + std::to_string(rank - 1));
    seen[static_cast<size_t>(o)] = true;
  }
  // Triton: shape and strides are i64; offsets i32 (tl:: takes i64 ones
  // too, and then keeps all offsets in i64).
  DType off_dtype = DType::i32;
  for (size_t d = 0; d < rank; ++d) {
    check_index(b, shape[d], loc, "make_block_ptr: shape entries");
    check_index(b, strides[d], loc, "make_block_ptr: strides");
    check_index(b, offsets[d], loc, "make_block_ptr: offsets");
    if (bit_width(dtype_of(b, offsets[d])) == 64) off_dtype = DType::i64;
  }
  BlockPtr p;
  p.base_ = copy_of(b, base, loc);
  for (size_t d = 0; d < rank; ++d) {
    p.shape_.push_back(owned(b, shape[d], DType::i64, loc));
    p.strides_.push_back(owned(b, strides[d], DType::i64, loc));
    p.offsets_.push_back(owned(b, offsets[d], off_dtype, loc));
  }
  p.block_shape_ = std::move(block_shape);
  p.order_ = std::move(order);
  return p;
}

BlockPtr advance(const BlockPtr& p, std::vector<Operand> offsets, std::source_location l) {
  const SrcLoc loc = loc_of(l);
  Builder& b = Builder::current(loc);
  require_defined(p, loc, "advance");
  const size_t rank = static_cast<size_t>(p.rank());
  if (offsets.size() != rank)
    b.fail(loc, "advance: " + std::to_string(offsets.size()) + " offsets for a rank-" + std::to_string(rank) +
                    " block pointer; give one per dim");
  BlockPtr q;
  q.base_ = copy_of(b, p.base_, loc);
  for (size_t d = 0; d < rank; ++d) {
    q.shape_.push_back(copy_of(b, p.shape_[d], loc));
    q.strides_.push_back(copy_of(b, p.strides_[d], loc));
    check_index(b, offsets[d], loc, "advance: offsets");
    const DType od = p.offsets_[d].dtype();
    if (offsets[d].is_tensor() && bit_width(dtype_of(b, offsets[d])) > bit_width(od))
      b.fail(loc, "advance: offset " + std::to_string(d) + " is " + std::string(name(dtype_of(b, offsets[d]))) +
                      " but the block pointer's offsets are " + std::string(name(od)) + "; convert it with .to()");
    if (!offsets[d].is_tensor() && offsets[d].int_value() == 0) {
      q.offsets_.push_back(copy_of(b, p.offsets_[d], loc));
      continue;
    }
    const int inc = b.materialize(offsets[d], od, loc);  // a literal must fit (checked)
    q.offsets_.push_back(
        Tensor::wrap(b.emit_value(ir::Op::Add, ir::Type{od, false, {}}, {p.offsets_[d].reg(), inc}, loc)));
  }
  q.block_shape_ = p.block_shape_;
  q.order_ = p.order_;
  return q;
}

Tensor load(const BlockPtr& p, std::vector<int> boundary_check, Padding padding, std::source_location l) {
  const SrcLoc loc = loc_of(l);
  Builder& b = Builder::current(loc);
  require_defined(p, loc, "load");
  const DType d = p.dtype();
  if (padding == Padding::Nan && !is_float(d))
    b.fail(loc, "load: padding Nan needs a float element type, the block pointer's is " + std::string(name(d)) +
                    "; use Padding::Zero");
  Access a = block_access(b, p, boundary_check, loc, "load");
  ir::Instr in{};
  in.op = ir::Op::Load;
  in.args.push_back(a.ptr);
  if (a.mask >= 0) {
    in.args.push_back(a.mask);
    in.has_mask = true;
    // Padding::None leaves the masked lanes without `other`: 0, marked
    // undefined (SEMANTICS §9), as Triton leaves them undefined.
    if (padding != Padding::None) {
      const int other = !is_float(d)                ? b.constant_int(d, 0, loc)
                        : padding == Padding::Zero ? b.constant_float(d, 0.0, loc)
                                                   : b.constant_float(d, std::numeric_limits<double>::quiet_NaN(), loc);
      in.args.push_back(b.broadcast(other, p.block_shape(), loc));
      in.has_other = true;
    }
  }
  in.args.insert(in.args.end(), a.checks.begin(), a.checks.end());
  in.shape_dims = a.shape_dims;
  in.dst = b.new_reg(ir::Type{d, false, p.block_shape()});
  in.loc = loc;
  return Tensor::wrap(b.emit(std::move(in)).dst);
}

void store(const BlockPtr& p, const Operand& value, std::vector<int> boundary_check, std::source_location l) {
  const SrcLoc loc = loc_of(l);
  Builder& b = Builder::current(loc);
  require_defined(p, loc, "store");
  const DType d = p.dtype();
  if (value.is_tensor()) {
    const ir::Type vt = b.type(value.reg());
    if (vt.is_ptr) b.fail(loc, "store: cannot store pointers");
    if (!vt.shape.empty() && vt.shape != p.block_shape())
      b.fail(loc, "store through a block pointer: the value's shape " + ir::shape_str(vt.shape) +
                      " is not the block shape " + ir::shape_str(p.block_shape()) + " (a scalar value broadcasts)");
  }
  const int v = b.broadcast(b.materialize(value, d, loc), p.block_shape(), loc);
  Access a = block_access(b, p, boundary_check, loc, "store");
  ir::Instr in{};
  in.op = ir::Op::Store;
  in.args = {a.ptr, v};
  if (a.mask >= 0) {
    in.args.push_back(a.mask);
    in.has_mask = true;
  }
  in.args.insert(in.args.end(), a.checks.begin(), a.checks.end());
  in.shape_dims = a.shape_dims;
  in.loc = loc;
  b.emit(std::move(in));
}

void store(const BlockPtr& p, const Operand& value, std::vector<int> boundary_check, Padding padding,
           std::source_location l) {
  if (padding != Padding::None)
    throw BuildError(loc_of(l), "store through a block pointer takes no padding (padding_option is for loads)");
  store(p, value, std::move(boundary_check), l);
}

}  // namespace tl
