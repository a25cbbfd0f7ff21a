// The 12 puzzles: every reference solution passes at every size set and
// seed, with no out-of-bounds access and no sanitizer finding; every
// learner stub runs without crashing and is reported as failing.
#include <catch2/catch.hpp>

#include "harness.h"
#include "registry.h"

namespace {

std::string describe(const puzzles::PuzzleReport& r) {
  std::string s = "puzzle " + std::to_string(r.number) + " " + r.id + ":";
  for (const auto& set : r.sets)
    for (const auto& run : set.runs)
      if (!run.passed())
        s += " [set " + run.set + " seed " + std::to_string(run.seed) + " " + run_status_name(run.status) + " err " +
             std::to_string(run.err) + " " + run.error + "]";
  return s;
}

}  // namespace

TEST_CASE("every reference solution passes every size set and seed") {
  REQUIRE(puzzles::all_puzzles().size() == 12);
  for (const puzzles::Puzzle& p : puzzles::all_puzzles()) {
    puzzles::PuzzleReport r = puzzles::check_puzzle(p, puzzles::Variant::Solution);
    INFO(describe(r));
    CHECK(r.pass);
    // Canonical plus every extra set of PUZZLES.md §3, three seeds each.
    CHECK(r.runs == static_cast<int>(p.sets.size()) * 3);
    CHECK(r.max_err <= p.tolerance);
    for (const auto& set : r.sets)
      for (const auto& run : set.runs) {
        CHECK(run.oob_loads == 0);
        CHECK(run.oob_stores == 0);
        CHECK(run.findings.empty());
        CHECK(run.modified_inputs.empty());
      }
  }
}

TEST_CASE("every learner stub runs without crashing and is reported as not solved") {
  for (const puzzles::Puzzle& p : puzzles::all_puzzles()) {
    puzzles::PuzzleReport r = puzzles::check_puzzle(p, puzzles::Variant::Stub);
    INFO("puzzle " << p.number << " " << p.id);
    CHECK_FALSE(r.pass);
    for (const auto& set : r.sets)
      for (const auto& run : set.runs) {
        // A stub builds and runs: it fails by its output, never by an error.
        CHECK(run.status == puzzles::RunStatus::Fail);
        CHECK(run.mismatch_count > 0);
      }
  }
}

TEST_CASE("puzzles are found by number, padded number and id") {
  REQUIRE(puzzles::find_puzzle("7") != nullptr);
  CHECK(puzzles::find_puzzle("7")->id == "long_sum");
  CHECK(puzzles::find_puzzle("07") == puzzles::find_puzzle("long_sum"));
  CHECK(puzzles::find_puzzle("13") == nullptr);
  CHECK(puzzles::find_puzzle("") == nullptr);
}
