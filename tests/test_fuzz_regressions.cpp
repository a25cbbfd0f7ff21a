// Inputs the fuzzers (tests/fuzz/) found to crash or to trip UBSan, fed to
// the same code: each must now give a clean error or a sane result.
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "command_line.h"
#include "model_event_cells.h"
#include "model_layout.h"
#include "trace.h"
#include "trace_fixtures.h"

using namespace trace_fixtures;

namespace {

constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

// A load of `offsets` (all lanes out of bounds) from a [5] buffer, placed
// the way the viewer draws it.
viz::EventCells cells_of(tl::ir::Shape tile, std::vector<int64_t> offsets, std::vector<int64_t> shape = {5}) {
  tl::TraceBuffer b{"x", tl::DType::f32, shape, {}, 1, 0, {}, {}, {}, 0, 0};
  b.strides.assign(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;) b.strides[d - 1] = b.strides[d] * shape[d];
  for (int64_t n : shape) b.extent *= n;
  const std::vector<LaneState> lanes(offsets.size(), LaneState::OutOfBounds);
  const tl::Event e = memory_event(EventKind::Load, 0, 0, std::move(tile), std::move(offsets), lanes);
  return viz::map_event(e, viz::default_layout(b));
}

}  // namespace

TEST_CASE("fuzz: a grid whose program count overflows int64 is rejected", "[trace][fuzz]") {
  // TraceIndex numbered program [0,3,0] of grid [2^62,4,1] as 3 * 2^62.
  nlohmann::json j = sample_json();
  j["grid"] = {int64_t{1} << 62, 4, 1};
  CHECK(error_of(j) == "trace JSON: grid: grid [4611686018427387904,4,1] has too many programs");
  j["grid"] = {int64_t{1} << 31, int64_t{1} << 31, 2};  // 2^63: one too many
  CHECK_THAT(error_of(j), Catch::Matchers::EndsWith("has too many programs"));
  j["grid"] = {int64_t{1} << 31, int64_t{1} << 31, 1};
  CHECK_THAT(error_of(j), !Catch::Matchers::Contains("grid"));
}

TEST_CASE("fuzz: offsets at the int64 limits are drawn far away, without overflow", "[viz][fuzz]") {
  // fit_affine took kMax - kMin as a step; the strip's column was
  // flat - floor(flat / wrap) * wrap, which overflows near kMin.
  const viz::EventCells ec = cells_of({4}, {kMin, kMax, kMin + 1, kMax - 1});
  REQUIRE(ec.cells.size() == 4);
  for (const viz::EventCell& c : ec.cells) {
    CHECK(!c.inside);
    CHECK(std::llabs(c.cell.row) <= (int64_t{1} << 61));
    CHECK(c.cell.col >= 0);
    CHECK(c.cell.col < 5);
  }
  CHECK(ec.bounds.rows() > 0);
}

TEST_CASE("fuzz: an affine tile whose lanes overflow falls back to offsets", "[viz][fuzz]") {
  // Offsets kMin + l * 2^62 are affine; drawing lane 2 at its tile position
  // computed kMin + 2 * 2^62 through an overflowing 2 * 2^62.
  const viz::EventCells ec = cells_of({3}, {kMin, kMin + (int64_t{1} << 62), 0});
  REQUIRE(ec.cells.size() == 3);
  for (const viz::EventCell& c : ec.cells) CHECK(std::llabs(c.cell.row) <= (int64_t{1} << 61));
  CHECK(ec.cells.back().lane == 2);
  CHECK(ec.cells.back().cell == viz::Cell{0, 0});  // where offset 0 is
}

TEST_CASE("fuzz: a buffer of nearly 2^63 elements lays out as a strip", "[viz][fuzz]") {
  // rows() was (n + wrap - 1) / wrap, which overflows for n near kMax.
  tl::TraceBuffer b{"x", tl::DType::f32, {kMax}, {1}, kMax, 0, {}, {}, {}, 0, 0};
  const viz::GridLayout g = viz::default_layout(b);
  CHECK(g.rows() == kMax / g.wrap + 1);
}

TEST_CASE("the command line parses without running anything", "[cli]") {
  using Kind = cli::CommandLine::Kind;
  auto parse = [](std::vector<std::string> words) {
    words.insert(words.begin(), "tilescope");
    return cli::parse_command_line(words);
  };
  CHECK(parse({}).kind == Kind::Usage);
  CHECK(parse({"--help"}).kind == Kind::Help);
  CHECK(parse({"--version"}).kind == Kind::Version);
  const cli::CommandLine run = parse({"check", "2", "--trace=t.json", "--seeds", "0,1"});
  REQUIRE(run.kind == Kind::Run);
  CHECK(std::string(run.command->name) == "check");
  CHECK(run.args.positional() == std::vector<std::string>{"2"});
  CHECK(run.args.value("trace") == "t.json");
  CHECK(cli::parse_int_list(*run.args.value("seeds"), "--seeds") == std::vector<long long>{0, 1});
  const cli::CommandLine unknown = parse({"frobnicate"});
  CHECK(unknown.kind == Kind::Error);
  CHECK(unknown.command == nullptr);
  CHECK(unknown.error == "unknown command 'frobnicate'");
  const cli::CommandLine missing = parse({"check", "2", "--trace"});
  CHECK(missing.kind == Kind::Error);
  CHECK(std::string(missing.command->name) == "check");
  CHECK(missing.error == "option --trace needs a value (FILE)");
  CHECK(parse({"list", "--json=1"}).error == "option --json takes no value");
  CHECK(parse({"", "", ""}).error == "unknown command ''");
}
