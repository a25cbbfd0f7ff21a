// The interpreter's execution plan: the IR flattened once per launch into
// steps with everything per-instruction precomputed (lane counts, element
// sizes, broadcast strides, reduction extents), so running a program does
// no allocation and no shape arithmetic. Internal to interp/.
#pragma once
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "ir.h"

namespace tl {

inline constexpr int kMaxPlanRank = 8;

struct Step {
  const ir::Instr* in = nullptr;  // attributes and source location
  ir::Op op{};
  int dst = -1;
  int a[3] = {-1, -1, -1};
  int64_t n = 0;      // lanes of the result (memory ops: of the pointer tile)
  DType dtype{};      // dtype of the first operand (Cast: source)
  DType out_dtype{};  // dtype of the result
  uint32_t elem = 0;  // bytes per result lane
  bool unary = false, binary = false;  // ir::is_unary / is_binary, looked up once
  int loc = -1;       // index into the launch's location table
  int end = 0;        // For/If: one past the (then-)body; While: one past the condition block
  int else_end = 0;   // If: one past the else body; While: one past the body
  // Broadcast / Permute: the result walked as `rank` dims, with the input
  // stride of each (0 where the input is stretched).
  int rank = 0;
  int64_t dims[kMaxPlanRank] = {};
  int64_t strides[kMaxPlanRank] = {};
  // Reduce: the input as [outer, len, inner] around the reduced axis.
  int64_t outer = 1, len = 1, inner = 1;
  // Fusion (exec_fuse.cpp). `fused`: the step's work is done inside a later
  // step (it still counts as a step). A memory op whose pointer tile is
  // `base + offsets`, with base a 0-d pointer, reads its lanes' addresses
  // from those two registers instead of a materialized tile of PtrVal
  // (vptr_off >= 0; vptr_off64: the offsets are i64, else i32).
  bool fused = false;
  int vptr_base = -1, vptr_off = -1;
  bool vptr_off64 = false;
  // Loop-invariant steps (exec_hoist.cpp). `hoisted`: the step is run once
  // by an enclosing For before its first iteration, and in place only
  // counts as a step; `hoist_checked`: it is an index op whose overflow
  // check must find nothing at that pre-run, else it runs in place as
  // before. A For pre-runs Plan::hoist_order[hoist_begin, hoist_end).
  bool hoisted = false;
  bool hoist_checked = false;
  int hoist_begin = 0, hoist_end = 0;
  // Broadcast operands read in place (exec_fuse.cpp). A binary step whose
  // operand k is the result of a fused Broadcast reads that broadcast's
  // source instead, with its result seen as [rows, cols]: bcast[k] is the
  // Broadcast step (-1: a plain operand); the operand's row r starts at
  // element Plan::row_offsets[row_off[k] + r] of the source, and is one
  // value stretched along the row when col_step[k] is 0.
  int bcast[2] = {-1, -1};
  int row_off[2] = {-1, -1};
  int64_t col_step[2] = {1, 1};
  int64_t rows = 0, cols = 0;
  // The steps from this one on, in its block, that are fused or hoisted:
  // the run loop passes over them at once, counting each as a step (0:
  // this step runs). See mark_skip_runs.
  int skip_run = 0;
};

struct Plan {
  std::vector<Step> steps;
  std::vector<int> hoist_order;  // steps pre-run by the For loops, grouped per loop
  std::vector<int> def_step;     // per register: the step writing it, if exactly one (else -1)
  std::vector<int64_t> row_offsets;  // Step::row_off's tables
  std::unordered_map<const ir::Instr*, int> loc_of_instr;
};

// Flattens `k` (locations are indices into `locations`, which it fills).
Plan make_plan(const ir::Kernel& k, std::vector<SrcLoc>& locations);

// The fusion pass over a plan (exec_fuse.cpp): marks the steps whose work
// moves into a later step. Only ops it knows are ever fused; every other
// op (new ones included) keeps the per-op path.
void fuse_plan(Plan& p, const ir::Kernel& k);

// The hoisting pass (exec_hoist.cpp): marks loop-invariant steps that
// cannot report anything (or whose one check can be run dry first) to run
// once before their loop. `index_reg`: LaunchState::index_reg.
void hoist_plan(Plan& p, const ir::Kernel& k, const std::vector<bool>& index_reg);

// The second fusion pass, after hoisting (exec_fuse.cpp): broadcasts read
// in place by the binary step that alone reads them (Step::bcast).
void fuse_broadcast_operands(Plan& p, const ir::Kernel& k);

// After the passes: each step's Step::skip_run.
void mark_skip_runs(Plan& p);

// Fusion on unless `requested` is false or TILESCOPE_FUSE=0 is set.
bool fusion_enabled(bool requested);

}  // namespace tl
