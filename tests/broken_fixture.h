// Shared by the broken-kernel tests (test_broken_*.cpp): find a broken
// kernel, run it traced on its borrowed puzzle set, and read its findings.
#pragma once
#include <catch2/catch.hpp>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "broken/registry.h"
#include "error.h"
#include "findings.h"
#include "harness.h"
#include "registry.h"

namespace broken_fixture {

using puzzles::BrokenKernel;
using puzzles::ProgramId;
using puzzles::RunReport;
using tl::FindingKind;

inline const BrokenKernel& broken(std::string_view name) {
  const BrokenKernel* b = puzzles::find_broken(name);
  REQUIRE(b != nullptr);
  return *b;
}

inline const puzzles::Puzzle& puzzle_of(const BrokenKernel& b) {
  const puzzles::Puzzle* p = puzzles::find_puzzle(b.puzzle_id);
  REQUIRE(p != nullptr);
  return *p;
}

inline const puzzles::SizeSet& set_of(const BrokenKernel& b, std::string_view name = "") {
  const puzzles::SizeSet* s = puzzles::find_set(puzzle_of(b), name.empty() ? std::string_view(b.set) : name);
  REQUIRE(s != nullptr);
  return *s;
}

// One traced launch of the broken kernel on its set, seed 0.
inline RunReport run_broken(const BrokenKernel& b, std::string_view set = "", int threads = 0) {
  tl::RunOptions opt;
  opt.trace = tl::TraceMode::Full;
  opt.threads = threads;
  return puzzles::run_kernel(puzzle_of(b), *b.kernel, set_of(b, set), 0, opt);
}

// The 1-based number of the only line of `file` that contains `text`.
inline int line_containing(const std::string& file, std::string_view text) {
  std::ifstream in(file);
  REQUIRE(in.good());
  int number = 0, found = 0, matches = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (line.find(text) != std::string::npos) {
      found = number;
      ++matches;
    }
  }
  INFO(file << ": '" << text << "'");
  REQUIRE(matches == 1);
  return found;
}

inline std::vector<FindingKind> kinds(const RunReport& r) {
  std::vector<FindingKind> v;
  for (const tl::Finding& f : r.findings) v.push_back(f.kind);
  return v;
}

inline const tl::SrcLoc& loc_of(const RunReport& r, const tl::Finding& f) {
  REQUIRE(f.loc >= 0);
  return r.finding_locations.at(static_cast<size_t>(f.loc));
}

inline std::string buffer_of(const RunReport& r, const tl::Finding& f) {
  return f.buffer >= 0 ? r.finding_buffers.at(static_cast<size_t>(f.buffer)).name : "";
}

// The finding sits on `line` of the broken kernel's own file.
inline void check_line(const RunReport& r, const tl::Finding& f, const BrokenKernel& b, int line) {
  const tl::SrcLoc& loc = loc_of(r, f);
  CHECK(loc.file == b.source_file);
  CHECK(static_cast<int>(loc.line) == line);
}

inline std::vector<puzzles::ProgramId> pids(std::initializer_list<puzzles::ProgramId> l) { return l; }

}  // namespace broken_fixture
