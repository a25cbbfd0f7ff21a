// `tilescope compile N --cuda`: the CUDA C++ the GPU back end generates for
// a kernel's IR.
#pragma once
#include "args.h"
#include "ir.h"

namespace cli {

// Prints the generated source (option --warps N); returns the exit status.
int print_cuda(const tl::ir::Kernel& k, const Args& args);

}  // namespace cli
