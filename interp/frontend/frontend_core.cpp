// The front end's core: the builder, Tensor's register semantics
// (assignment, loop-carried values) and structured control flow.
#include <cmath>
#include <limits>

#include "builder.h"

namespace tl {
namespace detail {

namespace {
thread_local Builder* g_current = nullptr;
thread_local const SrcLoc* g_loc_override = nullptr;
}

// A front end other than C++ (python/) has no std::source_location of its
// own: it names the location of the syntax node it is building, and every
// semantic function reports that one instead of its C++ call site.
SrcLoc loc_of(const std::source_location& l) { return g_loc_override ? *g_loc_override : SrcLoc::from(l); }

LocOverride::LocOverride(const SrcLoc& loc) : loc_(loc), previous_(g_loc_override) { g_loc_override = &loc_; }
LocOverride::~LocOverride() { g_loc_override = previous_; }
LocOverrideSuspended::LocOverrideSuspended() : previous_(g_loc_override) { g_loc_override = nullptr; }
LocOverrideSuspended::~LocOverrideSuspended() { g_loc_override = previous_; }

Builder::Builder(ir::Kernel& k) : k_(k), previous_(g_current) {
  blocks_.push_back(&k_.body);
  g_current = this;
}
Builder::~Builder() { g_current = previous_; }

Builder* Builder::current_or_null() { return g_current; }

Builder& Builder::current(const SrcLoc& loc) {
  if (!g_current)
    throw BuildError(loc, "tl:: operation used outside a kernel: tiles exist only while a kernel is being built");
  return *g_current;
}

void Builder::fail(const SrcLoc& loc, const std::string& msg) const { throw BuildError(loc, msg); }

int Builder::new_reg(ir::Type t) {
  k_.regs.push_back(ir::Register{std::move(t), ""});
  return static_cast<int>(k_.regs.size()) - 1;
}

ir::Instr& Builder::emit(ir::Instr in) {
  if (!k_.loc.known() && in.loc.known()) k_.loc = in.loc;
  if (in.loc.known()) last_loc_ = in.loc;
  blocks_.back()->instrs.push_back(std::move(in));
  return blocks_.back()->instrs.back();
}

ir::Instr& Builder::emit_op(ir::Op op, ir::Type t, std::vector<int> args, const SrcLoc& loc) {
  for (size_t i = 0; i < t.shape.size(); ++i)
    if (t.shape[i] < 1) fail(loc, "tile dimension " + std::to_string(i) + " has size " + std::to_string(t.shape[i]));
  if (ir::numel(t.shape) > (int64_t{1} << 20))
    fail(loc, "tile " + ir::shape_str(t.shape) + " has " + std::to_string(ir::numel(t.shape)) +
                  " elements; at most 2^20 (1048576) are allowed");
  ir::Instr in{};
  in.op = op;
  in.dst = new_reg(std::move(t));
  in.args = std::move(args);
  in.loc = loc;
  return emit(std::move(in));
}

DType Builder::literal_dtype(const Operand& lit) {
  switch (lit.kind()) {
    case Operand::Kind::Bool: return DType::i1;
    case Operand::Kind::Int: {
      __int128 v = lit.int_value();
      if (v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max()) return DType::i32;
      if (v >= 0 && v <= std::numeric_limits<uint32_t>::max()) return DType::u32;
      if (v >= std::numeric_limits<int64_t>::min() && v <= std::numeric_limits<int64_t>::max()) return DType::i64;
      return DType::u64;
    }
    case Operand::Kind::Float: {
      double a = std::fabs(lit.float_value());
      if (a == 0 || std::isinf(a) || std::isnan(a) ||
          (a >= 1.1754943508222875e-38 && a <= 3.4028234663852886e+38))
        return DType::f32;
      return DType::f64;
    }
    case Operand::Kind::Tensor: break;
  }
  return DType::i32;
}

int Builder::constant_int(DType d, int64_t v, const SrcLoc& loc) {
  ir::Instr in{};
  in.op = ir::Op::Const;
  in.dst = new_reg(ir::Type{d, false, {}});
  in.ival = v;
  in.fval = static_cast<double>(v);
  in.loc = loc;
  return emit(std::move(in)).dst;
}

int Builder::constant_float(DType d, double v, const SrcLoc& loc) {
  ir::Instr in{};
  in.op = ir::Op::Const;
  in.dst = new_reg(ir::Type{d, false, {}});
  in.fval = v;
  in.loc = loc;
  return emit(std::move(in)).dst;
}

int Builder::constant(DType d, const Operand& lit, const SrcLoc& loc) {
  if (lit.kind() == Operand::Kind::Float) {
    if (is_float(d)) return constant_float(d, lit.float_value(), loc);
    // A float literal converted to an integer type (e.g. store of 0.5 into
    // an i32 buffer) follows the cast rule: truncate, saturate.
    int f = constant_float(literal_dtype(lit), lit.float_value(), loc);
    return cast(f, d, loc);
  }
  __int128 v = lit.int_value();
  if (is_float(d)) return constant_float(d, static_cast<double>(v), loc);
  if (d == DType::i1) return constant_int(d, v != 0, loc);
  int bits = bit_width(d);
  bool fits;
  if (is_signed_int(d)) {
    __int128 lo = -(static_cast<__int128>(1) << (bits - 1)), hi = (static_cast<__int128>(1) << (bits - 1)) - 1;
    fits = v >= lo && v <= hi;
  } else {
    fits = v >= 0 && v <= ((static_cast<__int128>(1) << bits) - 1);
  }
  if (!fits) {
    auto val = std::to_string(static_cast<long long>(v));
    if (v < 0 && is_unsigned_int(d))
      fail(loc, "negative literal " + val + " used with unsigned type " + std::string(name(d)) +
                    "; expected a value in [0, " + std::to_string((static_cast<unsigned long long>(1) << (bits - 1)) * 2 - 1) + "]");
    fail(loc, "literal " + val + " does not fit in " + std::string(name(d)) + "; cast the tile to a wider type first");
  }
  return constant_int(d, static_cast<int64_t>(v), loc);
}

int Builder::cast(int reg, DType d, const SrcLoc& loc) {
  const ir::Type& t = type(reg);
  if (t.dtype == d) return reg;
  if (t.is_ptr) fail(loc, "cannot convert a pointer tile to " + std::string(name(d)));
  ir::Type r = t;
  r.dtype = d;
  return emit_value(ir::Op::Cast, r, {reg}, loc);
}

ir::Shape Builder::broadcast_shapes(const ir::Shape& a, const ir::Shape& b, const SrcLoc& loc,
                                    const char* what) const {
  size_t n = std::max(a.size(), b.size());
  ir::Shape out(n);
  for (size_t i = 0; i < n; ++i) {
    int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
    int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (da != db && da != 1 && db != 1)
      fail(loc, std::string("shape mismatch in ") + what + ": " + ir::shape_str(a) + " and " + ir::shape_str(b) +
                    " cannot be broadcast together (dimension " + std::to_string(i) + ": " + std::to_string(da) +
                    " vs " + std::to_string(db) + "; each pair must be equal or contain a 1)");
    out[i] = da == 1 ? db : da;
  }
  return out;
}

int Builder::broadcast(int reg, const ir::Shape& shape, const SrcLoc& loc) {
  const ir::Type& t = type(reg);
  if (t.shape == shape) return reg;
  ir::Shape check = broadcast_shapes(t.shape, shape, loc, "broadcast");
  if (check != shape)
    fail(loc, "cannot broadcast " + ir::shape_str(t.shape) + " to " + ir::shape_str(shape));
  ir::Type r = t;
  r.shape = shape;
  return emit_value(ir::Op::Broadcast, r, {reg}, loc);
}

int Builder::materialize(const Operand& x, DType d, const SrcLoc& loc) {
  if (x.is_tensor()) return cast(x.reg(), d, loc);
  return constant(d, x, loc);
}

}  // namespace detail

using detail::Builder;
using detail::loc_of;

// ---- Tensor ----------------------------------------------------------------

Tensor Tensor::wrap(int reg) {
  Tensor t;
  t.reg_ = reg;
  t.depth_ = Builder::current(SrcLoc{}).depth();
  return t;
}

ir::Type Tensor::type() const {
  if (reg_ < 0) throw BuildError(SrcLoc{}, "use of an undefined tl::Tensor (declared without a value)");
  return Builder::current(SrcLoc{}).type(reg_);
}

Tensor::Tensor(const Tensor& other, std::source_location loc) {
  if (other.reg_ < 0) return;
  Builder& b = Builder::current(loc_of(loc));
  reg_ = b.emit_value(ir::Op::Copy, b.type(other.reg_), {other.reg_}, loc_of(loc));
  depth_ = b.depth();
}

Tensor::Tensor() {
  if (Builder* b = Builder::current_or_null()) depth_ = b->depth();
}

Tensor::Tensor(Tensor&& other) noexcept : reg_(other.reg_), depth_(other.depth_) { other.reg_ = -1; }

void Tensor::assign_from(int src, bool src_is_temporary, const SrcLoc& given_loc) {
  Builder& b = Builder::current(given_loc);
  // `a = b + c` carries no location of its own: the value's last
  // instruction was built on the same line.
  SrcLoc loc = given_loc.known() ? given_loc : b.last_loc();
  if (reg_ < 0 && depth_ != b.depth())
    b.fail(loc, "assignment inside a loop or if to a tile declared without a value outside it; give it an "
                "initial value (e.g. tl::zeros) where it is declared");
  if (reg_ < 0 || depth_ == b.depth()) {
    // Same scope as the declaration: simply name the new value.
    reg_ = src_is_temporary ? src : b.emit_value(ir::Op::Copy, b.type(src), {src}, loc);
    depth_ = b.depth();
    return;
  }
  // Writing a tile that lives outside the current loop/if: it becomes
  // loop-carried, so its type may not change (SEMANTICS §6).
  const ir::Type& mine = b.type(reg_);
  const ir::Type& theirs = b.type(src);
  if (!(mine == theirs))
    b.fail(loc, "a tile assigned inside a loop or if must keep its type: it is " + mine.str() +
                    " and the new value is " + theirs.str() + "; convert with .to(), broadcast_to() or reshape()");
  ir::Instr in{};
  in.op = ir::Op::Copy;
  in.dst = reg_;
  in.args = {src};
  in.loc = loc;
  b.emit(std::move(in));
}

Tensor& Tensor::operator=(const Tensor& other) {
  if (this == &other || other.reg_ < 0) return *this;
  assign_from(other.reg_, false, SrcLoc{});
  return *this;
}

Tensor& Tensor::operator=(Tensor&& other) {
  if (this == &other || other.reg_ < 0) return *this;
  assign_from(other.reg_, true, SrcLoc{});
  other.reg_ = -1;
  return *this;
}

Tensor& Tensor::operator=(const Operand& value) {
  SrcLoc loc = loc_of(value.loc());
  Builder& b = Builder::current(loc);
  int src;
  if (value.is_tensor()) {
    src = value.reg();
    assign_from(src, false, loc);
    return *this;
  }
  if (reg_ >= 0) {
    const ir::Type& t = b.type(reg_);
    src = b.broadcast(b.constant(t.dtype, value, loc), t.shape, loc);
  } else {
    src = b.constant(Builder::literal_dtype(value), value, loc);
  }
  assign_from(src, true, loc);
  return *this;
}

#define TL_COMPOUND(OP, SYM)                          \
  Tensor& Tensor::operator OP(const Operand& v) {     \
    Tensor t = Operand(*this, v.loc()) SYM v;         \
    assign_from(t.reg_, true, loc_of(v.loc()));       \
    t.reg_ = -1;                                      \
    return *this;                                     \
  }
TL_COMPOUND(+=, +)
TL_COMPOUND(-=, -)
TL_COMPOUND(*=, *)
TL_COMPOUND(/=, /)
TL_COMPOUND(%=, %)
TL_COMPOUND(&=, &)
TL_COMPOUND(|=, |)
TL_COMPOUND(^=, ^)
TL_COMPOUND(<<=, <<)
TL_COMPOUND(>>=, >>)
#undef TL_COMPOUND

Operand::Operand(const Tensor& t, std::source_location loc) : kind_(Kind::Tensor), reg_(t.reg()), loc_(loc) {
  if (reg_ < 0) throw BuildError(loc_of(loc), "use of an undefined tl::Tensor (declared without a value)");
}

// ---- Control flow ----------------------------------------------------------

Range::Range(const Operand& lo, const Operand& hi, const Operand& step, const std::source_location& l)
    : loc_(loc_of(l)) {
  Builder& b = Builder::current(loc_);
  auto dtype_of = [&](const Operand& o) {
    DType d = o.is_tensor() ? b.type(o.reg()).dtype : Builder::literal_dtype(o);
    if (o.is_tensor() && !b.type(o.reg()).shape.empty())
      b.fail(loc_, "tl::range bounds must be scalars, got a tile " + b.type(o.reg()).str());
    if (!is_int(d) || d == DType::i1)
      b.fail(loc_, "tl::range bounds must be integers, got " + std::string(name(d)));
    return d;
  };
  DType d = DType::i32;
  for (const Operand* o : {&lo, &hi, &step})
    if (bit_width(dtype_of(*o)) == 64) d = DType::i64;
  lo_ = b.materialize(lo, d, loc_);
  hi_ = b.materialize(hi, d, loc_);
  step_ = b.materialize(step, d, loc_);
  if (!step.is_tensor() && step.int_value() == 0) b.fail(loc_, "tl::range step must not be 0");
}

Range::Iter Range::begin() {
  Builder& b = Builder::current(loc_);
  ir::Instr in{};
  in.op = ir::Op::For;
  in.args = {lo_, hi_, step_};
  in.dst = iv_ = b.new_reg(ir::Type{b.type(lo_).dtype, false, {}});
  in.loc = loc_;
  in.body = std::make_unique<ir::Block>();
  ir::Block* body = b.emit(std::move(in)).body.get();
  b.push_block(body);
  return Iter(this);
}

Tensor Range::Iter::operator*() const { return Tensor::wrap(r_->iv_); }

Range::Iter& Range::Iter::operator++() {
  Builder::current(r_->loc_).pop_block();
  r_ = nullptr;
  return *this;
}

Range range(const Operand& hi, std::source_location loc) { return Range(Operand(0, loc), hi, Operand(1, loc), loc); }
Range range(const Operand& lo, const Operand& hi, std::source_location loc) {
  return Range(lo, hi, Operand(1, loc), loc);
}
Range range(const Operand& lo, const Operand& hi, const Operand& step, std::source_location loc) {
  return Range(lo, hi, step, loc);
}

static void build_if(const Tensor& cond, const std::function<void()>& then_body,
                     const std::function<void()>* else_body, std::source_location l) {
  SrcLoc loc = loc_of(l);
  Builder& b = Builder::current(loc);
  const ir::Type& t = b.type(cond.reg());
  if (!t.shape.empty() || t.dtype != DType::i1)
    b.fail(loc, "tl::if_ needs a scalar i1 condition (a comparison), got " + t.str());
  ir::Instr in{};
  in.op = ir::Op::If;
  in.args = {cond.reg()};
  in.loc = loc;
  in.body = std::make_unique<ir::Block>();
  in.else_body = std::make_unique<ir::Block>();
  ir::Instr& placed = b.emit(std::move(in));
  ir::Block* then_block = placed.body.get();
  ir::Block* else_block = placed.else_body.get();
  b.push_block(then_block);
  then_body();
  b.pop_block();
  if (else_body) {
    b.push_block(else_block);
    (*else_body)();
    b.pop_block();
  }
}

Tensor detail::join_if_branches(const Tensor& then_value, const Tensor& else_value, const std::string& name,
                                const SrcLoc& loc) {
  Builder& b = Builder::current(loc);
  ir::Block& block = b.current_block();
  if (block.instrs.empty() || block.instrs.back().op != ir::Op::If || !block.instrs.back().else_body)
    b.fail(loc, "internal error: '" + name + "' joined after something other than an if with an else");
  const ir::Type t = b.type(then_value.reg());
  if (!(t == b.type(else_value.reg())))
    b.fail(loc, "'" + name + "' is " + t.str() + " in the if branch and " + b.type(else_value.reg()).str() +
                    " in the else branch; a name first assigned in both branches of a runtime if must have one "
                    "type there (convert with .to(), broadcast_to() or reshape())");
  if (t.is_ptr)
    b.fail(loc, "'" + name + "' is a pointer tile first assigned inside both branches of a runtime if; give it "
                    "a value before the if and assign it in the branches");
  // The initial value goes before the If: emit it at the end, then move it.
  ir::Instr placed_if = std::move(block.instrs.back());
  block.instrs.pop_back();
  int r = b.constant_int(t.dtype, 0, loc);  // 0 (fval 0 too): never read
  r = t.shape.empty() ? b.emit_value(ir::Op::Copy, t, {r}, loc) : b.emit_value(ir::Op::Broadcast, t, {r}, loc);
  block.instrs.push_back(std::move(placed_if));
  ir::Instr& in = block.instrs.back();
  for (auto [branch, value] : {std::pair{in.body.get(), then_value.reg()}, std::pair{in.else_body.get(), else_value.reg()}}) {
    ir::Instr copy{};
    copy.op = ir::Op::Copy;
    copy.dst = r;
    copy.args = {value};
    copy.loc = loc;
    branch->instrs.push_back(std::move(copy));
  }
  return Tensor::wrap(r);
}

void if_(const Tensor& cond, const std::function<void()>& then_body, std::source_location loc) {
  build_if(cond, then_body, nullptr, loc);
}
void if_(const Tensor& cond, const std::function<void()>& then_body, const std::function<void()>& else_body,
         std::source_location loc) {
  build_if(cond, then_body, &else_body, loc);
}

void while_(const std::function<Tensor()>& cond, const std::function<void()>& body, std::source_location l) {
  SrcLoc loc = loc_of(l);
  Builder& b = Builder::current(loc);
  ir::Instr in{};
  in.op = ir::Op::While;
  in.loc = loc;
  in.cond_body = std::make_unique<ir::Block>();
  in.body = std::make_unique<ir::Block>();
  // The blocks live on the heap: emitting into them leaves `placed` valid.
  ir::Instr& placed = b.emit(std::move(in));
  // Both functions run one scope deeper than the loop, so a tile declared
  // outside and assigned in either is loop-carried (Tensor::assign_from).
  b.push_block(placed.cond_body.get());
  Tensor c = cond();
  if (!c.defined()) b.fail(loc, "while condition must be a scalar i1 (a comparison), got an undefined tl::Tensor");
  const ir::Type t = b.type(c.reg());
  if (!t.shape.empty() || t.dtype != DType::i1 || t.is_ptr)
    b.fail(loc, "while condition must be a scalar i1 (a comparison such as `i < n`), got " + t.str());
  placed.cond_reg = c.reg();
  b.pop_block();
  b.push_block(placed.body.get());
  body();
  b.pop_block();
}

void static_assert_(bool cond, const char* message, std::source_location loc) {
  if (!cond) throw BuildError(loc_of(loc), std::string("static_assert failed: ") + message);
}

static void emit_print(const char* prefix, std::vector<int> regs, std::source_location l) {
  SrcLoc loc = loc_of(l);
  Builder& b = Builder::current(loc);
  ir::Instr in{};
  in.op = ir::Op::Print;
  in.args = std::move(regs);
  in.text = prefix;
  in.loc = loc;
  b.emit(std::move(in));
  b.kernel().has_print = true;
}
void print(const char* prefix, const Tensor& x, std::source_location loc) { emit_print(prefix, {x.reg()}, loc); }
void print(const char* prefix, const Tensor& x, const Tensor& y, std::source_location loc) {
  emit_print(prefix, {x.reg(), y.reg()}, loc);
}

void device_assert(const Tensor& cond, const char* message, std::source_location l) {
  SrcLoc loc = loc_of(l);
  Builder& b = Builder::current(loc);
  if (b.type(cond.reg()).dtype != DType::i1)
    b.fail(loc, "tl::device_assert needs an i1 condition, got " + b.type(cond.reg()).str());
  ir::Instr in{};
  in.op = ir::Op::Assert;
  in.args = {cond.reg()};
  in.text = message;
  in.loc = loc;
  b.emit(std::move(in));
}

}  // namespace tl
