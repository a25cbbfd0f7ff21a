#include "error.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <map>
#include <mutex>
#include <vector>

namespace tl {

std::string SrcLoc::str() const {
  return display_path(file) + ":" + std::to_string(line) + ":" + std::to_string(col);
}

BuildError::BuildError(SrcLoc loc, std::string message)
    : std::runtime_error(format_diagnostic(loc, "error", message)),
      loc_(std::move(loc)),
      message_(std::move(message)) {}

std::string display_path(const std::string& file) {
  std::error_code ec;
  auto cwd = std::filesystem::current_path(ec);
  if (ec || file.empty()) return file;
  auto rel = std::filesystem::path(file).lexically_relative(cwd);
  if (rel.empty() || rel.native().starts_with("..")) return file;
  return rel.string();
}

namespace {

// Kernel files are read once per process; diagnostics may ask many times.
std::mutex source_mu;
std::map<std::string, std::vector<std::string>> source_cache;

}  // namespace

void set_source_text(const std::string& file, const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string s; std::getline(in, s);) lines.push_back(s);
  std::lock_guard<std::mutex> lock(source_mu);
  source_cache[file] = std::move(lines);
}

std::string source_line(const std::string& file, uint32_t line) {
  std::mutex& mu = source_mu;
  auto& cache = source_cache;
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find(file);
  if (it == cache.end()) {
    std::vector<std::string> lines;
    std::ifstream in(file);
    for (std::string s; std::getline(in, s);) lines.push_back(s);
    it = cache.emplace(file, std::move(lines)).first;
  }
  if (line == 0 || line > it->second.size()) return "";
  return it->second[line - 1];
}

std::string format_diagnostic(const SrcLoc& loc, const std::string& severity,
                              const std::string& message) {
  std::string out = (loc.known() ? loc.str() + ": " : std::string()) + severity + ": " + message;
  std::string text = loc.known() ? source_line(loc.file, loc.line) : "";
  if (!text.empty()) {
    out += "\n  " + text + "\n  ";
    for (uint32_t i = 1; i < loc.col && i <= text.size(); ++i) out += text[i - 1] == '\t' ? '\t' : ' ';
    out += "^";
  }
  return out;
}

}  // namespace tl
