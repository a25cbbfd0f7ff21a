// Structured control flow of a generated kernel: blocks, instructions
// dispatched to their emitters, range loops (with a pipeline's prologue
// and epilogue, codegen_pipeline.cpp), if and while; and the persistent
// kernel's two interleaved programs.
#include <algorithm>

#include "codegen_emitter.h"

namespace tl::gpu::detail {

void Emitter::block(const ir::Block& b) {
  for (const ir::Instr& in : b.instrs) instr(in);
}

void Emitter::interleaved_body() {
  using ir::Op;
  // Program b's registers are declared on their own (same numbers, "_b").
  std::vector<bool> declared_b = declared_;
  for (const ir::Instr& in : k_.body.instrs) {
    switch (in.op) {
      case Op::For: case Op::If: case Op::While:
        fail(in, "two interleaved programs need a body without loops or branches");
      case Op::AtomicAdd: case Op::AtomicRMW: case Op::Print: case Op::Assert:
        fail(in, "two interleaved programs need a body whose only side effects are stores");
      default: break;
    }
    instr(in);
    std::swap(declared_, declared_b);
    copy_suffix_ = "_b";
    instr(in);
    copy_suffix_.clear();
    std::swap(declared_, declared_b);
  }
  // Shared memory needs nothing more: outside a pipelined loop an op's
  // scratch lives only while the op is emitted (written, barrier, read,
  // barrier, from offset 0, which the next op reuses), so a's copy of an
  // op is done with it before b's begins.
}

void Emitter::instr(const ir::Instr& in) {
  using ir::Op;
  if (!in_role(in)) return;  // the other role's (warp specialization)
  switch (in.op) {
    case Op::For: for_loop(in); return;
    case Op::If: if_block(in); return;
    case Op::While: while_loop(in); return;
    default: break;
  }
  comment(in);
  if (in.dst >= 0 && skipped_[in.dst]) return;  // a staged load or its transpose: the pipeline copies it
  convert_operands(in);
  switch (in.op) {
    case Op::PtrParam: case Op::ScalarParam: case Op::Const: case Op::Arange: case Op::ProgramId:
    case Op::NumPrograms:
      leaf(in);
      return;
    case Op::Broadcast: case Op::Reshape: case Op::Permute: movement(in); return;
    case Op::Reduce: reduce(in); return;
    case Op::Dot: dot(in); return;
    case Op::Load: load(in); return;
    case Op::Store: store(in); return;
    case Op::AtomicAdd: atomic_add(in); return;
    case Op::AtomicRMW: atomic_rmw(in); return;
    case Op::Print: print(in); return;
    case Op::Assert: device_assert(in); return;
    case Op::Scan: case Op::ReduceWith: case Op::Sort: case Op::Flip: case Op::Join: case Op::Split:
    case Op::Gather: case Op::Histogram:
      through_shared_memory(in);
      return;
    default: break;
  }
  if (ir::is_unary(in.op) || ir::is_binary(in.op) || in.op == Op::Where || in.op == Op::Fma) {
    elementwise(in);
    return;
  }
  fail(in, "no lowering for this op");
}

void Emitter::for_loop(const ir::Instr& in) {
  // Python range semantics, negative steps included; a zero step runs no
  // iteration (the interpreter reports it and skips the loop).
  std::string it = "it" + std::to_string(in.dst);
  const std::string lo = "(int64_t)" + name(in.args[0]), step = "(int64_t)" + name(in.args[2]);
  if (opt_.comments)
    line("// for %" + std::to_string(in.dst) + " in range(%" + std::to_string(in.args[0]) + ", %" +
         std::to_string(in.args[1]) + ", %" + std::to_string(in.args[2]) + ")" +
         (in.loc.known() ? "  (line " + std::to_string(in.loc.line) + ")" : ""));
  Pipeline* p = nullptr;
  for (Pipeline& x : pipelines_)
    if (x.loop == &in) p = &x;
  if (p && p->specialized) return specialized_loop(in, *p);  // codegen_warp_specialize.cpp
  if (p) {
    // Prologue: the first iteration's staged operands are in flight before
    // the loop starts (codegen_pipeline.cpp).
    used_pipeline_ = true;
    p->stage_var = "ts_st" + std::to_string(in.dst);
    line("int " + p->stage_var + " = 0;");
    if (p->tma) {
      // Each stage's barrier completes once per use: arrival of the one
      // thread that arms it, and its bytes.
      p->phase_var = "ts_ph" + std::to_string(in.dst);
      line("unsigned " + p->phase_var + " = 0;");
      if (p->empty_arrivals > 0) {
        p->empty_phase_var = "ts_eph" + std::to_string(in.dst);
        line("unsigned " + p->empty_phase_var + " = 0;");
      }
      uses_tid_ = true;
      open("if (ts_tma_ok)");
      open("if (tid == 0)");
      for (int s = 0; s < p->stages; ++s) line("ts_mbar_init(" + barrier_of(*p, std::to_string(s)) + ", 1);");
      // Each stage's empty barrier: one arrival from each program of a
      // cluster, or from each warp of decoupled warpgroups.
      if (p->empty_arrivals > 0)
        for (int s = 0; s < p->stages; ++s)
          line("ts_mbar_init(" + empty_barrier_of(*p, std::to_string(s)) + ", " + std::to_string(p->empty_arrivals) +
               ");");
      line("ts_mbar_fence_init();");
      close();
      line("__syncthreads();");
      if (p->cluster_axis >= 0) {
        // Clusters: both programs' barriers are initialized before either
        // program's boxes or arrivals reach the other.
        open("if (ts_tma_ok == 2)");
        line("ts_cluster_arrive();");
        line("ts_cluster_wait();");
        close();
      }
      close();
    }
    declare_transposed_registers(*p);
    for (const ir::Instr* ld : p->prefetched)
      line(reg_type(ld->dst) + " pf" + std::to_string(ld->dst) + "[" + std::to_string(layouts_[ld->dst].slots) + "];");
    if (!p->prefetched.empty()) {
      open("if (" + loop_runs(in, lo) + ")");
      prefetch_loads(*p, "(" + reg_type(in.dst) + ")" + lo);
      if (p->small_in_stage()) {
        // The first iteration's values into stage 0, the second's read.
        write_small_loads(*p, "0");
        line("const int64_t ts_second = " + lo + " + " + step + ";");
        open("if (" + loop_runs(in, "ts_second") + ")");
        prefetch_loads(*p, "(" + reg_type(in.dst) + ")ts_second");
        close();
      }
      close();
      if (p->small_in_stage()) line("__syncthreads();");
    }
    // One group per stage ahead. Each thread's loop over its vectors stays
    // rolled: this runs once a program, and unrolled it was a second copy
    // of the loop's copy code (a fifth of e4_rows' NVRTC time). So does the
    // loop over the stages, except with TMA: there the copies are a few
    // instructions of one thread, and E1 128's kernel ran slower with its
    // TMA prologue in a rolled loop (docs/gpu.md).
    auto issue_stage = [&](const std::string& value, const std::string& stage, CopyPath path) {
      open("if (" + loop_runs(in, value) + ")");
      issue_copies(*p, "(" + reg_type(in.dst) + ")" + value, stage, /*rolled=*/true, /*refill=*/false, path);
      close();
      line("ts_cp_async_commit();");
    };
    auto rolled_stages = [&](CopyPath path) {
      line("#pragma unroll 1");
      open("for (int ts_t = 0; ts_t < " + std::to_string(p->ahead) + "; ++ts_t)");
      line("const int64_t ts_first = " + lo + " + ts_t * " + step + ";");
      issue_stage("ts_first", "ts_t", path);
      close();
    };
    if (p->tma) {
      // The TMA unit's copies unrolled; its cp.async fallback, which runs
      // only where the tensor maps could not be made, in the rolled loop
      // (unrolled, it was one more copy of the loop's copy code for NVRTC).
      open("if (ts_tma_ok)");
      for (int t = 0; t < p->ahead; ++t)
        issue_stage(t == 0 ? lo : "(" + lo + " + " + std::to_string(t) + " * " + step + ")", std::to_string(t),
                    CopyPath::Tma);
      open_else();
      rolled_stages(CopyPath::CpAsync);
      close();
    } else {
      rolled_stages(CopyPath::Both);
    }
    // A tile written transposed (codegen_transposed_stage.cpp) came from
    // every thread: published before the first iteration, whose TMA path
    // waits only for its mbarrier.
    if (p->written_transposed()) line("__syncthreads();");
  }
  if (p && p->wgmma_async) fence_loop_accumulators(in);
  open_range_loop(in);
  Pipeline* outer = active_;
  active_ = p;
  if (p) {
    p->published = false;
    p->reg_written.clear();
    p->wgmma_accumulators.clear();  // a specialized loop's consumers emitted theirs (specialized_loop)
  }
  block(*in.body);
  if (p) line(p->stage_var + " = " + p->stage_var + " + 1 == " + std::to_string(p->stages) + " ? 0 : " + p->stage_var + " + 1;");
  active_ = outer;
  close();
  if (p) {
    // Nothing may still be landing in shared memory, or still be read
    // from it, when the ops after the loop use it; the last wgmma group
    // still owns its accumulators until it is waited for.
    if (p->wgmma_async) {
      line("ts_wgmma_wait0();");
      for (int acc : p->wgmma_accumulators) fence_operands(acc);
    }
    line("ts_cp_async_wait_all();");
    if (p->tma) {
      // Clusters: neither program leaves while the other may still arrive on
      // its barriers or copy into its shared memory.
      if (p->cluster_axis >= 0) {
        open("if (ts_tma_ok == 2)");
        line("ts_cluster_arrive();");
        line("ts_cluster_wait();");
        close();
      }
      // Decoupled warpgroups: the other may still wait on a stage's barrier
      // or arrive on an empty one.
      if (p->decoupled) line("__syncthreads();");
      // Every wait is behind the last iteration's barrier: the barriers'
      // memory may go back to being plain shared memory.
      open("if (ts_tma_ok && tid == 0)");
      for (int s = 0; s < p->stages; ++s) line("ts_mbar_inval(" + barrier_of(*p, std::to_string(s)) + ");");
      if (p->empty_arrivals > 0)
        for (int s = 0; s < p->stages; ++s) line("ts_mbar_inval(" + empty_barrier_of(*p, std::to_string(s)) + ");");
      close();
    }
    line("__syncthreads();");
  }
}

void Emitter::open_range_loop(const ir::Instr& in) {
  const std::string it = "it" + std::to_string(in.dst);
  open("for (int64_t " + it + " = (int64_t)" + name(in.args[0]) + "; " + loop_runs(in, it) + "; " + it + " += (int64_t)" +
       name(in.args[2]) + ")");
  declared_[in.dst] = true;
  line(const_type(in.dst) + " " + name(in.dst) + " = (" + reg_type(in.dst) + ")" + it + ";");
}

void Emitter::fence_loop_accumulators(const ir::Instr& loop) {
  // The accumulators' starting values are opaque here: else NVVM sinks
  // their zeros into the path that skips the loop, and ptxas, seeing
  // accumulator registers written by other instructions while groups may
  // be in flight, serializes every wgmma (its warning C7515; E4's 16-bit
  // dots).
  ir::for_each_instr(*loop.body, [&](const ir::Instr& d, const ir::Block&) {
    if (d.op != ir::Op::Dot || !layouts_[d.dst].mma || !d.has_acc || !directly_in(*loop.body, &d)) return;
    fence_operands(d.args[2]);
  });
}

void Emitter::if_block(const ir::Instr& in) {
  if (opt_.comments)
    line("// if %" + std::to_string(in.args[0]) + (in.loc.known() ? "  (line " + std::to_string(in.loc.line) + ")" : ""));
  // The condition is 0-d, equal in every thread: barriers inside stay uniform.
  open("if (" + name(in.args[0]) + ")");
  block(*in.body);
  if (in.else_body && !in.else_body->instrs.empty()) {
    open_else();
    block(*in.else_body);
  }
  close();
}

void Emitter::while_loop(const ir::Instr& in) {
  if (opt_.comments) line(std::string("// while") + (in.loc.known() ? "  (line " + std::to_string(in.loc.line) + ")" : ""));
  // The condition block, then the test, then the body, all inside one C++
  // loop: registers the condition block defines are declared fresh each
  // time round. The condition is 0-d, equal in every thread, so all leave
  // together and barriers inside stay uniform. Never pipelined: only For
  // loops have a next iteration's loop variable to load ahead with.
  open("while (true)");
  Pipeline* outer = active_;
  active_ = nullptr;  // nothing here is directly in an enclosing pipelined body
  block(*in.cond_body);
  line("if (!" + name(in.cond_reg) + ") break;");
  block(*in.body);
  active_ = outer;
  close();
}

}  // namespace tl::gpu::detail
