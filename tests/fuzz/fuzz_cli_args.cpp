// libFuzzer target: arbitrary bytes as a command line, one word per line
// ("check\n2\n--trace\nt.json"), after the program's name. Parsing must
// never throw, print or crash; a parsed line's values then go through the
// helpers the commands read them with, which may only throw UsageError.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "command_line.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::string> argv = {"tilescope"};
  std::string word;
  for (size_t i = 0; i < size; ++i) {
    const char c = static_cast<char>(data[i]);
    if (c == '\n') {
      argv.push_back(word);
      word.clear();
    } else {
      word += c;
    }
  }
  if (size > 0) argv.push_back(word);

  const cli::CommandLine line = cli::parse_command_line(argv);
  if (line.kind == cli::CommandLine::Kind::Error && line.error.empty()) std::abort();  // errors say what is wrong
  if (line.kind != cli::CommandLine::Kind::Run) return 0;
  for (const cli::OptionSpec& o : line.command->options) {
    if (!o.takes_value || !line.args.value(o.name)) continue;
    try {
      (void)line.args.int_value(o.name, 0);
    } catch (const cli::UsageError&) {
    }
    try {
      (void)cli::parse_int_list(*line.args.value(o.name), "--" + o.name);
    } catch (const cli::UsageError&) {
    }
  }
  return 0;
}
