// The tilescope commands. Each takes its parsed options (command_line.h
// holds every command's table), prints its own --help, and returns the exit
// status: 0 success, 1 a check failed or a kernel did not build, 2 bad usage
// or unreadable input, 3 --strict stopped at a sanitizer finding.
#pragma once
#include "args.h"

namespace cli {

int cmd_list(const Args& args);
int cmd_show(const Args& args);
int cmd_check(const Args& args);
int cmd_compile(const Args& args);
int cmd_bench(const Args& args);
int cmd_gpu_run(const Args& args);
int cmd_view(const Args& args);

inline constexpr int kExitOk = 0, kExitFailed = 1, kExitUsage = 2, kExitFinding = 3;

}  // namespace cli
