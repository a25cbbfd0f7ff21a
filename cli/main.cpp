// tilescope: a thin driver over the libraries. The command line is parsed
// first (command_line.cpp), then one command runs; each lives in its own
// cmd_*.cpp file.
#include <cstdio>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include "args.h"
#include "command_line.h"
#include "commands.h"

namespace {

void print_usage(FILE* out) {
  std::fprintf(out,
               "tilescope: write tile kernels in C++, run them on the CPU with every access checked,\n"
               "and see exactly which cells each program touched.\n\n"
               "usage: tilescope <command> [options]\n\ncommands:\n");
  for (const cli::CommandInfo& c : cli::command_table()) std::fprintf(out, "  %-10s %s\n", c.name, c.summary);
  std::fprintf(out, "\n'tilescope <command> --help' describes a command's options.\n");
}

using Runner = int (*)(const cli::Args&);

Runner runner_of(std::string_view name) {
  static const std::vector<std::pair<std::string_view, Runner>> runners = {
      {"list", cli::cmd_list},       {"show", cli::cmd_show},   {"check", cli::cmd_check},
      {"compile", cli::cmd_compile}, {"view", cli::cmd_view},   {"bench", cli::cmd_bench},
      {"gpu-run", cli::cmd_gpu_run},
  };
  for (const auto& [n, run] : runners)
    if (n == name) return run;
  return nullptr;
}

int usage_error(const char* command, const char* message) {
  std::fprintf(stderr, "tilescope %s: error: %s\n(see 'tilescope %s --help')\n", command, message, command);
  return cli::kExitUsage;
}

}  // namespace

int main(int argc, char** argv) {
  using Kind = cli::CommandLine::Kind;
  const cli::CommandLine line = cli::parse_command_line(std::vector<std::string>(argv, argv + argc));
  switch (line.kind) {
    case Kind::Usage:
      print_usage(stderr);
      return cli::kExitUsage;
    case Kind::Help:
      print_usage(stdout);
      return cli::kExitOk;
    case Kind::Version:
      std::printf("tilescope 0.1.0\n");
      return cli::kExitOk;
    case Kind::Error:
      if (line.command) return usage_error(line.command->name, line.error.c_str());
      std::fprintf(stderr, "tilescope: error: %s\n\n", line.error.c_str());
      print_usage(stderr);
      return cli::kExitUsage;
    case Kind::Run:
      break;
  }
  const char* name = line.command->name;
  const Runner run = runner_of(name);
  if (!run) {
    std::fprintf(stderr, "tilescope: internal error: no runner for command '%s'\n", name);
    return cli::kExitFailed;
  }
  try {
    return run(line.args);
  } catch (const cli::UsageError& e) {
    return usage_error(name, e.what());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tilescope %s: error: %s\n", name, e.what());
    return cli::kExitFailed;
  }
}
