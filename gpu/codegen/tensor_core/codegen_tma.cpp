// TMA for staged dot operands (CodegenOptions::tma). A staged
// load qualifies when its tile is a plain rectangle of a row-major 2-D
// tensor:
//
//   load(base + X_outer[:, None] * S + X_inner[None, :],
//        (X_outer[:, None] < R) & (X_inner[None, :] < C), 0)
//
// (either axis order, any mix of broadcasts, reshapes and sums, and
// products by launch values distributed over sums), where each X is a 1-D
// index vector X[0] + i, base a pointer parameter, and S, R, C kernel
// parameters, constants or products of them. One more term B * T with
// mask B < NB, B an index vector of one element on an axis of extent 1,
// makes it a 3-D tensor one deep along that axis (p11's batch:
// (b * N0 + j) * MID + l). The TMA unit then copies the box at
// (X_inner[0], X_outer[0]) of the tensor [R, C] with row stride S, filling
// zeros outside it, which is exactly the masked load with zero fill. The
// match is structural, by register identity: the mask must compare the same
// index registers the pointer is built from, so a mask that differs from
// the pointer's coordinates never matches.
#include <algorithm>
#include <climits>
#include <functional>
#include <optional>

#include "codegen_emitter.h"

namespace tl::gpu::detail {

namespace {

// How a register's axes sit in the tile: map[i] is the tile axis of the
// register's axis i, or -1 for an axis of extent 1.
using AxisMap = std::vector<int>;

}  // namespace

// A 0-d value the launcher knows: a scalar parameter (a compile-time
// constant's value folded in) or an integer constant, through broadcasts
// and copies.
std::optional<TensorMapSpec::Value> Emitter::launch_value(int r) const {
  for (int depth = 0; depth < 16; ++depth) {
    if (def_count_[r] != 1 || !def_of_[r]) return std::nullopt;
    const ir::Instr& in = *def_of_[r];
    if (in.op == ir::Op::Broadcast || in.op == ir::Op::Reshape || in.op == ir::Op::Copy) {
      r = in.args[0];
      continue;
    }
    for (int64_t e : type(r).shape)
      if (e != 1) return std::nullopt;
    if (in.op == ir::Op::Mul && type(r).dtype == DType::i32) {
      // c * x, x * c (E1 v2's 2 * N) or x * y: the launcher multiplies, and
      // refuses a product past i32, where the kernel's wraps.
      std::optional<TensorMapSpec::Value> a = launch_value(in.args[0]), b = launch_value(in.args[1]);
      return a && b ? launch_product(*a, *b) : std::nullopt;
    }
    // Values of the kernel's i32 index arithmetic only (the launcher reads
    // the parameter as i32).
    if (type(r).dtype != DType::i32) return std::nullopt;
    if (in.op == ir::Op::Const) return TensorMapSpec::Value{-1, in.ival, 1};
    if (in.op == ir::Op::ScalarParam) {
      const ir::Param& p = k_.params[static_cast<size_t>(in.param_index)];
      if (p.kind == ir::ParamKind::Constant) return TensorMapSpec::Value{-1, p.value, 1};
      return TensorMapSpec::Value{in.param_index, 0, 1};
    }
    return std::nullopt;
  }
  return std::nullopt;
}

std::optional<TensorMapSpec::Value> Emitter::launch_product(TensorMapSpec::Value a, TensorMapSpec::Value b) {
  auto fits = [](int64_t v) { return v >= INT32_MIN && v <= INT32_MAX; };
  if (a.param < 0) std::swap(a, b);  // a parameter first, if any
  if (a.param < 0) {
    a.constant *= b.constant;  // both within i32: no overflow in i64
    return fits(a.constant) ? std::optional(a) : std::nullopt;
  }
  if (b.param >= 0 && (a.param2 >= 0 || b.param2 >= 0)) return std::nullopt;  // at most two parameters
  if (b.param >= 0) a.param2 = b.param;
  a.scale *= b.param >= 0 ? b.scale : b.constant;
  return fits(a.scale) ? std::optional(a) : std::nullopt;
}

std::optional<Emitter::TmaMatch> Emitter::tma_match(const StagedLoad& s) const {
  const ir::Instr& ld = *s.load;
  const ir::Shape& tile = type(s.reg).shape;
  if (!ld.has_mask || !ld.shape_dims.empty() || s.outer_axis < 0 || !s.swizzle128) return std::nullopt;
  // A box per 128-byte column of the tile (staged_offset's layout): the
  // swizzle takes rows of at most 128 bytes.
  if (s.inner * byte_size(type(s.reg).dtype) % 128 != 0) return std::nullopt;
  if (s.inner > 256 || s.outer > 256) return std::nullopt;  // TMA boxes: at most 256 a side

  // Follows broadcasts, reshapes that add or drop unit axes, and copies;
  // `map` tracks where the register's axes sit in the tile.
  auto strip = [&](int& r, AxisMap& map) {
    for (int depth = 0; depth < 24 && def_count_[r] == 1 && def_of_[r]; ++depth) {
      const ir::Instr& in = *def_of_[r];
      const ir::Shape& ds = type(r).shape;
      const ir::Shape& ss = type(in.args.empty() ? r : in.args[0]).shape;
      if (in.op == ir::Op::Copy) {
        r = in.args[0];
      } else if (in.op == ir::Op::Broadcast) {
        const size_t pad = ds.size() - ss.size();
        AxisMap m(ss.size(), -1);
        for (size_t i = 0; i < ss.size(); ++i) m[i] = ss[i] == 1 ? -1 : map[pad + i];
        map = m;
        r = in.args[0];
      } else if (in.op == ir::Op::Reshape) {
        std::vector<size_t> s_big, d_big;
        for (size_t i = 0; i < ss.size(); ++i)
          if (ss[i] != 1) s_big.push_back(i);
        for (size_t i = 0; i < ds.size(); ++i)
          if (ds[i] != 1) d_big.push_back(i);
        if (s_big.size() != d_big.size()) return;
        for (size_t j = 0; j < s_big.size(); ++j)
          if (ss[s_big[j]] != ds[d_big[j]]) return;
        AxisMap m(ss.size(), -1);
        for (size_t j = 0; j < s_big.size(); ++j) m[s_big[j]] = map[d_big[j]];
        map = m;
        r = in.args[0];
      } else {
        return;
      }
    }
  };
  // A 1-D index vector along one tile axis: the register the pointer and
  // the mask must share, and its axis.
  // One of a single element on an axis of extent 1 (a batch index) has
  // axis -1.
  auto index_vector = [&](int r, AxisMap map) -> std::optional<std::pair<int, int>> {
    strip(r, map);
    const ir::Shape& sh = type(r).shape;
    if (sh.size() != 1 || map.size() != 1 || type(r).dtype != DType::i32) return std::nullopt;
    if (map[0] < 0) return sh[0] == 1 ? std::optional(std::make_pair(r, -1)) : std::nullopt;
    if (sh[0] != tile[static_cast<size_t>(map[0])]) return std::nullopt;
    return std::make_pair(r, map[0]);
  };

  TmaMatch m;
  struct Term {
    int x, axis;
    TensorMapSpec::Value coef;
  };
  std::vector<Term> terms;
  bool ok = true;
  // The pointer: one pointer parameter plus index terms X * coef, where
  // coef is the product of the launch values the term sits under.
  const TensorMapSpec::Value one{-1, 1};
  std::function<void(int, AxisMap, TensorMapSpec::Value)> pointer_terms = [&](int r, AxisMap map,
                                                                               TensorMapSpec::Value coef) {
    strip(r, map);
    if (def_count_[r] != 1 || !def_of_[r]) {
      ok = false;
      return;
    }
    const ir::Instr& in = *def_of_[r];
    if (in.op == ir::Op::PtrParam) {
      if (m.spec.base_param >= 0 || coef.param >= 0 || coef.constant != 1) ok = false;
      m.spec.base_param = in.param_index;
    } else if (std::optional<std::pair<int, int>> x = index_vector(r, map)) {
      terms.push_back({x->first, x->second, coef});
    } else if (in.op == ir::Op::PtrAdd || (in.op == ir::Op::Add && type(r).dtype == DType::i32)) {
      pointer_terms(in.args[0], map, coef);  // a sum of index terms (the index vectors matched above)
      pointer_terms(in.args[1], map, coef);
    } else if (in.op == ir::Op::Mul && type(r).dtype == DType::i32) {
      for (int side = 0; side < 2; ++side) {
        std::optional<TensorMapSpec::Value> v = launch_value(in.args[static_cast<size_t>(side)]);
        if (v) v = launch_product(coef, *v);
        if (v) return pointer_terms(in.args[static_cast<size_t>(1 - side)], map, *v);
      }
      ok = false;
    } else {
      ok = false;
    }
  };
  AxisMap identity(tile.size());
  for (size_t i = 0; i < tile.size(); ++i) identity[i] = tile[i] == 1 ? -1 : static_cast<int>(i);
  pointer_terms(ld.args[0], identity, one);
  if (!ok || m.spec.base_param < 0 || terms.size() < 2 || terms.size() > 3) return std::nullopt;
  for (size_t i = 0; i < terms.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (terms[i].axis == terms[j].axis) return std::nullopt;  // one term an axis, the batch's included

  // The mask: a conjunction of X < bound, one per axis, over the same X.
  struct Bound {
    int x, axis;
    TensorMapSpec::Value bound;
  };
  std::vector<Bound> bounds;
  std::function<void(int, AxisMap)> mask_terms = [&](int r, AxisMap map) {
    strip(r, map);
    if (def_count_[r] != 1 || !def_of_[r]) {
      ok = false;
      return;
    }
    const ir::Instr& in = *def_of_[r];
    if (in.op == ir::Op::And) {
      mask_terms(in.args[0], map);
      mask_terms(in.args[1], map);
      return;
    }
    std::optional<std::pair<int, int>> x;
    std::optional<TensorMapSpec::Value> v;
    if (in.op == ir::Op::Lt) {
      x = index_vector(in.args[0], map);
      v = launch_value(in.args[1]);
    }
    if (!x || !v) {
      ok = false;
      return;
    }
    bounds.push_back({x->first, x->second, *v});
  };
  mask_terms(ld.args[1], identity);
  if (!ok || bounds.size() != terms.size()) return std::nullopt;

  for (const Term& t : terms) {
    const Bound* b = nullptr;
    for (const Bound& c : bounds)
      if (c.axis == t.axis) b = &c;
    if (!b || b->x != t.x) return std::nullopt;  // the mask must bound the pointer's own coordinates
    if (t.axis < 0) {  // the batch: one element, no step to check
      m.batch_x = t.x;
      m.spec.batched = true;
      m.spec.batches = b->bound;
      m.spec.batch_stride = t.coef;
      continue;
    }
    // X[i] = X[0] + i: the box walks the tensor one element at a time.
    if (!unit_step(t.x)) return std::nullopt;
    if (t.axis == s.inner_axis) {
      if (t.coef.param >= 0 || t.coef.constant != 1) return std::nullopt;
      m.inner_x = t.x;
      m.spec.cols = b->bound;
    } else if (t.axis == s.outer_axis) {
      m.outer_x = t.x;
      m.spec.rows = b->bound;
      m.spec.row_stride = t.coef;
    } else {
      return std::nullopt;
    }
  }
  if (m.inner_x < 0 || m.outer_x < 0) return std::nullopt;
  m.spec.dtype = type(s.reg).dtype;
  m.spec.box_cols = 128 / static_cast<int64_t>(byte_size(type(s.reg).dtype));
  m.spec.box_rows = s.outer;
  m.spec.swizzle128 = true;
  return m;
}

bool Emitter::fits_b_by_tma(const StagedLoad& s) const {
  if (!opt_.wgmma_b_tma || !opt_.tma || opt_.tf32_cut_staged || type(s.reg).dtype != DType::f32) return false;
  StagedLoad as_swizzled = s;
  as_swizzled.core = as_swizzled.swizzle128 = true;
  return tma_match(as_swizzled).has_value();
}

bool Emitter::depends_on_program_id(int r, int axis) const {
  std::vector<char> seen(def_of_.size(), 0);
  std::function<bool(int)> depends = [&](int x) {
    if (x < 0 || seen[static_cast<size_t>(x)]) return false;
    seen[static_cast<size_t>(x)] = 1;
    if (def_count_[x] != 1 || !def_of_[x]) return true;  // defined more than once: assume it does
    const ir::Instr& in = *def_of_[x];
    if (in.op == ir::Op::ProgramId) return in.axis == axis;
    return std::any_of(in.args.begin(), in.args.end(), depends);  // a loop variable: its range's bounds
  };
  return depends(r);
}

bool Emitter::shared_in_cluster(const StagedLoad& s, int axis) const {
  // Halves of whole 1024-byte swizzle atoms (8 rows of 128 bytes), at the
  // same box for every program along the axis.
  return s.tma >= 0 && s.swizzle128 && s.outer % 16 == 0 && s.inner * byte_size(type(s.reg).dtype) == 128 &&
         !depends_on_program_id(s.tma_inner_x, axis) &&
         !depends_on_program_id(s.tma_outer_x, axis) && (s.tma_batch_x < 0 || !depends_on_program_id(s.tma_batch_x, axis));
}

int Emitter::multicast_axis(const Pipeline& p) const {
  // The form whose cluster barrier codegen_pipeline.cpp places (the transposed
  // dot, each group waited for at once), in a loop both programs of a
  // cluster run with the same trips: at the kernel's top level, its range
  // the same for them.
  // The stage an iteration refills is the one the iteration before read
  // (ahead = stages - 1): the empty barrier's arrival and wait meet there.
  if (!p.tma || !p.wgmma_transposed || !p.copies_after_dot || p.ahead != p.stages - 1 || opt_.persistent() ||
      !directly_in(k_.body, p.loop))
    return -1;
  int best = -1;
  int64_t best_bytes = 0;
  for (int axis = 0; axis < 3; ++axis) {
    if (std::any_of(p.loop->args.begin(), p.loop->args.end(), [&](int a) { return depends_on_program_id(a, axis); }))
      continue;
    int64_t bytes = 0;
    for (const StagedLoad& s : p.loads)
      if (shared_in_cluster(s, axis)) bytes += s.inner * s.outer * byte_size(type(s.reg).dtype);
    if (bytes > best_bytes) {
      best = axis;
      best_bytes = bytes;
    }
  }
  return best;
}

void Emitter::issue_tma(const Pipeline& p, const std::string& stage, bool refill, const std::string& reused) {
  // One thread arms the stage's barrier with the bytes to come and issues
  // one box per tile; every element outside the tensor (a masked lane)
  // lands as zero. Called under issue_copies' AtIteration and ts_stage.
  // A multicast tile's two halves land in both programs of a cluster
  // whichever issued them, so each barrier expects the whole tile.
  uses_tid_ = true;
  open("if (tid == 0)");
  if (refill && p.empty_arrivals > 0) {
    // Clusters: the other program is done with the stage too (it arrived
    // on this one's empty barrier, publish_stage). Decoupled warpgroups:
    // every warp is (wgmma_tf32_transposed). On the first iteration the
    // stage refilled has held nothing yet.
    open("if (" + std::string(p.cluster_axis >= 0 ? "ts_tma_ok == 2 && " : "") +
         (reused.empty() ? after_first_iteration(p) : reused) + ")");
    line("const int ts_s = " + stage + ";");
    line("ts_mbar_wait(" + empty_barrier_of(p, "ts_s") + ", (" + p.empty_phase_var + " >> ts_s) & 1u);");
    line(p.empty_phase_var + " ^= 1u << ts_s;");
    close();
  }
  line("uint64_t* const ts_bar = " + barrier_of(p, stage) + ";");
  int64_t bytes = 0;
  for (const StagedLoad& s : p.loads)
    if (s.tma >= 0) bytes += s.inner * s.outer * byte_size(type(s.reg).dtype);
  line("ts_mbar_expect_tx(ts_bar, " + std::to_string(bytes) + "u);");
  for (const StagedLoad& s : p.loads) {
    if (s.tma < 0) continue;
    if (opt_.comments)
      line("// TMA %" + std::to_string(s.reg) + ": " + type(s.reg).str() +
           (s.multicast ? ", two half boxes" : s.inner * byte_size(type(s.reg).dtype) == 128 ? ", one box" : ", a box per 128-byte column"));
    const std::string map = "&ts_tmap" + std::to_string(s.tma), inner = *remat(s.tma_inner_x, {"0"}, 0),
                      outer = *remat(s.tma_outer_x, {"0"}, 0),
                      batch = s.tma_batch_x >= 0 ? ", " + *remat(s.tma_batch_x, {"0"}, 0) : "";
    const std::string fn = s.tma_batch_x >= 0 ? "ts_tma_load_3d" : "ts_tma_load_2d";
    // The box whose first row is `rows_in` rows into the tile ("": its
    // first), in 128-byte column `column` (each column its own box).
    const int64_t atom = 128 / static_cast<int64_t>(byte_size(type(s.reg).dtype));
    auto box = [&](const std::string& rows_in, const std::string& suffix, const std::string& mask, int64_t column = 0) {
      const std::string at = std::to_string(s.offset + column * s.outer * 128) +
                             (rows_in.empty() ? "" : " + (" + rows_in + ") * 128");
      const std::string row = rows_in.empty() ? outer : "(" + outer + ") + (int)(" + rows_in + ")";
      const std::string col = column == 0 ? inner : "(" + inner + ") + " + std::to_string(column * atom);
      line(fn + suffix + "(ts_stage + " + at + ", " + map + ", " + col + ", " + row + batch + ", ts_bar" + mask + ");");
    };
    if (!s.multicast) {
      const int64_t columns = s.inner / atom;
      for (int64_t c = 0; c < columns; ++c) box("", "", "", c);
      continue;
    }
    const std::string half = std::to_string(s.outer / 2);
    open("if (ts_tma_ok == 2)");  // launched in clusters: this program's half, into both
    box("ts_cluster_rank() * " + half, "_mc", ", (unsigned short)3");
    open_else();
    box("", "", "");
    box(half, "", "");
    close();
  }
  close();
}

std::string Emitter::barrier_of(const Pipeline& p, const std::string& stage) const {
  return "reinterpret_cast<uint64_t*>(ts_smem + ts_pipe + " + std::to_string(p.bar_offset) + ") + (" + stage + ")";
}

std::string Emitter::empty_barrier_of(const Pipeline& p, const std::string& stage) const {
  return "reinterpret_cast<uint64_t*>(ts_smem + ts_pipe + " + std::to_string(p.empty_offset) + ") + (" + stage + ")";
}

}  // namespace tl::gpu::detail
