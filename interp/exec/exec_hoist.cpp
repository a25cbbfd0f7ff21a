// The interpreter's hoisting pass: a step inside a For loop whose operands
// do not change while the loop runs computes the same tile on every
// iteration. Such a step is run once, before the loop's first iteration,
// by the loop itself (Exec::run_hoisted), and skipped in place.
//
// Hoisting never changes what a launch reports:
// - Only steps that cannot report anything are hoisted: shape ops,
//   constants, comparisons, logic, float arithmetic, integer arithmetic
//   that is not checked, casts that cannot change a value. The one check
//   allowed is the index-overflow check of i32/i64 add, sub and mul: the
//   pre-run runs it dry (does any lane wrap?) and, if one would, leaves the
//   step to run in place, where it reports each iteration as before.
// - A hoisted step still counts as a step where it stood, so step counts,
//   the step budget and where a runaway loop stops are unchanged.
// - Each register a hoisted step reads is written exactly once in the
//   kernel, outside the loop or by a step hoisted with it; its result is
//   written exactly once (by it). Loop-carried registers (written by more
//   than one step) are never read by a hoisted step.
// - Steps run before the loop run even if their own place (an If branch)
//   would not be reached: they are pure, and nothing reads their result
//   unless that place is reached.
#include <vector>

#include "exec.h"

namespace tl {

namespace {

using ir::Op;

// Steps that can be hoisted: pure, no finding, no trace event. `checked`:
// the step's index-overflow check runs dry at the pre-run.
bool hoistable(const Step& s, const std::vector<bool>& index_reg, bool& checked) {
  checked = false;
  if (s.fused || s.dst < 0 || s.in->cond_body || s.in->body) return false;
  switch (s.op) {
    case Op::Const: case Op::Arange: case Op::ProgramId: case Op::NumPrograms: case Op::ScalarParam:
    case Op::PtrParam: case Op::Broadcast: case Op::Reshape: case Op::Permute: case Op::Where: case Op::PtrAdd:
    case Op::Bitcast:
      return true;
    case Op::Fma: return is_float(s.out_dtype);
    case Op::Cast: return s.in->rounding == ir::Rounding::rtz || !Exec::cast_may_change_value(s.dtype, s.out_dtype);
    case Op::Copy: return true;
    default: break;
  }
  if (ir::is_unary(s.op)) return true;  // no unary op checks anything
  if (!ir::is_binary(s.op)) return false;
  if (is_float(s.dtype)) return true;
  switch (s.op) {
    case Op::And: case Op::Or: case Op::Xor: case Op::Eq: case Op::Ne: case Op::Lt: case Op::Le: case Op::Gt:
    case Op::Ge: case Op::Maximum: case Op::Minimum:
      return true;
    case Op::Add: case Op::Sub: case Op::Mul:
      checked = index_reg[s.dst] && is_signed_int(s.dtype);
      return true;
    default: return false;  // integer division and shifts have checks of their own
  }
}

}  // namespace

void hoist_plan(Plan& p, const ir::Kernel& k, const std::vector<bool>& index_reg) {
  const int nsteps = static_cast<int>(p.steps.size());
  const size_t nregs = k.regs.size();
  std::vector<int> defs(nregs, 0);
  p.def_step.assign(nregs, -1);
  for (int i = 0; i < nsteps; ++i) {
    const int d = p.steps[i].dst;
    if (d < 0) continue;
    ++defs[d];
    p.def_step[d] = i;
  }
  for (size_t r = 0; r < nregs; ++r)
    if (defs[r] != 1) p.def_step[r] = -1;

  // Per register: how many loops deep its value is computed (0: before
  // any loop). A step can move out of every loop deeper than its operands.
  constexpr int kVaries = 1 << 20;
  std::vector<int> depth_of(nregs, kVaries);
  std::vector<std::vector<int>> per_loop(static_cast<size_t>(nsteps));
  struct Open {
    int step, end;
    bool loop;
  };
  std::vector<Open> open;  // the control steps around step i, outermost first
  std::vector<int> loops;  // the loops among them (For and While)
  for (int i = 0; i < nsteps; ++i) {
    while (!open.empty() && open.back().end <= i) {
      if (open.back().loop) loops.pop_back();
      open.pop_back();
    }
    Step& s = p.steps[i];
    const int depth = static_cast<int>(loops.size());
    bool checked = false;
    int level = depth + 1;  // the loop (1-based) it moves out of; past depth: none
    if (depth > 0 && hoistable(s, index_reg, checked) && p.def_step[s.dst] == i) {
      int needed = 0;
      for (int a : s.in->args) needed = std::max(needed, a < 0 ? 0 : p.def_step[a] < 0 ? kVaries : depth_of[a]);
      level = needed + 1;
      while (level <= depth && p.steps[loops[level - 1]].op != Op::For) ++level;
    }
    if (level <= depth) {
      s.hoisted = true;
      s.hoist_checked = checked;
      per_loop[loops[level - 1]].push_back(i);
      depth_of[s.dst] = level - 1;
    } else if (s.dst >= 0) {
      // A loop's induction variable changes with each of its iterations.
      depth_of[s.dst] = s.op == Op::For ? depth + 1 : depth;
    }
    if (s.op == Op::For || s.op == Op::While || s.op == Op::If) {
      open.push_back(Open{i, s.else_end, s.op != Op::If});
      if (s.op != Op::If) loops.push_back(i);
    }
  }
  p.hoist_order.clear();
  for (int i = 0; i < nsteps; ++i) {
    Step& s = p.steps[i];
    s.hoist_begin = static_cast<int>(p.hoist_order.size());
    p.hoist_order.insert(p.hoist_order.end(), per_loop[i].begin(), per_loop[i].end());
    s.hoist_end = static_cast<int>(p.hoist_order.size());
  }
}

}  // namespace tl

namespace tl {

void Exec::run_hoisted(const Step& loop) {
  const std::vector<Step>& steps = L_.plan.steps;
  for (int k = loop.hoist_begin; k < loop.hoist_end; ++k) {
    const int j = L_.plan.hoist_order[k];
    const Step& s = steps[j];
    // A hoisted operand left to run in place is not computed yet.
    bool ok = true;
    for (int a : s.in->args) {
      const int d = a >= 0 ? L_.plan.def_step[a] : -1;
      if (d >= 0 && steps[d].hoisted && hoist_ok_[d] != kHoistRan) ok = false;
    }
    if (ok && s.hoist_checked) ok = !index_may_wrap(s);
    hoist_failed_ += (ok ? 0 : 1) - (hoist_ok_[j] == kHoistFailed ? 1 : 0);
    hoist_ok_[j] = ok ? kHoistRan : kHoistFailed;
    if (ok) step_with_taint(s);
  }
}

}  // namespace tl
