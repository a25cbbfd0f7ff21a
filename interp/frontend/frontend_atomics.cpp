// Atomics (Triton's atomic_add/max/min/and/or/xor/xchg/cas): the dtype
// rules, sem= and scope=, and the shapes of value, mask and cmp.
#include "builder.h"

namespace tl {
using detail::Builder;
using detail::loc_of;

namespace {

std::string dn(DType d) { return std::string(name(d)); }

struct AtomicOp {
  std::string_view name;
  ir::Op op;
  ir::AtomicKind kind;
};
constexpr AtomicOp kOps[] = {
    {"add", ir::Op::AtomicAdd, ir::AtomicKind::Max},  {"max", ir::Op::AtomicRMW, ir::AtomicKind::Max},
    {"min", ir::Op::AtomicRMW, ir::AtomicKind::Min},  {"and", ir::Op::AtomicRMW, ir::AtomicKind::And},
    {"or", ir::Op::AtomicRMW, ir::AtomicKind::Or},    {"xor", ir::Op::AtomicRMW, ir::AtomicKind::Xor},
    {"xchg", ir::Op::AtomicRMW, ir::AtomicKind::Xchg}, {"cas", ir::Op::AtomicRMW, ir::AtomicKind::Cas},
};

ir::MemSem parse_sem(Builder& b, std::string_view s, const std::string& what, const SrcLoc& loc) {
  if (s.empty() || s == "acq_rel") return ir::MemSem::acq_rel;
  if (s == "acquire") return ir::MemSem::acquire;
  if (s == "release") return ir::MemSem::release;
  if (s == "relaxed") return ir::MemSem::relaxed;
  b.fail(loc, what + ": memory semantic '" + std::string(s) +
                  "' is not supported (expected acquire, release, acq_rel or relaxed)");
}

ir::MemScope parse_scope(Builder& b, std::string_view s, const std::string& what, const SrcLoc& loc) {
  if (s.empty() || s == "gpu") return ir::MemScope::gpu;
  if (s == "cta") return ir::MemScope::cta;
  if (s == "sys") return ir::MemScope::sys;
  b.fail(loc, what + ": memory scope '" + std::string(s) + "' is not supported (expected gpu, cta or sys)");
}

// Triton's atom_red_typechecking_impl and its per-op checks, with the
// reason in the message.
void check_dtype(Builder& b, const AtomicOp& o, DType d, const std::string& what, const SrcLoc& loc) {
  const int w = bit_width(d);
  if (o.kind == ir::AtomicKind::Cas && o.op == ir::Op::AtomicRMW) {
    if (w != 16 && w != 32 && w != 64)
      b.fail(loc, what + " needs 16-, 32- or 64-bit elements, got a " + dn(d) + " buffer");
    return;
  }
  if ((d == DType::f16 || d == DType::bf16) && o.op != ir::Op::AtomicAdd)
    b.fail(loc, what + " does not support " + dn(d) + " buffers (f16 and bf16 take atomic_add only)");
  if (w < 32 && !(d == DType::f16 || d == DType::bf16))
    b.fail(loc, what + " does not support " + dn(d) + " buffers (integers must be 32 or 64 bits wide)");
  if (o.op != ir::Op::AtomicRMW) return;
  const bool bitwise = o.kind == ir::AtomicKind::And || o.kind == ir::AtomicKind::Or || o.kind == ir::AtomicKind::Xor;
  if (bitwise && is_float(d)) b.fail(loc, what + " needs an integer buffer, got " + dn(d));
}

}  // namespace

Tensor atomic(std::string_view opname, const Tensor& ptr, const Operand& value, const std::optional<Operand>& mask,
              const std::optional<Operand>& cmp, std::string_view sem, std::string_view scope, std::source_location l) {
  const SrcLoc loc = loc_of(l);
  Builder& b = Builder::current(loc);
  const AtomicOp* o = nullptr;
  for (const AtomicOp& x : kOps)
    if (x.name == opname) o = &x;
  if (!o) b.fail(loc, "unknown atomic '" + std::string(opname) + "' (add, max, min, and, or, xor, xchg, cas)");
  const std::string what = "atomic_" + std::string(opname);
  const bool is_cas = o->op == ir::Op::AtomicRMW && o->kind == ir::AtomicKind::Cas;
  if (is_cas != cmp.has_value()) b.fail(loc, what + (is_cas ? " needs cmp" : " takes no cmp"));
  detail::check_ptr(b, ptr, loc, what.c_str());
  const ir::Type pt = b.type(ptr.reg());
  check_dtype(b, *o, pt.dtype, what, loc);
  ir::Instr in{};
  in.op = o->op;
  in.atomic = o->kind;
  in.sem = parse_sem(b, sem, what, loc);
  in.scope = parse_scope(b, scope, what, loc);
  // value, mask and cmp broadcast to the pointer tile, never widen it
  // (as a store's); value and cmp are converted to the element type.
  auto operand = [&](const Operand& x, const char* role) {
    if (x.is_tensor() && b.type(x.reg()).is_ptr) b.fail(loc, what + ": the " + role + " cannot be a pointer");
    int r = b.materialize(x, pt.dtype, loc);
    const ir::Shape& s = b.type(r).shape;
    if (b.broadcast_shapes(pt.shape, s, loc, what.c_str()) != pt.shape)
      b.fail(loc, what + ": " + role + " shape " + ir::shape_str(s) + " does not fit pointer shape " +
                      ir::shape_str(pt.shape) + " (it may broadcast to the pointers, never widen them)");
    return b.broadcast(r, pt.shape, loc);
  };
  in.args = {ptr.reg(), operand(value, "value")};
  if (mask) {
    int m = detail::mask_reg(b, *mask, loc, what.c_str());
    const ir::Shape& ms = b.type(m).shape;
    if (b.broadcast_shapes(pt.shape, ms, loc, what.c_str()) != pt.shape)
      b.fail(loc, what + ": mask shape " + ir::shape_str(ms) + " does not fit pointer shape " + ir::shape_str(pt.shape));
    in.args.push_back(b.broadcast(m, pt.shape, loc));
    in.has_mask = true;
  }
  if (cmp) in.args.push_back(operand(*cmp, "cmp"));
  in.loc = loc;
  in.dst = b.new_reg(ir::Type{pt.dtype, false, pt.shape});
  const int dst = b.emit(std::move(in)).dst;
  b.kernel().has_atomics = true;
  return Tensor::wrap(dst);
}

}  // namespace tl
