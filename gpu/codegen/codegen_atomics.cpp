// The atomics beyond atomic_add (max, min, and, or, xor, xchg, cas) as calls of
// the prelude's ts_atomic_rmw<kind, sem, scope>. As with atomic_add, one
// owner per element issues the atomic and masked lanes read 0.
#include "codegen_emitter.h"

namespace tl::gpu::detail {

void Emitter::atomic_rmw(const ir::Instr& in) {
  const int ptr = in.args[0], value = in.args[1], mask = in.has_mask ? in.args[2] : -1;
  const int cmp = in.atomic == ir::AtomicKind::Cas ? in.args.back() : -1;
  const TileLayout l = layout(ptr);
  const DType d = type(ptr).dtype;
  const std::string guard = owner_guard(l), zero = constant_literal(d, 0, 0.0);
  const std::string fn = "ts_atomic_rmw<" + std::to_string(static_cast<int>(in.atomic)) + ", " +
                         std::to_string(static_cast<int>(in.sem)) + ", " + std::to_string(static_cast<int>(in.scope)) + ">";
  declare(in.dst);
  for_slots(l.slots, [&](const std::string& s) {
    line(at(in.dst, s) + " = " + zero + ";  // tl::: masked lanes return 0");
    line_if(slot_condition(guard, mask, s), at(in.dst, s) + " = " + fn + "(" + at(ptr, s) + ", " + at(value, s) +
                                                (cmp >= 0 ? ", " + at(cmp, s) : std::string()) + ");  // atomic_" +
                                                ir::atomic_name(in.atomic));
  });
  if (guard.empty()) return;
  // Only owners issued the atomic; the other holders of each element get
  // its old value from them.
  need_smem(l.n * byte_size(d));
  open("");
  spill_to_smem(in.dst, "sm", cuda_register_type(d), 0, [](const std::string& x) { return x; });
  line("__syncthreads();");
  for_slots(l.slots, [&](const std::string& s) { line(at(in.dst, s) + " = sm[" + element(l, s) + "];"); });
  line("__syncthreads();");
  close();
}

}  // namespace tl::gpu::detail
