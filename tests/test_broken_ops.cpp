// The broken kernels of the atomic, bitcast and dot ops (b22..b24): an out-of-bounds atomic
// lane, float offsets bitcast to i32, and a dot fed by a masked load
// without `other`. Each finding is checked at its line, program and lane.
#include "broken_fixture.h"

using namespace broken_fixture;

namespace {
int line_of(const RunReport& r, const tl::Finding& f) { return static_cast<int>(loc_of(r, f).line); }
}  // namespace

TEST_CASE("broken/atomic_xchg_one_past_end: one out-of-bounds atomic lane, offset 200, at the BUG line", "[broken]") {
  const BrokenKernel& b = broken("atomic_xchg_one_past_end");
  RunReport r = run_broken(b);
  REQUIRE(kinds(r) == std::vector{FindingKind::OutOfBoundsStore});
  const tl::Finding& f = r.findings[0];
  CHECK(line_of(r, f) == puzzles::bug_line(b));
  CHECK(buffer_of(r, f) == "z");
  CHECK(f.lanes == 1);
  CHECK(f.programs == 1);
  CHECK(f.examples.at(0).pid == ProgramId{6, 0, 0});
  CHECK(f.examples.at(0).lane == 8);
  CHECK(f.examples.at(0).offset == 200);
  CHECK(r.oob_stores == 1);
  CHECK(r.mismatch_count == 0);  // every in-bounds value is right
  CHECK(r.status == puzzles::RunStatus::Fail);
}

TEST_CASE("broken/bitcast_float_offsets: every lane but offset 0 loads far out of bounds", "[broken]") {
  const BrokenKernel& b = broken("bitcast_float_offsets");
  RunReport r = run_broken(b);
  // The poison those loads give reaches z, and x is barely read.
  REQUIRE(kinds(r) ==
          std::vector{FindingKind::OutOfBoundsLoad, FindingKind::PoisonStored, FindingKind::InputNeverRead});
  const tl::Finding& f = r.findings[0];
  CHECK(line_of(r, f) == puzzles::bug_line(b) + 1);
  CHECK(line_of(r, r.findings[1]) == puzzles::bug_line(b) + 2);
  CHECK(buffer_of(r, f) == "x");
  CHECK(f.lanes == 199);  // N0 = 200 active lanes; offset 0 (0.0's bits are 0) is in bounds
  // Program 0, lane 1: 1.0f reinterpreted is 0x3f800000.
  CHECK(f.examples.at(0).pid == ProgramId{0, 0, 0});
  CHECK(f.examples.at(0).lane == 1);
  CHECK(f.examples.at(0).offset == 0x3f800000);
  CHECK(r.status == puzzles::RunStatus::Fail);
}

TEST_CASE("broken/dot_operand_without_other: undefined lanes reach the dot two lines below the BUG", "[broken]") {
  const BrokenKernel& b = broken("dot_operand_without_other");
  RunReport r = run_broken(b);
  REQUIRE_FALSE(r.findings.empty());
  const int dot_line = line_containing(b.source_file, "acc = tl::dot(xv, yv, acc);");
  CHECK(dot_line == puzzles::bug_line(b) + 2);
  bool at_dot = false;
  for (const tl::Finding& f : r.findings) {
    INFO(tl::finding_kind_name(f.kind) << " at line " << line_of(r, f));
    if (f.kind == FindingKind::UndefinedValueUsed && line_of(r, f) == dot_line) at_dot = true;
  }
  CHECK(at_dot);
  CHECK(r.mismatch_count == 0);  // tl:: fills masked lanes with 0
}

TEST_CASE("broken/clamp_index_to_n: the clamped index reads offset 200 in 24 lanes of the last program", "[broken]") {
  const BrokenKernel& b = broken("clamp_index_to_n");
  RunReport r = run_broken(b);
  REQUIRE(kinds(r) == std::vector{FindingKind::OutOfBoundsLoad});
  const tl::Finding& f = r.findings[0];
  CHECK(line_of(r, f) == puzzles::bug_line(b) + 1);
  CHECK(buffer_of(r, f) == "x");
  CHECK(f.lanes == 24);
  CHECK(f.programs == 1);
  CHECK(f.examples.at(0).pid == ProgramId{6, 0, 0});
  CHECK(f.examples.at(0).lane == 8);
  CHECK(f.examples.at(0).offset == 200);
  CHECK(r.mismatch_count == 0);  // every stored value is right
  CHECK(r.status == puzzles::RunStatus::Fail);
}
