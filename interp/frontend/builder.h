// The semantic layer's state while a kernel function runs: the IR being
// built, the stack of open blocks, and helpers that every op shares
// (operand materialization, promotion, broadcasting). Internal to interp/.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "error.h"
#include "ir.h"
#include "tl.h"

namespace tl::detail {

class Builder {
 public:
  explicit Builder(ir::Kernel& k);
  ~Builder();
  Builder(const Builder&) = delete;
  Builder& operator=(const Builder&) = delete;

  // The builder of the kernel being built on this thread; a BuildError when
  // a tl:: op is used outside a kernel build.
  static Builder& current(const SrcLoc& loc);
  static Builder* current_or_null();

  ir::Kernel& kernel() { return k_; }
  // By value: emitting instructions grows the register table, which would
  // leave a reference dangling.
  ir::Type type(int reg) const { return k_.regs.at(reg).type; }
  int depth() const { return static_cast<int>(blocks_.size()) - 1; }

  int new_reg(ir::Type t);
  // Appends an instruction to the innermost open block.
  ir::Instr& emit(ir::Instr in);
  // Emits `op` with a fresh result register of type `t`.
  int emit_value(ir::Op op, ir::Type t, std::vector<int> args, const SrcLoc& loc) {
    return emit_op(op, std::move(t), std::move(args), loc).dst;
  }
  // The same, returning the instruction so attributes can be set.
  ir::Instr& emit_op(ir::Op op, ir::Type t, std::vector<int> args, const SrcLoc& loc);
  void push_block(ir::Block* b) { blocks_.push_back(b); }
  ir::Block& current_block() { return *blocks_.back(); }
  void pop_block() { blocks_.pop_back(); }
  const SrcLoc& last_loc() const { return last_loc_; }

  // ---- Shared semantic helpers -------------------------------------------
  [[noreturn]] void fail(const SrcLoc& loc, const std::string& msg) const;
  // A 0-d constant of dtype `d` holding a literal's value (checked to fit).
  int constant(DType d, const Operand& lit, const SrcLoc& loc);
  int constant_int(DType d, int64_t v, const SrcLoc& loc);
  int constant_float(DType d, double v, const SrcLoc& loc);
  // The dtype a literal has on its own (SEMANTICS §1).
  static DType literal_dtype(const Operand& lit);
  // Register holding `x` converted to dtype `d` (same register if already).
  int cast(int reg, DType d, const SrcLoc& loc);
  // Register holding `x` broadcast to `shape` (same register if already).
  int broadcast(int reg, const ir::Shape& shape, const SrcLoc& loc);
  // Right-aligned broadcast of two shapes, or an error naming both.
  ir::Shape broadcast_shapes(const ir::Shape& a, const ir::Shape& b, const SrcLoc& loc,
                             const char* what) const;
  // A Tensor operand's register, or a literal materialized as dtype `d`.
  int materialize(const Operand& x, DType d, const SrcLoc& loc);
  // `reg` itself, or a copy of it when it is `source`: a Tensor handed to
  // the user must own its register, or writing one would change the other.
  int fresh(int reg, int source, const SrcLoc& loc) {
    return reg == source ? emit_value(ir::Op::Copy, type(reg), {reg}, loc) : reg;
  }

 private:
  ir::Kernel& k_;
  std::vector<ir::Block*> blocks_;
  Builder* previous_;
  SrcLoc last_loc_;
};

SrcLoc loc_of(const std::source_location& l);

// The dtype sum and cumsum accumulate in: narrow integers widen to 32 bits
// of their signedness (SEMANTICS §7); everything else is kept.
inline DType sum_dtype(DType d) {
  if (is_int(d) && bit_width(d) < 32) return is_signed_int(d) ? DType::i32 : DType::u32;
  return d;
}
// The elementwise ops with Triton's promotion, broadcasting and dtype
// checks (frontend_ops.cpp); `op` is any unary or binary ir::Op.
Tensor binary(ir::Op op, const Operand& a, const Operand& b, const SrcLoc& loc);
Tensor unary(ir::Op op, const Tensor& x, const SrcLoc& loc);

// A mask operand as an i1 register (a bool literal becomes a constant);
// `what` names the op in the error.
int mask_reg(Builder& b, const Operand& mask, const SrcLoc& loc, const char* what);
// A build error unless `ptr` is a tile of pointers.
void check_ptr(Builder& b, const Tensor& ptr, const SrcLoc& loc, const char* what);

// A name first assigned in both branches of a runtime if (Python's
// `if c: x = a` / `else: x = b`): one register, defined before the If that
// was just built (zeros, never read) and written at the end of each branch,
// so the name has a value after the if. The branches' values must have one
// type. C++ kernels declare the Tensor before tl::if_ instead.
Tensor join_if_branches(const Tensor& then_value, const Tensor& else_value, const std::string& name,
                        const SrcLoc& loc);

// While one is alive on this thread, loc_of() returns `loc`: how a front end
// that is not C++ (the Python one) gives its own source locations to the
// same semantic functions. Nested scopes restore the outer location.
class LocOverride {
 public:
  explicit LocOverride(const SrcLoc& loc);
  ~LocOverride();
  LocOverride(const LocOverride&) = delete;
  LocOverride& operator=(const LocOverride&) = delete;

 private:
  SrcLoc loc_;
  const SrcLoc* previous_;
};

// While one is alive, no LocOverride applies: a kernel's body names its own
// locations even when the launch that builds it named the launch's.
class LocOverrideSuspended {
 public:
  LocOverrideSuspended();
  ~LocOverrideSuspended();
  LocOverrideSuspended(const LocOverrideSuspended&) = delete;
  LocOverrideSuspended& operator=(const LocOverrideSuspended&) = delete;

 private:
  const SrcLoc* previous_;
};

}  // namespace tl::detail
