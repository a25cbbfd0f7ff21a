// The IR verifier: every register defined before use (scoped by blocks),
// operand types consistent with each op's rule.
#include <set>

#include "ir.h"

namespace tl::ir {
namespace {

class Verifier {
 public:
  explicit Verifier(const Kernel& k) : k_(k), defined_(k.regs.size(), false) {}

  std::vector<std::string> run() {
    block(k_.body);
    return problems_;
  }

 private:
  void problem(const Instr& in, const std::string& what) {
    problems_.push_back((in.loc.known() ? in.loc.str() + ": " : std::string()) + op_name(in.op) + ": " + what);
  }

  bool valid(int r) const { return r >= 0 && r < static_cast<int>(k_.regs.size()); }

  // `loop` is the While whose condition block `b` is: its cond_reg is
  // checked at the end of `b`, while the block's registers are in scope.
  void block(const Block& b, const Instr* loop = nullptr) {
    std::vector<int> scope;  // registers first defined in this block
    for (const Instr& in : b.instrs) {
      for (int a : in.args) {
        if (!valid(a)) problem(in, "operand %" + std::to_string(a) + " does not exist");
        else if (!defined_[a]) problem(in, "operand %" + std::to_string(a) + " is used before it is defined");
      }
      check_types(in);
      if (in.op == Op::For) {
        define(in.dst, scope);
        block(*in.body);
        continue;
      }
      if (in.op == Op::If) {
        block(*in.body);
        if (in.else_body) block(*in.else_body);
        continue;
      }
      if (in.op == Op::While) {
        // The body does not see the condition block's registers (Tensor
        // scoping keeps them apart), only what was defined before the loop.
        if (in.cond_body) block(*in.cond_body, &in);
        if (in.body) block(*in.body);
        continue;
      }
      if (in.dst >= 0) {
        if (!valid(in.dst)) problem(in, "result register does not exist");
        else define(in.dst, scope);
      }
    }
    if (loop) {
      const int c = loop->cond_reg;
      if (!valid(c)) problem(*loop, "condition register %" + std::to_string(c) + " does not exist");
      else if (!defined_[c]) problem(*loop, "condition %" + std::to_string(c) + " is not defined by the condition block");
      else if (!(t(c).shape.empty() && t(c).dtype == DType::i1 && !t(c).is_ptr))
        problem(*loop, "condition must be a 0-d i1, got " + t(c).str());
    }
    for (int r : scope) defined_[r] = false;
  }

  void define(int r, std::vector<int>& scope) {
    if (!defined_[r]) {
      defined_[r] = true;
      scope.push_back(r);
    }
  }

  const Type& t(int r) const { return k_.regs[r].type; }

  void check_types(const Instr& in) {
    for (int a : in.args)
      if (!valid(a)) return;
    if (in.dst >= 0 && !valid(in.dst)) return;
    auto same_shape = [&](int a) {
      if (t(a).shape != t(in.dst).shape)
        problem(in, "operand shape " + shape_str(t(a).shape) + " differs from result " + shape_str(t(in.dst).shape));
    };
    auto nargs = [&](size_t lo, size_t hi) {
      if (in.args.size() < lo || in.args.size() > hi) {
        problem(in, "takes " + std::to_string(lo) + (hi != lo ? "-" + std::to_string(hi) : "") + " operands, has " +
                        std::to_string(in.args.size()));
        return false;
      }
      return true;
    };
    if (is_unary(in.op)) {
      if (!nargs(1, 1)) return;
      same_shape(in.args[0]);
      if (in.op == Op::Copy && !(t(in.args[0]) == t(in.dst))) problem(in, "copy changes the type");
      return;
    }
    if (is_binary(in.op)) {
      if (!nargs(2, 2)) return;
      same_shape(in.args[0]);
      same_shape(in.args[1]);
      if (in.op == Op::PtrAdd) {
        if (!t(in.args[0]).is_ptr || t(in.args[1]).is_ptr) problem(in, "needs a pointer and an integer offset");
        return;
      }
      if (t(in.args[0]).dtype != t(in.args[1]).dtype) problem(in, "operand dtypes differ");
      if (is_compare(in.op) && t(in.dst).dtype != DType::i1) problem(in, "comparison result must be i1");
      return;
    }
    switch (in.op) {
      case Op::Where:
        if (!nargs(3, 3)) return;
        if (t(in.args[0]).dtype != DType::i1) problem(in, "condition must be i1");
        for (int a : in.args) same_shape(a);
        break;
      case Op::Fma:
        if (!nargs(3, 3)) return;
        for (int a : in.args) same_shape(a);
        break;
      case Op::Reshape:
        if (!nargs(1, 1)) return;
        if (numel(t(in.args[0]).shape) != numel(t(in.dst).shape)) problem(in, "element count changes");
        break;
      case Op::Broadcast:
        if (!nargs(1, 1)) return;
        if (t(in.args[0]).shape.size() > t(in.dst).shape.size()) problem(in, "broadcast lowers the rank");
        break;
      case Op::Load: {
        if (!shape_checks(in)) return;
        const size_t own = operand_count(in);
        if (own < 1 || own > 3) {
          problem(in, "takes 1-3 operands, has " + std::to_string(own));
          return;
        }
        if (!t(in.args[0]).is_ptr) problem(in, "first operand must be a pointer tile");
        for (size_t i = 0; i < own; ++i) same_shape(in.args[i]);
        if (in.has_mask && t(in.args[1]).dtype != DType::i1) problem(in, "mask must be i1");
        if (own != 1u + in.has_mask + in.has_other) problem(in, "operand count disagrees with flags");
        break;
      }
      case Op::Store:
      case Op::AtomicAdd: {
        if (in.op == Op::AtomicAdd && !in.shape_dims.empty()) problem(in, "atomics take no shape checks");
        if (!shape_checks(in)) return;
        const size_t own = operand_count(in);
        if (own < 2 || own > 3) {
          problem(in, "takes 2-3 operands, has " + std::to_string(own));
          return;
        }
        if (!t(in.args[0]).is_ptr) problem(in, "first operand must be a pointer tile");
        for (size_t i = 0; i < own; ++i)
          if (t(in.args[i]).shape != t(in.args[0]).shape) problem(in, "operand shapes differ from the pointer tile");
        if (t(in.args[1]).dtype != t(in.args[0]).dtype) problem(in, "value dtype differs from the element type");
        break;
      }
      case Op::AtomicRMW: {
        const size_t want = 2u + in.has_mask + (in.atomic == AtomicKind::Cas);
        if (!in.shape_dims.empty()) problem(in, "atomics take no shape checks");
        if (in.args.size() != want) {
          problem(in, "takes " + std::to_string(want) + " operands, has " + std::to_string(in.args.size()));
          return;
        }
        if (!t(in.args[0]).is_ptr) problem(in, "first operand must be a pointer tile");
        for (int a : in.args)
          if (t(a).shape != t(in.args[0]).shape) problem(in, "operand shapes differ from the pointer tile");
        if (t(in.args[1]).dtype != t(in.args[0]).dtype) problem(in, "value dtype differs from the element type");
        if (in.has_mask && t(in.args[2]).dtype != DType::i1) problem(in, "mask must be i1");
        if (in.atomic == AtomicKind::Cas && t(in.args.back()).dtype != t(in.args[0]).dtype)
          problem(in, "cmp dtype differs from the element type");
        if (in.dst < 0 || t(in.dst).dtype != t(in.args[0]).dtype) problem(in, "result must be the old values");
        break;
      }
      case Op::While:
        if (!nargs(0, 0)) return;
        if (!in.cond_body) problem(in, "while without a condition block");
        if (!in.body) problem(in, "while without a body");
        break;
      case Op::For:
        if (!nargs(3, 3)) return;
        for (int a : in.args)
          if (!t(a).shape.empty()) problem(in, "bounds must be scalars");
        if (!in.body) problem(in, "loop without a body");
        break;
      case Op::If:
        if (!nargs(1, 1)) return;
        if (!in.body) problem(in, "if without a body");
        break;
      case Op::Dot: {
        if (!nargs(2, 3)) return;
        const Shape &a = t(in.args[0]).shape, &b = t(in.args[1]).shape, &c = t(in.dst).shape;
        if (a.size() != b.size() || a.size() < 2 || c.size() != a.size()) {
          problem(in, "operand ranks differ");
          break;
        }
        size_t r = a.size();
        if (a[r - 1] != b[r - 2] || c[r - 2] != a[r - 2] || c[r - 1] != b[r - 1]) problem(in, "shapes do not chain");
        break;
      }
      case Op::Scan:
      case Op::ReduceWith: {
        if (in.args.empty()) {
          problem(in, "takes at least one operand");
          return;
        }
        const Shape& s0 = t(in.args[0]).shape;
        for (int a : in.args)
          if (t(a).shape != s0 || t(a).is_ptr) problem(in, "operands must be value tiles of one shape");
        if (in.axis < 0 || in.axis >= static_cast<int>(s0.size())) {
          problem(in, "axis " + std::to_string(in.axis) + " outside the operand's rank");
          return;
        }
        if (in.ival2 < 0 || in.ival2 >= static_cast<int64_t>(in.args.size())) {
          problem(in, "output index outside the operands");
          return;
        }
        Shape want = s0;
        if (in.op == Op::ReduceWith) want.erase(want.begin() + in.axis);
        if (t(in.dst).shape != want || t(in.dst).dtype != t(in.args[in.ival2]).dtype)
          problem(in, "result must be " + Type{t(in.args[in.ival2]).dtype, false, want}.str());
        combine_block(in);
        break;
      }
      case Op::Sort:
      case Op::Flip:
        if (!nargs(1, 1)) return;
        if (!(t(in.args[0]) == t(in.dst))) problem(in, "changes the type");
        if (t(in.args[0]).shape.empty()) problem(in, "of a 0-d value");
        if (in.op == Op::Flip && (in.axis < 0 || in.axis >= static_cast<int>(t(in.dst).shape.size())))
          problem(in, "axis outside the rank");
        if (in.op == Op::Sort && in.axis + 1 != static_cast<int>(t(in.dst).shape.size()))
          problem(in, "sorts along the last axis only");
        break;
      case Op::Join: {
        if (!nargs(2, 2)) return;
        Shape want = t(in.args[0]).shape;
        want.push_back(2);
        if (!(t(in.args[0]) == t(in.args[1]))) problem(in, "operand types differ");
        if (t(in.dst).shape != want) problem(in, "result must have shape " + shape_str(want));
        break;
      }
      case Op::Split: {
        if (!nargs(1, 1)) return;
        Shape s = t(in.args[0]).shape;
        if (s.empty() || s.back() != 2) {
          problem(in, "operand's last dimension must be 2");
          return;
        }
        s.pop_back();
        if (t(in.dst).shape != s) problem(in, "result must have shape " + shape_str(s));
        if (in.ival != 0 && in.ival != 1) problem(in, "half must be 0 or 1");
        break;
      }
      case Op::Gather: {
        if (!nargs(2, 2)) return;
        const Shape &src = t(in.args[0]).shape, &idx = t(in.args[1]).shape;
        if (src.size() != idx.size() || in.axis < 0 || in.axis >= static_cast<int>(src.size())) {
          problem(in, "index rank or axis disagrees with the source");
          return;
        }
        for (size_t d = 0; d < src.size(); ++d)
          if (static_cast<int>(d) != in.axis && src[d] != idx[d]) problem(in, "index shape disagrees off the axis");
        if (!is_int(t(in.args[1]).dtype) || t(in.args[1]).is_ptr) problem(in, "index must be integers");
        if (t(in.dst).shape != idx || t(in.dst).dtype != t(in.args[0]).dtype) problem(in, "result type");
        break;
      }
      case Op::Histogram:
        if (!nargs(1, 2)) return;
        if (in.has_mask != (in.args.size() == 2)) problem(in, "operand count disagrees with flags");
        if (in.has_mask && t(in.args[1]).shape != t(in.args[0]).shape) problem(in, "mask shape differs");
        if (t(in.dst).shape != Shape{in.ival} || t(in.dst).dtype != DType::i32) problem(in, "result must be i32[bins]");
        break;
      default: break;
    }
  }

  // A combine block: 2N 0-d block arguments of the operands' dtypes, only
  // elementwise ops on 0-d values inside, N yields of the operands' dtypes.
  void combine_block(const Instr& in) {
    const size_t n = in.args.size();
    if (!in.combine || in.block_args.size() != 2 * n || in.yields.size() != n) {
      problem(in, "needs a combine block with " + std::to_string(2 * n) + " arguments and " + std::to_string(n) +
                      " yields");
      return;
    }
    std::vector<int> scope;
    for (size_t i = 0; i < 2 * n; ++i) {
      int r = in.block_args[i];
      if (!valid(r) || !t(r).shape.empty() || t(r).dtype != t(in.args[i % n]).dtype) {
        problem(in, "combine argument " + std::to_string(i) + " must be a 0-d " + std::string(name(t(in.args[i % n]).dtype)));
        return;
      }
      define(r, scope);
    }
    for (const Instr& c : in.combine->instrs) {
      bool ok = is_unary(c.op) || is_binary(c.op) || c.op == Op::Where || c.op == Op::Fma || c.op == Op::Const;
      if (!ok || c.op == Op::PtrAdd) problem(c, "not allowed in a combine block");
      for (int a : c.args)
        if (!valid(a) || !defined_[a]) problem(c, "operand %" + std::to_string(a) + " is not defined in the combine block");
      check_types(c);
      if (c.dst >= 0 && valid(c.dst)) {
        if (!t(c.dst).shape.empty()) problem(c, "combine block values must be 0-d");
        define(c.dst, scope);
      }
    }
    for (size_t i = 0; i < n; ++i) {
      int y = in.yields[i];
      if (!valid(y) || !defined_[y]) problem(in, "yield " + std::to_string(i) + " is not defined in the combine block");
      else if (t(y).dtype != t(in.args[i]).dtype || !t(y).shape.empty())
        problem(in, "yield " + std::to_string(i) + " must be a 0-d " + std::string(name(t(in.args[i]).dtype)));
    }
    for (int r : scope) defined_[r] = false;
  }

  // A block pointer's trailing shape-check args: two 0-d i64 per checked
  // dim, each dim inside the pointer tile's rank.
  bool shape_checks(const Instr& in) {
    if (in.args.size() < 2 * in.shape_dims.size() + 1) {
      problem(in, "too few operands for its shape checks");
      return false;
    }
    const size_t own = operand_count(in);
    const size_t rank = t(in.args[0]).shape.size();
    for (size_t k = 0; k < in.shape_dims.size(); ++k) {
      if (in.shape_dims[k] < 0 || static_cast<size_t>(in.shape_dims[k]) >= rank)
        problem(in, "shape check on dim " + std::to_string(in.shape_dims[k]) + " of a rank-" + std::to_string(rank) + " tile");
      for (int a : {in.args[own + 2 * k], in.args[own + 2 * k + 1]})
        if (!t(a).shape.empty() || t(a).dtype != DType::i64 || t(a).is_ptr)
          problem(in, "shape-check operands must be 0-d i64, got " + t(a).str());
    }
    return true;
  }

  const Kernel& k_;
  std::vector<bool> defined_;
  std::vector<std::string> problems_;
};

}  // namespace

std::vector<std::string> verify(const Kernel& k) { return Verifier(k).run(); }

}  // namespace tl::ir
