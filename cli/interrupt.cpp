#include "interrupt.h"

#include <csignal>

namespace cli {

namespace {
// Lock-free, so setting it is async-signal-safe.
std::atomic<bool> g_interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free);

extern "C" void on_sigint(int) { g_interrupted.store(true); }
}  // namespace

const std::atomic<bool>* catch_sigint() {
  static const bool installed = [] {
    struct sigaction sa {};
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND;  // a second Ctrl-C is not caught
    return sigaction(SIGINT, &sa, nullptr) == 0;
  }();
  (void)installed;
  return &g_interrupted;
}

}  // namespace cli
