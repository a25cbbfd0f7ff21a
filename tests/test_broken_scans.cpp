// The broken scan and gather kernels: a cumsum over padded lanes (b20) and a
// gather one past its tile (b21), each reported at the right line, program
// and lane.
#include <catch2/catch.hpp>

#include "broken_fixture.h"

using namespace broken_fixture;

TEST_CASE("broken/cumsum_padded_lanes: undefined lanes reach the cumsum, 24 per program, the line below the BUG",
          "[broken]") {
  const BrokenKernel& b = broken("cumsum_padded_lanes");
  RunReport r = run_broken(b);
  REQUIRE(!r.findings.empty());
  const tl::Finding& f = r.findings[0];
  CHECK(f.kind == FindingKind::UndefinedValueUsed);
  check_line(r, f, b, line_containing(b.source_file, "auto running = tl::cumsum(xv, 1);"));
  CHECK(line_containing(b.source_file, "auto running = tl::cumsum(xv, 1);") == puzzles::bug_line(b) + 1);
  CHECK(buffer_of(r, f).empty());
  CHECK(f.programs == 4);
  CHECK(f.lanes == 4 * 24);  // columns 200..223 of the last step, in each of the 4 programs
  REQUIRE(!f.examples.empty());
  CHECK(f.examples[0].pid == ProgramId{0, 0, 0});
  CHECK(f.examples[0].lane_index == std::vector<int64_t>{0, 8});
  // Then the sum that reads the last column, and the store.
  std::vector<FindingKind> k = kinds(r);
  CHECK(std::count(k.begin(), k.end(), FindingKind::UndefinedValueUsed) == static_cast<long>(k.size()));
  CHECK(k.size() == 3);
}

TEST_CASE("broken/gather_reverse_off_by_one: index out of range at lane 0 of every program, at the BUG line",
          "[broken]") {
  const BrokenKernel& b = broken("gather_reverse_off_by_one");
  RunReport r = run_broken(b);
  REQUIRE(kinds(r) == std::vector{FindingKind::IndexOutOfRange});
  const tl::Finding& f = r.findings[0];
  check_line(r, f, b, puzzles::bug_line(b));
  CHECK(f.programs == 7);
  CHECK(f.lanes == 7);
  REQUIRE(!f.examples.empty());
  CHECK(f.examples[0].lane == 0);
  CHECK(f.examples[0].detail == "index 32 is outside [0, 32) along axis 0");
  CHECK_FALSE(r.mismatches.empty());  // every lane reads its left neighbour
}
