// wgmma's side of pipeline planning (codegen_pipeline_plan.cpp): which
// dots of a pipelined loop take wgmma (as they are, or as C^T = B^T A^T),
// where their operands sit in a stage, which dots pair into one wgmma, and
// which accumulate in place so their groups may stay in flight.
#include <algorithm>
#include <set>

#include "codegen_emitter.h"

namespace tl::gpu::detail {

// Where a wgmma pipeline's operands sit in a stage: staged tiles as core
// matrices or 128-byte swizzled rows (a transposed dot's register-read tile
// in x's layout or padded rows), then the operands written from registers.
void Emitter::place_wgmma_operands(Pipeline& p, int register_read) {
  auto register_read_tile = [&](const StagedLoad& s) { return s.reg == register_read && !s.written_transposed; };
  for (StagedLoad& s : p.loads) {
    s.register_read = register_read_tile(s);
    if (s.register_read) continue;
    s.core = true;
    // Written transposed: y^T's rows of 32 k, 128 bytes (fits_written_transposed).
    const int64_t row_bytes = s.written_transposed ? 128 : s.inner * byte_size(type(s.reg).dtype);
    const bool half = byte_size(type(s.reg).dtype) == 2;
    // Rows longer than 128 bytes go in 128-byte columns side by side
    // (staged_offset): an M- or N-major 16-bit operand, or a tf32 one's
    // K-major rows of BK 64 and up (a k8 step past the first column
    // continues in the next one: tf32_k_offset).
    s.swizzle128 = row_bytes == 128 || (row_bytes % 128 == 0 && (half ? !s.k_inner : s.k_inner));
  }
  // The register-read tile in x's layout only where the TMA unit copies
  // the pipeline's other tiles too (plan_pipelines takes TMA for all or
  // none): copied by cp.async, its padded rows keep the fragment reads
  // free of bank conflicts.
  const bool others_tma = std::all_of(p.loads.begin(), p.loads.end(), [&](const StagedLoad& s) {
    return register_read_tile(s) || tma_match(s).has_value();
  });
  p.stage_bytes = 0;
  bool any_swizzle = false;
  for (StagedLoad& s : p.loads) {
    if (register_read_tile(s) && others_tma && fits_b_by_tma(s)) {
      s.core = s.swizzle128 = true;
    } else if (register_read_tile(s)) {
      s.offset = p.stage_bytes;
      p.stage_bytes += (s.outer * s.stride * byte_size(type(s.reg).dtype) + 15) / 16 * 16;
      continue;
    }
    any_swizzle |= s.swizzle128;
    if (s.swizzle128) p.stage_bytes = (p.stage_bytes + 1023) / 1024 * 1024;  // the swizzle repeats every 1024 bytes
    s.offset = p.stage_bytes;
    p.stage_bytes += s.outer * s.inner * byte_size(type(s.reg).dtype);
  }
  // Operands from registers (16-bit only, wgmma_fits): K-major core
  // matrices, which a thread holding a whole column fills with one
  // 16-byte store per 8 values along k (wgmma_from_registers). A B whose
  // lanes hold neighbouring columns goes N-major instead, in swizzled
  // columns of 64, where a warp's 2-byte stores of one k row are 64
  // contiguous bytes (core matrices put them 16 bytes apart: 4-way bank
  // conflicts).
  for (auto& [x, offset] : p.reg_operands) {
    const ir::Shape& xs = type(x).shape;
    bool only_b = true;
    for (const ir::Instr& in : p.loop->body->instrs)
      if (in.op == ir::Op::Dot && in.args[0] == x) only_b = false;
    if (only_b && xs.back() % 64 == 0 && !one_column_a_thread(x)) {
      p.reg_n_major.insert(x);
      vectorize_register_operand(p, x);
      p.stage_bytes = (p.stage_bytes + 1023) / 1024 * 1024;
      any_swizzle = true;
    }
    offset = p.stage_bytes;
    p.stage_bytes += xs[xs.size() - 2] * xs.back() * byte_size(type(x).dtype);
  }
  if (any_swizzle) p.stage_bytes = (p.stage_bytes + 1023) / 1024 * 1024;
  swizzled_stages_ |= any_swizzle;
}

// A B operand written N-major from registers (reg_n_major) in the striped
// layout has a warp's lanes on neighbouring columns: one 2-byte store a
// value, and whatever the values are computed from read once a value (E4:
// the packed word, scale and minimum of every value's row, from the stage).
// Held in runs of 16 bytes along its rows instead (TileLayout::vec), a
// thread writes its 8 neighbours with one store, and reads each word they
// share once (the runs' reads are the same address, which NVVM merges).
// The runs go back through the body's elementwise ops, casts and reshapes
// that compute the operand, so none of them converts between layouts; a
// broadcast takes them but not its source (it reads the source at any
// layout's elements), nor does index arithmetic (recomputed where used).
void Emitter::vectorize_register_operand(const Pipeline& p, int x) {
  const int64_t V = 16 / byte_size(type(x).dtype);
  const TileLayout& lx = layouts_[x];
  const ir::Shape& xs = type(x).shape;
  if (!opt_.register_operand_runs || lx.mma || lx.scalar || lx.vec != 1 || lx.n % (threads_ * V) != 0 || xs.back() % V != 0) return;
  // Defined once, by an op of the body itself.
  auto joins = [&](int r) {
    if (def_count_[r] != 1 || !directly_in(*p.loop->body, def_of_[r]) || type(r).is_ptr || type(r).shape.empty())
      return false;
    const TileLayout& l = layouts_[r];
    if (l.mma || l.vec != 1 || l.n != lx.n || index_arithmetic(r)) return false;
    const ir::Op op = def_of_[r]->op;
    return is_elementwise(op) || op == ir::Op::Reshape || op == ir::Op::Broadcast;
  };
  if (!joins(x)) return;
  const std::optional<std::set<int>> run = computed_from(
      x, [&](int a) { return joins(a) ? Reach::join : Reach::skip; }, [](ir::Op op) { return op != ir::Op::Broadcast; });
  for (int r : *run) layouts_[r].vec = V;
}

bool Emitter::wgmma_reads_staged(const StagedLoad& sl, int x, bool transposed, size_t k_axis, bool tf32) const {
  if (sl.outer % 8 != 0) return false;
  const int k_in_load = transposed ? static_cast<int>(def_of_[x]->dims[k_axis]) : static_cast<int>(k_axis);
  // The instruction's transpose bits serve 16-bit operands only.
  if (tf32) return sl.inner_axis == k_in_load;
  return (sl.inner_axis == k_in_load) == sl.k_inner && (sl.k_inner || sl.inner % 8 == 0);
}

bool Emitter::wgmma_fits(const Pipeline& p) const {
  bool any = false;
  for (const ir::Instr& in : p.loop->body->instrs) {
    if (in.op != ir::Op::Dot || !layouts_[in.dst].mma) continue;
    any = true;
    const ir::Shape& as = type(in.args[0]).shape;
    const DType d = type(in.args[0]).dtype;
    const bool tf32 = d == DType::f32 && in.precision == ir::Precision::tf32;
    const bool half = d == DType::bf16 || d == DType::f16;
    if (as.size() != 2 || !(tf32 || half)) return false;
    const TileLayout& l = layouts_[in.dst];
    const int64_t N = type(in.dst).shape.back(), K = as.back();
    if (l.wm != threads_ / 32 || l.wn != 1 || l.tm != 1 || N % 8 != 0 || N > 256) return false;
    if (half && K % 16 != 0) return false;
    for (size_t i = 0; i < 2; ++i) {
      const int x = in.args[i];
      if (p.reg_operands.count(x)) {
        // From registers into K-major core matrices: 16-bit only (a tf32
        // operand's writers would round it; none is needed so far).
        if (!half || type(x).shape[0] % 8 != 0 || type(x).shape[1] % 8 != 0) return false;
        continue;
      }
      bool transposed = false;
      const StagedLoad* sl = staged_operand_in(p, x, &transposed);
      if (!sl || !wgmma_reads_staged(*sl, x, transposed, i == 0 ? 1 : 0, tf32)) return false;
    }
  }
  return any;
}

std::optional<int> Emitter::wgmma_transposed_b(const Pipeline& p) const {
  if (!p.reg_operands.empty() || p.loads.size() != 2) return std::nullopt;
  // The kernel's only tensor-core dot, directly in this loop: the layout of
  // every tile in the MMA layout changes with it.
  const ir::Instr* dot = nullptr;
  int dots = 0;
  ir::for_each_instr(k_.body, [&](const ir::Instr& in, const ir::Block&) {
    if (in.op == ir::Op::Dot && layouts_[in.dst].mma) {
      ++dots;
      dot = &in;
    }
  });
  if (dots != 1 || !directly_in(*p.loop->body, dot)) return std::nullopt;
  const ir::Shape& as = type(dot->args[0]).shape;
  const size_t rank = as.size();
  if (type(dot->args[0]).dtype != DType::f32 || dot->precision != ir::Precision::tf32) return std::nullopt;
  const int64_t M = as[rank - 2];
  if (M % 8 != 0 || M > 256) return std::nullopt;  // wgmma's n
  const StagedLoad* staged[2] = {nullptr, nullptr};
  for (size_t i = 0; i < 2; ++i) {
    bool transposed = false;
    staged[i] = staged_operand_in(p, dot->args[i], &transposed);
    if (!staged[i] || transposed) return std::nullopt;
    const int k_axis = static_cast<int>(i == 0 ? rank - 1 : rank - 2);
    // A K-major (wgmma's B, by descriptor); B with n along its rows (read
    // into registers from rows padded by 8 floats: conflict-free).
    if ((staged[i]->inner_axis == k_axis) != (i == 0)) return std::nullopt;
  }
  if (staged[0] == staged[1] || staged[0]->outer % 8 != 0 || staged[1]->stride != staged[1]->inner + 8) return std::nullopt;
  for (size_t r = 0; r < layouts_.size(); ++r)
    if (layouts_[r].mma && !transposed_mma_layout(type(static_cast<int>(r)).shape, threads_)) return std::nullopt;
  return staged[1]->reg;
}

std::optional<int> Emitter::wgmma_register_a_operand(const Pipeline& p) const {
  if (!opt_.wgmma_register_a || p.reg_operands.size() != 1 || threads_ % 128 != 0) return std::nullopt;
  const int x = p.reg_operands.begin()->first;
  const ir::Shape& xs = type(x).shape;
  if (!is_half(type(x).dtype) || xs.size() != 2 || xs[0] % 16 != 0 || def_count_[x] != 1 || !def_of_[x] ||
      !directly_in(*p.loop->body, def_of_[x]))
    return std::nullopt;
  // Every tensor-core dot of the kernel is one of this loop's, with x as
  // its B and a staged A of at most 256 rows (wgmma's n); x has no other use.
  bool ok = true;
  int dots = 0;
  ir::for_each_instr(k_.body, [&](const ir::Instr& in, const ir::Block&) {
    for (size_t i = 0; i < in.args.size(); ++i)
      if (in.args[i] == x && !(in.op == ir::Op::Dot && i == 1 && layouts_[in.dst].mma)) ok = false;
    if (in.op != ir::Op::Dot || !layouts_[in.dst].mma) return;
    ++dots;
    bool t = false;
    const ir::Shape& as = type(in.args[0]).shape;
    const StagedLoad* a = staged_operand_in(p, in.args[0], &t);
    // A's staged tile is wgmma's B, by descriptor as it was staged.
    if (in.args[1] != x || !directly_in(*p.loop->body, &in) || !a || as.size() != 2 || as[0] % 8 != 0 || as[0] > 256 ||
        !wgmma_reads_staged(*a, in.args[0], t, 1, false))
      ok = false;
  });
  if (!ok || dots == 0 || !transposed_mma_layout(xs, threads_)) return std::nullopt;
  for (size_t r = 0; r < layouts_.size(); ++r)
    if (layouts_[r].mma && !transposed_mma_layout(type(static_cast<int>(r)).shape, threads_)) return std::nullopt;
  return x;
}

void Emitter::hold_as_wgmma_a(const Pipeline& p, int x) {
  const TileLayout l = *transposed_mma_layout(type(x).shape, threads_);
  auto joins = [&](int r) {
    if (def_count_[r] != 1 || !def_of_[r] || !directly_in(*p.loop->body, def_of_[r]) || type(r).is_ptr ||
        type(r).shape != type(x).shape || index_arithmetic(r))
      return false;
    const ir::Op op = def_of_[r]->op;
    return is_elementwise(op) || op == ir::Op::Reshape || op == ir::Op::Broadcast;
  };
  // A move reads its source at the layout's elements (remat, or through
  // shared memory); the source keeps its own layout.
  const std::optional<std::set<int>> held = computed_from(
      x, [&](int a) { return joins(a) ? Reach::join : Reach::skip; },
      [](ir::Op op) { return op != ir::Op::Broadcast && op != ir::Op::Reshape; });
  for (int r : *held) layouts_[r] = l;
}

bool Emitter::wgmma_pairable(const ir::Instr& x, const ir::Instr& y, const Pipeline& p) const {
  if (x.args[0] != y.args[0] || !(layouts_[x.dst] == layouts_[y.dst])) return false;
  if (type(x.args[0]).dtype != DType::f32) return false;  // the fused helpers are tf32's
  bool xt = false, yt = false, at = false;
  const StagedLoad* a = staged_operand_in(p, x.args[0], &at);
  const StagedLoad* bx = staged_operand_in(p, x.args[1], &xt);
  const StagedLoad* by = staged_operand_in(p, y.args[1], &yt);
  if (!a || !bx || !by || xt || yt || bx == by) return false;
  if (bx->swizzle128 != a->swizzle128 || by->swizzle128 != a->swizzle128 || !a->swizzle128) return false;
  // One K-major operand of 2 N rows: y's rows right after x's.
  const int64_t elem = byte_size(type(bx->reg).dtype);
  if (bx->inner != by->inner || bx->outer != by->outer || by->offset != bx->offset + bx->outer * bx->inner * elem)
    return false;
  const int64_t N = type(x.dst).shape.back();
  return N == type(y.dst).shape.back() && 2 * N <= 256;
}

bool Emitter::wgmma_accumulates_in_place(const ir::Instr& in, const Pipeline& p) const {
  if (!in.has_acc) return false;
  const int acc = in.args[2], dst = in.dst;
  if (type(acc).dtype != DType::f32 || layouts_[acc].slots != layouts_[dst].slots || layouts_[acc].scalar) return false;
  bool ok = true;
  // The result goes nowhere but back into the accumulator...
  ir::for_each_instr(k_.body, [&](const ir::Instr& u, const ir::Block&) {
    for (int a : u.args)
      if (a == dst && !(u.op == ir::Op::Copy && u.dst == acc)) ok = false;
  });
  // ...which nothing else in the loop reads.
  ir::for_each_instr(*p.loop->body, [&](const ir::Instr& u, const ir::Block&) {
    for (int a : u.args)
      if (a == acc && &u != &in) ok = false;
  });
  return ok;
}

}  // namespace tl::gpu::detail
