// The launch checks this API adds on top of the interpreter's: that the
// kernel's declared parameters fit its function, and that each buffer has
// the dtype and shape its parameter declares.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "tilescope/tilescope.h"

namespace tilescope::detail {

// "" when the declaration fits the function, else what is wrong with it
// (a message without location: the caller names the declaration's line).
std::string declaration_problem(const Kernel& kernel);

// "" when every buffer fits its declared parameter, else what does not.
// Run after declaration_problem() found nothing, and only when the argument
// count matches the kernel's.
std::string argument_problem(const Kernel& kernel, const std::vector<Arg>& args);

// Parameter roles (Role): Out buffers start "unwritten" for the launch (the
// interpreter then reports elements never written and reads before any
// write), and any declared role asks for the input-never-read check. The
// marks are undone when the returned object goes, so a buffer is tracked
// only for the launch that declared it an output.
class RoleMarks {
 public:
  RoleMarks() = default;
  RoleMarks(RoleMarks&&) = default;
  RoleMarks& operator=(RoleMarks&&) = default;
  ~RoleMarks();
  std::vector<tl::Buffer*> marked;  // Out buffers this launch marked unwritten
  bool declared = false;            // some parameter declares a role
};
RoleMarks apply_roles(const Kernel& kernel, const std::vector<Arg>& args, tl::RunOptions& options);

// After the run: keeps the input-never-read findings of In and InOut
// parameters only, and reports an Out parameter the kernel never stored to
// (the interpreter, which only tracks buffers a kernel stores to, cannot).
void role_findings(const Kernel& kernel, const std::vector<Arg>& args, const RoleMarks& roles, tl::RunResult& run);

}  // namespace tilescope::detail
