// Operations that Python spells with syntax C++ has no operator for:
// `and` / `or` / `not` on tiles, and Triton's `x[None, :]` indexing. Both
// front ends reach them through tl::; the rules live only here.
#include "builder.h"

namespace tl {
using detail::Builder;
using detail::loc_of;

namespace {

// `x` as i1: comparisons already are; anything else is `x != 0`.
Tensor truth(const Operand& x, const SrcLoc& loc, std::source_location l) {
  Builder& b = Builder::current(loc);
  if (!x.is_tensor()) return scalar(x.kind() == Operand::Kind::Float ? x.float_value() != 0 : x.int_value() != 0, l);
  const ir::Type t = b.type(x.reg());
  if (t.is_ptr) b.fail(loc, "a pointer tile has no truth value; compare it or its offsets instead");
  if (t.dtype == DType::i1) return Tensor::wrap(b.fresh(x.reg(), x.reg(), loc));
  return operator!=(x, Operand(0, l));
}

}  // namespace

Tensor logical_and(const Operand& a, const Operand& b, std::source_location l) {
  const SrcLoc loc = loc_of(l);
  return operator&(Operand(truth(a, loc, l), l), Operand(truth(b, loc, l), l));
}

Tensor logical_or(const Operand& a, const Operand& b, std::source_location l) {
  const SrcLoc loc = loc_of(l);
  return operator|(Operand(truth(a, loc, l), l), Operand(truth(b, loc, l), l));
}

Tensor logical_not(const Operand& a, std::source_location l) {
  const SrcLoc loc = loc_of(l);
  return operator==(Operand(truth(a, loc, l), l), Operand(false, l));
}

Tensor floordiv(const Operand& a, const Operand& b, std::source_location l) {
  const SrcLoc loc = loc_of(l);
  Builder& bld = Builder::current(loc);
  for (const Operand* x : {&a, &b}) {
    const bool is_float_operand =
        x->is_tensor() ? is_float(bld.type(x->reg()).dtype) : x->kind() == Operand::Kind::Float;
    if (is_float_operand)
      bld.fail(loc, "'//' on a float: Triton's floor division takes integers only; use '/' (true division), "
                    "then tl.floor if the floor is meant");
  }
  return operator/(a, b);
}

Tensor subscript(const Tensor& x, const std::vector<Index>& items, std::source_location l) {
  const SrcLoc loc = loc_of(l);
  Builder& b = Builder::current(loc);
  const ir::Type t = b.type(x.reg());
  int kept = 0;
  for (Index i : items) kept += i == Index::Keep;
  if (kept > static_cast<int>(t.shape.size()))
    b.fail(loc, "too many indices for a tile of shape " + ir::shape_str(t.shape) + ": " + std::to_string(kept) +
                    " ':' for " + std::to_string(t.shape.size()) + " axes");
  std::vector<int> axes;
  for (size_t i = 0; i < items.size(); ++i)
    if (items[i] == Index::NewAxis) axes.push_back(static_cast<int>(i));
  if (axes.empty()) return Tensor(x, l);
  return expand_dims(x, axes, l);
}

}  // namespace tl
