// Rematerialization (LOWERING §3): a broadcast, reshape or permute of a
// tile that is pure index arithmetic (aranges, scalars and constants
// combined elementwise) is recomputed at each destination element instead
// of being moved through shared memory. The expression is built from the
// destination element's coordinates back through the tile's definition.
#include <algorithm>

#include "codegen_emitter.h"

namespace tl::gpu::detail {

namespace {

// Past these the recomputation costs more than the move it saves.
constexpr int kMaxDepth = 12;
constexpr size_t kMaxLength = 800;

}  // namespace

std::optional<std::string> Emitter::remat(int r, const std::vector<std::string>& coords, int depth) const {
  if (depth > kMaxDepth || def_count_[r] != 1 || !def_of_[r]) return std::nullopt;
  if (type(r).shape.empty()) {
    // A 0-d value is one variable, the same in every thread; for another
    // iteration of a pipelined loop (codegen_pipeline.cpp) the loop
    // variable and what the body computes from it are recomputed.
    if (loop_subst_) {
      if (r == loop_subst_->var) return loop_subst_->value;
      if ((*loop_subst_->in_body)[r]) return remat_instr(*def_of_[r], coords, depth);
    }
    return name(r);
  }
  return remat_instr(*def_of_[r], coords, depth);
}

std::optional<std::string> Emitter::remat_instr(const ir::Instr& in, const std::vector<std::string>& coords,
                                                int depth) const {
  const int r = in.dst;
  const ir::Shape& shape = type(r).shape;
  using ir::Op;
  switch (in.op) {
    case Op::ProgramId: case Op::NumPrograms: {
      return "(int32_t)" + (in.op == Op::ProgramId ? program_id_expr(in.axis) : num_programs_expr(in.axis));
    }
    case Op::ScalarParam: case Op::PtrParam: return param_name(in.param_index);
    case Op::Load: {
      // A small loaded tile that a move spreads over a larger one (a row
      // of words broadcast along the values they pack) is read again at
      // each destination element instead of passing through shared
      // memory: the same addresses, the same mask, no store in between,
      // so the same values (mostly from L1).
      if (!reload_at_) return std::nullopt;
      if (active_ && !loop_subst_ && active_->small_offsets.count(r)) {
        // This iteration's values, in its stage (Pipeline::small_in_stage).
        return small_load_at(*active_, r, flat_index(coords, shape));
      }
      if (!reload_allowed(in, *reload_at_)) return std::nullopt;
      std::optional<std::string> p = remat(in.args[0], coords, depth + 1);
      if (!p) return std::nullopt;
      const DType d = type(r).dtype;
      std::string read = opt_.every_load ? "ts_load_kept(" + *p + ")" : "*(" + *p + ")";
      if (d == DType::i1) read = "(" + read + " != 0)";
      if (!in.has_mask) return read;
      std::optional<std::string> m = remat(in.args[1], coords, depth + 1);
      if (!m) return std::nullopt;
      std::string other = constant_literal(d, 0, 0.0);
      if (in.has_other) {
        std::optional<std::string> o = remat(in.args[2], coords, depth + 1);
        if (!o) return std::nullopt;
        other = *o;
      }
      return "((" + *m + ") ? " + read + " : " + other + ")";
    }
    case Op::Arange:
      return "(int32_t)(" + coords[0] + (in.ival ? " + " + std::to_string(in.ival) : "") + ")";
    case Op::Const: return constant_literal(type(r).dtype, in.ival, in.fval);
    case Op::Broadcast: {
      const ir::Shape& ss = type(in.args[0]).shape;
      const size_t pad = shape.size() - ss.size();
      std::vector<std::string> sc(ss.size());
      for (size_t i = 0; i < ss.size(); ++i) sc[i] = ss[i] == 1 ? "0" : coords[pad + i];
      return remat(in.args[0], sc, depth + 1);
    }
    case Op::Reshape: {
      // The flat row-major index is kept; rebuild the source's coordinates.
      const ir::Shape& ss = type(in.args[0]).shape;
      const std::string flat = flat_index(coords, shape);
      std::vector<std::string> sc(ss.size());
      for (size_t j = 0; j < ss.size(); ++j) sc[j] = coordinate("(" + flat + ")", ss, j);
      return remat(in.args[0], sc, depth + 1);
    }
    case Op::Permute: {
      std::vector<std::string> sc(shape.size());
      for (size_t i = 0; i < shape.size(); ++i) sc[static_cast<size_t>(in.dims[i])] = coords[i];
      return remat(in.args[0], sc, depth + 1);
    }
    default: break;
  }
  if (!(ir::is_unary(in.op) || ir::is_binary(in.op) || in.op == Op::Where || in.op == Op::Fma)) return std::nullopt;
  std::vector<std::string> args;
  for (int a : in.args) {
    const ir::Shape& as = type(a).shape;
    if (!as.empty() && as != shape) return std::nullopt;
    std::optional<std::string> x = remat(a, as.empty() ? std::vector<std::string>{} : coords, depth + 1);
    if (!x) return std::nullopt;
    args.push_back("(" + *x + ")");
  }
  std::string e = elementwise_expr(in, args);
  if (e.size() > kMaxLength) return std::nullopt;
  return e;
}

bool Emitter::try_remat_move(const ir::Instr& in, int64_t period) {
  const ir::Shape& ds = type(in.dst).shape;
  const TileLayout ld = layout(in.dst);
  // The move itself, read at each of its destination's elements.
  auto at_element = [&](const std::string& e) {
    std::vector<std::string> c(ds.size());
    for (size_t i = 0; i < ds.size(); ++i) c[i] = coordinate(e, ds, i);
    return remat_instr(in, c, 0);
  };
  reload_at_ = &in;
  bool ok = at_element("e").has_value();
  const std::string slot = ld.slots == 1 ? "0" : "s";  // what for_slots names a slot
  // An MMA or run destination's rows and columns directly (below); where
  // the read at them outgrows remat's limit (a reshape's flat index of two
  // MMA coordinates), the coordinates are named once a slot instead.
  const bool direct = !(ld.mma || ld.vec > 1) || remat_instr(in, element_coordinates(ld, ds, slot), 0).has_value();
  std::vector<std::string> named;
  for (size_t i = 0; i < ds.size(); ++i) named.push_back("ts_mc" + std::to_string(i));
  if (!direct) period = 0;  // the period's reads are at the same coordinates
  // The same read for every slot: its coordinates are the names.
  const std::optional<std::string> named_read = direct ? std::nullopt : remat_instr(in, named, 0);
  const bool by_name = named_read.has_value();
  if (ok && !direct && !by_name) ok = at_element(element(ld, slot)).has_value();
  if (ok && by_name) {
    declare(in.dst);
    for_slots(ld.slots, [&](const std::string& s) {
      open("");
      const std::vector<std::string> c = element_coordinates(ld, ds, s);
      for (size_t i = 0; i < ds.size(); ++i) line("const int " + named[i] + " = " + c[i] + ";");
      line(at(in.dst, s) + " = " + *named_read + ";");
      close();
    });
  } else if (ok && period > 0) {
    // The first `period` slots read, the rest copied from them.
    const std::string tmp = "rp" + std::to_string(scratch_++);
    line(reg_type(in.dst) + " " + tmp + "[" + std::to_string(period) + "];");
    for_slots(period, [&](const std::string& s) {
      line(tmp + "[" + s + "] = " + *remat_instr(in, element_coordinates(ld, ds, s), 0) + ";");
    });
    assign(in.dst, [&](const std::string& s) { return tmp + "[(" + s + ") % " + std::to_string(period) + "]"; });
  } else if (ok)
    assign(in.dst, [&](const std::string& s) {
      // An MMA destination's rows and columns directly: shorter than the
      // flat index the coordinates were taken from before, so within
      // remat's limit wherever that was. A run layout's, for one read of
      // a source its run shares (element_coordinates).
      return direct && (ld.mma || ld.vec > 1) ? *remat_instr(in, element_coordinates(ld, ds, s), 0) : *at_element(element(ld, s));
    });
  reload_at_ = nullptr;
  return ok;
}

bool Emitter::reload_allowed(const ir::Instr& load, const ir::Instr& use) const {
  // Same block, load first, and no store or atomic executed in between
  // (nested blocks between them included). Within a loop body the pair
  // repeats together, so each reload sees what its load saw.
  auto l = position_.find(&load), u = position_.find(&use);
  if (l == position_.end() || u == position_.end()) return false;
  if (l->second.first != u->second.first || l->second.second >= u->second.second) return false;
  auto w = std::lower_bound(writes_.begin(), writes_.end(), l->second.second);
  return w == writes_.end() || *w > u->second.second;
}

}  // namespace tl::gpu::detail
