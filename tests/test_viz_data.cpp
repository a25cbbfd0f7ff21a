// What the viewer computes from a whole trace, without a window: coverage
// counts, value colors and histograms, dot relations, base images, the
// puzzle diff, the GPU slot, source lines, and opening documents.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>

#include "model_coverage.h"
#include "model_document.h"
#include "model_dot.h"
#include "model_gpu_diff.h"
#include "model_grid_image.h"
#include "model_reference.h"
#include "model_source.h"
#include "model_values.h"
#include "registry.h"
#include "viz_test_kernels.h"

namespace {

using tl::EventKind;
using tl::LaneState;

tl::Event access(EventKind kind, std::vector<int64_t> offsets, LaneState state = LaneState::Active) {
  tl::Event e;
  e.kind = kind;
  e.buffer = 0;
  e.shape = {static_cast<int64_t>(offsets.size())};
  e.lanes.assign(offsets.size(), state);
  e.offsets = std::move(offsets);
  return e;
}

// Buffer y [6]: program 0 stores 0..2 twice (one program, counted once),
// program 1 stores 2..3 (element 2 overlaps), masked lanes touch nothing,
// elements 4 and 5 are never written; both load element 5.
tl::Trace coverage_trace() {
  tl::Trace t;
  t.grid = {2, 1, 1};
  tl::TraceBuffer b;
  b.name = "y";
  b.shape = {6};
  b.strides = {1};
  b.extent = 6;
  t.buffers.push_back(b);
  tl::ProgramTrace p0, p1;
  p0.pid = {0, 0, 0};
  p1.pid = {1, 0, 0};
  p0.events = {access(EventKind::Store, {0, 1, 2}), access(EventKind::Store, {0, 1, 2}), access(EventKind::Load, {5}),
               access(EventKind::Store, {4, 5}, LaneState::Masked)};
  p1.events = {access(EventKind::Store, {2, 3}), access(EventKind::Load, {5}),
               access(EventKind::Store, {6, 7}, LaneState::OutOfBounds)};
  t.programs = {p0, p1};
  return t;
}

}  // namespace

TEST_CASE("coverage counts distinct programs per element, overlaps and never-written elements stand out") {
  const viz::BufferCoverage c = viz::compute_coverage(coverage_trace(), 0);
  CHECK(c.written);
  CHECK(c.stores == std::vector<uint32_t>{1, 1, 2, 1, 0, 0});
  CHECK(c.loads == std::vector<uint32_t>{0, 0, 0, 0, 0, 2});
  CHECK(c.never_written() == 2);
  CHECK(c.overlapping() == 1);
  CHECK(c.touched_by(2) == std::vector<int>{0, 1});
  CHECK(c.touched_by(5) == std::vector<int>{0, 1});
  CHECK(c.touched_by(4).empty());
  CHECK(c.touched_count(99) == 0);
  CHECK(viz::coverage_color(c, 0) == viz::palette::written_once);
  CHECK(viz::coverage_color(c, 2) == viz::palette::overlap);
  CHECK(viz::coverage_color(c, 4) == viz::palette::never_written);
  // A buffer only read: colored by how many programs read each element.
  tl::Trace reads = coverage_trace();
  for (auto& p : reads.programs)
    std::erase_if(p.events, [](const tl::Event& e) { return e.kind == EventKind::Store; });
  const viz::BufferCoverage r = viz::compute_coverage(reads, 0);
  CHECK_FALSE(r.written);
  CHECK(viz::coverage_color(r, 5) == viz::read_count_color(2));
  CHECK(viz::coverage_color(r, 0) == viz::palette::untouched);
  // ... unless the caller knows it is an output (an empty stub).
  CHECK(viz::compute_coverage(reads, 0, true).never_written() == 6);
}

TEST_CASE("coverage of puzzle 4: every output element written by exactly its owner") {
  const viz::ViewerDocument doc = viz::open_puzzle(*puzzles::find_puzzle("4"), {});
  const viz::BufferCoverage z = viz::compute_coverage(*doc.trace, 2);
  CHECK(z.never_written() == 0);
  CHECK(z.overlapping() == 0);
  const viz::BufferCoverage x = viz::compute_coverage(*doc.trace, 0);
  CHECK_FALSE(x.written);
  CHECK(x.loads[0] == 3);  // x[0] is loaded by programs (0, 0..2)
}

TEST_CASE("values: range, heatmap colors with NaN apart, histogram") {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  const std::vector<double> v{0, 1, 2, 3, nan, inf, 4};
  const viz::ValueRange r = viz::value_range(v);
  CHECK(r.lo == 0);
  CHECK(r.hi == 4);
  CHECK(r.finite == 5);
  CHECK(r.nan == 1);
  CHECK(r.pos_inf == 1);
  CHECK(viz::value_color(nan, r) == viz::palette::not_a_number);
  CHECK(viz::value_color(0, r) == viz::heat_color(0));
  CHECK(viz::value_color(4, r) == viz::heat_color(1));
  CHECK(viz::value_position(2, r) == 0.5);
  const viz::Histogram h = viz::histogram(v, r, 4);
  CHECK(h.bins == std::vector<int64_t>{1, 1, 1, 2});  // 4 falls in the last bin
  CHECK(h.max_bin() == 2);
  const viz::ValueRange one = viz::value_range(std::vector<double>{7, 7});
  CHECK(viz::value_position(7, one) == 0.5);
}

TEST_CASE("dot: C[m, n] relates to A's row m and B's column n") {
  tl::Event e;
  e.kind = EventKind::Dot;
  e.shape = {16, 8};
  e.a_shape = {16, 32};
  e.b_shape = {32, 8};
  const viz::DotShapes s = viz::dot_shapes(e);
  REQUIRE(s.valid);
  CHECK(s.describe() == "[16, 32] x [32, 8] -> [16, 8]");
  const viz::DotHighlight c = viz::dot_highlight(s, viz::DotOperand::C, {3, 5});
  CHECK((c.a.row0 == 3 && c.a.row1 == 4 && c.a.col0 == 0 && c.a.col1 == 32));
  CHECK((c.b.row0 == 0 && c.b.row1 == 32 && c.b.col0 == 5 && c.b.col1 == 6));
  const viz::DotHighlight a = viz::dot_highlight(s, viz::DotOperand::A, {3, 7});
  CHECK((a.c.row0 == 3 && a.c.row1 == 4 && a.c.cols() == 8));
  CHECK((a.b.row0 == 7 && a.b.row1 == 8));
  CHECK(viz::dot_highlight(s, viz::DotOperand::C, {16, 0}).a.empty());  // outside C
  e.b_shape = {31, 8};
  CHECK_FALSE(viz::dot_shapes(e).valid);
  e.shape = {2, 16, 8};
  e.a_shape = {2, 16, 32};
  e.b_shape = {2, 32, 8};
  CHECK(viz::dot_shapes(e).batch == 2);
}

TEST_CASE("base images: one texel per cell, empty strip cells apart, sampled past the texture limit") {
  tl::TraceBuffer b;
  b.shape = {10};
  b.strides = {1};
  b.extent = 10;
  viz::GridLayout g = viz::default_layout(b);
  g.wrap = 4;
  const viz::GridImage img = viz::build_grid_image(g, [](int64_t o) { return viz::rgba(static_cast<uint8_t>(o), 0, 0); });
  CHECK(img.width == 4);
  CHECK(img.height == 3);
  CHECK(img.pixels[5] == viz::rgba(5, 0, 0));
  CHECK(img.pixels[10] == viz::palette::beyond_tensor);  // cell (2, 2): past element 9
  b.shape = {100, 3};
  b.strides = {3, 1};
  b.extent = 300;
  const viz::GridImage big = viz::build_grid_image(viz::default_layout(b), [](int64_t) { return 0u; }, 32);
  CHECK(big.step == 4);
  CHECK(big.height == 25);
  CHECK(big.width == 1);
}

TEST_CASE("the puzzle panel: pass/fail per set and a diff grid of output vs reference") {
  const puzzles::Puzzle& p = *puzzles::find_puzzle("2");
  const viz::ViewerDocument good = viz::open_puzzle(p, {});
  REQUIRE(good.puzzle);
  CHECK(good.puzzle->pass);
  CHECK(good.puzzle->sets.size() == p.sets.size());
  CHECK(good.puzzle->diff.available);
  CHECK(good.puzzle->diff.mismatch_count == 0);
  CHECK(viz::diff_color(good.puzzle->diff, 0) == viz::palette::match);

  viz::OpenOptions stub;
  stub.stub = true;
  const viz::ViewerDocument learner = viz::open_puzzle(p, stub);
  CHECK_FALSE(learner.puzzle->pass);
  CHECK(learner.puzzle->diff.mismatch_count == 200);  // the empty stub writes nothing
  CHECK(viz::diff_color(learner.puzzle->diff, 199) == viz::palette::never_written);
  CHECK(learner.trace->programs.size() == 7);

  const viz::ViewerDocument broken = viz::open_kernel(p, viz_test::broken_add_block(), "missing store mask", {});
  CHECK_FALSE(broken.puzzle->pass);  // values right, but out of bounds
  CHECK(broken.puzzle->diff.mismatch_count == 0);
  CHECK(broken.puzzle->viewed.oob_stores == 24);

  viz::OpenOptions other;
  other.set = "2b";
  other.seed = 1;
  const viz::ViewerDocument b2 = viz::open_puzzle(p, other);
  CHECK(b2.trace->grid[0] == 8);  // cdiv(1000, 128)
  CHECK(b2.puzzle->viewed.seed == 1);
  other.set = "nope";
  CHECK_THROWS_WITH(viz::open_puzzle(p, other), Catch::Contains("no size set 'nope'"));
}

TEST_CASE("opening targets: puzzles by number or id, trace files, clear errors for anything else") {
  viz::OpenOptions opt;
  CHECK(viz::open_target("p01", opt).puzzle->number == 1);
  CHECK(viz::open_target("add_block", opt).puzzle->number == 2);
  CHECK_THROWS_WITH(viz::open_target("13", opt), Catch::Contains("neither a puzzle"));
  CHECK_THROWS_WITH(viz::open_target("broken/nothing", opt), Catch::Contains("broken"));
  CHECK_THROWS_WITH(viz::open_target("missing.json", opt), Catch::Contains("missing.json"));

  const viz::ViewerDocument doc = viz::open_target("1", opt);
  tl::save_trace(*doc.trace, "viz_p01.json");
  const viz::ViewerDocument loaded = viz::open_target("viz_p01.json", opt);
  CHECK_FALSE(loaded.puzzle);
  CHECK(loaded.trace->programs.size() == doc.trace->programs.size());
  // A truncated file is an error that names the file, not a crash.
  std::ifstream in("viz_p01.json");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::ofstream("viz_truncated.json") << text.substr(0, text.size() / 2);
  CHECK_THROWS_WITH(viz::open_target("viz_truncated.json", opt), Catch::Contains("viz_truncated.json"));
  std::ofstream("viz_garbage.json") << "{\"format\": \"tilescope-trace\", \"version\": 1}";
  CHECK_THROWS_AS(viz::open_target("viz_garbage.json", opt), std::runtime_error);
}

TEST_CASE("the source pane reads the kernel's file and finds each line's events") {
  const viz::ViewerDocument doc = viz::open_puzzle(*puzzles::find_puzzle("4"), {});
  const viz::SourceText src = viz::load_source(*doc.trace);
  REQUIRE(src.found());
  const tl::ProgramTrace& p = doc.trace->programs[0];
  const auto by_line = viz::events_by_line(*doc.trace, p, src);
  const uint32_t store_line = viz::event_line(*doc.trace, p.events[2]);
  REQUIRE(store_line > 0);
  CHECK(by_line[store_line] == std::vector<int>{2});
  CHECK(src.lines[store_line - 1].find("tl::store") != std::string::npos);
  // A trace from elsewhere: found again by its path below the search folder.
  tl::Trace moved = *doc.trace;
  moved.source_file = "/elsewhere/puzzles/p04_outer_add_block.cpp";
  moved.locations.clear();
  CHECK(viz::load_source(moved, TILESCOPE_SOURCE_DIR).found());
  moved.source_file = "/nowhere/at/all.cpp";
  CHECK_FALSE(viz::load_source(moved, TILESCOPE_SOURCE_DIR).found());
}

TEST_CASE("the GPU slot: interpreter vs GPU values diffed per element") {
  tl::TraceBuffer interp;
  interp.name = "z";
  interp.values_after = {1.0, 2.0, std::nan(""), 4.0};
  viz::GpuBufferResult gpu{"z", {1.0, 2.0 + 1e-9, std::nan(""), 5.0}};
  const viz::GpuDiff d = viz::diff_gpu_buffer(interp, gpu, 1e-6);
  REQUIRE(d.available);
  CHECK(d.flagged == std::vector<uint8_t>{0, 0, 0, 1});
  CHECK(d.flagged_count == 1);
  CHECK(d.max_abs_diff == 1.0);
  CHECK(viz::gpu_diff_color(d, 3) == viz::palette::mismatch);
  gpu.values.pop_back();
  CHECK_FALSE(viz::diff_gpu_buffer(interp, gpu, 1e-6).available);
  viz::GpuResults results;
  results.buffers.push_back(gpu);
  CHECK(viz::find_gpu_buffer(results, "z") != nullptr);
  CHECK(viz::find_gpu_buffer(results, "w") == nullptr);
}

TEST_CASE("a build error's line is found for the source pane") {
  const std::string d = "/src/puzzles/p02_add_block.cpp:38:49: error: arange(0, 12) has 12 elements\n  code\n  ^";
  CHECK(viz::diagnostic_line(d, "/src/puzzles/p02_add_block.cpp") == 38);
  CHECK(viz::diagnostic_line(d, "/elsewhere/p02_add_block.cpp") == 38);  // same file name
  CHECK(viz::diagnostic_line(d, "/src/puzzles/p04.cpp") == 0);
  CHECK(viz::diagnostic_line("no location here", "x.cpp") == 0);
  CHECK(viz::diagnostic_line("c:/x.cpp:7:1: error: drive letters keep their colon", "c:/x.cpp") == 7);
}

TEST_CASE("reference diff: the launch's tolerance, NaN matching NaN, a NaN found where a number was expected") {
  tl::Trace t;
  tl::TraceBuffer plain, checked;
  plain.name = "x";
  checked.name = "z";
  checked.shape = {2, 3};
  checked.strides = {3, 1};
  checked.extent = 6;
  checked.values_after = {1.0, 2.0, 3.05, std::nan(""), std::nan(""), 7.0};
  checked.values_expected = {1.0, 2.5, 3.0, std::nan(""), 5.0, 7.0};
  checked.expected_rtol = 0.01;
  checked.expected_atol = 0.02;
  t.buffers = {plain, checked};
  CHECK(viz::buffers_with_reference(t) == std::vector<int>{1});
  const viz::OutputDiff d = viz::reference_output_diff(t.buffers[1]);
  REQUIRE(d.available);
  // 3.05 vs 3.0 is within 0.02 + 0.01 * 3; 2.0 vs 2.5 is not.
  CHECK(d.mismatch == std::vector<uint8_t>{0, 1 + 2, 0, 0, 1 + 1, 0});  // WrongValue, NonFinite
  CHECK(d.mismatch_count == 2);
  CHECK(d.max_abs_diff == 0.5);
  const viz::OutputDiff none = viz::reference_output_diff(t.buffers[0]);
  CHECK_FALSE(none.available);
  CHECK(none.unavailable_reason.find("no reference check") != std::string::npos);
}
