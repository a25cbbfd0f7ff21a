// The launch checks this API adds on top of the interpreter's: that the
// kernel's declared parameters fit its function, and that each buffer has
// the dtype and shape its parameter declares.
#pragma once
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

}  // namespace tilescope::detail
