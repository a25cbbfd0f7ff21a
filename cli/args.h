// A small command-line parser: positional arguments, --flags and
// --options with values (--name VALUE or --name=VALUE). Unknown options and
// missing values are errors that name the option, so every command can
// answer with a clear message and a usage line.
#pragma once
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace cli {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct OptionSpec {
  std::string name;  // without dashes: "trace"
  bool takes_value = false;
  std::string value_name;  // "FILE"
  std::string help;
};

class Args {
 public:
  Args() = default;
  // Parses words[first..] against `specs`; throws UsageError.
  Args(const std::vector<std::string>& words, size_t first, const std::vector<OptionSpec>& specs);
  bool flag(const std::string& name) const { return flags_.count(name) > 0; }
  std::optional<std::string> value(const std::string& name) const;
  const std::vector<std::string>& positional() const { return positional_; }
  // An integer option, or `fallback`; a UsageError if it is not an integer.
  long long int_value(const std::string& name, long long fallback) const;

 private:
  std::set<std::string> flags_;
  std::map<std::string, std::string> values_;
  std::vector<std::string> positional_;
};

// "  --trace FILE   write the trace of one run as JSON" lines.
std::string format_options(const std::vector<OptionSpec>& specs);
// Parses "1,2,3" into integers; UsageError naming `what` on bad input.
std::vector<long long> parse_int_list(const std::string& text, const std::string& what);
// --producer-warpgroups N (compile --cuda and bench): 1 or 2, and only with
// --warp-specialize; 1 without the option.
int producer_warpgroups(const Args& args, bool warp_specialize);

}  // namespace cli
