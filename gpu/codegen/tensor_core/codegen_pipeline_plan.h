// A pipelined loop's plan (codegen_pipeline_plan.cpp makes it,
// codegen_pipeline.cpp, codegen_tma.cpp, codegen_wgmma.cpp and
// codegen_transposed_stage.cpp emit it): the loads it stages, where they
// sit in a stage, how many iterations its copies run ahead, and how its
// wgmma groups are waited for. Internal to gpu/.
#pragma once
#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "ir.h"

namespace tl::gpu::detail {

// A load whose tile only feeds tensor-core dots in the same loop body is
// copied to shared memory with cp.async (or the TMA unit), iterations ahead.
struct StagedLoad {
  int reg = -1;             // the load's register
  const ir::Instr* load = nullptr;
  int inner_axis = -1;      // the tile's axis of unit stride, contiguous in shared memory too
  int outer_axis = -1;      // its other non-unit axis (-1 for a 1-row tile)
  int64_t inner = 1, outer = 1, stride = 0;  // extents, and the shared row stride in elements
  int64_t offset = 0;       // byte offset of its region inside a stage
  // k runs along its rows (its inner axis) for the dot that uses it
  // first; else it is M- or N-major (a 16-bit wgmma operand by descriptor).
  bool k_inner = true;
  // wgmma's K-major layout instead of padded rows: 8-row x 16-byte core
  // matrices, those along the row adjacent (128 bytes apart), 8-row groups
  // inner * elem / 16 * 128 bytes apart.
  bool core = false;
  // With `core`: rows of exactly 128 bytes in wgmma's 128-byte swizzle
  // instead: row r at r * 128, its 16-byte chunk c at (c ^ r % 8) * 16, in
  // 1024-byte aligned regions. An M- or N-major 16-bit operand's longer
  // rows are cut into such 128-byte columns, one after the other (atom j
  // holds columns 64j..64j+63 of every row: wgmma's LBO apart). A quarter-warp's copies of one row then
  // hit 8 different bank groups (the unswizzled core matrices put them
  // 128 bytes apart: 8-way conflicts).
  bool swizzle128 = false;
  // With CodegenOptions::tma: its tensor map (LoweredKernel::tensor_maps)
  // and the 1-D index registers whose first elements are the box's
  // coordinates (codegen_tma.cpp); -1 where cp.async copies it.
  int tma = -1;
  int tma_inner_x = -1, tma_outer_x = -1, tma_batch_x = -1;
  // Shared by the two programs of a cluster (Pipeline::cluster_axis):
  // its tensor map's box is half the tile's rows, and each program's TMA
  // unit brings its half into both programs' shared memory; without
  // clusters one thread issues both halves.
  bool multicast = false;
  // A transposed wgmma's B (p11's y, n along its rows) written into the
  // stage K-major by the threads themselves, as wgmma's A in 128-byte
  // swizzled rows (codegen_transposed_stage.cpp): read into registers
  // (ts_tw<reg>) by 16-byte loads one refill before, stored a value at a
  // time. The dot then reads both operands by descriptor, and its groups
  // may stay in flight (CodegenOptions::wgmma_in_flight).
  bool written_transposed = false;
  // The transposed dot's B, whose fragments are read into registers (p11's
  // y): in padded rows by cp.async, or (CodegenOptions::wgmma_b_tma) with
  // `core` and `swizzle128`, in x's layout, by TMA.
  bool register_read = false;
  bool register_read_by_tma() const { return register_read && swizzle128; }
};
struct Pipeline {
  const ir::Instr* loop = nullptr;
  std::vector<StagedLoad> loads;
  std::map<int, int64_t> reg_operands;  // dot operands staged from registers: region offset
  std::set<int> reg_written;  // the reg_operands this iteration already wrote (one copy for every dot)
  // With wgmma: reg_operands written N-major, 128-byte swizzled in columns
  // of 64 (staged_offset's layout) rather than as K-major core matrices.
  std::set<int> reg_n_major;
  std::vector<const ir::Instr*> prefetched;  // other loads of the body, read one iteration ahead into registers
  // The prefetched loads go through the stages instead (small_offsets:
  // each one's region in a stage): read two iterations ahead into
  // registers, written into the next iteration's stage before the barrier
  // that publishes this one's, and read back there wherever the body
  // reads them, at their own slots or at a move's elements (a broadcast
  // that would reload from global memory each value it spreads over).
  std::map<int, int64_t> small_offsets;
  bool small_in_stage() const { return !small_offsets.empty(); }
  // With TMA: some staged tile is cp.async's on the TMA path too (p11's y).
  bool tma_path_copies() const {
    return std::any_of(loads.begin(), loads.end(), [](const StagedLoad& s) { return s.tma < 0 && !s.written_transposed; });
  }
  // The tile written K-major from registers (StagedLoad::written_transposed), or null.
  const StagedLoad* written_transposed() const {
    for (const StagedLoad& s : loads)
      if (s.written_transposed) return &s;
    return nullptr;
  }
  std::vector<char> in_body;  // per register: defined inside the loop's body
  int64_t stage_bytes = 0;
  int stages = 2;
  std::string stage_var;   // the loop's current stage (a variable in the kernel)
  bool published = false;  // this iteration's operands are waited for and behind a barrier
  bool wgmma = false;      // its dots run wgmma (CodegenOptions::wgmma)
  // Its one dot's B has n along its rows, which tf32 wgmma cannot read from
  // shared memory: the dot computes C^T = B^T A^T instead, B^T as wgmma's
  // register-sourced A (read from B's padded rows), A as its K-major B,
  // into the transposed MMA layout (wgmma_transposed_b).
  bool wgmma_transposed = false;
  // A 16-bit dot's B computed in registers, held in the transposed MMA
  // layout and fed to wgmma as C^T's A from registers (-1: none;
  // CodegenOptions::wgmma_register_a, wgmma_register_a_operand).
  int wgmma_register_a = -1;
  // wgmma groups left in flight across iterations (wait_group 1): the
  // copies then run `stages - 2` iterations ahead, so they never land in
  // the stage the previous iteration's group may still read.
  bool wgmma_async = false;
  int ahead = 1;           // iterations whose copies are in flight
  int wgmma_dots = 0;      // wgmma dots in the body
  int wgmma_groups = 0;    // wgmma groups an iteration commits: one per dot, one per fused pair
  // Pairs of dots of one A whose B tiles sit side by side in the stage
  // (E1's left and right halves): one wgmma of twice the width computes
  // both (CodegenOptions::wgmma_pair_dots). first -> second.
  std::map<const ir::Instr*, const ir::Instr*> wgmma_pairs;
  std::set<const ir::Instr*> wgmma_pair_seconds;
  std::vector<int> wgmma_accumulators;  // emitted so far; waited for (wait_group 0) when the loop ends
  // Every staged load comes by TMA (where the launcher could describe
  // the tensors: ts_tma_ok), each stage completing on its own mbarrier
  // at bar_offset + 8 * stage in the pipeline's region; phase_var holds
  // the parity each stage's barrier waits for next, one bit a stage.
  bool tma = false;
  int64_t bar_offset = 0;
  std::string phase_var;
  // With tma and wgmma groups in flight: the copies of a later iteration
  // are issued after the body's last wgmma.wait_group (which retires the
  // previous iteration's groups) and a barrier, into the stage that
  // iteration read, so they run stages - 1 iterations ahead instead of
  // stages - 2; the iteration's own operands need only their mbarrier.
  bool late_issue = false;
  // A transposed wgmma (waited for at once) issues the next copies right
  // after committing its group, so their address and mask arithmetic
  // runs while the tensor cores work, instead of before the group.
  bool copies_after_dot = false;
  // CodegenOptions::cluster_multicast: the grid axis along which
  // neighbouring programs form clusters of two sharing the `multicast`
  // loads, or -1. A stage is refilled only when both programs are done
  // with it: after the barrier that publishes a stage (so every thread
  // of the program is done with the one before), one thread arrives on
  // that earlier stage's empty barrier in both programs (empty_arrivals 2).
  int cluster_axis = -1;
  // CodegenOptions::wgmma_decoupled, on the TMA path: the cp.async tile
  // (B of the C^T dot) is copied by each warpgroup for its own fragment
  // rows and published by a named barrier of its warpgroup (unless B comes
  // by TMA too: CodegenOptions::wgmma_b_tma); the stage a refill fills is
  // free once each warp, after its wait for the group, arrived on its
  // empty barrier (empty_arrivals: the warps).
  bool decoupled = false;
  // "Empty" mbarriers, one a stage at empty_offset + 8 * stage, for the
  // clusters and the decoupled warpgroups: a stage's refill waits for its
  // phase (issue_tma) once `empty_arrivals` arrived on it (0: none).
  // empty_phase_var holds the parity each one waits for next.
  int empty_arrivals = 0;
  // CodegenOptions::warp_specialize (codegen_warp_specialize.cpp): the
  // producer's warpgroups (one or two) compute the operands staged from
  // registers, from the ops in `producer` (per register), their small loads
  // written into the stages `small_ahead` iterations ahead; the consumer
  // warps run the ops in `consumer` (the dots and what they need, never a
  // value of the producer's loads) and their thread 0 issues the TMA
  // copies. Each stage's full barrier counts the producer threads and the
  // copies' arming thread; its empty barrier, one arrival from each
  // consumer warp; its small-loads barrier (at small_offset + 8 * stage),
  // the producer threads.
  bool specialized = false;
  int small_ahead = 1;
  int64_t small_offset = 0;
  std::vector<char> producer, consumer;
  int64_t empty_offset = 0;
  std::string empty_phase_var;
};

}  // namespace tl::gpu::detail
