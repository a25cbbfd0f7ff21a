#include "model_source.h"

#include <filesystem>
#include <fstream>

namespace viz {

namespace {

std::vector<std::string> read_lines(const std::string& path) {
  std::vector<std::string> lines;
  if (path.empty()) return lines;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return lines;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
  }
  return lines;
}

std::string file_name(const std::string& path) { return std::filesystem::path(path).filename().string(); }

}  // namespace

SourceText load_source(const tl::Trace& t, const std::string& search_dir) {
  std::vector<std::string> candidates{t.source_file};
  for (const tl::SrcLoc& loc : t.locations)
    if (!loc.file.empty() && loc.file != t.source_file) {
      candidates.push_back(loc.file);
      break;
    }
  // Paths recorded on another machine: try them below the search folder,
  // from the longest suffix ("puzzles/p04.cpp") to the bare file name.
  const size_t recorded = candidates.size();
  for (size_t i = 0; i < recorded; ++i) {
    std::filesystem::path p(candidates[i]);
    std::vector<std::filesystem::path> parts(p.begin(), p.end());
    for (size_t first = 1; first < parts.size(); ++first) {
      std::filesystem::path suffix;
      for (size_t k = first; k < parts.size(); ++k) suffix /= parts[k];
      candidates.push_back((std::filesystem::path(search_dir) / suffix).string());
    }
  }
  for (const std::string& c : candidates) {
    SourceText s{c, read_lines(c)};
    if (s.found()) return s;
  }
  return SourceText{t.source_file, {}};
}

uint32_t event_line(const tl::Trace& t, const tl::Event& e) {
  if (e.loc < 0 || e.loc >= static_cast<int>(t.locations.size())) return 0;
  return t.locations[e.loc].line;
}

bool location_in_file(const tl::SrcLoc& loc, const std::string& path) {
  return loc.file == path || (!loc.file.empty() && file_name(loc.file) == file_name(path));
}

uint32_t diagnostic_line(const std::string& diagnostic, const std::string& path) {
  const std::string first = diagnostic.substr(0, diagnostic.find('\n'));
  const size_t error = first.find(": error");
  if (error == std::string::npos) return 0;
  // "file:line:col" before it; the file itself may contain ':'.
  const std::string where = first.substr(0, error);
  const size_t col_colon = where.rfind(':');
  if (col_colon == std::string::npos || col_colon == 0) return 0;
  const size_t line_colon = where.rfind(':', col_colon - 1);
  if (line_colon == std::string::npos) return 0;
  const std::string file = where.substr(0, line_colon);
  const std::string digits = where.substr(line_colon + 1, col_colon - line_colon - 1);
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 9) return 0;
  if (!location_in_file(tl::SrcLoc{file, 0, 0}, path)) return 0;
  return static_cast<uint32_t>(std::stoul(digits));
}

std::vector<std::vector<int>> events_by_line(const tl::Trace& t, const tl::ProgramTrace& p, const SourceText& src) {
  std::vector<std::vector<int>> by_line(src.lines.size() + 1);
  for (size_t e = 0; e < p.events.size(); ++e) {
    const int loc = p.events[e].loc;
    if (loc < 0 || loc >= static_cast<int>(t.locations.size())) continue;
    const tl::SrcLoc& l = t.locations[loc];
    if (l.line == 0 || l.line >= by_line.size() || !location_in_file(l, src.path)) continue;
    by_line[l.line].push_back(static_cast<int>(e));
  }
  return by_line;
}

}  // namespace viz
