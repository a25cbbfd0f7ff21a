// The broken kernel of an early exit that also skips the partial last block
// (b26): nothing goes out of bounds; the sanitizer reports the outputs the
// skipped store leaves unwritten and the inputs its skipped load leaves
// unread, each at that access's line, and the value check the 8 outputs.
#include "broken_fixture.h"

using namespace broken_fixture;

TEST_CASE("broken/early_return_skips_last_block: z[192..199] never written, x[192..199] never read", "[broken]") {
  const BrokenKernel& b = broken("early_return_skips_last_block");
  RunReport r = run_broken(b);
  REQUIRE(kinds(r) == std::vector{FindingKind::NeverWritten, FindingKind::InputNeverRead});
  CHECK(buffer_of(r, r.findings[0]) == "z");
  CHECK(static_cast<int>(loc_of(r, r.findings[0]).line) == line_containing(b.source_file, "tl::store(z + off_x"));
  CHECK(buffer_of(r, r.findings[1]) == "x");
  CHECK(static_cast<int>(loc_of(r, r.findings[1]).line) == line_containing(b.source_file, "tl::load(x + off_x"));
  CHECK(r.oob_loads == 0);
  CHECK(r.oob_stores == 0);
  CHECK(r.mismatch_count == 8);  // z[192..199]: N0 = 200, B0 = 32
  CHECK(r.status == puzzles::RunStatus::Fail);
}
