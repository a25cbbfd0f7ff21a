// Ctrl-C during a launch: the first SIGINT only sets a flag that the
// interpreter polls, so the launch stops at its next step and the command
// still prints the findings so far and saves the partial trace; a second
// SIGINT kills the process as usual (the handler is one-shot).
#pragma once
#include <atomic>

namespace cli {

// Installs the handler (once) and returns the flag it sets.
const std::atomic<bool>* catch_sigint();

// The exit status of a command stopped by Ctrl-C (128 + SIGINT, as shells do).
inline constexpr int kExitInterrupted = 130;

}  // namespace cli
