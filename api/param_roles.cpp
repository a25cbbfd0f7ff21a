// Parameter roles (tilescope::Role): what a launch checks of a buffer its
// kernel declares an input, an output or both.
#include <algorithm>

#include "param_contract.h"

namespace tilescope::detail {

namespace {

Role role_of(const Kernel& kernel, size_t i) {
  return i < kernel.params().size() ? kernel.params()[i].role : Role::Unspecified;
}

}  // namespace

RoleMarks::~RoleMarks() {
  for (tl::Buffer* b : marked) b->written_map().clear();
}

RoleMarks apply_roles(const Kernel& kernel, const std::vector<Arg>& args, tl::RunOptions& options) {
  RoleMarks m;
  for (size_t i = 0; i < args.size(); ++i) {
    const Role role = role_of(kernel, i);
    if (role == Role::Unspecified) continue;
    m.declared = true;
    if (role != Role::Out || args[i].kind() != Arg::Kind::Buffer) continue;
    tl::Buffer* b = args[i].buffer();
    // A buffer the host marked itself (the puzzle harness does) stays so.
    if (b->tracks_writes() || std::find(m.marked.begin(), m.marked.end(), b) != m.marked.end()) continue;
    b->mark_unwritten();
    m.marked.push_back(b);
  }
  options.check_unread_inputs = m.declared;
  return m;
}

void role_findings(const Kernel& kernel, const std::vector<Arg>& args, const RoleMarks& roles, tl::RunResult& run) {
  if (!roles.declared) return;
  auto param_of = [&](const tl::Finding& f) {
    return f.buffer >= 0 && f.buffer < static_cast<int>(run.buffers.size()) ? run.buffers[f.buffer].param_index : -1;
  };
  // Input-never-read: only parameters that promise to be read.
  std::erase_if(run.findings, [&](const tl::Finding& f) {
    if (f.kind != tl::FindingKind::InputNeverRead) return false;
    const Role r = role_of(kernel, static_cast<size_t>(std::max(param_of(f), 0)));
    return param_of(f) < 0 || (r != Role::In && r != Role::InOut);
  });
  if (run.stopped) return;
  // An output the kernel never stores to: all of it unwritten.
  for (size_t i = 0; i < args.size(); ++i) {
    if (role_of(kernel, i) != Role::Out || args[i].kind() != Arg::Kind::Buffer) continue;
    const tl::Buffer* b = args[i].buffer();
    bool reported = false;
    for (const tl::Finding& f : run.findings)
      reported |= f.kind == tl::FindingKind::NeverWritten && param_of(f) >= 0 && args[param_of(f)].buffer() == b;
    const auto& w = b->written_map();
    if (reported || w.empty() || std::find(w.begin(), w.end(), uint8_t{1}) != w.end()) continue;
    tl::Finding f;
    f.kind = tl::FindingKind::NeverWritten;
    for (size_t k = 0; k < run.buffers.size(); ++k)
      if (run.buffers[k].param_index == static_cast<int>(i)) f.buffer = static_cast<int>(k);
    f.lanes = b->extent();
    for (int64_t e = 0; e < std::min<int64_t>(5, b->extent()); ++e) {
      tl::FindingExample ex;
      ex.pid = {-1, -1, -1};
      ex.offset = e;
      f.examples.push_back(ex);
    }
    f.message = "the kernel never stores to this output";
    if (f.lanes > 0) run.findings.push_back(std::move(f));
  }
}

}  // namespace tilescope::detail
