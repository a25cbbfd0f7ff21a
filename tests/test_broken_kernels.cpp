// The broken kernels of puzzles/broken/: each is run on its puzzle's inputs
// (seed 0) and must be reported exactly: the finding kinds, the flagged
// programs and lanes, and the kernel line (the line marked "// BUG", or the
// line where the mistake shows). Value bugs must show no finding and the
// expected mismatches; build errors the expected message at the right line.
// And the twelve correct puzzles, at every size and seed, report nothing.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "broken/registry.h"
#include "broken_fixture.h"
#include "error.h"
#include "findings.h"
#include "harness.h"
#include "registry.h"
#include "report_text.h"

using namespace broken_fixture;

namespace {

std::vector<int64_t> iota(int64_t from, int64_t to) {  // [from, to)
  std::vector<int64_t> v;
  for (int64_t i = from; i < to; ++i) v.push_back(i);
  return v;
}

// Straight from the trace, independently of the sanitizer: per program, the
// lanes of the memory events on `line` that are in `state`.
std::map<ProgramId, std::vector<int64_t>> lanes_in_state(const RunReport& r, int line, tl::LaneState state) {
  REQUIRE(r.trace);
  std::map<ProgramId, std::vector<int64_t>> out;
  for (const tl::ProgramTrace& p : r.trace->programs)
    for (const tl::Event& e : p.events) {
      if (e.loc < 0 || static_cast<int>(r.trace->locations[static_cast<size_t>(e.loc)].line) != line) continue;
      for (size_t i = 0; i < e.lanes.size(); ++i)
        if (e.lanes[i] == state) out[p.pid].push_back(static_cast<int64_t>(i));
    }
  return out;
}

// Straight from the trace: per program, how many of its stored lanes land
// on an element that a different program stored before (in program order),
// and which programs those were.
struct Overwrites {
  std::map<ProgramId, int64_t> lanes;
  std::set<ProgramId> previous_writers;
};
Overwrites cross_program_overwrites(const RunReport& r) {
  REQUIRE(r.trace);
  Overwrites o;
  std::map<int64_t, ProgramId> last_writer;  // element offset -> program
  for (const tl::ProgramTrace& p : r.trace->programs)
    for (const tl::Event& e : p.events) {
      if (e.kind != tl::EventKind::Store) continue;
      for (size_t i = 0; i < e.lanes.size(); ++i) {
        if (e.lanes[i] != tl::LaneState::Active) continue;
        auto it = last_writer.find(e.offsets[i]);
        if (it != last_writer.end() && it->second != p.pid) {
          ++o.lanes[p.pid];
          o.previous_writers.insert(it->second);
        }
        last_writer[e.offsets[i]] = p.pid;
      }
    }
  return o;
}

}  // namespace

TEST_CASE("the broken-kernel registry: 12 kernels, each borrowing a puzzle set and marking one BUG line",
          "[broken]") {
  const auto& all = puzzles::all_broken();
  REQUIRE(all.size() >= 12);
  std::set<std::string> names;
  for (const BrokenKernel& b : all) {
    INFO(b.name);
    CHECK(names.insert(b.name).second);
    CHECK(puzzles::find_broken(b.name) == &b);
    CHECK(puzzles::find_broken("broken/" + b.name) == &b);
    REQUIRE(b.kernel != nullptr);
    CHECK(b.kernel->name() == b.name);
    CHECK_FALSE(b.title.empty());
    CHECK(b.explanation.size() > 200);
    CHECK_FALSE(b.expected.empty());
    set_of(b);  // the borrowed puzzle and set exist
    // Exactly one line marked "// BUG", and bug_line() finds it.
    const int line = line_containing(b.source_file, "// BUG");
    CHECK(puzzles::bug_line(b) == line);
  }
  CHECK(puzzles::find_broken("no_such_kernel") == nullptr);
  CHECK(puzzles::find_broken("broken/") == nullptr);
}

TEST_CASE("broken/missing_load_mask: one out-of-bounds load, program 6, lanes 8..31, at the BUG line", "[broken]") {
  const BrokenKernel& b = broken("missing_load_mask");
  RunReport r = run_broken(b);
  REQUIRE(kinds(r) == std::vector{FindingKind::OutOfBoundsLoad});
  const tl::Finding& f = r.findings[0];
  check_line(r, f, b, puzzles::bug_line(b));
  CHECK(buffer_of(r, f) == "x");
  CHECK(f.lanes == 24);
  CHECK(f.programs == 1);
  CHECK(f.examples.at(0).pid == ProgramId{6, 0, 0});
  CHECK(f.examples.at(0).lane == 8);
  CHECK(f.examples.at(0).offset == 200);
  // The exact lanes, from the trace and from the harness's grouped list.
  CHECK(lanes_in_state(r, puzzles::bug_line(b), tl::LaneState::OutOfBounds) ==
        std::map<ProgramId, std::vector<int64_t>>{{{6, 0, 0}, iota(8, 32)}});
  REQUIRE(r.oob.size() == 1);
  CHECK_FALSE(r.oob[0].is_store);
  CHECK(r.oob[0].lanes.size() == 24);
  CHECK(r.oob[0].lanes.back().offset == 223);
  // The poisoned lanes are masked at the store: every output is right, and
  // only the sanitizer catches the bug.
  CHECK(r.mismatch_count == 0);
  CHECK(r.status == puzzles::RunStatus::Fail);
}

TEST_CASE("broken/load_mask_not_store: one out-of-bounds store, program 6, lanes 8..31", "[broken]") {
  const BrokenKernel& b = broken("load_mask_not_store");
  RunReport r = run_broken(b);
  REQUIRE(kinds(r) == std::vector{FindingKind::OutOfBoundsStore});
  const tl::Finding& f = r.findings[0];
  check_line(r, f, b, puzzles::bug_line(b));
  CHECK(buffer_of(r, f) == "z");
  CHECK(f.lanes == 24);
  CHECK(f.programs == 1);
  CHECK(f.examples.at(0).pid == ProgramId{6, 0, 0});
  CHECK(f.examples.at(0).lane == 8);
  CHECK(f.examples.at(0).offset == 200);
  CHECK(lanes_in_state(r, puzzles::bug_line(b), tl::LaneState::OutOfBounds) ==
        std::map<ProgramId, std::vector<int64_t>>{{{6, 0, 0}, iota(8, 32)}});
  CHECK(r.oob_stores == 24);
  CHECK(r.oob_loads == 0);
  CHECK(r.mismatch_count == 0);
  CHECK(r.status == puzzles::RunStatus::Fail);
}

TEST_CASE("broken/off_by_one_mask: one lane (offset 200) out of bounds on the load and on the store", "[broken]") {
  const BrokenKernel& b = broken("off_by_one_mask");
  RunReport r = run_broken(b);
  REQUIRE(kinds(r) == std::vector{FindingKind::OutOfBoundsLoad, FindingKind::OutOfBoundsStore});
  const int load_line = line_containing(b.source_file, "auto xv = tl::load(x + off_x, mask);");
  const int store_line = line_containing(b.source_file, "tl::store(z + off_x, xv + 10.0f, mask);");
  CHECK(puzzles::bug_line(b) == line_containing(b.source_file, "auto mask = off_x <= N0;"));
  check_line(r, r.findings[0], b, load_line);
  check_line(r, r.findings[1], b, store_line);
  for (const tl::Finding& f : r.findings) {
    CHECK(f.lanes == 1);
    CHECK(f.programs == 1);
    REQUIRE(f.examples.size() == 1);
    CHECK(f.examples[0].pid == ProgramId{6, 0, 0});
    CHECK(f.examples[0].lane == 8);
    CHECK(f.examples[0].offset == 200);
  }
  const std::map<ProgramId, std::vector<int64_t>> lane8{{{6, 0, 0}, {8}}};
  CHECK(lanes_in_state(r, load_line, tl::LaneState::OutOfBounds) == lane8);
  CHECK(lanes_in_state(r, store_line, tl::LaneState::OutOfBounds) == lane8);
  CHECK(r.mismatch_count == 0);
}

TEST_CASE("broken/wrong_row_stride: write conflicts of column blocks 2 and 3 with block 0, 890 never written",
          "[broken]") {
  const BrokenKernel& b = broken("wrong_row_stride");
  RunReport r = run_broken(b);
  REQUIRE(kinds(r) == std::vector{FindingKind::WriteConflict, FindingKind::NeverWritten});
  const int store_line = line_containing(b.source_file, "tl::store(z + off_z");
  CHECK(puzzles::bug_line(b) == store_line - 1);  // the offset line, just above the store
  const tl::Finding& conflict = r.findings[0];
  check_line(r, conflict, b, store_line);
  CHECK(buffer_of(r, conflict) == "z");
  CHECK(conflict.lanes == 890);
  CHECK(conflict.programs == 6);
  const tl::FindingExample& first = conflict.examples.at(0);
  CHECK(first.pid == ProgramId{2, 0, 0});
  CHECK(first.lane_index == std::vector<int64_t>{0, 26});  // row 0, column 90 = z offset 90 = "row 1, column 0"
  CHECK(first.offset == 90);
  CHECK(first.other_pid == ProgramId{0, 0, 0});
  for (const tl::FindingExample& e : conflict.examples) {
    CHECK((e.pid[0] == 2 || e.pid[0] == 3));
    CHECK(e.other_pid[0] == 0);
  }
  // The same programs and lane counts, recomputed from the trace's stores.
  Overwrites o = cross_program_overwrites(r);
  CHECK(o.lanes == std::map<ProgramId, int64_t>{{{2, 0, 0}, 192}, {{2, 1, 0}, 192}, {{2, 2, 0}, 150},
                                                {{3, 0, 0}, 128}, {{3, 1, 0}, 128}, {{3, 2, 0}, 100}});
  CHECK(o.previous_writers == std::set<ProgramId>{{0, 0, 0}, {0, 1, 0}, {0, 2, 0}});

  const tl::Finding& unwritten = r.findings[1];
  check_line(r, unwritten, b, store_line);
  CHECK(unwritten.lanes == 890);  // offsets 8110..8999: past the last row's reach
  CHECK(unwritten.examples.at(0).offset == 8110);
  CHECK(r.never_written == 890);
  CHECK(r.oob_loads + r.oob_stores == 0);
  CHECK(r.status == puzzles::RunStatus::Fail);
}

TEST_CASE("broken/wrong_program_id_axis: columns 96..99 never written, no out-of-bounds access, no conflict",
          "[broken]") {
  const BrokenKernel& b = broken("wrong_program_id_axis");
  RunReport r = run_broken(b);
  // Unread inputs: x's last 4 elements, never loaded, are a warning too.
  REQUIRE(kinds(r) == std::vector{FindingKind::NeverWritten, FindingKind::InputNeverRead});
  CHECK(r.findings[1].message == "x[96:100]");
  CHECK(r.findings[1].lanes == 4);
  check_line(r, r.findings[1], b, line_containing(b.source_file, "auto xv = tl::load(x + off_x"));
  const tl::Finding& f = r.findings[0];
  check_line(r, f, b, line_containing(b.source_file, "tl::store(z + off_z"));
  CHECK(puzzles::bug_line(b) == line_containing(b.source_file, "auto off_x = tl::program_id(1)"));
  CHECK(f.lanes == 360);
  std::vector<int64_t> offsets;
  for (const tl::FindingExample& e : f.examples) offsets.push_back(e.offset);
  CHECK(offsets == std::vector<int64_t>{96, 97, 98, 99, 196});
  CHECK(r.oob_loads + r.oob_stores == 0);
  CHECK(cross_program_overwrites(r).lanes.empty());
  // What the check shows: 360 never-written elements, owned by the programs
  // of column block 3; every element that was written is right.
  CHECK(r.mismatch_count == 360);
  CHECK(r.never_written == 360);
  CHECK(r.wrong_value == 0);
  CHECK(r.owners == pids({{3, 0, 0}, {3, 1, 0}, {3, 2, 0}}));
}

TEST_CASE("broken/max_padded_lanes_win: undefined padded lanes reach the max (then the sum and the store)",
          "[broken]") {
  const BrokenKernel& b = broken("max_padded_lanes_win");
  RunReport r = run_broken(b);
  REQUIRE(kinds(r) == std::vector{FindingKind::UndefinedValueUsed, FindingKind::UndefinedValueUsed,
                                  FindingKind::UndefinedValueUsed});
  const tl::Finding& at_max = r.findings[0];
  check_line(r, at_max, b, line_containing(b.source_file, "tl::max(xv, 1)"));
  CHECK(at_max.buffer == -1);
  CHECK(at_max.lanes == 4 * 24);  // the 24 padded lanes of the last step, in each of 4 programs
  CHECK(at_max.programs == 4);
  CHECK(at_max.examples.at(0).pid == ProgramId{0, 0, 0});
  CHECK(at_max.examples.at(0).lane_index == std::vector<int64_t>{0, 8});
  // Those lanes are exactly the masked-off lanes of the load without `other`.
  // (Program 3's padding lies past the end of x, masked all the same.)
  std::map<ProgramId, std::vector<int64_t>> padded;
  for (int64_t p = 0; p < 3; ++p) padded[{p, 0, 0}] = iota(8, 32);
  CHECK(lanes_in_state(r, puzzles::bug_line(b), tl::LaneState::Masked) == padded);
  CHECK(lanes_in_state(r, puzzles::bug_line(b), tl::LaneState::MaskedOutOfBounds) ==
        std::map<ProgramId, std::vector<int64_t>>{{{3, 0, 0}, iota(8, 32)}});
  // The row max is now undefined, and so is everything computed from it.
  const tl::Finding& at_sum = r.findings[1];
  check_line(r, at_sum, b, line_containing(b.source_file, "tl::sum(p, 1)"));
  CHECK(at_sum.lanes == 4 * 32);
  CHECK(at_sum.programs == 4);
  const tl::Finding& at_store = r.findings[2];
  check_line(r, at_store, b, line_containing(b.source_file, "tl::store(z + off_2d"));
  CHECK(buffer_of(r, at_store) == "z");
  CHECK(at_store.lanes == 800);
  // Values: the padded exp(0 - max) terms inflate every row's sum.
  CHECK(r.wrong_value == 800);
  CHECK(r.err > 0.05);

  // All-negative rows (set 8e): the padded 0 wins the max, every output is 0.
  RunReport negative = run_broken(b, "8e");
  CHECK(kinds(negative) == kinds(r));
  CHECK(negative.err == Approx(1.0));  // ||0 - ref|| / ||ref||
  REQUIRE_FALSE(negative.mismatches.empty());
  for (const puzzles::Mismatch& m : negative.mismatches) CHECK(m.found == 0.0);
}

TEST_CASE("broken/two_programs_same_rows: programs 1..3 each store z[0] after the program before", "[broken]") {
  const BrokenKernel& b = broken("two_programs_same_rows");
  RunReport r = run_broken(b);
  // Unread inputs: every program sums row 0, so rows 1..3 of x are never read.
  REQUIRE(kinds(r) == std::vector{FindingKind::WriteConflict, FindingKind::NeverWritten, FindingKind::InputNeverRead});
  CHECK(r.findings[2].message == "x[1:4, :]");
  CHECK(r.findings[2].lanes == 600);
  const int store_line = line_containing(b.source_file, "tl::store(z + off_i, acc, mask_i);");
  const tl::Finding& f = r.findings[0];
  check_line(r, f, b, store_line);
  CHECK(f.lanes == 3);
  CHECK(f.programs == 3);
  REQUIRE(f.examples.size() == 3);
  for (int64_t p = 1; p <= 3; ++p) {
    const tl::FindingExample& e = f.examples[static_cast<size_t>(p - 1)];
    CHECK(e.pid == ProgramId{p, 0, 0});
    CHECK(e.other_pid == ProgramId{p - 1, 0, 0});
    CHECK(e.lane == 0);
    CHECK(e.offset == 0);
  }
  Overwrites o = cross_program_overwrites(r);
  CHECK(o.lanes == std::map<ProgramId, int64_t>{{{1, 0, 0}, 1}, {{2, 0, 0}, 1}, {{3, 0, 0}, 1}});
  check_line(r, r.findings[1], b, store_line);
  CHECK(r.findings[1].lanes == 3);  // z[1..3]
  // z[0] is right (every program summed row 0); z[1..3] were never written.
  CHECK(r.never_written == 3);
  CHECK(r.wrong_value == 0);
  CHECK(r.owners == pids({{1, 0, 0}, {2, 0, 0}, {3, 0, 0}}));
}

TEST_CASE("broken/read_output_before_write: each program reads its z element before anything wrote it",
          "[broken]") {
  const BrokenKernel& b = broken("read_output_before_write");
  RunReport r = run_broken(b);
  REQUIRE(kinds(r) == std::vector{FindingKind::UninitializedRead});
  const tl::Finding& f = r.findings[0];
  check_line(r, f, b, puzzles::bug_line(b));
  CHECK(buffer_of(r, f) == "z");
  CHECK(f.lanes == 4);
  CHECK(f.programs == 4);
  REQUIRE(f.examples.size() == 4);
  for (int64_t p = 0; p < 4; ++p) {
    CHECK(f.examples[static_cast<size_t>(p)].pid == ProgramId{p, 0, 0});
    CHECK(f.examples[static_cast<size_t>(p)].offset == p);
  }
  // Every sum starts from the NaN fill: all four outputs are NaN.
  CHECK(r.mismatch_count == 4);
  CHECK(r.never_written + r.non_finite == 4);
  CHECK(std::isinf(r.err));
}

// Harness bug (puzzles/compare.cpp, not the sanitizer): a NaN computed from
// the NaN fill keeps its payload 0x7FC0DEAD, so the comparison calls these
// written outputs "never written", contradicting the sanitizer (no
// never-written finding). It could ask the output's written map instead.
TEST_CASE("outputs computed from the NaN fill are non-finite, not never written",
          "[broken]") {
  RunReport r = run_broken(broken("read_output_before_write"));
  CHECK(r.non_finite == 4);
  CHECK(r.never_written == 0);
}

TEST_CASE("broken/signed_shift_no_mask: no finding, every output wrong", "[broken]") {
  const BrokenKernel& b = broken("signed_shift_no_mask");
  RunReport r = run_broken(b);
  CHECK(r.findings.empty());
  CHECK(r.oob_loads + r.oob_stores == 0);
  CHECK(r.status == puzzles::RunStatus::Fail);
  CHECK(r.err >= 0.4);
  CHECK(r.wrong_value == 32 * 32);
  CHECK(r.owners == pids({{0, 0, 0}, {0, 1, 0}, {1, 0, 0}, {1, 1, 0}}));
}

TEST_CASE("broken/loop_bound_one_block_short: x[:, 192:200] never read, every row misses exactly its last 8 columns",
          "[broken]") {
  const BrokenKernel& b = broken("loop_bound_one_block_short");
  RunReport r = run_broken(b);
  // Unread inputs: the unread tail is a warning (the run fails on its values).
  REQUIRE(kinds(r) == std::vector{FindingKind::InputNeverRead});
  const tl::Finding& unread = r.findings[0];
  check_line(r, unread, b, line_containing(b.source_file, "auto xv = tl::load(x + "));
  CHECK(buffer_of(r, unread) == "x");
  CHECK(unread.lanes == 4 * 8);
  CHECK(unread.message == "x[:, 192:200]");
  CHECK(unread.examples.at(0).offset == 192);
  CHECK(r.finding_errors == 0);
  CHECK(r.status == puzzles::RunStatus::Fail);
  CHECK(r.err > 0.1);
  CHECK(r.wrong_value == 4);
  CHECK(r.owners == pids({{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {3, 0, 0}}));
  // found = expected - (x[i, 192] + ... + x[i, 199]): the dropped tail.
  puzzles::RunBuffers in = puzzles::make_buffers(puzzle_of(b), set_of(b), 0);
  REQUIRE(r.mismatches.size() == 4);
  for (const puzzles::Mismatch& m : r.mismatches) {
    double tail = 0;
    for (int64_t t = 192; t < 200; ++t) tail += in.inputs[0].get(m.flat * 200 + t);
    CHECK(m.expected - m.found == Approx(tail).margin(1e-4));
  }
}

TEST_CASE("broken/interleaved_wrong_row_stride: in bounds, BiT's tail unread, nothing unwritten, D wrong everywhere",
          "[broken]") {
  const BrokenKernel& b = broken("interleaved_wrong_row_stride");
  CHECK(puzzle_of(b).example);
  RunReport r = run_broken(b);
  // Unread inputs: rows r * 64 + k (k < 96) cover offsets [0, 8224) of BiT's
  // 128 * 96; the rest was never read, a warning at the BUG line.
  REQUIRE(kinds(r) == std::vector{FindingKind::InputNeverRead});
  CHECK(buffer_of(r, r.findings[0]) == "BiT");
  CHECK(r.findings[0].lanes == 128 * 96 - 8224);
  CHECK(r.findings[0].message == "within BiT[85:128, :]");
  CHECK(r.findings[0].examples.at(0).offset == 8224);
  check_line(r, r.findings[0], b, puzzles::bug_line(b));
  CHECK(r.finding_errors == 0);
  CHECK(r.oob_loads + r.oob_stores == 0);
  CHECK(r.never_written == 0);
  CHECK(r.status == puzzles::RunStatus::Fail);
  CHECK(r.err > 0.5);
  CHECK(r.wrong_value == r.mismatch_count);
  CHECK(r.mismatch_count > r.total * 9 / 10);
  CHECK(r.owners == pids({{0, 0, 0}, {0, 1, 0}, {1, 0, 0}, {1, 1, 0}}));
  // The text report says where to look.
  CHECK(puzzles::format_run(r).find("a stride or index that") != std::string::npos);
  // The correct kernel passes on the same set and seed.
  CHECK(puzzles::run_kernel(puzzle_of(b), *puzzle_of(b).solution, set_of(b), 0).passed());
}

TEST_CASE("broken/arange_not_power_of_two: a build error at the arange line", "[broken]") {
  const BrokenKernel& b = broken("arange_not_power_of_two");
  RunReport r = run_broken(b);
  REQUIRE(r.status == puzzles::RunStatus::Error);
  CHECK(r.error_kind == "build");
  INFO(r.error);
  CHECK(r.error.find("arange(0, 31) has 31 elements; the length must be a power of two") != std::string::npos);
  puzzles::RunBuffers in = puzzles::make_buffers(puzzle_of(b), set_of(b), 0);
  try {
    tl::build_ir(*b.kernel, puzzles::launch_args(set_of(b), in));
    FAIL("the kernel built");
  } catch (const tl::BuildError& e) {
    CHECK(e.loc().file == b.source_file);
    CHECK(static_cast<int>(e.loc().line) == puzzles::bug_line(b));
    CHECK(r.error.rfind(e.loc().str() + ": error: arange(0, 31)", 0) == 0);
  }
}

TEST_CASE("broken/dot_shape_mismatch: a build error at the dot naming both shapes", "[broken]") {
  const BrokenKernel& b = broken("dot_shape_mismatch");
  RunReport r = run_broken(b);
  REQUIRE(r.status == puzzles::RunStatus::Error);
  CHECK(r.error_kind == "build");
  INFO(r.error);
  CHECK(r.error.find("dot shape mismatch: a is [1, 16, 16] and b is [1, 1, 16]") != std::string::npos);
  puzzles::RunBuffers in = puzzles::make_buffers(puzzle_of(b), set_of(b), 0);
  try {
    tl::build_ir(*b.kernel, puzzles::launch_args(set_of(b), in));
    FAIL("the kernel built");
  } catch (const tl::BuildError& e) {
    CHECK(e.loc().file == b.source_file);
    CHECK(static_cast<int>(e.loc().line) == line_containing(b.source_file, "acc = tl::dot(xv, yv, acc);"));
    CHECK(puzzles::bug_line(b) == line_containing(b.source_file, "auto ly ="));
  }
}

TEST_CASE("every broken kernel fails `check`, with the same findings for 1 and 8 threads", "[broken]") {
  for (const BrokenKernel& b : puzzles::all_broken()) {
    INFO(b.name);
    puzzles::CheckOptions opt;
    opt.sets = {b.set};
    opt.seeds = {0};
    CHECK_FALSE(puzzles::check_kernel(puzzle_of(b), *b.kernel, opt).pass);
    RunReport one = run_broken(b, "", 1), eight = run_broken(b, "", 8);
    REQUIRE(one.findings.size() == eight.findings.size());
    for (size_t i = 0; i < one.findings.size(); ++i) {
      const tl::Finding &f = one.findings[i], &g = eight.findings[i];
      CHECK(f.kind == g.kind);
      CHECK(f.loc == g.loc);
      CHECK(f.lanes == g.lanes);
      CHECK(f.programs == g.programs);
      REQUIRE(f.examples.size() == g.examples.size());
      for (size_t k = 0; k < f.examples.size(); ++k) {
        CHECK(f.examples[k].pid == g.examples[k].pid);
        CHECK(f.examples[k].lane == g.examples[k].lane);
        CHECK(f.examples[k].offset == g.examples[k].offset);
        CHECK(f.examples[k].other_pid == g.examples[k].other_pid);
      }
    }
  }
}

TEST_CASE("a broken kernel's finding, as text, names its file, line, program and lane", "[broken]") {
  const BrokenKernel& b = broken("missing_load_mask");
  RunReport r = run_broken(b);
  REQUIRE(r.findings.size() == 1);
  const std::string text =
      tl::format_findings(r.findings, tl::FindingContext{r.kernel_name, &r.finding_locations, &r.finding_buffers});
  INFO(text);
  const tl::SrcLoc& loc = loc_of(r, r.findings[0]);
  CHECK(text.rfind(loc.str() + ": error: out-of-bounds load from x in program (6, 0, 0), lane [8]: "
                                   "element offset 200 is outside [0, 200)",
                   0) == 0);
  CHECK(text.find(tl::source_line(b.source_file, static_cast<uint32_t>(puzzles::bug_line(b)))) !=
        std::string::npos);
  CHECK(text.find("24 lanes in 1 program") != std::string::npos);
  CHECK(text.find("1 finding (1 error) in kernel 'missing_load_mask'") != std::string::npos);
}

TEST_CASE("strict mode stops a broken kernel at its first finding", "[broken]") {
  const BrokenKernel& b = broken("missing_load_mask");
  tl::RunOptions opt;
  opt.strict = true;
  RunReport r = puzzles::run_kernel(puzzle_of(b), *b.kernel, set_of(b), 0, opt);
  REQUIRE_FALSE(r.findings.empty());
  CHECK(r.findings[0].kind == FindingKind::OutOfBoundsLoad);
  CHECK(r.findings[0].lanes == 1);
  CHECK(r.findings[0].examples.at(0).pid == ProgramId{6, 0, 0});
  CHECK(r.findings[0].examples.at(0).lane == 8);
}

TEST_CASE("the 12 correct puzzles report no finding at any size or seed", "[broken][puzzles]") {
  int runs = 0;
  for (const puzzles::Puzzle& p : puzzles::all_puzzles())
    for (const puzzles::SizeSet& s : p.sets)
      for (uint32_t seed : {0u, 1u, 2u}) {
        RunReport r = puzzles::run_kernel(p, *p.solution, s, seed);
        INFO(p.id << " set " << s.name << " seed " << seed << "\n"
                  << tl::format_findings(r.findings, tl::FindingContext{r.kernel_name, &r.finding_locations,
                                                                        &r.finding_buffers}));
        CHECK(r.findings.empty());
        CHECK(r.passed());
        ++runs;
      }
  CHECK(runs >= 12 * 4 * 3);
}
