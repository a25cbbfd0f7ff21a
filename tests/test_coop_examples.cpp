// The examples whose programs wait on or synchronize with each other
// (E6 split-K with a semaphore, E7 last program reduces): they pass with
// no finding at every set, their benchmark set included, and their broken
// variants give exactly the deadlock and race findings.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "examples/example_defs.h"
#include "harness.h"
#include "registry.h"

namespace {

const puzzles::Puzzle& example(const std::string& id) {
  const puzzles::Puzzle* p = puzzles::find_puzzle(id);
  REQUIRE(p != nullptr);
  return *p;
}

const puzzles::SizeSet& set_of(const puzzles::Puzzle& p, const std::string& name) {
  const puzzles::SizeSet* s = puzzles::find_set(p, name);
  REQUIRE(s != nullptr);
  return *s;
}

std::vector<tl::FindingKind> kinds(const puzzles::RunReport& r) {
  std::vector<tl::FindingKind> v;
  for (const tl::Finding& f : r.findings) v.push_back(f.kind);
  return v;
}

}  // namespace

TEST_CASE("e6 and e7 pass with no finding at every set, the benchmark set included", "[examples][coop]") {
  for (const char* id : {"e6_splitk_sem", "e7_last_reduces"}) {
    const puzzles::Puzzle& p = example(id);
    for (const puzzles::SizeSet& s : p.sets) {
      puzzles::RunReport r = puzzles::run_kernel(p, *p.solution, s, 0);
      INFO(id << " set " << s.name << ": err " << r.err << " " << r.error);
      CHECK(r.passed());
      CHECK(r.findings.empty());
    }
  }
}

TEST_CASE("e6 with a flag never raised: one deadlock finding naming every waiting program", "[examples][coop]") {
  const puzzles::Puzzle& p = example("e6_splitk_sem");
  puzzles::RunReport r = puzzles::run_kernel(p, puzzles::e6_flag_never_raised(), set_of(p, "canonical"), 0);
  REQUIRE(kinds(r) == std::vector{tl::FindingKind::Deadlock});
  const tl::Finding& f = r.findings[0];
  // Four tiles: each tile's slice-0 program waits for its slice 1's flag.
  CHECK(f.message.find("all 4 unfinished programs wait") != std::string::npos);
  for (const char* who : {"program (0, 0, 0)", "program (0, 1, 0)", "program (1, 0, 0)", "program (1, 1, 0)"})
    CHECK(f.message.find(who) != std::string::npos);
  CHECK(f.message.find("for Flags[1] to hold 1 (it holds 0)") != std::string::npos);
  CHECK_FALSE(r.passed());
}

TEST_CASE("e6 with a relaxed flag: a race on the partial tiles at the waiting program's load", "[examples][coop]") {
  const puzzles::Puzzle& p = example("e6_splitk_sem");
  puzzles::RunReport r = puzzles::run_kernel(p, puzzles::e6_relaxed_flag(), set_of(p, "canonical"), 0);
  REQUIRE(kinds(r) == std::vector{tl::FindingKind::ReadWriteRace});
  const tl::Finding& f = r.findings[0];
  CHECK(f.programs == 4);            // every tile's slice-0 program
  CHECK(f.lanes == 4 * 3 * 32 * 32);  // each reads three partial tiles
  CHECK(r.finding_buffers.at(static_cast<size_t>(f.buffer)).name == "W");
}

TEST_CASE("e7 with a relaxed counter: the last program's reads of the partials race", "[examples][coop]") {
  const puzzles::Puzzle& p = example("e7_last_reduces");
  puzzles::RunReport r = puzzles::run_kernel(p, puzzles::e7_relaxed_count(), set_of(p, "canonical"), 0);
  REQUIRE(kinds(r) == std::vector{tl::FindingKind::ReadWriteRace});
  CHECK(r.findings[0].lanes == 15);  // the other programs' partials
  CHECK(r.finding_buffers.at(static_cast<size_t>(r.findings[0].buffer)).name == "Partials");
}
