// The value-finding broken kernels (b14..): bugs that stay in bounds, each caught
// by one of the value findings at its line, program and lane; and none of
// those kinds on the correct puzzles and examples at any size set and seed.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "broken_fixture.h"

using namespace broken_fixture;

namespace {

const std::set<FindingKind> kValueKinds{FindingKind::IndexOverflow,       FindingKind::ShiftOutOfRange,
                                        FindingKind::LossyIntCast,        FindingKind::FloatToIntOutOfRange,
                                        FindingKind::FloatCastOverflow,   FindingKind::InputNeverRead};

std::string text_of(const RunReport& r) {
  return tl::format_findings(r.findings, tl::FindingContext{r.kernel_name, &r.finding_locations, &r.finding_buffers});
}

}  // namespace

TEST_CASE("broken/fixed_point_index_overflow: the i32 product wraps from program 5, lane 4", "[broken][values]") {
  const BrokenKernel& b = broken("fixed_point_index_overflow");
  RunReport r = run_broken(b);
  INFO(text_of(r));
  REQUIRE(kinds(r) == std::vector{FindingKind::IndexOverflow, FindingKind::OutOfBoundsLoad, FindingKind::PoisonStored,
                                  FindingKind::InputNeverRead});
  const tl::Finding& f = r.findings[0];
  check_line(r, f, b, puzzles::bug_line(b));
  CHECK(f.message == "i32 multiply");
  // off_z * 13107200 passes 2^31 from off_z = 164: program 5's lanes 4..31
  // and all of program 6 (its padded lanes compute the product too).
  CHECK(f.lanes == 28 + 32);
  CHECK(f.programs == 2);
  CHECK(f.examples.at(0).pid == ProgramId{5, 0, 0});
  CHECK(f.examples.at(0).lane == 4);
  CHECK(f.examples.at(0).detail == "164 * 13107200 = 2149580800, wraps to -2145386496");
  CHECK(text_of(r).find("error: integer overflow in i32 multiply feeding a pointer offset in program (5, 0, 0), "
                        "lane [4]: 164 * 13107200 = 2149580800, wraps to -2145386496") != std::string::npos);
  // Where the damage lands: the same lanes' loads, once masked.
  CHECK(r.findings[1].examples.at(0).pid == ProgramId{5, 0, 0});
  CHECK(r.findings[1].lanes == 28 + 8);
  // And what x's wrapped indices never reached.
  CHECK(r.findings[3].message == "x[164:200]");
  CHECK(r.status == puzzles::RunStatus::Fail);
}

TEST_CASE("broken/nibble_shift_in_bytes: codes 4..7 of every word shift by 32..56", "[broken][values]") {
  const BrokenKernel& b = broken("nibble_shift_in_bytes");
  RunReport r = run_broken(b);
  INFO(text_of(r));
  REQUIRE(kinds(r) == std::vector{FindingKind::ShiftOutOfRange});
  const tl::Finding& f = r.findings[0];
  check_line(r, f, b, line_containing(b.source_file, ">> nibble_shifts"));
  CHECK(puzzles::bug_line(b) == line_containing(b.source_file, "auto nibble_shifts ="));
  CHECK(f.message == "i32 right shift");
  CHECK(f.lanes == 4 * 16 * 8 * 4);  // 4 programs, [16 rows, 8 words, codes 4..7]
  CHECK(f.programs == 4);
  CHECK(f.examples.at(0).pid == ProgramId{0, 0, 0});
  CHECK(f.examples.at(0).lane_index == std::vector<int64_t>{0, 0, 4});
  CHECK(f.examples.at(0).detail.find(" >> 32: the count is not below the width 32") != std::string::npos);
  CHECK(r.status == puzzles::RunStatus::Fail);
  CHECK(r.wrong_value > 0);
}

TEST_CASE("broken/pack_into_i8: shifted codes lose bits in an i8 (a warning), the words come out wrong",
          "[broken][values]") {
  const BrokenKernel& b = broken("pack_into_i8");
  RunReport r = run_broken(b);
  INFO(text_of(r));
  REQUIRE(kinds(r) == std::vector{FindingKind::LossyIntCast});
  const tl::Finding& f = r.findings[0];
  check_line(r, f, b, puzzles::bug_line(b));
  CHECK(f.message == "from i32 to i8");
  CHECK(std::string(tl::finding_severity(f.kind)) == "warning");
  CHECK(f.programs == 37);  // every row
  // Code j of a word sits at bit 2j: only j >= 3 can leave the i8. (Seed
  // 0's first word has code 3 at j = 3: 3 << 6 = 192, -64 as an i8.)
  for (const tl::FindingExample& e : f.examples) {
    REQUIRE(e.lane_index.size() == 2);
    CHECK(e.lane_index[1] >= 3);
  }
  CHECK(f.examples.at(0).pid == ProgramId{0, 0, 0});
  CHECK(f.examples.at(0).lane_index == std::vector<int64_t>{0, 3});
  CHECK(f.examples.at(0).detail == "192 becomes -64");
  CHECK(r.status == puzzles::RunStatus::Fail);
  CHECK(r.mismatch_count > r.total * 9 / 10);
}

TEST_CASE("no value finding fires on the 12 puzzles and 11 examples, any small size set, seeds 0..2",
          "[broken][values][puzzles]") {
  // Benchmark-size sets (SizeSet::large) have their own test cases below.
  int runs = 0;
  std::vector<const puzzles::Puzzle*> all;
  for (const puzzles::Puzzle& p : puzzles::all_puzzles()) all.push_back(&p);
  for (const puzzles::Puzzle& p : puzzles::all_examples()) all.push_back(&p);
  CHECK(all.size() == 23);
  for (const puzzles::Puzzle* p : all)
    for (const puzzles::SizeSet& s : p->sets) {
      if (s.large) continue;
      for (uint32_t seed : {0u, 1u, 2u}) {
        RunReport r = puzzles::run_kernel(*p, *p->solution, s, seed);
        INFO(p->id << " set " << s.name << " seed " << seed << "\n" << text_of(r));
        for (const tl::Finding& f : r.findings) CHECK(kValueKinds.count(f.kind) == 0);
        ++runs;
      }
    }
  CHECK(runs >= 23 * 3 * 3);
}

// The examples' benchmark-size sets: the same kernels at GPU sizes, too
// slow under the sanitizers. Hidden from test discovery ("[.large]"), one
// case per family and seed; tests/CMakeLists.txt registers seed 0 of each
// family as a CTest entry outside the sanitizer build (at these sizes one
// seed draws 10^7 to 10^8 inputs from the distribution the small sets'
// three seeds draw from, and CI's time is bounded). Seeds 1 and 2 run with
// `tilescope_tests "[.large]"`.
namespace {
void check_benchmark_sets_raise_no_value_findings(const std::vector<std::string>& ids, uint32_t seed) {
  int runs = 0;
  for (const puzzles::Puzzle& p : puzzles::all_examples()) {
    if (std::find(ids.begin(), ids.end(), p.id) == ids.end()) continue;
    for (const puzzles::SizeSet& s : p.sets) {
      if (!s.large) continue;
      RunReport r = puzzles::run_kernel(p, *p.solution, s, seed);
      INFO(p.id << " set " << s.name << " seed " << seed << "\n" << text_of(r));
      CHECK(r.passed());
      for (const tl::Finding& f : r.findings) CHECK(kValueKinds.count(f.kind) == 0);
      ++runs;
    }
  }
  // Every id found, with a benchmark set.
  CHECK(runs >= static_cast<int>(ids.size()));
}
}  // namespace

// One case per family and seed: FAMILY names it, the rest are its kernels.
#define TILESCOPE_BENCHMARK_SETS_CASE(FAMILY, SEED, ...)                                            \
  TEST_CASE("no value finding fires on " FAMILY "'s benchmark-size sets with seed " #SEED,  \
            "[.large][values]") {                                                                   \
    check_benchmark_sets_raise_no_value_findings({__VA_ARGS__}, SEED);                              \
  }
#define TILESCOPE_BENCHMARK_SETS_CASES(FAMILY, ...)        \
  TILESCOPE_BENCHMARK_SETS_CASE(FAMILY, 0, __VA_ARGS__)    \
  TILESCOPE_BENCHMARK_SETS_CASE(FAMILY, 1, __VA_ARGS__)    \
  TILESCOPE_BENCHMARK_SETS_CASE(FAMILY, 2, __VA_ARGS__)
TILESCOPE_BENCHMARK_SETS_CASES("E1", "e1_v1", "e1_v2")
TILESCOPE_BENCHMARK_SETS_CASES("E2 and E3", "e2", "e3")
TILESCOPE_BENCHMARK_SETS_CASES("E4", "e4_fused", "e4_splitk")
TILESCOPE_BENCHMARK_SETS_CASES("E5", "e5_fwd", "e5_bwd")
#undef TILESCOPE_BENCHMARK_SETS_CASES
#undef TILESCOPE_BENCHMARK_SETS_CASE

TEST_CASE("broken/f16_exponentials: on set 8d, exp(x) of every x in (11.09, 88.7) overflows f16 (a warning)",
          "[broken][values]") {
  const BrokenKernel& b = broken("f16_exponentials");
  RunReport r = run_broken(b);
  INFO(text_of(r));
  REQUIRE_FALSE(r.findings.empty());
  const tl::Finding& f = r.findings[0];
  CHECK(f.kind == FindingKind::FloatCastOverflow);
  check_line(r, f, b, puzzles::bug_line(b));
  CHECK(f.message == "from f32 to f16");
  CHECK(std::string(tl::finding_severity(f.kind)) == "warning");
  CHECK(f.programs == 4);  // every row has such values
  // The first lane, recomputed from the inputs as the kernel computes it:
  // row 0, the first column whose exp2(x * log2 e) is finite in f32 but
  // past f16's range (65520 and up round to inf).
  puzzles::RunBuffers in = puzzles::make_buffers(puzzle_of(b), set_of(b), 0);
  int64_t first = -1;
  float value = 0;
  for (int64_t c = 0; c < 200 && first < 0; ++c) {
    const float v = std::exp2(static_cast<float>(in.inputs[0].get(c)) * 1.44269504f);
    if (std::isfinite(v) && v >= 65520.0f) {
      first = c;
      value = v;
    }
  }
  REQUIRE(first >= 0);
  const tl::FindingExample& e = f.examples.at(0);
  CHECK(e.pid == ProgramId{0, 0, 0});
  CHECK(e.lane_index == std::vector<int64_t>{0, first % 32});
  char expected[64];
  std::snprintf(expected, sizeof expected, "%.9g becomes inf", static_cast<double>(value));
  CHECK(e.detail == expected);
  CHECK(r.status == puzzles::RunStatus::Fail);
  // On inputs near 0 nothing overflows, and nothing is reported.
  for (const tl::Finding& g : run_broken(b, "canonical").findings) CHECK(g.kind != FindingKind::FloatCastOverflow);
}

TEST_CASE("broken/codes_in_i8: on set 8bit, codes from 127.5 up are out of an i8's range (an error)",
          "[broken][values]") {
  const BrokenKernel& b = broken("codes_in_i8");
  RunReport r = run_broken(b);
  INFO(text_of(r));
  REQUIRE(kinds(r) == std::vector{FindingKind::FloatToIntOutOfRange});
  const tl::Finding& f = r.findings[0];
  check_line(r, f, b, puzzles::bug_line(b));
  CHECK(f.message == "from f32 to i8");
  CHECK(std::string(tl::finding_severity(f.kind)) == "error");
  CHECK(f.programs == 6);  // every row of set 8bit has codes above 127
  const tl::FindingExample& e = f.examples.at(0);
  CHECK(e.pid == ProgramId{0, 0, 0});
  REQUIRE(e.lane_index.size() == 2);  // [word, code]: a [64, 4] tile at BITS = 8
  double value = 0;
  REQUIRE(std::sscanf(e.detail.c_str(), "%lf", &value) == 1);
  CHECK(value >= 127.5);
  CHECK(value < 256.0);
  CHECK(e.detail.ends_with(" saturates to 127"));
  CHECK(r.status == puzzles::RunStatus::Fail);
  // With 2-bit codes the same kernel is right, and says nothing.
  CHECK(run_broken(b, "canonical").findings.empty());
}
