// The tilescope commands. Each takes the whole argv and the index of its
// first argument, prints its own --help, and returns the exit status:
// 0 success, 1 a check failed or a kernel did not build, 2 bad usage or
// unreadable input, 3 --strict stopped at a sanitizer finding.
#pragma once
#include <string>
#include <vector>

namespace cli {

struct Command {
  const char* name;
  const char* summary;
  int (*run)(int argc, char** argv, int first);
};

const std::vector<Command>& commands();

int cmd_list(int argc, char** argv, int first);
int cmd_show(int argc, char** argv, int first);
int cmd_check(int argc, char** argv, int first);
int cmd_compile(int argc, char** argv, int first);
int cmd_bench(int argc, char** argv, int first);
int cmd_gpu_run(int argc, char** argv, int first);
int cmd_view(int argc, char** argv, int first);

inline constexpr int kExitOk = 0, kExitFailed = 1, kExitUsage = 2, kExitFinding = 3;

}  // namespace cli
