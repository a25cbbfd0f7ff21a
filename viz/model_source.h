// The kernel's source text for the source pane, and which events each of
// its lines made.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "trace.h"

namespace viz {

struct SourceText {
  std::string path;                // the file read, or the one that was looked for
  std::vector<std::string> lines;  // empty when it could not be read
  bool found() const { return !lines.empty(); }
};

// Reads the trace's source_file; when that is missing or unreadable (a
// trace from another machine), the file of its first location, then the
// same names relative to `search_dir` (e.g. the current directory).
SourceText load_source(const tl::Trace& t, const std::string& search_dir = ".");

// The source line of an event (0 when unknown) and whether its location is
// in the file shown (same path, or same file name when paths differ).
uint32_t event_line(const tl::Trace& t, const tl::Event& e);
bool location_in_file(const tl::SrcLoc& loc, const std::string& path);

// The line a compiler-style diagnostic ("file:line:col: error: ...", as
// build errors are formatted) points at, when its file is `path` (same
// path or file name); 0 otherwise.
uint32_t diagnostic_line(const std::string& diagnostic, const std::string& path);

// Per line (1-based, index 0 unused) of the shown file, the events of one
// program on it.
std::vector<std::vector<int>> events_by_line(const tl::Trace& t, const tl::ProgramTrace& p, const SourceText& src);

}  // namespace viz
