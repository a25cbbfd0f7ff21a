// The broken kernel of an early exit that also skips the partial last block
// (b26): nothing goes out of bounds, so there is no finding; the value check
// reports exactly the 8 elements the skipped store should have written.
#include "broken_fixture.h"

using namespace broken_fixture;

TEST_CASE("broken/early_return_skips_last_block: no finding, the last block's 8 outputs never written", "[broken]") {
  const BrokenKernel& b = broken("early_return_skips_last_block");
  RunReport r = run_broken(b);
  CHECK(r.findings.empty());
  CHECK(r.oob_loads == 0);
  CHECK(r.oob_stores == 0);
  CHECK(r.mismatch_count == 8);  // z[192..199]: N0 = 200, B0 = 32
  CHECK(r.status == puzzles::RunStatus::Fail);
}
