// Layout assignment and conversion (LOWERING §4, §6). A tensor-core dot
// leaves its result in the MMA accumulator layout; moving it into the
// striped layout costs a trip through shared memory, and a K loop that
// does so every step loses most of the tensor cores' speed. So the result
// stays in the MMA layout: so do the loop-carried accumulator it feeds
// (`acc = dot(a, b, acc)`), the zeros it starts from and whatever is
// computed elementwise from it (an epilogue). Each op computes in its
// result's layout; an operand held in another layout is converted for that
// op only: recomputed at the op's elements when it is index arithmetic
// (a store's pointers and mask), else through shared memory.
#include <set>

#include "codegen_emitter.h"

namespace tl::gpu::detail {

bool is_elementwise(ir::Op op) {
  return ir::is_unary(op) || ir::is_binary(op) || op == ir::Op::Where || op == ir::Op::Fma;
}

bool Emitter::index_arithmetic(int r) const {
  static const std::vector<std::string> probe = {"c0", "c1", "c2", "c3"};
  const ir::Shape& s = type(r).shape;
  return s.empty() ||
         (s.size() <= probe.size() &&
          remat(r, std::vector<std::string>(probe.begin(), probe.begin() + static_cast<long>(s.size())), 0).has_value());
}

bool Emitter::mma_dot(const ir::Instr& in) const {
  if (in.op != ir::Op::Dot || opt_.scalar_dots) return false;
  const ir::Shape& as = type(in.args[0]).shape;
  const DType d = type(in.args[0]).dtype;
  if (type(in.dst).dtype != DType::f32) return false;
  const int64_t K = as.back();
  const bool tf32 = d == DType::f32 && in.precision == ir::Precision::tf32;
  const bool half = is_half(d);
  if (!(tf32 && K % 8 == 0) && !(half && K % 16 == 0)) return false;
  return mma_layout(type(in.dst).shape, threads_, opt_.wgmma).has_value();
}

void Emitter::assign_layouts() {
  layouts_.clear();
  for (const auto& reg : k_.regs) layouts_.push_back(layout_of(reg.type.shape));
  std::vector<std::vector<const ir::Instr*>> defs(k_.regs.size());
  ir::for_each_instr(k_.body, [&](const ir::Instr& in, const ir::Block&) {
    if (in.dst >= 0) defs[in.dst].push_back(&in);
  });

  std::vector<bool> mma(k_.regs.size(), false);
  // A definition that yields the MMA layout at no cost beyond its own work.
  auto produces = [&](const ir::Instr& in) {
    if (in.op == ir::Op::Dot) return mma_dot(in);
    // An atomic_add of a result in the MMA layout (split-K's epilogue) adds
    // from the registers that hold it, its pointers and mask recomputed
    // there, rather than moving the result through shared memory first.
    if (in.op == ir::Op::AtomicAdd)
      return mma[in.args[1]] && index_arithmetic(in.args[0]) && (!in.has_mask || index_arithmetic(in.args[2]));
    if (!is_elementwise(in.op)) return false;
    bool any = false;
    for (int a : in.args) {
      if (mma[a]) any = true;
      else if (!index_arithmetic(a)) return false;  // data in another layout: no gain
    }
    return any;
  };
  // A definition that can write the MMA layout as cheaply as any other.
  auto fits = [&](const ir::Instr& in) {
    return produces(in) || (in.op == ir::Op::Broadcast && type(in.args[0]).shape.empty());
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t r = 0; r < defs.size(); ++r) {
      if (mma[r] || defs[r].empty() || type(static_cast<int>(r)).is_ptr) continue;
      if (!mma_layout(type(static_cast<int>(r)).shape, threads_, opt_.wgmma)) continue;
      bool all_fit = true, any_produces = false;
      for (const ir::Instr* in : defs[r]) {
        all_fit &= fits(*in);
        any_produces |= produces(*in);
      }
      if (all_fit && any_produces) {
        mma[r] = true;
        changed = true;
      }
    }
  }
  for (size_t r = 0; r < mma.size(); ++r)
    if (mma[r]) layouts_[r] = *mma_layout(type(static_cast<int>(r)).shape, threads_, opt_.wgmma);
  if (opt_.row_runs) assign_row_runs();
}

namespace {

// The run length that gives each warp whole rows of a tile whose last
// extent is `len`, or 0 where runs do not fit.
int64_t row_run_length(const ir::Shape& s, int64_t threads) {
  if (s.size() < 2) return 0;
  const int64_t len = s.back(), v = len / 32;
  if (len % 32 != 0 || v < 2 || v > 8) return 0;
  return ir::numel(s) % (threads * v) == 0 ? v : 0;
}

}  // namespace

std::optional<std::set<int>> Emitter::computed_from(int x, const std::function<Reach(int)>& reach,
                                                    const std::function<bool(ir::Op)>& through) const {
  std::set<int> set = {x};
  std::vector<int> work = {x};
  while (!work.empty()) {
    const ir::Instr& in = *def_of_[work.back()];
    work.pop_back();
    if (!through(in.op)) continue;
    for (int a : in.args) {
      if (set.count(a)) continue;
      const Reach r = reach(a);
      if (r == Reach::abort) return std::nullopt;
      if (r == Reach::skip) continue;
      set.insert(a);
      work.push_back(a);
    }
  }
  return set;
}

bool Emitter::reduces_row_runs(const ir::Instr& in) const {
  if (in.op != ir::Op::Reduce) return false;
  const int src = in.args[0];
  const ir::Shape& s = type(src).shape;
  const TileLayout& l = layouts_[src];
  return !l.mma && l.vec > 1 && l.vec == row_run_length(s, threads_) &&
         reduced_by_tree(in, type(src).dtype, s.size());
}

// Runs along the rows for what a last-axis reduction reads (CodegenOptions::
// row_runs): the reduced tile and the ops it is computed from, back through
// elementwise ops and broadcasts of one definition each. A run is taken
// whole or not at all: only where nothing in it needs a conversion through
// shared memory (an operand outside it that is a tile of the same size and
// not index arithmetic), and every use of its registers reads any layout
// (a broadcast, a reshape) or is such a reduction. Else a load's tile, say,
// would cross shared memory to join the runs, which costs more than the
// reduction saves.
void Emitter::assign_row_runs() {
  std::vector<std::vector<const ir::Instr*>> uses(k_.regs.size());
  std::vector<const ir::Instr*> reductions;
  ir::for_each_instr(k_.body, [&](const ir::Instr& in, const ir::Block&) {
    for (int a : in.args) uses[a].push_back(&in);
    if (in.op == ir::Op::Reduce) reductions.push_back(&in);
  });
  for (const ir::Instr* red : reductions) {
    const int src = red->args[0];
    const ir::Shape& shape = type(src).shape;
    const int64_t v = row_run_length(shape, threads_);
    if (!v || !reduced_by_tree(*red, type(src).dtype, shape.size())) continue;
    const int64_t n = ir::numel(shape);
    auto joins = [&](int r) {
      if (def_count_[r] != 1 || !def_of_[r] || type(r).is_ptr || type(r).shape != shape) return false;
      const TileLayout& l = layouts_[r];
      if (l.mma || l.vec != 1 || index_arithmetic(r)) return false;
      const ir::Op op = def_of_[r]->op;
      return is_elementwise(op) || op == ir::Op::Broadcast;
    };
    if (!joins(src)) continue;
    std::optional<std::set<int>> computed = computed_from(
        src,
        [&](int a) {
          if (type(a).shape.empty() || ir::numel(type(a).shape) != n || index_arithmetic(a)) return Reach::skip;
          return joins(a) ? Reach::join : Reach::abort;
        },
        [](ir::Op op) { return op != ir::Op::Broadcast; });  // a broadcast reads its source at any layout's elements
    if (!computed) continue;
    const std::set<int>& run = *computed;
    bool whole = true;
    for (int r : run)
      for (const ir::Instr* u : uses[r]) {
        const bool reads_any = u->op == ir::Op::Broadcast || u->op == ir::Op::Reshape || u->op == ir::Op::Permute;
        const bool reduced = u->op == ir::Op::Reduce &&
                             reduced_by_tree(*u, type(r).dtype, shape.size());
        if (!(u->dst >= 0 && run.count(u->dst)) && !reads_any && !reduced) whole = false;
      }
    if (!whole) continue;
    for (int r : run) layouts_[r].vec = v;
  }
}

void Emitter::convert_operands(const ir::Instr& in) {
  converted_.clear();
  recomputed_.clear();
  using ir::Op;
  std::vector<size_t> which;  // the operands that must be in `work`
  TileLayout work;
  switch (in.op) {
    case Op::Broadcast: case Op::Reshape: case Op::Permute:
      return;  // they read any layout (codegen_movement.cpp)
    case Op::Dot:
      if (!in.has_acc) return;  // a and b go to shared memory from any layout
      which = {2};
      work = layouts_[in.dst];
      break;
    case Op::Reduce:
      which = {0};
      // The shuffle tree wants the striped layout, or runs along the rows.
      work = reduces_row_runs(in) ? layouts_[in.args[0]] : layout_of(type(in.args[0]).shape);
      break;
    case Op::Store:
      // Stored from the value's layout: a result left in the MMA layout is
      // written straight from its registers.
      work = layouts_[in.args[type(in.args[1]).shape.empty() ? 0 : 1]];
      break;
    default:
      if (in.dst >= 0 && !type(in.dst).shape.empty()) work = layouts_[in.dst];
      else if (!in.args.empty()) work = layout_of(type(in.args[0]).shape);
      else return;
  }
  if (which.empty())
    for (size_t i = 0; i < in.args.size(); ++i) which.push_back(i);
  for (size_t i : which) {
    const int a = in.args[i];
    if (type(a).shape.empty() || layouts_[a] == work || converted_.count(a)) continue;
    if (ir::numel(type(a).shape) != work.n) continue;  // not an element-for-element operand
    const ir::Shape& shape = type(a).shape;
    auto coords_at = [this, shape, work](const std::string& s) { return element_coordinates(work, shape, s); };
    // Probed at the longest slot expression the slots will really be read
    // at (for_slots names the slot "s", or "0" for one; a store's column
    // pairs read "2 * ts_p + 1"): remat gives up past a length limit, and
    // the MMA layout's coordinates are long, so a probe with a short name
    // could pass where the real expansion fails.
    const char* probe = work.slots == 1 ? "0" : work.mma ? kPairSlotSecond : "s";
    if (remat(a, coords_at(probe), 0)) {
      // Index arithmetic: recomputed where each slot is used, with no array
      // (a store's 64-bit pointers would otherwise all be live at once).
      converted_[a] = {"", work};
      recomputed_[a] = [this, a, coords_at](const std::string& s) { return "(" + *remat(a, coords_at(s), 0) + ")"; };
      continue;
    }
    const std::string tmp = "cv" + std::to_string(scratch_++);
    line(reg_type(a) + " " + tmp + "[" + std::to_string(work.slots) + "];  // %" + std::to_string(a) +
         (work.mma ? " in the MMA layout" : " in the striped layout"));
    {
      const int64_t elem = type(a).is_ptr ? 8 : byte_size(type(a).dtype);
      need_smem(work.n * elem);
      open("");
      spill_to_smem(a, "sm", reg_type(a), 0, [](const std::string& x) { return x; });
      line("__syncthreads();");
      for_slots(work.slots, [&](const std::string& s) { line(tmp + "[" + s + "] = sm[" + element(work, s) + "];"); });
      line("__syncthreads();");
      close();
    }
    converted_[a] = {tmp, work};
  }
}

}  // namespace tl::gpu::detail
