// Software pipelining of dot operands (LOWERING §7), the emission of the
// plan codegen_pipeline_plan.cpp makes: each staged vector's copy, the
// wait and barrier that publish an iteration's stage, the copies of the
// iterations ahead (cp.async, or TMA: codegen_tma.cpp), the body's other
// loads read one iteration ahead, and the tf32 cut.
#include <algorithm>

#include "codegen_emitter.h"

namespace tl::gpu::detail {

std::string Emitter::staged_offset(const StagedLoad& s, const std::string& row, const std::string& col) const {
  if (!s.core) return "(" + row + ") * " + std::to_string(s.stride) + " + " + col;
  const int64_t V = 16 / byte_size(type(s.reg).dtype);
  const int64_t atom = 8 * V;  // elements in a 128-byte row
  if (s.swizzle128 && s.inner == atom)  // `col` is a multiple of V: the chunk moves, its lanes stay together
    return "(" + row + ") * " + std::to_string(s.inner) + " + (((" + col + ") / " + std::to_string(V) + ") ^ ((" + row +
           ") & 7)) * " + std::to_string(V);
  if (s.swizzle128)  // 128-byte columns of every row, one atom after another
    return "(" + col + ") / " + std::to_string(atom) + " * " + std::to_string(s.outer * atom) + " + (" + row + ") * " +
           std::to_string(atom) + " + ((((" + col + ") % " + std::to_string(atom) + ") / " + std::to_string(V) + ") ^ ((" +
           row + ") & 7)) * " + std::to_string(V);
  return "((" + row + ") >> 3) * " + std::to_string(s.inner * 8) + " + (" + col + ") / " + std::to_string(V) + " * " +
         std::to_string(8 * V) + " + ((" + row + ") & 7) * " + std::to_string(V);
}

Emitter::Pipeline* Emitter::pipeline_of(const ir::Instr& in) const {
  return active_ && directly_in(*active_->loop->body, &in) ? active_ : nullptr;
}

const Emitter::StagedLoad* Emitter::staged_operand_in(const Pipeline& p, int r, bool* transposed) const {
  *transposed = false;
  int src = r;
  if (def_count_[r] == 1 && def_of_[r] && def_of_[r]->op == ir::Op::Permute) {
    src = def_of_[r]->args[0];
    *transposed = true;
  }
  for (const StagedLoad& s : p.loads)
    if (s.reg == src) return &s;
  *transposed = false;
  return nullptr;
}

void Emitter::for_vectors(int64_t vectors, const std::function<void()>& body, bool rolled, bool by_warpgroup) {
  uses_tid_ = true;
  // by_warpgroup: each warpgroup's 128 threads run the `vectors` of their own.
  const int64_t threads = by_warpgroup ? 128 : threads_;
  const int64_t rounds = (vectors + threads - 1) / threads;
  if (rounds > 1) line(rolled ? "#pragma unroll 1" : "#pragma unroll");
  open(rounds > 1 ? "for (int ts_j = 0; ts_j < " + std::to_string(rounds) + "; ++ts_j)" : "");
  line("const int ts_v = " + std::string(rounds > 1 ? "ts_j * " + std::to_string(threads) + " + " : "") +
       (by_warpgroup ? "(tid & 127);" : "tid;"));
  if (vectors % threads != 0) open("if (ts_v < " + std::to_string(vectors) + ")");
  body();
  if (vectors % threads != 0) close();
  close();
}

void Emitter::publish_stage(Pipeline& p) {
  // This iteration's copies landed (the newest group may still be the next
  // iteration's), are published by the barrier (cut to tf32 first only
  // with CodegenOptions::tf32_cut_staged); then the copies
  // for `ahead` iterations on go to the stage read longest ago, and the
  // body's register loads for the next iteration are issued. With
  // Pipeline::late_issue the copies go out after the iteration's dots
  // instead (issue_after_wait), with copies_after_dot after its commit.
  if (role_ == Role::consumer) return wait_full_stage(p);  // the producer fills the stage (warp specialization)
  const ir::Instr& loop = *p.loop;
  const int ahead = p.ahead;  // iterations in flight
  if (p.small_in_stage()) {
    // The next iteration's values, read last iteration, into its stage:
    // published with this one's by the barrier below.
    const std::string next = "it" + std::to_string(loop.dst) + " + (int64_t)" + name(loop.args[2]);
    open("if (" + loop_runs(loop, next) + ")");
    write_small_loads(p, "(" + p.stage_var + " + 1) % " + std::to_string(p.stages));
    close();
  }
  const std::string cp_async_wait =
      ahead == 1 ? "ts_cp_async_wait_all();" : ahead == 2 ? "ts_cp_async_wait_1();" : "ts_cp_async_wait_2();";
  if (p.tma) {
    // The TMA unit wrote this stage through the async proxy, as wgmma
    // reads it; its mbarrier says when every byte has landed. Tiles it
    // does not copy (a transposed dot's register-read one) are cp.async's.
    open("if (ts_tma_ok)");
    line("ts_mbar_wait(" + barrier_of(p, p.stage_var) + ", (" + p.phase_var + " >> " + p.stage_var + ") & 1u);");
    line(p.phase_var + " ^= 1u << " + p.stage_var + ";");
    if (p.tma_path_copies()) line(cp_async_wait);
    // Operands this iteration wrote into the stage from registers (E4's X),
    // by generic-proxy stores that wgmma reads through the async proxy: the
    // proxy fence before the barrier, as on the cp.async path below. Without
    // it e4_rows' BN 64 x 2 form by TMA computed wrong results at its bench
    // size, different from run to run.
    if (p.wgmma && !p.reg_written.empty()) line("ts_fence_proxy_async();");
    // Decoupled warpgroups: a warpgroup's threads copied the tile its own
    // fragments read; only they wait for each other.
    if (p.decoupled && p.tma_path_copies()) line("ts_warpgroup_sync();");
    open_else();
  }
  line(cp_async_wait);
  if (opt_.tf32_cut_staged) round_staged(p, p.stage_var);
  // cp.async and the stores above wrote through the generic proxy; wgmma
  // reads through the async proxy.
  if (p.wgmma) line("ts_fence_proxy_async();");
  // Only the cp.async copies, each thread's own, need the barrier before the dots.
  if (p.late_issue || p.decoupled) line("__syncthreads();");
  if (p.tma) close();
  p.published = true;
  // A tile written transposed: stored where the groups that read its stage
  // are retired (two iterations back or more), published by the next
  // barrier, before the iteration that reads it.
  if (p.late_issue) return transposed_refill(p);
  if (!p.decoupled) line("__syncthreads();");
  transposed_refill(p);
  if (p.cluster_axis >= 0) {
    // Clusters: every thread of this program is done with the stage the
    // previous iteration read (its groups were waited for at once), which
    // this iteration's copies refill in both programs (issue_tma).
    open("if (ts_tma_ok == 2 && tid == 0 && " + after_first_iteration(p) + ")");
    line("uint64_t* const ts_empty = " + empty_barrier_of(p, "(" + p.stage_var + " + " + std::to_string(p.stages - 1) +
                                                         ") % " + std::to_string(p.stages)) + ";");
    line("ts_mbar_arrive_cluster(ts_empty, 0);");
    line("ts_mbar_arrive_cluster(ts_empty, 1);");
    close();
  }
  // The copies go behind the dots (dot_mma_fragments, wgmma_group_done);
  // the other loads' reads ahead stay here, where their latency has the
  // whole iteration before the next one writes them to its stage (behind
  // the dots, E4 ran slower).
  if (p.copies_after_dot && p.prefetched.empty()) return;
  open("");
  if (!p.copies_after_dot) issue_ahead(p);
  read_ahead(p);
  close();
}

void Emitter::read_ahead(const Pipeline& p) {
  const ir::Instr& loop = *p.loop;
  if (!p.prefetched.empty()) {
    // Already copied out of pf<reg> above, at the loads' own places (or
    // written to the next stage: two iterations ahead then).
    const std::string step = "(int64_t)" + name(loop.args[2]);
    line("const int64_t ts_after = it" + std::to_string(loop.dst) + " + " + (p.small_in_stage() ? "2 * " : "") + step + ";");
    open("if (" + loop_runs(loop, "ts_after") + ")");
    prefetch_loads(p, "(" + reg_type(loop.dst) + ")ts_after");
    close();
  }
}

void Emitter::issue_after_wait(Pipeline& p) {
  // Every warp has retired the previous iteration's groups: its stage is
  // free for the copies of the iteration stages - 1 on (and the stores of
  // a tile written transposed, this iteration's refill, are published).
  line("__syncthreads();");
  open("");
  issue_ahead(p);
  close();
}

void Emitter::issue_ahead(const Pipeline& p) {
  const ir::Instr& loop = *p.loop;
  const std::string step = "(int64_t)" + name(loop.args[2]);
  line("const int64_t ts_next = it" + std::to_string(loop.dst) + " + " + std::to_string(p.ahead) + " * " + step + ";");
  open("if (" + loop_runs(loop, "ts_next") + ")");
  issue_copies(p, "(" + reg_type(loop.dst) + ")ts_next",
               "(" + p.stage_var + " + " + std::to_string(p.ahead) + ") % " + std::to_string(p.stages), false,
               /*refill=*/true);
  close();
  line("ts_cp_async_commit();");
}

void Emitter::issue_copies(const Pipeline& p, const std::string& value, const std::string& stage, bool rolled,
                           bool refill, CopyPath path) {
  AtIteration at(*this, p, value);
  // The stage's address once for all of this thread's vectors (the callers
  // open a block for each batch of copies).
  line("unsigned char* const ts_stage = ts_smem + ts_pipe + (" + stage + ") * " + std::to_string(p.stage_bytes) + ";");
  // by_warpgroup (Pipeline::decoupled, TMA path): each warpgroup copies
  // its own columns, those its fragments read.
  auto cp_async = [&](bool all, bool rolled_loops, bool by_warpgroup) {
    for (const StagedLoad& s : p.loads) {
      if ((!all && s.tma >= 0) || s.written_transposed) continue;
      if (opt_.comments) line("// cp.async %" + std::to_string(s.reg) + ": " + type(s.reg).str() + ", 16 bytes per copy");
      const int64_t per_row = s.inner / (16 / byte_size(type(s.reg).dtype));
      if (by_warpgroup) {  // whole warpgroups (Pipeline::decoupled)
        const int64_t columns = per_row / (threads_ / 128);
        for_vectors(columns * s.outer, [&] { copy_vector(s, columns); }, rolled_loops, true);
      } else {
        for_vectors(per_row * s.outer, [&] { copy_vector(s); }, rolled_loops);
      }
    }
  };
  auto by_tma = [&] {
    issue_tma(p, stage, refill);
    cp_async(false, rolled, p.decoupled);  // the tiles the TMA unit does not copy
  };
  if (!p.tma || path == CopyPath::CpAsync) {
    cp_async(true, rolled, false);
  } else if (path == CopyPath::Tma) {
    by_tma();
  } else {
    open("if (ts_tma_ok)");
    by_tma();
    open_else();
    // The fallback, for launches whose tensors the TMA unit cannot describe:
    // only the kernel's cp.async form runs it (TS_TMA_PATH 0; the TMA form's
    // NVVM drops it). In rolled loops where the TMA path has cp.async copies
    // of its own (p11's y), which was a quarter of p11's NVRTC time while
    // both paths were in one kernel; unrolled elsewhere (E1), as rolled it
    // slowed E1 down (docs/gpu.md).
    cp_async(true, rolled || p.tma_path_copies(), false);
    close();
  }
  // A tile written transposed, on either path: the iteration's refill
  // (transposed_refill) copies it, not the copies ahead.
  if (p.written_transposed() && !refill) transposed_prologue(p, stage);
}

Emitter::VectorRead Emitter::vector_read(const StagedLoad& s) {
  const ir::Instr& ld = *s.load;
  const DType d = type(s.reg).dtype;
  const int64_t V = 16 / byte_size(d);
  const ir::Shape& shape = type(s.reg).shape;
  auto coords_at = [&](const std::string& inner) {
    std::vector<std::string> c(shape.size(), "0");
    c[static_cast<size_t>(s.inner_axis)] = inner;
    if (s.outer_axis >= 0) c[static_cast<size_t>(s.outer_axis)] = "ts_o";
    return c;
  };
  auto coords = [&](int64_t lane) { return coords_at(lane ? "(ts_i + " + std::to_string(lane) + ")" : "ts_i"); };
  line("const " + cuda_memory_type(d) + "* ts_src = " + *remat(ld.args[0], coords(0), 0) + ";");
  VectorRead r{"true", "false", ""};
  if (ld.has_mask) {
    // Where the mask's true lanes are known to form a prefix, a suffix or
    // an interval of the vector, its end lanes decide: all lanes hold
    // when both ends do, and a prefix (suffix) is empty when its first
    // (last) lane is off. Otherwise every lane is tested.
    const Lanes shape_of = mask_lanes(ld.args[1], s.inner_axis);
    std::vector<int64_t> tested;
    if (shape_of == Lanes::Same) tested = {0};
    else if (shape_of == Lanes::Unknown) for (int64_t lane = 0; lane < V; ++lane) tested.push_back(lane);
    else tested = {0, V - 1};
    auto m = [](int64_t lane) { return "ts_m" + std::to_string(lane); };
    std::string all, none;
    for (int64_t lane : tested) {
      line("const bool " + m(lane) + " = " + *remat(ld.args[1], coords(lane), 0) + ";");
      all += (all.empty() ? "" : " && ") + m(lane);
      none += (none.empty() ? "" : " || ") + m(lane);
    }
    if (shape_of == Lanes::Prefix) none = m(0);
    if (shape_of == Lanes::Suffix) none = m(V - 1);
    // An interval's ends may both be off with lanes between them on: no
    // shortcut to zeros, the element-by-element copy reads what is on.
    line("const bool ts_all = " + all + ", ts_none = " + (shape_of == Lanes::Interval ? "false" : "!(" + none + ")") +
         ";");
    r.all = "ts_all";
    r.none = "ts_none";
  }
  const std::vector<std::string> at_e = coords_at("(ts_i + ts_e)");
  r.element = "*(" + *remat(ld.args[0], at_e, 0) + ")";
  if (ld.has_mask)
    r.element = "(" + *remat(ld.args[1], at_e, 0) + ") ? " + r.element + " : " + constant_literal(d, 0, 0.0);
  return r;
}

void Emitter::copy_vector(const StagedLoad& s, int64_t warpgroup_columns) {
  const DType d = type(s.reg).dtype;
  const int64_t V = 16 / byte_size(d), per_row = s.inner / V;
  const std::string t = cuda_memory_type(d);
  if (warpgroup_columns > 0) {
    const std::string c = std::to_string(warpgroup_columns);
    line("const int ts_o = ts_v / " + c + ", ts_i = ((tid >> 7) * " + c + " + ts_v % " + c + ") * " + std::to_string(V) +
         ";");
  } else {
    line("const int ts_o = ts_v / " + std::to_string(per_row) + ", ts_i = ts_v % " + std::to_string(per_row) + " * " +
         std::to_string(V) + ";");
  }
  line(t + "* ts_dst = reinterpret_cast<" + t + "*>(ts_stage + " + std::to_string(s.offset) + ") + " +
       staged_offset(s, "ts_o", "ts_i") + ";");
  const VectorRead r = vector_read(s);
  open("if (" + r.all + " && ((uint64_t)ts_src & 15) == 0)");
  line("ts_cp_async16(ts_dst, ts_src, 16);");
  if (s.load->has_mask) {
    // Every lane masked off: zeros, and the pointer is never handed to
    // the memory system (a tail's pointers may lie outside any buffer).
    --indent_;
    line("} else if (" + r.none + ") {");
    ++indent_;
    line("*reinterpret_cast<ts_u4*>(ts_dst) = ts_u4{0u, 0u, 0u, 0u};");
  }
  open_else();
  // Mixed masks or a misaligned vector: element by element, in a loop kept
  // rolled. Only tails and misaligned rows come here, and unrolled it was
  // most of a staged kernel's code (V guarded loads per vector), which
  // NVRTC's time grows with.
  line("#pragma unroll 1");
  open("for (int ts_e = 0; ts_e < " + std::to_string(V) + "; ++ts_e)");
  line("ts_dst[ts_e] = " + r.element + ";");
  close();
  close();
}

void Emitter::write_small_loads(const Pipeline& p, const std::string& stage) {
  for (const ir::Instr* ld : p.prefetched) {
    const int r = ld->dst;
    const TileLayout l = layouts_[r];
    const std::string t = cuda_register_type(type(r).dtype);
    line(t + "* const ts_small" + std::to_string(r) + " = reinterpret_cast<" + t + "*>(ts_smem + ts_pipe + (" + stage +
         ") * " + std::to_string(p.stage_bytes) + " + " + std::to_string(p.small_offsets.at(r)) + ");");
    const std::string guard = l.scalar ? "tid == 0" : owner_guard(l);  // each element written once
    uses_tid_ = true;
    if (!guard.empty()) open("if (" + guard + ")");
    // Held widened (pf_wide_): the 16 bits back as the value.
    auto value = [&](const std::string& s) {
      const std::string v = "pf" + std::to_string(r) + "[" + s + "]";
      if (!pf_wide_ || !is_half(type(r).dtype)) return v;
      return half_from_bits_call(type(r).dtype) + v + ")";
    };
    if (l.scalar)
      line("ts_small" + std::to_string(r) + "[0] = " + value("0") + ";");
    else
      for_slots(l.slots, [&](const std::string& s) {
        line("ts_small" + std::to_string(r) + "[" + element(l, s) + "] = " + value(s) + ";");
      });
    if (!guard.empty()) close();
  }
}

std::string Emitter::small_load_at(const Pipeline& p, int reg, const std::string& flat_index) const {
  const std::string t = cuda_register_type(type(reg).dtype);
  return "reinterpret_cast<const " + t + "*>(ts_smem + ts_pipe + " + p.stage_var + " * " + std::to_string(p.stage_bytes) +
         " + " + std::to_string(p.small_offsets.at(reg)) + ")[" + flat_index + "]";
}

void Emitter::prefetch_loads(const Pipeline& p, const std::string& value, const std::string& suffix) {
  AtIteration at(*this, p, value);
  for (const ir::Instr* ld : p.prefetched) {
    const int r = ld->dst;
    const ir::Shape& shape = type(r).shape;
    const TileLayout l = layouts_[r];
    const DType d = type(r).dtype;
    const int mask = ld->has_mask ? ld->args[1] : -1, other = ld->has_other ? ld->args[ld->has_mask ? 2 : 1] : -1;
    for_slots(l.slots, [&](const std::string& slot) {
      const std::vector<std::string> c = element_coordinates(l, shape, slot);
      auto value_of = [&](int a) { return *remat(a, type(a).shape.empty() ? std::vector<std::string>{} : c, 0); };
      const std::string ptr = value_of(ld->args[0]);
      // pf_wide_: a 16-bit value's bits in a 32-bit register of their own.
      const bool wide = pf_wide_ && is_half(d);
      std::string read = wide ? "ts_load_bits16(" + ptr + ")" : "*(" + ptr + ")";
      if (d == DType::i1) read = "(" + read + " != 0)";
      if (mask >= 0) {
        const std::string fill = other >= 0 ? value_of(other) : constant_literal(d, 0, 0.0);
        read = "(" + value_of(mask) + ") ? " + read + " : " + (wide ? "(uint32_t)" + half_as_bits_call(d) + fill + ")" : fill);
      }
      line("pf" + std::to_string(r) + suffix + "[" + slot + "] = " + read + ";");
      // The line stays warm for the reloads even where the read is dead
      // (ts_prefetch_l1); through the stages, nothing reloads.
      if (!p.small_in_stage())
        line((mask >= 0 ? "if (" + value_of(mask) + ") " : std::string()) + "ts_prefetch_l1(" + ptr + ");");
    });
  }
}

void Emitter::round_staged(const Pipeline& p, const std::string& stage) {
  // CodegenOptions::tf32_cut_staged: f32 operands of tf32 dots land raw;
  // each thread cuts the vectors it copied itself to tf32 (ts_tf32's rule)
  // before the barrier publishes them, once per element rather than once
  // per warp that reads it.
  for (const StagedLoad& s : p.loads) {
    if (type(s.reg).dtype != DType::f32) continue;
    const int64_t per_row = s.inner / 4;
    for_vectors(per_row * s.outer, [&] {
      line("ts_u4* ts_w = reinterpret_cast<ts_u4*>(reinterpret_cast<float*>(ts_smem + ts_pipe + (" + stage + ") * " +
           std::to_string(p.stage_bytes) + " + " + std::to_string(s.offset) + ") + " +
           staged_offset(s, "ts_v / " + std::to_string(per_row), "ts_v % " + std::to_string(per_row) + " * 4") + ");");
      line("ts_u4 ts_x = *ts_w;");
      line("ts_x.x = ts_tf32_word(ts_x.x); ts_x.y = ts_tf32_word(ts_x.y); ts_x.z = ts_tf32_word(ts_x.z); ts_x.w = ts_tf32_word(ts_x.w);");
      line("*ts_w = ts_x;");
    });
  }
}

std::string Emitter::after_first_iteration(const Pipeline& p) const {
  return "it" + std::to_string(p.loop->dst) + " != (int64_t)" + name(p.loop->args[0]);
}

std::string Emitter::loop_runs(const ir::Instr& loop, const std::string& value) const {
  // Python range semantics, negative steps included (as the loop header).
  const std::string hi = "(int64_t)" + name(loop.args[1]), step = "(int64_t)" + name(loop.args[2]);
  return "(" + step + " > 0 && " + value + " < " + hi + ") || (" + step + " < 0 && " + value + " > " + hi + ")";
}

}  // namespace tl::gpu::detail
