// Software pipelining of dot operands (LOWERING §7), the plan: which loads
// of a loop are staged, in what layout, how many stages, wgmma, TMA and
// paired dots; codegen_pipeline.cpp emits it. In a loop such as
//
//   for k: a = load(A + ..k..); b = load(B + ..k..); acc = dot(a, b, acc)
//
// a load whose tile feeds nothing but tensor-core dots of the same loop
// body never enters registers: each thread copies 16-byte vectors of it
// from global to shared memory with cp.async, along the axis where the
// pointer tile has unit stride (so a warp reads contiguous memory), and
// the copies for iteration i + 1 (i + 2 with three stages) are issued
// while the tensor cores work on iteration i, into another stage. The pointers
// and masks of a later iteration come from rematerialization with the loop
// variable replaced (codegen_remat.cpp), so they must be index arithmetic
// of the loop variable; `other` must be absent or zero, because a
// masked-off vector is written as zeros without reading anything. A vector
// whose lanes disagree about the mask, or whose address is not 16-byte
// aligned, is copied element by element through registers instead.
#include <algorithm>
#include <optional>

#include "codegen_emitter.h"

namespace tl::gpu::detail {

namespace {

// How far one step along an axis moves an index or pointer tile: not at
// all, by exactly one element, or by something else (or unknown).
enum class Step { Zero, One, Other };

// Per register: whether `b` (or a block inside it) defines it.
std::vector<char> defined_in(const ir::Block& b, size_t regs) {
  std::vector<char> in_body(regs, 0);
  ir::for_each_instr(b, [&](const ir::Instr& in, const ir::Block&) {
    if (in.dst >= 0) in_body[in.dst] = 1;
  });
  return in_body;
}

}  // namespace

// The axes of `in`'s result that its one tile argument's axes become, for
// the ops that only move axes (broadcast, reshape, permute): out[i] is the
// source axis's value, or `fresh` for an axis the op made. Nothing for any
// other op, or a reshape that reorders.
template <class T>
static std::optional<std::vector<T>> moved_axes(const ir::Kernel& k, const ir::Instr& in, const std::vector<T>& src,
                                                T fresh) {
  const ir::Shape& shape = k.regs[in.dst].type.shape;
  const ir::Shape& ss = k.regs[in.args[0]].type.shape;
  std::vector<T> out(shape.size(), fresh);
  switch (in.op) {
    case ir::Op::Broadcast: {
      const size_t pad = shape.size() - ss.size();
      for (size_t i = 0; i < ss.size(); ++i) out[pad + i] = ss[i] == 1 ? fresh : src[i];
      return out;
    }
    case ir::Op::Reshape: {
      // Only axes of extent 1 come or go: the others keep their order.
      std::vector<size_t> s_axes, d_axes;
      for (size_t i = 0; i < ss.size(); ++i)
        if (ss[i] != 1) s_axes.push_back(i);
      for (size_t i = 0; i < shape.size(); ++i)
        if (shape[i] != 1) d_axes.push_back(i);
      if (s_axes.size() != d_axes.size()) return std::nullopt;
      for (size_t j = 0; j < s_axes.size(); ++j) {
        if (ss[s_axes[j]] != shape[d_axes[j]]) return std::nullopt;
        out[d_axes[j]] = src[s_axes[j]];
      }
      return out;
    }
    case ir::Op::Permute:
      for (size_t i = 0; i < shape.size(); ++i) out[i] = src[static_cast<size_t>(in.dims[i])];
      return out;
    default: return std::nullopt;
  }
}

// Per-axis steps of an index or pointer tile, from its definition. Only a
// `One` is relied upon (a unit-stride axis), so anything not understood is
// `Other`. i32 wrap-around is not modelled: addresses themselves are always
// computed by rematerialization, exactly as elsewhere.
static std::vector<Step> steps_of(const ir::Kernel& k, const std::vector<int>& def_count,
                                  const std::vector<const ir::Instr*>& def_of, int r, int depth) {
  const ir::Shape& shape = k.regs[r].type.shape;
  std::vector<Step> other(shape.size(), Step::Other);
  if (shape.empty()) return {};
  if (depth > 24 || def_count[r] != 1 || !def_of[r]) return other;
  const ir::Instr& in = *def_of[r];
  auto of = [&](int a) { return steps_of(k, def_count, def_of, a, depth + 1); };
  using ir::Op;
  switch (in.op) {
    case Op::Arange: return {Step::One};
    case Op::Broadcast: case Op::Reshape: case Op::Permute:
      return moved_axes(k, in, of(in.args[0]), Step::Zero).value_or(other);
    case Op::Copy: return of(in.args[0]);
    case Op::Cast: {
      // Only a cast to an integer type as wide keeps every value, and with
      // them the steps (a narrowing cast wraps, a float one rounds).
      const DType from = k.regs[in.args[0]].type.dtype, to = k.regs[r].type.dtype;
      if (is_int(from) && is_int(to) && to != DType::i1 && bit_width(to) >= bit_width(from)) return of(in.args[0]);
      return other;
    }
    case Op::Add: case Op::PtrAdd: {
      std::vector<Step> a = of(in.args[0]), b = of(in.args[1]), out(shape.size());
      if (a.empty()) a.assign(shape.size(), Step::Zero);
      if (b.empty()) b.assign(shape.size(), Step::Zero);
      for (size_t i = 0; i < shape.size(); ++i)
        out[i] = a[i] == Step::Zero ? b[i] : b[i] == Step::Zero ? a[i] : Step::Other;
      return out;
    }
    case Op::Sub: case Op::Mul: {
      // x - c and x * 1 keep x's steps; anything else that moves is Other.
      std::vector<Step> a = of(in.args[0]), b = of(in.args[1]), out(shape.size());
      if (a.empty()) a.assign(shape.size(), Step::Zero);
      if (b.empty()) b.assign(shape.size(), Step::Zero);
      const bool b_flat = std::all_of(b.begin(), b.end(), [](Step s) { return s == Step::Zero; });
      for (size_t i = 0; i < shape.size(); ++i) {
        if (a[i] == Step::Zero && b[i] == Step::Zero) out[i] = Step::Zero;
        else if (in.op == Op::Sub && b_flat) out[i] = a[i];
        else out[i] = Step::Other;
      }
      return out;
    }
    default: return other;
  }
}

// Per-axis shape of a mask tile's true lanes along one axis: the same for
// every lane, a prefix, a suffix, an interval, or not known. Comparisons of
// a unit-step index with something constant along the axis give a prefix
// (x < n) or a suffix (x >= lo); `and` intersects. As for steps_of, i32
// wrap-around of the index is not modelled.
static Emitter::Lanes lanes_and(Emitter::Lanes a, Emitter::Lanes b) {
  using L = Emitter::Lanes;
  if (a == L::Same) return b;
  if (b == L::Same || a == b) return a;
  if (a == L::Unknown || b == L::Unknown) return L::Unknown;
  return L::Interval;
}

static std::vector<Emitter::Lanes> lanes_of(const ir::Kernel& k, const std::vector<int>& def_count,
                                            const std::vector<const ir::Instr*>& def_of, int r, int depth) {
  using L = Emitter::Lanes;
  const ir::Shape& shape = k.regs[r].type.shape;
  const std::vector<L> unknown(shape.size(), L::Unknown);
  if (shape.empty()) return {};
  if (depth > 24 || def_count[r] != 1 || !def_of[r]) return unknown;
  const ir::Instr& in = *def_of[r];
  auto of = [&](int a) {
    std::vector<L> v = lanes_of(k, def_count, def_of, a, depth + 1);
    if (v.empty()) v.assign(shape.size(), L::Same);  // a scalar
    return v;
  };
  using ir::Op;
  switch (in.op) {
    case Op::Broadcast: case Op::Reshape: case Op::Permute:
      return moved_axes(k, in, lanes_of(k, def_count, def_of, in.args[0], depth + 1), L::Same).value_or(unknown);
    case Op::Copy: return of(in.args[0]);
    case Op::And: {
      std::vector<L> a = of(in.args[0]), b = of(in.args[1]), out(shape.size());
      for (size_t i = 0; i < shape.size(); ++i) out[i] = lanes_and(a[i], b[i]);
      return out;
    }
    case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge: {
      // Written as lo < hi: the lanes where it holds are a prefix when lo
      // climbs by one a lane, a suffix when hi does.
      const bool less = in.op == Op::Lt || in.op == Op::Le;
      std::vector<Step> lo = steps_of(k, def_count, def_of, in.args[less ? 0 : 1], depth + 1),
                        hi = steps_of(k, def_count, def_of, in.args[less ? 1 : 0], depth + 1);
      if (lo.empty()) lo.assign(shape.size(), Step::Zero);
      if (hi.empty()) hi.assign(shape.size(), Step::Zero);
      std::vector<L> out(shape.size());
      for (size_t i = 0; i < shape.size(); ++i)
        out[i] = lo[i] == Step::Zero && hi[i] == Step::Zero ? L::Same
                 : lo[i] == Step::One && hi[i] == Step::Zero ? L::Prefix
                 : lo[i] == Step::Zero && hi[i] == Step::One ? L::Suffix
                                                             : L::Unknown;
      return out;
    }
    default: return unknown;
  }
}

Emitter::Lanes Emitter::mask_lanes(int mask, int axis) const {
  const std::vector<Lanes> v = lanes_of(k_, def_count_, def_of_, mask, 0);
  return v.empty() ? Lanes::Same : v[static_cast<size_t>(axis)];
}

bool Emitter::unit_step(int r) const {
  return steps_of(k_, def_count_, def_of_, r, 0) == std::vector<Step>{Step::One};
}

bool Emitter::unit_step_along_last(int r) const {
  const std::vector<Step> s = steps_of(k_, def_count_, def_of_, r, 0);
  return !s.empty() && s.back() == Step::One;
}

std::optional<Emitter::StagedLoad> Emitter::stage_plan(const ir::Instr& load, const Pipeline& p) const {
  const DType d = type(load.dst).dtype;
  if (d != DType::f32 && d != DType::f16 && d != DType::bf16) return std::nullopt;
  const ir::Shape& shape = type(load.dst).shape;
  const int64_t elem = byte_size(d), V = 16 / elem;
  // `other` must read as zero: absent, or a zero constant broadcast.
  if (load.has_other) {
    const int o = load.args[load.has_mask ? 2 : 1];
    const ir::Instr* def = def_count_[o] == 1 ? def_of_[o] : nullptr;
    if (def && def->op == ir::Op::Broadcast && type(def->args[0]).shape.empty()) {
      const int c = def->args[0];
      def = def_count_[c] == 1 ? def_of_[c] : nullptr;
    }
    if (!def || def->op != ir::Op::Const || def->ival != 0 || def->fval != 0.0) return std::nullopt;
  }
  StagedLoad s;
  s.reg = load.dst;
  s.load = &load;
  const std::vector<Step> st = steps_of(k_, def_count_, def_of_, load.args[0], 0);
  std::vector<int> big;
  for (size_t i = 0; i < shape.size(); ++i)
    if (shape[i] > 1) big.push_back(static_cast<int>(i));
  if (big.empty() || big.size() > 2) return std::nullopt;
  for (int ax : big)
    if (st[static_cast<size_t>(ax)] == Step::One) {
      if (s.inner_axis >= 0) return std::nullopt;  // unit stride twice: not a plain tile
      s.inner_axis = ax;
    }
  if (s.inner_axis < 0) return std::nullopt;
  for (int ax : big)
    if (ax != s.inner_axis) s.outer_axis = ax;
  s.inner = shape[static_cast<size_t>(s.inner_axis)];
  s.outer = s.outer_axis >= 0 ? shape[static_cast<size_t>(s.outer_axis)] : 1;
  if (s.inner % V != 0) return std::nullopt;
  // Pointers and mask must be recomputable for any iteration. Probed with
  // coordinates and a loop value at least as long as copy_vector's and its
  // callers' (the element loop's lane, a TMA prologue's stage sum): remat
  // gives up past a length limit, and copy_vector counts on it succeeding.
  std::vector<std::string> probe(shape.size(), "0");
  probe[static_cast<size_t>(s.inner_axis)] = "(ts_i + ts_e)";
  if (s.outer_axis >= 0) probe[static_cast<size_t>(s.outer_axis)] = "ts_o";
  AtIteration at(*this, p, "(int64_t)((int64_t)r9999999 + 9 * (int64_t)r9999999)");
  if (!remat(load.args[0], probe, 0) || (load.has_mask && !remat(load.args[1], probe, 0))) return std::nullopt;
  return s;
}

void Emitter::plan_pipelines() {
  skipped_.assign(k_.regs.size(), 0);
  if (opt_.scalar_dots) return;
  // Every use of every register: (instruction, operand index).
  Uses uses(k_.regs.size());
  std::vector<const ir::Instr*> fors;
  ir::for_each_instr(k_.body, [&](const ir::Instr& in, const ir::Block&) {
    for (size_t i = 0; i < in.args.size(); ++i) uses[in.args[i]].push_back({&in, i});
    if (in.op == ir::Op::For) fors.push_back(&in);
  });
  for (const ir::Instr* loop : fors) plan_pipeline(*loop, uses);
  plan_clusters_and_decoupling();
  plan_warp_specialization();
}

void Emitter::plan_pipeline(const ir::Instr& loop, const Uses& uses) {
  Pipeline p;
  p.loop = &loop;
  p.in_body = defined_in(*loop.body, k_.regs.size());
  stage_dot_loads(p, uses);
  if (p.loads.empty()) return;
  stage_register_operands(p);
  const int register_read = choose_wgmma_form(p);
  plan_reads_ahead(p);
  choose_stages(p);
  plan_tma(p, register_read);
  pair_wgmma_dots(p);
  pipe_bytes_ = std::max(pipe_bytes_, p.stages * p.stage_bytes + (p.tma ? 8 * p.stages : 0));
  pipelines_.push_back(std::move(p));
}

// The loads whose every use is a pipelined dot's operand (directly or
// through one transpose), each given its padded region of the stage.
void Emitter::stage_dot_loads(Pipeline& p, const Uses& uses) {
  const ir::Block& body = *p.loop->body;
  auto pipelined_dot = [&](const ir::Instr* u, size_t i) {
    return u->op == ir::Op::Dot && i < 2 && layouts_[u->dst].mma && directly_in(body, u);
  };
  for (const ir::Instr& in : body.instrs) {
    if (in.op != ir::Op::Load || def_count_[in.dst] != 1) continue;
    // Every use a pipelined dot's operand, directly or through one transpose.
    bool only_dots = !uses[in.dst].empty();
    std::vector<int> transposes;
    for (auto [u, i] : uses[in.dst]) {
      if (pipelined_dot(u, i)) continue;
      if (u->op == ir::Op::Permute && directly_in(body, u) && def_count_[u->dst] == 1 && !uses[u->dst].empty() &&
          std::all_of(uses[u->dst].begin(), uses[u->dst].end(), [&](auto ui) { return pipelined_dot(ui.first, ui.second); })) {
        transposes.push_back(u->dst);
        continue;
      }
      only_dots = false;
    }
    if (!only_dots) continue;
    std::optional<StagedLoad> s = stage_plan(in, p);
    if (!s) continue;
    // Row padding by the role of its first use (A: k is the last axis,
    // B: the one before), so its fragment loads spread over the banks
    // (see dot_mma_fragments); later uses read it correctly either way.
    const ir::Instr* first = uses[in.dst].front().first;
    const ir::Instr* perm = first->op == ir::Op::Permute ? first : nullptr;
    const size_t operand = perm ? uses[perm->dst].front().second : uses[in.dst].front().second;
    const size_t rank = type(s->reg).shape.size();
    const size_t k_axis_op = operand == 0 ? rank - 1 : rank - 2;
    const int k_axis = perm ? static_cast<int>(perm->dims[k_axis_op]) : static_cast<int>(k_axis_op);
    const bool k_inner = s->inner_axis == k_axis;
    const int64_t elem = byte_size(type(s->reg).dtype);
    const int64_t pad = elem == 4 ? (k_inner ? 4 : 8) : 8;
    s->stride = s->inner + pad;
    s->k_inner = k_inner;
    s->offset = p.stage_bytes;
    p.stage_bytes += (s->outer * s->stride * elem + 15) / 16 * 16;
    skipped_[s->reg] = 1;
    for (int t : transposes) skipped_[t] = 1;
    p.loads.push_back(*s);
  }
}

void Emitter::stage_register_operands(Pipeline& p) {
  const ir::Block& body = *p.loop->body;
  // The dots' other operands are staged from registers, into the stages too.
  for (const ir::Instr& in : body.instrs) {
    if (in.op != ir::Op::Dot || !layouts_[in.dst].mma) continue;
    for (int i = 0; i < 2; ++i) {
      const int x = in.args[static_cast<size_t>(i)];
      bool t = false;
      if (staged_operand_in(p, x, &t) || p.reg_operands.count(x)) continue;
      const ir::Shape& xs = type(x).shape;
      const int64_t rows = xs[xs.size() - 2], cols = xs.back(), elem = byte_size(type(x).dtype);
      // A as [M][K + pad]; B as [K][N + 8] (tf32) or [N][K + 8] (16-bit).
      const int64_t bytes = i == 0 ? rows * (cols + 16 / elem) * elem
                                   : elem == 4 ? rows * (cols + 8) * 4 : cols * (rows + 8) * 2;
      p.reg_operands[x] = p.stage_bytes;
      p.stage_bytes += (bytes + 15) / 16 * 16;
    }
  }
}

int Emitter::choose_wgmma_form(Pipeline& p) {
  // wgmma reads its operands from shared memory in core matrices, not padded rows.
  p.wgmma = opt_.wgmma && wgmma_fits(p);
  int register_read = -1;  // the load a transposed wgmma reads into registers (B)
  if (!p.wgmma && opt_.wgmma) register_read = wgmma_transposed_b(p).value_or(-1);
  // (Its own checks: C^T's n is A's rows, up to 256, where wgmma_fits
  // asks for 16 x warps.)
  if (opt_.wgmma)
    if (std::optional<int> x = wgmma_register_a_operand(p)) {
      p.wgmma = true;
      // C^T = B^T A^T, B^T straight from registers: no stage region for
      // B; every MMA tile in the transposed layout, B's in A's fragments.
      p.wgmma_register_a = *x;
      p.reg_operands.erase(*x);
      for (size_t r = 0; r < layouts_.size(); ++r)
        if (layouts_[r].mma) layouts_[r] = *transposed_mma_layout(type(static_cast<int>(r)).shape, threads_);
      hold_as_wgmma_a(p, *x);
    }
  if (register_read >= 0) {
    p.wgmma = p.wgmma_transposed = true;
    // With groups in flight, B is written K-major into the stage by the
    // threads (StagedLoad::written_transposed), not read into registers.
    if (opt_.wgmma_b_in_stage && opt_.wgmma_in_flight && !opt_.cluster_multicast)
      for (StagedLoad& s : p.loads)
        if (s.reg == register_read && fits_written_transposed(s)) s.written_transposed = true;
    // The result and every tile computed with it hold C^T's accumulator
    // layout from here on (wgmma_transposed_b checked they can).
    for (size_t r = 0; r < layouts_.size(); ++r)
      if (layouts_[r].mma) layouts_[r] = *transposed_mma_layout(type(static_cast<int>(r)).shape, threads_);
  }
  if (p.wgmma) place_wgmma_operands(p, register_read);
  return register_read;
}

void Emitter::plan_reads_ahead(Pipeline& p) {
  const ir::Block& body = *p.loop->body;
  // The body's other loads (E4's packed words, scales, minima) are read
  // one iteration ahead into registers, so their latency overlaps the
  // MMAs too; only when nothing in the body stores (a store could change
  // what the next iteration reads) and their pointers, masks and fill
  // values are index arithmetic of the loop variable.
  bool writes = false;
  ir::for_each_instr(body, [&](const ir::Instr& in, const ir::Block&) {
    writes |= in.op == ir::Op::Store || ir::is_atomic(in.op);
  });
  if (!writes && !opt_.every_load) {
    for (const ir::Instr& in : body.instrs) {
      if (in.op != ir::Op::Load || skipped_[in.dst] || def_count_[in.dst] != 1 || type(in.dst).shape.empty()) continue;
      const std::vector<std::string> probe(type(in.dst).shape.size(), "c");
      AtIteration at(*this, p, "probe");
      if (std::all_of(in.args.begin(), in.args.end(),
                      [&](int a) { return remat(a, type(a).shape.empty() ? std::vector<std::string>{} : probe, 0).has_value(); }))
        p.prefetched.push_back(&in);
    }
  }
  if (!p.prefetched.empty() && opt_.small_loads_in_stage) place_small_loads(p);
}

void Emitter::choose_stages(Pipeline& p) {
  const ir::Block& body = *p.loop->body;
  // Three stages (two iterations in flight) when they fit beside a
  // second block on the SM; else two.
  p.stages = 3 * p.stage_bytes <= 112 * 1024 ? 3 : 2;
  // wgmma keeps one group in flight, which holds a stage of its own:
  // four stages (two iterations of copies ahead) where they fit.
  if (p.wgmma) p.stages = 4 * p.stage_bytes <= 160 * 1024 ? 4 : 3 * p.stage_bytes <= 200 * 1024 ? 3 : 2;
  // A tuner's choice (2 to 4) wins where the stages fit in a block's
  // shared memory beside the other ops' scratch (bounded by run()).
  if (opt_.num_stages >= 2 && opt_.num_stages * p.stage_bytes <= kMaxSharedBytes - 16 * 1024)
    p.stages = opt_.num_stages;
  // A stage's small regions are rewritten two iterations after its own
  // (for the iteration `stages` on): with two stages that is the next
  // iteration, while a thread may still read this one's after its dots.
  if (p.stages < 3) p.small_offsets.clear();
  // Two stages leave no room for a group in flight: wgmma then waits for
  // each group at once.
  // A transposed wgmma's A fragments are registers the next iteration
  // rewrites, which PTX forbids while their group is in flight: each
  // group is waited for. ptxas does not guard them: two register sets
  // alternating by the stage's parity got the same physical registers,
  // reused for the next iteration's arithmetic before the wait (wrong at
  // m64n256). Nor does a real use of each set after its wait (xors in the
  // wait's asm) keep them apart: ptxas loaded both sets into the same
  // registers and copied them aside for the xors (the SASS,
  // bench/sass_fragment_check.py). Register allocation is ptxas's; only
  // the wait is ours.
  // The same holds for B^T's registers fed as A (Pipeline::wgmma_register_a).
  // Written K-major into the stage instead (StagedLoad::written_transposed),
  // B^T is read by descriptor and the groups may stay in flight.
  p.wgmma_async = p.wgmma && (!p.wgmma_transposed || p.written_transposed()) && p.wgmma_register_a < 0 &&
                  opt_.wgmma_in_flight && p.stages >= 3 &&
                  std::all_of(body.instrs.begin(), body.instrs.end(), [&](const ir::Instr& in) {
                    return in.op != ir::Op::Dot || !layouts_[in.dst].mma || wgmma_accumulates_in_place(in, p);
                  });
  p.ahead = p.wgmma_async ? p.stages - 2 : p.stages - 1;
  p.copies_after_dot = p.wgmma_transposed && !p.wgmma_async && p.prefetched.empty();
}

void Emitter::plan_tma(Pipeline& p, int register_read) {
  // TMA (CodegenOptions::tma) where every staged tile wgmma reads from
  // shared memory is a rectangle the TMA unit can copy and its box
  // coordinates are index arithmetic of the loop variable; one mbarrier a
  // stage after the stages. A transposed dot's register-read tile keeps
  // its cp.async copies (its padded rows are what the TMA unit cannot
  // write) unless it went in x's layout (place_wgmma_operands).
  if (p.wgmma && opt_.tma && !opt_.tf32_cut_staged) {
    std::vector<std::optional<TmaMatch>> ms;
    for (const StagedLoad& s : p.loads) {
      if (s.reg == register_read && !s.register_read_by_tma()) {
        ms.push_back(std::nullopt);
        continue;
      }
      std::optional<TmaMatch> m = tma_match(s);
      if (!m) break;
      AtIteration at(*this, p, "probe");
      if (!remat(m->inner_x, {"0"}, 0) || !remat(m->outer_x, {"0"}, 0) || (m->batch_x >= 0 && !remat(m->batch_x, {"0"}, 0)))
        break;
      ms.push_back(*m);
    }
    if (ms.size() == p.loads.size()) {
      p.tma = true;
      for (size_t i = 0; i < ms.size(); ++i) {
        if (!ms[i]) continue;
        p.loads[i].tma = static_cast<int>(tensor_maps_.size());
        p.loads[i].tma_inner_x = ms[i]->inner_x;
        p.loads[i].tma_outer_x = ms[i]->outer_x;
        p.loads[i].tma_batch_x = ms[i]->batch_x;
        tensor_maps_.push_back(ms[i]->spec);
      }
      p.bar_offset = p.stages * p.stage_bytes;
      if (p.wgmma_async && p.prefetched.empty()) {
        p.late_issue = true;
        p.ahead = p.stages - 1;
      }
    }
  }
}

void Emitter::pair_wgmma_dots(Pipeline& p) {
  const ir::Block& body = *p.loop->body;
  // Groups in flight without late_issue (the small loads keep it off):
  // the copies may go after the dots' issue. They fill the stage the
  // groups of two iterations back read, retired by the wait that every
  // thread passed before this iteration's barrier.
  if (p.wgmma_async && !p.late_issue && opt_.wgmma_copies_after_dots) p.copies_after_dot = true;
  if (p.wgmma) {
    std::vector<const ir::Instr*> dots;
    for (const ir::Instr& in : body.instrs)
      if (in.op == ir::Op::Dot && layouts_[in.dst].mma) dots.push_back(&in);
    p.wgmma_dots = static_cast<int>(dots.size());
    // Only with the copies after the wait (TMA pipelines and their
    // cp.async fallback): the form checked on a GPU.
    if (p.late_issue && opt_.wgmma_pair_dots)
      for (size_t i = 0; i + 1 < dots.size(); ++i)
        if (wgmma_pairable(*dots[i], *dots[i + 1], p)) {
          p.wgmma_pairs[dots[i]] = dots[i + 1];
          p.wgmma_pair_seconds.insert(dots[i + 1]);
          ++i;
        }
    p.wgmma_groups = p.wgmma_dots - static_cast<int>(p.wgmma_pairs.size());
  }
}

void Emitter::plan_clusters_and_decoupling() {
  // Clusters: for a kernel of one pipelined loop only, at its top level
  // (multicast_axis), so that both programs of a cluster cross the cluster
  // barrier before and after it together.
  if (opt_.cluster_multicast && pipelines_.size() == 1) {
    Pipeline& p = pipelines_[0];
    p.cluster_axis = multicast_axis(p);
    if (p.cluster_axis >= 0) {
      for (StagedLoad& s : p.loads)
        if (shared_in_cluster(s, p.cluster_axis)) {
          s.multicast = true;
          tensor_maps_[static_cast<size_t>(s.tma)].box_rows = s.outer / 2;
        }
      add_empty_barriers(p, 2);
    }
  }
  // Decoupled warpgroups (CodegenOptions::wgmma_decoupled): the transposed
  // dot waited for at once whose copies go after its commit into the stage
  // the previous iteration read (copies_after_dot without groups in flight:
  // ahead = stages - 1, no other loads read ahead), two or more warpgroups'
  // fragments each 64 rows of B^T, which are their own columns of the
  // cp.async tile (wgmma_tf32_transposed), and nothing else in the stage.
  if (opt_.wgmma_decoupled)
    for (Pipeline& p : pipelines_) {
      const StagedLoad* b = nullptr;
      for (const StagedLoad& s : p.loads)
        if (s.register_read) b = &s;
      if (!p.tma || !p.wgmma_transposed || p.written_transposed() || !p.copies_after_dot || p.wgmma_async ||
          p.cluster_axis >= 0 || !p.reg_written.empty() || p.loads.size() != 2 || !b ||
          (b->tma < 0 && !sixty_four_columns_a_warpgroup(*b)) || threads_ < 256)
        continue;
      p.decoupled = true;
      add_empty_barriers(p, static_cast<int>(threads_ / 32));
    }
}

void Emitter::add_empty_barriers(Pipeline& p, int arrivals) {
  p.empty_arrivals = arrivals;
  p.empty_offset = p.bar_offset + 8 * p.stages;
  pipe_bytes_ = std::max(pipe_bytes_, p.empty_offset + 8 * p.stages);
}

// Pipeline::small_offsets: the prefetched loads' tiles after the stage's
// other regions; a stage that was a whole number of 1024-byte swizzle atoms
// stays one.
void Emitter::place_small_loads(Pipeline& p) const {
  const bool atoms = p.stage_bytes % 1024 == 0;
  for (const ir::Instr* ld : p.prefetched) {
    p.stage_bytes = (p.stage_bytes + 15) / 16 * 16;
    p.small_offsets[ld->dst] = p.stage_bytes;
    p.stage_bytes += ir::numel(type(ld->dst).shape) * byte_size(type(ld->dst).dtype);
  }
  p.stage_bytes = atoms ? (p.stage_bytes + 1023) / 1024 * 1024 : (p.stage_bytes + 15) / 16 * 16;
}

}  // namespace tl::gpu::detail
