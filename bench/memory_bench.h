// The interpreter's memory at real sizes: peak RSS of untraced
// launches, each in a forked child so that one case's peak does not hide
// the next's. Part of tilescope_interp_bench (--memory).
#pragma once

namespace bench {

// Runs every case (or the one named), prints a table (or JSON); returns
// the exit status.
int memory_cases(const char* only, bool json);

}  // namespace bench
