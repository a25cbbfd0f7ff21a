// Specializing a kernel: run its C++ function once under a Builder.
#include "kernel.h"

#include <cstdlib>

#include "builder.h"

namespace tl {

std::shared_ptr<const ir::Kernel> KernelDef::specialize(const Specialization& s) const {
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = cache_.find(s);
    if (it != cache_.end()) return it->second;
  }
  auto k = std::make_shared<ir::Kernel>();
  k->name = name_;
  std::vector<int> regs(params_.size(), -1);
  {
    detail::Builder b(*k);
    for (size_t i = 0; i < params_.size(); ++i) {
      ir::Param p{params_[i].kind, i < names_.size() ? names_[i] : "", params_[i].dtype, 0};
      if (p.kind == ir::ParamKind::Pointer) p.dtype = s.dtypes.at(i);
      if (p.kind == ir::ParamKind::Constant) p.value = s.constants.at(i);
      k->params.push_back(p);
      if (p.kind == ir::ParamKind::Constant) continue;
      ir::Type t{p.dtype, p.kind == ir::ParamKind::Pointer, {}};
      ir::Instr& in = b.emit_op(p.kind == ir::ParamKind::Pointer ? ir::Op::PtrParam : ir::Op::ScalarParam, t, {},
                                SrcLoc{});
      in.param_index = static_cast<int>(i);
      regs[i] = in.dst;
    }
    detail::LocOverrideSuspended own_locations;
    invoke_(regs, s.constants);
  }
  if (!k->loc.known()) k->loc = loc_;
  auto problems = ir::verify(*k);
  if (!problems.empty()) {
    std::string msg = "internal error: kernel '" + name_ + "' built invalid IR:";
    for (auto& p : problems) msg += "\n  " + p;
    // TILESCOPE_DEBUG_IR=1: the invalid IR itself, for whoever fixes the front end.
    if (std::getenv("TILESCOPE_DEBUG_IR")) msg += "\n" + ir::print(*k);
    throw BuildError(k->loc, msg);
  }
  std::lock_guard<std::mutex> lock(mu_);
  return cache_.emplace(s, std::move(k)).first->second;
}

}  // namespace tl
