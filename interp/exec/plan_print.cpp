// The interpreter's plan as text (`tilescope compile --plan`): each step
// with what the fusion and hoisting passes decided for it, to see why a
// kernel runs as fast or as slow as it does.
#include <sstream>

#include "exec.h"

namespace tl {

std::string print_plan(const ir::Kernel& k, bool fuse) {
  LaunchState L(k, Grid{1, 1, 1});
  L.bufs.assign(k.params.size(), nullptr);
  L.fuse = fuse;
  L.prepare();
  const std::vector<Step>& steps = L.plan.steps;
  std::vector<int> depth(steps.size(), 0);
  for (size_t i = 0; i < steps.size(); ++i) {
    const Step& s = steps[i];
    if (s.op == ir::Op::For || s.op == ir::Op::If || s.op == ir::Op::While)
      for (int j = static_cast<int>(i) + 1; j < s.else_end; ++j) ++depth[j];
  }
  // Who does a fused step's work: the memory op reading its pointer tile,
  // or the binary op reading its broadcast.
  std::vector<int> fused_into(steps.size(), -1);
  for (size_t j = 0; j < steps.size(); ++j) {
    const Step& s = steps[j];
    for (int b : s.bcast)
      if (b >= 0) fused_into[b] = static_cast<int>(j);
    if (s.vptr_off >= 0) {
      const int add = L.plan.def_step.empty() ? -1 : L.plan.def_step[s.a[0]];
      if (add >= 0) {
        fused_into[add] = static_cast<int>(j);
        const int bc = L.plan.def_step[steps[add].a[0]];
        if (bc >= 0) fused_into[bc] = static_cast<int>(j);
      }
    }
  }
  std::vector<int> hoisted_by(steps.size(), -1);
  for (size_t i = 0; i < steps.size(); ++i)
    for (int h = steps[i].hoist_begin; h < steps[i].hoist_end; ++h) hoisted_by[L.plan.hoist_order[h]] = static_cast<int>(i);
  std::ostringstream out;
  out << "plan of " << k.name << ": " << steps.size() << " steps" << (fuse ? "" : " (fusion and hoisting off)") << "\n";
  for (size_t i = 0; i < steps.size(); ++i) {
    const Step& s = steps[i];
    std::ostringstream line;
    line << std::string(2 + 2 * static_cast<size_t>(depth[i]), ' ') << "[" << i << "] ";
    if (s.dst >= 0) line << "%" << s.dst << " = ";
    line << ir::op_name(s.op);
    for (int a : s.in->args)
      if (a >= 0) line << " %" << a;
    std::string text = line.str();
    std::string notes;
    auto note = [&](const std::string& n) { notes += (notes.empty() ? "" : "; ") + n; };
    if (s.fused) note(fused_into[i] >= 0 ? "fused into [" + std::to_string(fused_into[i]) + "]" : "fused");
    if (s.hoisted)
      note(std::string("hoisted before loop [") + std::to_string(hoisted_by[i]) + "]" +
           (s.hoist_checked ? ", its overflow check run dry first" : ""));
    if (s.vptr_off >= 0) note("addresses from %" + std::to_string(s.vptr_base) + " + %" + std::to_string(s.vptr_off));
    if (s.bcast[0] >= 0 || s.bcast[1] >= 0)
      note("reads broadcast sources in place, as " + std::to_string(s.rows) + " x " + std::to_string(s.cols));
    if (!notes.empty() && text.size() < 44) text.resize(44, ' ');
    out << text << (notes.empty() ? "" : "  # " + notes) << "\n";
  }
  return out.str();
}

}  // namespace tl
