// The command line, parsed without running anything: which command it
// names, and its options checked against that command's table. main()
// dispatches on the result; the tests and the fuzzer (tests/fuzz/) call
// parse_command_line directly, so it must not print, exit or touch files.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "args.h"

namespace cli {

struct CommandInfo {
  const char* name;
  const char* summary;
  std::vector<OptionSpec> options;
};

// Every command, in the order `tilescope --help` lists them.
const std::vector<CommandInfo>& command_table();
const CommandInfo* find_command(std::string_view name);
// A command's options, for its --help (the command must exist).
const std::vector<OptionSpec>& options_of(std::string_view command);

struct CommandLine {
  enum class Kind {
    Usage,    // no command: print the usage and fail
    Help,     // tilescope --help
    Version,  // tilescope --version
    Run,      // run `command` with `args`
    Error,    // `error`; about `command`'s options, or an unknown command when it is null
  };
  Kind kind = Kind::Usage;
  const CommandInfo* command = nullptr;
  Args args;
  std::string error;
};

// argv[0] is the program's name, as main() gets it. Never throws.
CommandLine parse_command_line(const std::vector<std::string>& argv);

}  // namespace cli
