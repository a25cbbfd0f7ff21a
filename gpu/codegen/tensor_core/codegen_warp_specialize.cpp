// Warp specialization (CodegenOptions::warp_specialize). A
// pipelined wgmma loop whose dot operand is computed in registers (E4's
// dequantized X) runs as two roles instead of every thread doing both
// between block barriers:
//
//   producer warpgroup (threads num_warps * 32 .. + 127, its own layouts):
//     waits for stage s's small loads (its own threads wrote them
//     small_ahead iterations before, from registers loaded two iterations
//     before that), computes the operand, waits for s to be handed back,
//     writes the operand into it, fences it for the async proxy and
//     arrives on s's full barrier; then writes a later stage's small loads
//     and arrives on that stage's small-loads barrier. No warpgroup
//     barrier: a warp waits only for data it reads.
//   consumer warps (threads 0 .. num_warps * 32 - 1, the kernel's layouts):
//     wait for s's full barrier, issue their wgmma groups, wait for the
//     previous iteration's and hand that stage back on its empty barrier;
//     their thread 0 then refills it by TMA, stages - 1 iterations ahead.
//     They run everything after the loop, while the producer exits.
//
// The producer holds no accumulator. Launches without tensor maps take the
// loop's plain cp.async form in the consumers (for_loop with the roles off).
#include "codegen_emitter.h"

namespace tl::gpu::detail {

namespace {

// Ops that read no memory and need no block barrier or scratch whatever
// the layouts: before the loop the producer threads compute them too (in
// the consumers' layouts, at thread indices past them), and the producer
// computes those it needs again in its own.
bool register_only(ir::Op op) {
  using ir::Op;
  switch (op) {
    case Op::PtrParam: case Op::ScalarParam: case Op::Const: case Op::Arange: case Op::ProgramId:
    case Op::NumPrograms:
      return true;
    default: return ir::is_unary(op) || ir::is_binary(op) || op == Op::Where || op == Op::Fma;
  }
}

}  // namespace

void Emitter::plan_warp_specialization() {
  if (!opt_.warp_specialize || pipelines_.size() != 1) return;
  Pipeline& p = pipelines_[0];
  const ir::Instr& loop = *p.loop;
  const ir::Block& body = *loop.body;
  if (!p.tma || !p.wgmma || !p.wgmma_async || p.wgmma_transposed || p.wgmma_register_a >= 0 || p.decoupled ||
      p.cluster_axis >= 0 || p.reg_operands.empty() || p.tma_path_copies() || p.written_transposed() ||
      threads_ % 128 != 0 || p.prefetched.size() != p.small_offsets.size())
    return;
  // The loop at the kernel's top level, after ops that only compute in
  // registers (broadcasts and reshapes of 0-d values included): the
  // producer threads run them too before they split off.
  bool found = false;
  for (const ir::Instr& in : k_.body.instrs) {
    if (&in == &loop) {
      found = true;
      break;
    }
    const bool spread = (in.op == ir::Op::Broadcast || in.op == ir::Op::Reshape) && type(in.args[0]).shape.empty();
    if (!register_only(in.op) && !spread) return;
  }
  if (!found) return;
  const size_t n = k_.regs.size();
  // The producer's ops: those of the body the registers' operands are
  // computed from (the staged tiles are the TMA unit's), each defined once.
  std::vector<char> producer(n, 0);
  std::vector<int> work;
  for (const auto& [x, offset] : p.reg_operands) work.push_back(x);
  while (!work.empty()) {
    const int r = work.back();
    work.pop_back();
    if (!p.in_body[r] || producer[r] || skipped_[r]) continue;
    if (def_count_[r] != 1 || !def_of_[r] || !directly_in(body, def_of_[r])) return;
    const ir::Op op = def_of_[r]->op;
    if (!register_only(op) && op != ir::Op::Load && op != ir::Op::Broadcast && op != ir::Op::Reshape &&
        op != ir::Op::Permute)
      return;
    producer[r] = 1;
    for (int a : def_of_[r]->args) work.push_back(a);
  }
  // What comes from the producer's loads: only the operands may need it
  // (the dots read them from the stage), never a consumer's op.
  std::vector<char> from_loads(n, 0);
  for (const ir::Instr& in : body.instrs) {
    if (in.op == ir::Op::For || in.op == ir::Op::If || in.op == ir::Op::While) return;
    bool from = in.op == ir::Op::Load && in.dst >= 0 && !skipped_[in.dst];
    for (size_t i = 0; i < in.args.size(); ++i) {
      if (!from_loads[in.args[i]]) continue;
      if (in.op == ir::Op::Dot && i < 2 && p.reg_operands.count(in.args[i])) continue;  // read from the stage
      from = true;
    }
    if (!from) continue;
    if (in.dst < 0 || !producer[in.dst]) return;  // a value of those loads the consumers would need
    from_loads[in.dst] = 1;
  }
  // The consumers' ops: what the dots, the loop-carried values and anything
  // used after the loop are computed from, back to the staged tiles and the
  // operands the dots read from the stage (the rest of the body would be
  // dead code in their loop: NVRTC's time).
  std::vector<char> used_outside(n, 0), consumer(n, 0);
  ir::for_each_instr(k_.body, [&](const ir::Instr& in, const ir::Block&) {
    if (directly_in(body, &in)) return;
    for (int a : in.args) used_outside[a] = 1;
  });
  work.clear();
  for (const ir::Instr& in : body.instrs) {
    if (in.dst < 0) continue;
    // (A loop-carried register is defined before the loop too: def_count 2.)
    if (in.op == ir::Op::Dot || def_count_[in.dst] != 1 || used_outside[in.dst]) work.push_back(in.dst);
  }
  while (!work.empty()) {
    const int r = work.back();
    work.pop_back();
    if (consumer[r] || !p.in_body[r] || skipped_[r]) continue;
    consumer[r] = 1;
    if (from_loads[r]) return;  // the consumers would need a value of the producer's loads
    const ir::Instr* d = def_of_[r];
    for (size_t i = 0; d && i < d->args.size(); ++i)
      if (!(d->op == ir::Op::Dot && i < 2 && p.reg_operands.count(d->args[i]))) work.push_back(d->args[i]);
  }
  // Two producer warpgroups start every thread at 128 registers (512
  // threads), and ptxas checks each instruction against that count, not the
  // consumers' setmaxnreg: a wgmma of N 256 (128 accumulator registers in
  // one instruction) did not compile. Such a loop keeps one producer
  // warpgroup.
  producer_warpgroups_ = opt_.producer_warpgroups;
  for (const ir::Instr& in : body.instrs)
    if (in.op == ir::Op::Dot && type(in.dst).shape.back() > 128) producer_warpgroups_ = 1;
  p.specialized = true;
  p.producer = std::move(producer);
  p.consumer = std::move(consumer);
  // A stage's small loads are written while the producer's threads may
  // still read the one `small_ahead` iterations back: at most half the
  // stages ahead, so that the readers of the stage written (stages -
  // small_ahead iterations back) are all behind the barrier each writer
  // waited for this iteration (small_ahead iterations back).
  p.small_ahead = p.stages / 2;
  add_empty_barriers(p, static_cast<int>(threads_ / 32));
  p.small_offset = p.empty_offset + 8 * p.stages;
  pipe_bytes_ = std::max(pipe_bytes_, p.small_offset + 8 * p.stages);
  specialized_any_ = true;
}

std::string Emitter::small_barrier_of(const Pipeline& p, const std::string& stage) const {
  return "reinterpret_cast<uint64_t*>(ts_smem + ts_pipe + " + std::to_string(p.small_offset) + ") + (" + stage + ")";
}

bool Emitter::in_role(const ir::Instr& in) const {
  if (role_ == Role::all || !active_ || !directly_in(*active_->loop->body, &in)) return true;
  if (role_ == Role::producer) return in.dst >= 0 && active_->producer[in.dst];
  return in.dst >= 0 && active_->consumer[in.dst];
}

void Emitter::specialized_loop(const ir::Instr& in, Pipeline& p) {
  used_pipeline_ = true;
  uses_tid_ = true;
  const std::string T = std::to_string(threads_), P = std::to_string(producer_threads());
  // Full barriers: the producer threads' arrivals and the copies' arming
  // one (with their bytes); empty barriers: one arrival from each consumer
  // warp; small-loads barriers: the producer threads' arrivals.
  open("if (ts_tma_ok)");
  open("if (tid == 0)");
  for (int s = 0; s < p.stages; ++s)
    line("ts_mbar_init(" + barrier_of(p, std::to_string(s)) + ", " + std::to_string(producer_threads() + 1) + ");");
  for (int s = 0; s < p.stages; ++s)
    line("ts_mbar_init(" + empty_barrier_of(p, std::to_string(s)) + ", " + std::to_string(p.empty_arrivals) + ");");
  if (!p.prefetched.empty())
    for (int s = 0; s < p.stages; ++s) line("ts_mbar_init(" + small_barrier_of(p, std::to_string(s)) + ", " + P + ");");
  line("ts_mbar_fence_init();");
  close();
  line("__syncthreads();");
  close();
  if (opt_.comments) line("// The producer warpgroup: the operands computed in registers, and the copies.");
  // Two producer warpgroups: 65536 registers over the block's threads at
  // entry; the producers keep `keep` a thread, the consumers take the rest.
  const int keep = 72, entry = 65536 / block_threads() / 8 * 8;
  const int take = std::min(256, (entry * block_threads() - keep * producer_threads()) / threads_ / 8 * 8);
  const bool setmaxnreg = producer_warpgroups_ > 1;
  open("if (tid >= " + T + ")");
  if (setmaxnreg) line("ts_setmaxnreg_dec<" + std::to_string(keep) + ">();");
  open("if (ts_tma_ok)");
  producer_loop(in, p);
  close();
  // Nothing after the loop is the producer's: the barriers after it count
  // the threads still running (a finished one no longer does).
  line("return;");
  close();
  if (setmaxnreg) line("ts_setmaxnreg_inc<" + std::to_string(take) + ">();");
  open("if (ts_tma_ok)");
  consumer_loop(in, p);
  open_else();
  // The body's registers are declared again by the loop's other form.
  for (size_t r = 0; r < declared_.size(); ++r)
    if (p.in_body[r]) declared_[r] = false;
  p.specialized = false;  // the plain loop, in the consumers: its cp.async form
  for_loop(in);
  p.specialized = true;
  close();
}

void Emitter::consumer_loop(const ir::Instr& in, Pipeline& p) {
  const std::string lo = "(int64_t)" + name(in.args[0]), step = "(int64_t)" + name(in.args[2]);
  p.stage_var = "ts_st" + std::to_string(in.dst);
  p.phase_var = "ts_ph" + std::to_string(in.dst);
  p.empty_phase_var = "ts_eph" + std::to_string(in.dst);
  line("int " + p.stage_var + " = 0;");
  line("unsigned " + p.phase_var + " = 0;");
  line("unsigned " + p.empty_phase_var + " = 0;  // thread 0's, for its refills");
  // The copies of the first stages - 1 iterations (the last stage is
  // refilled after the first iteration, release_previous_stage).
  for (int t = 0; t + 1 < p.stages; ++t) {
    const std::string value = t == 0 ? lo : "(" + lo + " + " + std::to_string(t) + " * " + step + ")";
    open("if (" + loop_runs(in, value) + ")");
    AtIteration at(*this, p, "(" + reg_type(in.dst) + ")" + value);
    line("unsigned char* const ts_stage = ts_smem + ts_pipe + " + std::to_string(t) + " * " + std::to_string(p.stage_bytes) +
         ";");
    issue_tma(p, std::to_string(t), /*refill=*/false);
    close();
  }
  fence_loop_accumulators(in);
  open_range_loop(in);
  Pipeline* outer = active_;
  active_ = &p;
  p.published = false;
  p.reg_written.clear();
  p.wgmma_accumulators.clear();
  role_ = Role::consumer;
  block(*in.body);
  role_ = Role::all;
  line(p.stage_var + " = " + p.stage_var + " + 1 == " + std::to_string(p.stages) + " ? 0 : " + p.stage_var + " + 1;");
  active_ = outer;
  close();
  line("ts_wgmma_wait0();");
  for (int acc : p.wgmma_accumulators) fence_operands(acc);
  // The consumers' ops after the loop start together, as after for_loop's.
  line("__syncthreads();");
  declared_[in.dst] = false;  // the cp.async form's loop declares it again
}

void Emitter::wait_full_stage(Pipeline& p) {
  // The producer's operand stores were fenced for the async proxy before
  // their arrivals; the TMA unit's bytes count on the same barrier.
  line("ts_mbar_wait_sleep(" + barrier_of(p, p.stage_var) + ", (" + p.phase_var + " >> " + p.stage_var + ") & 1u);");
  line(p.phase_var + " ^= 1u << " + p.stage_var + ";");
  p.published = true;
}

void Emitter::release_previous_stage(const Pipeline& p) {
  // wait_group retired the previous iteration's groups, the last readers
  // of its stage: each warp hands it back once its own wait has passed.
  const std::string S = std::to_string(p.stages), back = "(" + p.stage_var + " + " + std::to_string(p.stages - 1) + ") % " + S;
  open("if (" + after_first_iteration(p) + " && (tid & 31) == 0)");
  line("ts_mbar_arrive(" + empty_barrier_of(p, back) + ");");
  close();
  // Thread 0 refills it with the iteration stages - 1 on, once every warp
  // handed it back (issue_tma's wait on its empty barrier).
  const ir::Instr& loop = *p.loop;
  open("");
  line("const int64_t ts_next = it" + std::to_string(loop.dst) + " + " + std::to_string(p.stages - 1) + " * (int64_t)" +
       name(loop.args[2]) + ";");
  open("if (" + loop_runs(loop, "ts_next") + ")");
  AtIteration at(*this, p, "(" + reg_type(loop.dst) + ")ts_next");
  line("unsigned char* const ts_stage = ts_smem + ts_pipe + (" + back + ") * " + std::to_string(p.stage_bytes) + ";");
  issue_tma(p, back, /*refill=*/true);
  close();
  close();
}

void Emitter::producer_loop(const ir::Instr& in, Pipeline& p) {
  const ir::Block& body = *in.body;
  const std::string it = "it" + std::to_string(in.dst);
  const std::string lo = "(int64_t)" + name(in.args[0]), step = "(int64_t)" + name(in.args[2]);
  const std::string S = std::to_string(p.stages);
  const std::string consumers = std::to_string(threads_);
  // The producer's own layouts: its threads, the operands in runs.
  const std::vector<TileLayout> layouts = layouts_;
  const std::vector<bool> declared = declared_;
  const int threads = threads_;
  threads_ = producer_threads();
  assign_layouts();
  for (const auto& [x, offset] : p.reg_operands)
    if (p.reg_n_major.count(x)) vectorize_register_operand(p, x);
  const std::streamoff text_before = body_.tellp();

  line("const int tid = threadIdx.x - " + consumers + ";  // among the producer threads");
  line("TS_ASSUME(tid >= 0 && tid < " + std::to_string(threads_) + ");");
  // The tiles it needs from before the loop, again in its layouts (0-d
  // values are the same in every thread: the ones above serve).
  std::vector<char> need(k_.regs.size(), 0);
  std::vector<int> work;
  for (const ir::Instr& b : body.instrs)
    if (b.dst >= 0 && p.producer[b.dst]) work.insert(work.end(), b.args.begin(), b.args.end());
  while (!work.empty()) {
    const int r = work.back();
    work.pop_back();
    if (need[r] || p.in_body[r] || r == in.dst || type(r).shape.empty() || !def_of_[r]) continue;
    need[r] = 1;
    work.insert(work.end(), def_of_[r]->args.begin(), def_of_[r]->args.end());
  }
  for (const ir::Instr& b : k_.body.instrs) {
    if (&b == &in) break;
    if (b.dst >= 0 && need[b.dst]) {
      declared_[b.dst] = false;
      instr(b);
    }
  }
  p.stage_var = "ts_st" + std::to_string(in.dst);
  const int W = p.small_ahead;
  const bool small = !p.prefetched.empty();
  line("int " + p.stage_var + " = 0;");
  line("int ts_j = 0;  // the iteration's index");
  // The small loads' registers: pf<reg> for the iteration small_ahead on
  // (written into its stage this iteration), pf<reg>_1 for the one after.
  pf_wide_ = true;
  for (const ir::Instr* ld : p.prefetched)
    for (const char* suffix : {"", "_1"})
      line((is_half(type(ld->dst).dtype) ? std::string("uint32_t") : reg_type(ld->dst)) + " pf" + std::to_string(ld->dst) +
           suffix + "[" + std::to_string(layouts_[ld->dst].slots) + "];");
  auto iteration = [&](const std::string& base, int t) {
    return t == 0 ? base : "(" + base + " + " + std::to_string(t) + " * " + step + ")";
  };
  auto read_into = [&](const std::string& value, const std::string& suffix) {
    open("if (" + loop_runs(in, value) + ")");
    prefetch_loads(p, "(" + reg_type(in.dst) + ")" + value, suffix);
    close();
  };
  // A stage's small loads from pf<reg>, and this thread's arrival on its barrier.
  auto write_small = [&](const std::string& stage) {
    write_small_loads(p, stage);
    line("ts_mbar_arrive(" + small_barrier_of(p, stage) + ");");
  };
  if (small) {
    // Prologue: the first small_ahead iterations' small loads into their
    // stages, and the next two read.
    for (int t = 0; t < W; ++t) {
      open("if (" + loop_runs(in, iteration(lo, t)) + ")");
      prefetch_loads(p, "(" + reg_type(in.dst) + ")" + iteration(lo, t));
      write_small(std::to_string(t));
      close();
    }
    read_into(iteration(lo, W), "");
    read_into(iteration(lo, W + 1), "_1");
  }

  open_range_loop(in);
  const std::string use = "(ts_j / " + S + ")";  // the stage's use this iteration: 0, 1, ...
  if (small)
    line("ts_mbar_wait(" + small_barrier_of(p, p.stage_var) + ", " + use + " & 1);");
  Pipeline* outer = active_;
  active_ = &p;
  p.published = true;  // its small loads read this stage's regions
  role_ = Role::producer;
  block(body);
  role_ = Role::all;
  // The operands into the stage, once the consumers handed it back.
  open("if (ts_j >= " + S + ")");
  line("ts_mbar_wait(" + empty_barrier_of(p, p.stage_var) + ", (" + use + " - 1) & 1);");
  close();
  const std::string stage = "ts_smem + ts_pipe + " + p.stage_var + " * " + std::to_string(p.stage_bytes);
  for (const auto& [x, offset] : p.reg_operands) {
    bool is_a = false;
    for (const ir::Instr& d : body.instrs)
      if (d.op == ir::Op::Dot && d.args[0] == x) is_a = true;
    open("");
    line("unsigned short* const ts_x = reinterpret_cast<unsigned short*>(" + stage + " + " + std::to_string(offset) + ");");
    wgmma_from_registers(p, x, is_a, "ts_x");
    close();
  }
  line("ts_fence_proxy_async();");
  line("ts_mbar_arrive(" + barrier_of(p, p.stage_var) + ");");
  if (small) {
    // The small loads of the iteration small_ahead on into its stage; the
    // registers move up, and the next ones are read.
    open("if (" + loop_runs(in, iteration(it, W)) + ")");
    write_small("(" + p.stage_var + " + " + std::to_string(W) + ") % " + S);
    for (const ir::Instr* ld : p.prefetched) {
      const std::string r = std::to_string(ld->dst);
      for_slots(layouts_[ld->dst].slots, [&](const std::string& sl) { line("pf" + r + "[" + sl + "] = pf" + r + "_1[" + sl + "];"); });
    }
    read_into(iteration(it, W + 2), "_1");
    close();
  }
  line(p.stage_var + " = " + p.stage_var + " + 1 == " + S + " ? 0 : " + p.stage_var + " + 1;");
  line("++ts_j;");
  active_ = outer;
  close();

  // A block barrier in the producer's code would wait for the consumers,
  // which never reach it: such a loop is lowered without the roles.
  const std::string text = body_.str().substr(static_cast<size_t>(text_before));
  pf_wide_ = false;
  threads_ = threads;
  layouts_ = layouts;
  declared_ = declared;
  if (text.find("__syncthreads") != std::string::npos)
    throw NotSpecializable("the producer's ops of loop %" + std::to_string(in.dst) + " need a block barrier");
}

}  // namespace tl::gpu::detail
