// The interpreter's fusion pass: work that a later step can do on the fly
// is not materialized as a tile of its own. What it fuses today:
//
// - Pointer tiles of the form `broadcast(p) + offsets` (p a 0-d pointer)
//   that only loads, stores and atomics read: the memory op computes each
//   lane's address from p and the offsets, so neither the [N] tile of
//   16-byte pointer lanes of the broadcast nor that of the add is written.
//
// Fusing never changes what a launch reports: the fused steps have no
// findings of their own (a broadcast and a pointer add check nothing), they
// still count as steps, and a traced memory op materializes the tile as
// before. The rules below keep the moved work reading the values the
// per-op path would have read (each register involved is written once, and
// before the fused step).
#include <cstdlib>
#include <cstring>
#include <vector>

#include "exec_plan.h"

namespace tl {

namespace {

struct Uses {
  std::vector<int> defs;   // per register: how many steps write it
  std::vector<int> def_at; // per register: the step that writes it (if one)
  std::vector<std::vector<int>> readers;  // per register: steps that read it (once per operand)
  std::vector<int> parent;  // per step: the enclosing For/If/While step, -1 at the top
};

Uses uses_of(const Plan& p, const ir::Kernel& k) {
  Uses u;
  const size_t nregs = k.regs.size();
  u.defs.assign(nregs, 0);
  u.def_at.assign(nregs, -1);
  u.readers.assign(nregs, {});
  u.parent.assign(p.steps.size(), -1);
  for (size_t i = 0; i < p.steps.size(); ++i) {
    const Step& s = p.steps[i];
    if (s.dst >= 0) {
      ++u.defs[s.dst];
      u.def_at[s.dst] = static_cast<int>(i);
    }
    for (int a : s.in->args)
      if (a >= 0) u.readers[a].push_back(static_cast<int>(i));
    if (s.in->cond_reg >= 0) u.readers[s.in->cond_reg].push_back(static_cast<int>(i));
    if (s.op == ir::Op::For || s.op == ir::Op::If || s.op == ir::Op::While)
      for (int j = static_cast<int>(i) + 1; j < s.else_end; ++j)
        if (u.parent[j] < static_cast<int>(i)) u.parent[j] = static_cast<int>(i);
  }
  // Control steps come in plan order and bodies nest, so the last one to
  // claim a step is its innermost enclosing one.
  return u;
}

bool is_memory(ir::Op op) { return op == ir::Op::Load || op == ir::Op::Store || op == ir::Op::AtomicAdd; }

// `broadcast(p) + offsets` read only as the pointer of memory ops.
void fuse_pointer_tiles(Plan& p, const ir::Kernel& k, const Uses& u) {
  for (size_t j = 0; j < p.steps.size(); ++j) {
    Step& add = p.steps[j];
    if (add.op != ir::Op::PtrAdd || add.dst < 0) continue;
    const int bcast_reg = add.a[0], off = add.a[1], dst = add.dst;
    if (bcast_reg < 0 || off < 0 || u.defs[bcast_reg] != 1 || u.defs[dst] != 1 || u.defs[off] != 1) continue;
    const int b = u.def_at[bcast_reg];
    if (b < 0 || p.steps[b].op != ir::Op::Broadcast) continue;
    const int base = p.steps[b].a[0];
    if (base < 0 || u.defs[base] != 1 || ir::numel(k.regs[base].type.shape) != 1) continue;
    if (u.def_at[base] >= static_cast<int>(j) || u.def_at[off] >= static_cast<int>(j)) continue;
    const ir::Type& ot = k.regs[off].type;
    if (ot.is_ptr || (ot.dtype != DType::i32 && ot.dtype != DType::i64)) continue;
    if (u.readers[bcast_reg].size() != 1) continue;  // the add alone reads the broadcast
    bool ok = !u.readers[dst].empty();
    for (int r : u.readers[dst]) {
      const Step& m = p.steps[r];
      ok = ok && is_memory(m.op) && m.in->shape_dims.empty() && m.a[0] == dst && r > static_cast<int>(j) &&
           u.parent[r] == u.parent[j];
      for (size_t a = 1; ok && a < m.in->args.size(); ++a) ok = m.in->args[a] != dst;
    }
    if (!ok) continue;
    p.steps[b].fused = true;
    add.fused = true;
    for (int r : u.readers[dst]) {
      Step& m = p.steps[r];
      m.vptr_base = base;
      m.vptr_off = off;
      m.vptr_off64 = ot.dtype == DType::i64;
    }
  }
}

}  // namespace

bool fusion_enabled(bool requested) {
  if (!requested) return false;
  const char* env = std::getenv("TILESCOPE_FUSE");
  return !(env && std::strcmp(env, "0") == 0);
}

void fuse_plan(Plan& p, const ir::Kernel& k) {
  const Uses u = uses_of(p, k);
  fuse_pointer_tiles(p, k, u);
}

}  // namespace tl
