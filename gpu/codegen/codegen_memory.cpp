// Memory and debugging ops: predicated loads and stores, atomic_add,
// device_print, device_assert (SEMANTICS §9, §10). A masked-off lane never
// dereferences its pointer. Stores and atomics are issued by exactly one
// owner per element: in a replicated (smaller than the block) tile several
// threads hold the same element, and only the first of them writes.
#include <algorithm>

#include "codegen_emitter.h"

namespace tl::gpu::detail {

namespace {

std::string c_string(const std::string& s) {
  std::string out;
  for (char ch : s) {
    if (ch == '\\' || ch == '"') out += '\\';
    if (ch == '%') out += '%';
    if (ch == '\n') {
      out += "\\n";
      continue;
    }
    out += ch;
  }
  return out;
}

}  // namespace

void Emitter::load(const ir::Instr& in) {
  if (active_ && std::find(active_->prefetched.begin(), active_->prefetched.end(), &in) != active_->prefetched.end()) {
    // Read during the previous iteration (or the prologue): codegen_pipeline.cpp.
    if (active_->small_in_stage()) {
      const TileLayout l = layouts_[in.dst];
      assign(in.dst, [&](const std::string& s) { return small_load_at(*active_, in.dst, l.scalar ? "0" : element(l, s)); });
      return;
    }
    assign(in.dst, [&](const std::string& s) { return "pf" + std::to_string(in.dst) + "[" + s + "]"; });
    return;
  }
  const int ptr = in.args[0];
  const DType d = type(in.dst).dtype;
  const int mask = in.has_mask ? in.args[1] : -1;
  const int other = in.has_other ? in.args[in.has_mask ? 2 : 1] : -1;
  const std::string zero = constant_literal(d, 0, 0.0);  // tl::: masked lanes without other read 0
  assign(in.dst, [&](const std::string& s) {
    std::string read = opt_.every_load ? "ts_load_kept(" + at(ptr, s) + ")" : "*" + at(ptr, s);
    std::string value = d == DType::i1 ? "(" + read + " != 0)" : read;
    if (mask < 0) return value;
    return at(mask, s) + " ? " + value + " : " + (other >= 0 ? at(other, s) : zero);
  });
}

void Emitter::store(const ir::Instr& in) {
  const int ptr = in.args[0], value = in.args[1], mask = in.has_mask ? in.args[2] : -1;
  const TileLayout l = layout(ptr);  // the value's, when it is a tile (convert_operands)
  const std::string guard = owner_guard(l);
  const bool bytes = type(ptr).dtype == DType::i1;
  if (l.mma && !l.transposed && l.slots % 2 == 0 && byte_size(type(ptr).dtype) == 4 && guard.empty() && copy_suffix_.empty()) {
    store_column_pairs(in, l);
    return;
  }
  for_slots(l.slots, [&](const std::string& s) {
    std::string cond = slot_condition(guard, mask, s);
    // Program b of an interleaved pair stores only when it is a program.
    if (!copy_suffix_.empty()) cond += (cond.empty() ? "" : " && ") + std::string("ts_has_b");
    line_if(cond, "*" + at(ptr, s) + " = " + (bytes ? "(uint8_t)" : "") + at(value, s) + ";");
  });
}

// In the MMA layout (not transposed: there they are rows), slots 2p and
// 2p + 1 hold columns c and c + 1 of one row: where both are in the mask
// and the pair's address is 8-byte aligned they go out as one 8-byte
// store, half the store instructions (an epilogue's scattered 4-byte
// stores otherwise fill the store queue); else one by one. The pointers
// are compared, not assumed adjacent: they are whatever the kernel
// computed.
void Emitter::store_column_pairs(const ir::Instr& in, const TileLayout& l) {
  const int ptr = in.args[0], value = in.args[1], mask = in.has_mask ? in.args[2] : -1;
  const std::string t = reg_type(ptr);
  line("#pragma unroll");
  open("for (int ts_p = 0; ts_p < " + std::to_string(l.slots / 2) + "; ++ts_p)");
  const std::string s0 = kPairSlotFirst, s1 = kPairSlotSecond;
  line(t + " const ts_a0 = " + at(ptr, s0) + ";");
  line(t + " const ts_a1 = " + at(ptr, s1) + ";");
  line("const bool ts_m0 = " + (mask >= 0 ? at(mask, s0) : std::string("true")) + ";");
  line("const bool ts_m1 = " + (mask >= 0 ? at(mask, s1) : std::string("true")) + ";");
  open("if (ts_m0 && ts_m1 && ts_a1 == ts_a0 + 1 && ((uint64_t)ts_a0 & 7) == 0)");
  line("ts_store_pair(ts_a0, " + at(value, s0) + ", " + at(value, s1) + ");");
  open_else();
  line("if (ts_m0) *ts_a0 = " + at(value, s0) + ";");
  line("if (ts_m1) *ts_a1 = " + at(value, s1) + ";");
  close();
  close();
}

std::string Emitter::slot_condition(const std::string& guard, int mask, const std::string& slot) const {
  if (mask < 0) return guard;
  return guard.empty() ? at(mask, slot) : guard + " && " + at(mask, slot);
}

void Emitter::line_if(const std::string& cond, const std::string& statement) {
  line(cond.empty() ? statement : "if (" + cond + ") " + statement);
}

void Emitter::atomic_add(const ir::Instr& in) {
  const int ptr = in.args[0], value = in.args[1], mask = in.has_mask ? in.args[2] : -1;
  const TileLayout l = layout(ptr);
  const DType d = type(ptr).dtype;
  const std::string guard = owner_guard(l), zero = constant_literal(d, 0, 0.0);
  const std::string order =
      "<" + std::to_string(static_cast<int>(in.sem)) + ", " + std::to_string(static_cast<int>(in.scope)) + ">";
  if (use_count_[in.dst] == 0 && (in.sem == ir::MemSem::relaxed || in.sem == ir::MemSem::release)) {
    red_add(in, l, guard, order);
    return;
  }
  declare(in.dst);
  for_slots(l.slots, [&](const std::string& s) {
    line(at(in.dst, s) + " = " + zero + ";  // tl::: masked lanes return 0");
    line_if(slot_condition(guard, mask, s),
            at(in.dst, s) + " = ts_atomic_add" + order + "(" + at(ptr, s) + ", " + at(value, s) + ");");
  });
  if (guard.empty()) return;
  // Only owners added; the other holders of each element get its old value
  // from them.
  need_smem(l.n * byte_size(d));
  open("");
  spill_to_smem(in.dst, "sm", cuda_register_type(d), 0, [](const std::string& x) { return x; });
  line("__syncthreads();");
  for_slots(l.slots, [&](const std::string& s) { line(at(in.dst, s) + " = sm[" + element(l, s) + "];"); });
  line("__syncthreads();");
  close();
}

void Emitter::red_add(const ir::Instr& in, const TileLayout& l, const std::string& guard, const std::string& order) {
  const int ptr = in.args[0], value = in.args[1], mask = in.has_mask ? in.args[2] : -1;
  const int last = static_cast<int>(type(ptr).shape.size()) - 1;
  if (l.mma && !l.transposed && l.slots % 2 == 0 && type(ptr).dtype == DType::f32 && guard.empty() &&
      copy_suffix_.empty() && unit_step_along_last(ptr) && (mask < 0 || mask_lanes(mask, last) == Lanes::Same)) {
    // Slots 2p and 2p + 1 are columns c and c + 1 of a row (as for
    // store_column_pairs): the pointer climbs by one along the row and the
    // mask does not change along it, so one address and one mask serve
    // both, and an aligned pair is one red.v2 (half the L2's requests at
    // the end of E4, where every program adds at once). Proven here, not
    // compared at run time: the second address and mask recomputed and
    // compared for each pair took NVRTC longer than single adds (0.71 s
    // against 0.46 for E4's kernel, development machine; 0.43 so). The
    // second address is the first's + 1, not rematerialized: they differ
    // only where the column's i32 index wraps between the two, an address
    // 2^31 elements away, which the interpreter reports out of bounds.
    line("#pragma unroll");
    open("for (int ts_p = 0; ts_p < " + std::to_string(l.slots / 2) + "; ++ts_p)");
    line(reg_type(ptr) + " const ts_a0 = " + at(ptr, kPairSlotFirst) + ";");
    const std::string v0 = at(value, kPairSlotFirst), v1 = at(value, kPairSlotSecond);
    open(mask >= 0 ? "if (" + at(mask, kPairSlotFirst) + ")" : std::string(""));
    open("if (((uint64_t)ts_a0 & 7) == 0)");
    line("ts_red_add_pair" + order + "(ts_a0, " + v0 + ", " + v1 + ");");
    open_else();
    line("ts_red_add" + order + "(ts_a0, " + v0 + ");");
    line("ts_red_add" + order + "(ts_a0 + 1, " + v1 + ");");
    close();
    close();
    close();
    return;
  }
  for_slots(l.slots, [&](const std::string& s) {
    line_if(slot_condition(guard, mask, s), "ts_red_add" + order + "(" + at(ptr, s) + ", " + at(value, s) + ");");
  });
}

void Emitter::print(const ir::Instr& in) {
  // One line per element, as the interpreter prints them; the GPU's order
  // is not fixed and its buffer may drop lines when it fills.
  const ir::Shape& shape = type(in.args[0]).shape;
  const TileLayout l = layout(in.args[0]);
  const std::string guard = owner_guard(l);
  std::string fmt = "pid (%d, %d, %d) idx (";
  for (size_t i = 0; i < shape.size(); ++i) fmt += i ? ", %u" : "%u";
  fmt += ") " + c_string(in.text);
  for (int a : in.args) fmt += type(a).is_ptr ? " %p" : " %g";
  fmt += "\\n";
  if (!guard.empty()) open("if (" + guard + ")");
  for_slots(l.slots, [&](const std::string& s) {
    open("");
    line("const unsigned e = " + element(l, s) + ";");
    std::string args = program_id_expr(0) + ", " + program_id_expr(1) + ", " + program_id_expr(2);
    for (size_t i = 0; i < shape.size(); ++i) args += ", (unsigned)" + coordinate("e", shape, i);
    for (int a : in.args) {
      std::string v = at(a, layout(a).n == l.n ? s : "0");
      args += ", " + (type(a).is_ptr ? "(const void*)" + v : cast_expr(type(a).dtype, DType::f64, v));
    }
    if (shape.empty()) line("(void)e;");
    line("printf(\"" + fmt + "\", " + args + ");");
    close();
  });
  if (!guard.empty()) close();
}

void Emitter::device_assert(const ir::Instr& in) {
  // The interpreter reports a failed assert and runs on; so does the GPU
  // (a trap would end the whole launch): one line per failing program.
  const int cond = in.args[0];
  const TileLayout l = layout(cond);
  open("");
  line("bool failed = false;");
  for_slots(l.slots, [&](const std::string& s) { line("failed |= !" + at(cond, s) + ";"); });
  uses_tid_ = true;
  std::string where = in.loc.known() ? " (line " + std::to_string(in.loc.line) + ")" : "";
  line("if (__syncthreads_or(failed) && tid == 0) printf(\"pid (%d, %d, %d): device_assert failed: " +
       c_string(in.text) + c_string(where) + "\\n\", " + program_id_expr(0) + ", " +
       program_id_expr(1) + ", " + program_id_expr(2) + ");");
  close();
}

}  // namespace tl::gpu::detail
