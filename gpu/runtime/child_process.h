// Running GPU work in a forked child process, so a kernel that faults (an
// illegal address leaves the CUDA context unusable, a crash ends the
// process) never takes the tool down. The parent must not have initialized
// CUDA itself: a forked child cannot use the parent's driver state. NVRTC
// initializes it too, which is why compilation also runs in a child
// (nvrtc_compiler.h).
#pragma once
#include <functional>
#include <string>

namespace tl::gpu {

struct ChildOutcome {
  bool completed = false;  // work() returned normally and the child exited 0
  std::string payload;     // everything the child wrote, even when it failed part-way
  std::string failure;     // why not completed: the exception text, exit status or signal
};

// Forks; the child runs `work` and sends back the string it returns (or
// the text of an exception it throws). Waits for the child.
ChildOutcome run_in_child(const std::function<std::string()>& work);

// Like run_in_child, but `work` streams: it calls `send` for each piece as
// soon as it has it, so the pieces sent before a crash still arrive.
ChildOutcome run_in_child_streaming(const std::function<void(const std::function<void(const std::string&)>& send)>& work);

}  // namespace tl::gpu
