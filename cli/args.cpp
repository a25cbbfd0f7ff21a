#include "args.h"

#include <cctype>
#include <charconv>

namespace cli {

namespace {
const OptionSpec* find_spec(const std::vector<OptionSpec>& specs, const std::string& name) {
  for (const OptionSpec& s : specs)
    if (s.name == name) return &s;
  return nullptr;
}

bool parse_ll(const std::string& s, long long& out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size() && !s.empty();
}
}  // namespace

Args::Args(const std::vector<std::string>& words, size_t first, const std::vector<OptionSpec>& specs) {
  const size_t argc = words.size();
  for (size_t i = first; i < argc; ++i) {
    const std::string& a = words[i];
    if (a == "--") {
      for (++i; i < argc; ++i) positional_.push_back(words[i]);
      break;
    }
    if (a.size() > 1 && a[0] == '-' && !(a.size() > 1 && std::isdigit(static_cast<unsigned char>(a[1])))) {
      std::string body = a.substr(a[1] == '-' ? 2 : 1);
      std::string name = body, val;
      bool has_eq = false;
      if (auto eq = body.find('='); eq != std::string::npos) {
        name = body.substr(0, eq);
        val = body.substr(eq + 1);
        has_eq = true;
      }
      if (name == "h") name = "help";
      const OptionSpec* spec = find_spec(specs, name);
      if (!spec) throw UsageError("unknown option '" + a + "'");
      if (spec->takes_value) {
        if (!has_eq) {
          if (i + 1 >= argc) throw UsageError("option --" + name + " needs a value (" + spec->value_name + ")");
          val = words[++i];
        }
        values_[name] = val;
      } else {
        if (has_eq) throw UsageError("option --" + name + " takes no value");
        flags_.insert(name);
      }
      continue;
    }
    positional_.push_back(a);
  }
}

std::optional<std::string> Args::value(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

long long Args::int_value(const std::string& name, long long fallback) const {
  auto v = value(name);
  if (!v) return fallback;
  long long out;
  if (!parse_ll(*v, out)) throw UsageError("option --" + name + " needs an integer, got '" + *v + "'");
  return out;
}

std::string format_options(const std::vector<OptionSpec>& specs) {
  std::string s;
  for (const OptionSpec& o : specs) {
    std::string left = "  --" + o.name + (o.takes_value ? " " + o.value_name : "");
    if (left.size() < 24) left.append(24 - left.size(), ' ');
    else left += "  ";
    s += left + o.help + "\n";
  }
  return s;
}

std::vector<long long> parse_int_list(const std::string& text, const std::string& what) {
  std::vector<long long> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    std::string part = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    long long v;
    if (!parse_ll(part, v)) throw UsageError(what + ": '" + text + "' is not a comma-separated list of integers");
    out.push_back(v);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

int producer_warpgroups(const Args& args, bool warp_specialize) {
  if (!args.value("producer-warpgroups")) return 1;
  if (!warp_specialize) throw UsageError("--producer-warpgroups needs --warp-specialize");
  const long long n = args.int_value("producer-warpgroups", 1);
  if (n != 1 && n != 2) throw UsageError("--producer-warpgroups must be 1 or 2, got " + std::to_string(n));
  return static_cast<int>(n);
}

}  // namespace cli
