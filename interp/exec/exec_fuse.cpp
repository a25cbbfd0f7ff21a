// The interpreter's fusion pass: work that a later step can do on the fly
// is not materialized as a tile of its own. What it fuses today:
//
// - Pointer tiles of the form `broadcast(p) + offsets` (p a 0-d pointer)
//   that only loads, stores and atomics read: the memory op computes each
//   lane's address from p and the offsets, so neither the [N] tile of
//   16-byte pointer lanes of the broadcast nor that of the add is written.
//
// - Broadcasts read by one binary op (`x.row() + y.col()`, `r < H` with H
//   stretched), or as the offsets of one pointer add: the op reads each broadcast's source in place, row by row
//   (Step::bcast), instead of a materialized tile. This pass runs after
//   hoisting and leaves hoisted steps alone. When a source is tainted, or
//   the op's index-overflow check would find a lane, the op materializes
//   its broadcasts and runs as before, so findings are found the same way.
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

// Binary ops whose lanes binary_rows computes, with no value check that
// reads the operand registers (shifts have one; Pow and UMulHi are math).
bool reads_broadcasts_in_place(ir::Op op) {
  using ir::Op;
  switch (op) {
    case Op::Add: case Op::Sub: case Op::Mul: case Op::Div: case Op::Mod: case Op::And: case Op::Or: case Op::Xor:
    case Op::Maximum: case Op::Minimum:
      return true;
    default: return ir::is_compare(op);
  }
}

// A broadcast's source (ranks aligned at the right, as Broadcast does)
// and, per dim of the result: kept, stretched (source dim 1), or neither
// (a result dim of 1).
enum class DimUse { Kept, Stretched, Unit };
std::vector<DimUse> dim_uses(const ir::Shape& src, const ir::Shape& out) {
  const size_t pad = out.size() - src.size();
  std::vector<DimUse> use(out.size());
  for (size_t d = 0; d < out.size(); ++d) {
    const int64_t in = d < pad ? 1 : src[d - pad];
    use[d] = out[d] == 1 ? DimUse::Unit : in == 1 ? DimUse::Stretched : DimUse::Kept;
  }
  return use;
}

// The result seen as [rows, cols]: cols covers the longest run of trailing
// dims over which each broadcast is either all kept (its elements there
// are one contiguous run of the source) or all stretched (one value).
size_t row_dims(const std::vector<std::vector<DimUse>>& uses, size_t rank) {
  std::vector<DimUse> run(uses.size(), DimUse::Unit);
  size_t split = rank;
  while (split > 0) {
    const size_t d = split - 1;
    bool ok = true;
    for (size_t k = 0; k < uses.size() && ok; ++k) {
      const DimUse u = uses[k][d];
      ok = u == DimUse::Unit || run[k] == DimUse::Unit || run[k] == u;
    }
    if (!ok) break;
    for (size_t k = 0; k < uses.size(); ++k)
      if (uses[k][d] != DimUse::Unit) run[k] = uses[k][d];
    split = d;
  }
  return split;
}

// The source element where each row starts (rows: the result's dims
// [0, split)), for a broadcast of a tile of shape `src`.
std::vector<int64_t> broadcast_row_starts(const ir::Shape& src, const ir::Shape& out, size_t split) {
  const size_t rank = out.size(), pad = rank - src.size();
  std::vector<int64_t> stride(rank, 0);
  int64_t step = 1;
  for (size_t i = src.size(); i-- > 0;) {
    if (src[i] != 1) stride[pad + i] = step;
    step *= src[i];
  }
  int64_t rows = 1;
  for (size_t d = 0; d < split; ++d) rows *= out[d];
  std::vector<int64_t> starts(static_cast<size_t>(rows));
  for (int64_t r = 0; r < rows; ++r) {
    int64_t rest = r, off = 0;
    for (size_t d = split; d-- > 0;) {
      off += (rest % out[d]) * stride[d];
      rest /= out[d];
    }
    starts[static_cast<size_t>(r)] = off;
  }
  return starts;
}

}  // namespace

void fuse_broadcast_operands(Plan& p, const ir::Kernel& k) {
  const Uses u = uses_of(p, k);
  constexpr int64_t kMaxRows = 1 << 16;  // the row table's size
  for (size_t j = 0; j < p.steps.size(); ++j) {
    Step& op = p.steps[j];
    // A pointer add reads its offsets (operand 1) in place when they are
    // i32 or i64 (the fused pointer tiles of fuse_pointer_tiles aside).
    const bool ptr_add = op.op == ir::Op::PtrAdd && op.a[1] >= 0 &&
                         (k.regs[op.a[1]].type.dtype == DType::i32 || k.regs[op.a[1]].type.dtype == DType::i64);
    if (!(ptr_add || (ir::is_binary(op.op) && reads_broadcasts_in_place(op.op))) || op.dst < 0 || op.fused ||
        op.hoisted || op.n < 2)
      continue;
    const ir::Shape& out = k.regs[op.dst].type.shape;
    if (out.empty()) continue;
    // The operands that are broadcasts this op alone reads.
    int bcast[2] = {-1, -1};
    std::vector<std::vector<DimUse>> uses;
    for (int a = ptr_add ? 1 : 0; a < 2; ++a) {
      const int r = op.a[a];
      if (r < 0 || u.defs[r] != 1 || u.readers[r].size() != 1 || k.regs[r].type.shape != out) continue;
      const int b = u.def_at[r];
      if (b < 0 || b >= static_cast<int>(j) || u.parent[b] != u.parent[j]) continue;
      const Step& bc = p.steps[b];
      if (bc.op != ir::Op::Broadcast || bc.fused || bc.hoisted) continue;
      // The source keeps the value the broadcast read until the op reads it.
      const int src = bc.a[0];
      if (src < 0 || u.defs[src] != 1 || u.def_at[src] >= b || k.regs[src].type.shape.size() > out.size()) continue;
      bcast[a] = b;
      uses.push_back(dim_uses(k.regs[src].type.shape, out));
    }
    if (uses.empty()) continue;
    const size_t split = row_dims(uses, out.size());
    int64_t rows = 1;
    for (size_t d = 0; d < split; ++d) rows *= out[d];
    if (rows > kMaxRows) continue;
    op.rows = rows;
    op.cols = op.n / rows;
    for (int a = 0, used = 0; a < 2; ++a) {
      if (bcast[a] < 0) continue;
      Step& bc = p.steps[bcast[a]];
      const ir::Shape& in = k.regs[bc.a[0]].type.shape;
      bool stretched = false;
      for (size_t d = split; d < out.size(); ++d) stretched |= uses[used][d] == DimUse::Stretched;
      ++used;
      bc.fused = true;
      op.bcast[a] = bcast[a];
      op.row_off[a] = static_cast<int>(p.row_offsets.size());
      op.col_step[a] = stretched ? 0 : 1;
      const std::vector<int64_t> starts = broadcast_row_starts(in, out, split);
      p.row_offsets.insert(p.row_offsets.end(), starts.begin(), starts.end());
    }
  }
}

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
