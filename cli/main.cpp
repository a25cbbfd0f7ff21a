// tilescope: a thin driver over the libraries. Each command lives in its
// own cmd_*.cpp file.
#include <cstdio>
#include <cstring>
#include <exception>

#include "args.h"
#include "commands.h"

namespace {

void print_usage(FILE* out) {
  std::fprintf(out,
               "tilescope: write tile kernels in C++, run them on the CPU with every access checked,\n"
               "and see exactly which cells each program touched.\n\n"
               "usage: tilescope <command> [options]\n\ncommands:\n");
  for (const cli::Command& c : cli::commands()) std::fprintf(out, "  %-10s %s\n", c.name, c.summary);
  std::fprintf(out, "\n'tilescope <command> --help' describes a command's options.\n");
}

}  // namespace

namespace cli {
const std::vector<Command>& commands() {
  static const std::vector<Command> list = {
      {"list", "list the puzzles", cmd_list},
      {"show", "print a puzzle's statement and size sets", cmd_show},
      {"check", "run puzzle kernels in the interpreter and check them", cmd_check},
      {"compile", "print a kernel's IR (or its CUDA with --cuda)", cmd_compile},
      {"view", "replay a launch as memory grids in the viewer (or a screenshot)", cmd_view},
      {"bench", "time the kernels on the GPU at scale (--gpu)", cmd_bench},
      {"gpu-run", "launch one kernel once on the GPU (for compute-sanitizer)", cmd_gpu_run},
  };
  return list;
}
}  // namespace cli

int main(int argc, char** argv) {
  if (argc < 2) {
    print_usage(stderr);
    return cli::kExitUsage;
  }
  const char* name = argv[1];
  if (!std::strcmp(name, "--help") || !std::strcmp(name, "-h") || !std::strcmp(name, "help")) {
    print_usage(stdout);
    return cli::kExitOk;
  }
  if (!std::strcmp(name, "--version")) {
    std::printf("tilescope 0.1.0\n");
    return cli::kExitOk;
  }
  for (const cli::Command& c : cli::commands()) {
    if (std::strcmp(c.name, name) != 0) continue;
    try {
      return c.run(argc, argv, 2);
    } catch (const cli::UsageError& e) {
      std::fprintf(stderr, "tilescope %s: error: %s\n(see 'tilescope %s --help')\n", c.name, e.what(), c.name);
      return cli::kExitUsage;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "tilescope %s: error: %s\n", c.name, e.what());
      return cli::kExitFailed;
    }
  }
  std::fprintf(stderr, "tilescope: error: unknown command '%s'\n\n", name);
  print_usage(stderr);
  return cli::kExitUsage;
}
