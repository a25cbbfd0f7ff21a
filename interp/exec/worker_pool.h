// Threads kept between launches. Starting and joining a thread costs tens
// of microseconds (more on a busy or virtualized machine): a launch of a few
// milliseconds on 16 cores paid more for its threads than it saved. The
// pool starts its threads once, on the first launch that wants them, and
// parks them on a condition variable between launches. Internal to interp/.
#pragma once
#include <functional>

namespace tl {

// Runs fn(0), ..., fn(n - 1) at the same time, fn(0) on the calling thread,
// and returns when all have returned. fn must not throw. A launch that
// finds the pool busy (another thread's launch, or a launch from inside a
// worker) runs on threads of its own instead, as before there was a pool.
void run_on_workers(int n, const std::function<void(int)>& fn);

}  // namespace tl
