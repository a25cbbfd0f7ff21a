// The Trace's JSON form: exact round trips, and a clear one-line error for
// every kind of malformed input (docs/trace-format.md).
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <string>

#include "trace.h"

using nlohmann::json;
using tl::Event;
using tl::EventKind;
using tl::LaneState;
using tl::Trace;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

Event memory_event(EventKind kind, int loc, int buffer, tl::ir::Shape shape, std::vector<int64_t> offsets,
                   std::vector<LaneState> lanes, std::vector<double> values = {}, bool has_other = false) {
  Event e;
  e.kind = kind;
  e.loc = loc;
  e.buffer = buffer;
  e.shape = std::move(shape);
  e.offsets = std::move(offsets);
  e.lanes = std::move(lanes);
  e.values = std::move(values);
  e.has_other = has_other;
  return e;
}

// A trace with every event kind, every lane state, NaN/inf/-0 values, a
// 0-d tile, a strided buffer, non-ASCII text and the truncated marker.
Trace sample_trace() {
  using LS = LaneState;
  Trace t;
  t.kernel = "add_vec_block";
  t.source_file = "puzzles/p04_outer_block.cpp";
  t.grid = {4, 2, 1};
  t.buffers.push_back({"x", tl::DType::f32, {8}, {1}, 8, 0});
  t.buffers.push_back({"ausgabe_\xc3\xa4", tl::DType::f16, {2, 3}, {4, 1}, 7, 2});
  t.scalars.push_back({"N0", 8, false});
  t.scalars.push_back({"B0", 4, true});
  t.scalars.push_back({"eps", kNaN, false});
  t.scalars.push_back({"hi", kInf, false});
  t.scalars.push_back({"lo", -kInf, false});
  t.scalars.push_back({"neg_zero", -0.0, false});
  t.locations.push_back({"puzzles/p04_outer_block.cpp", 12, 3});
  t.locations.push_back({"/abs/path/kernel.cpp", 20, 7});
  t.locations.push_back({"", 0, 0});  // an unknown location still has an entry

  tl::ProgramTrace p0;
  p0.pid = {0, 0, 0};
  p0.events.push_back(memory_event(EventKind::Load, 0, 0, {2, 2}, {0, 1, -1, 9},
                                   {LS::Active, LS::Masked, LS::OutOfBounds, LS::MaskedOutOfBounds}, {}, true));
  p0.events.push_back(memory_event(EventKind::Store, 1, 1, {3}, {0, 1, 2}, {LS::Active, LS::Active, LS::Masked},
                                   {1.5, kNaN, -kInf}));
  p0.events.push_back(memory_event(EventKind::Store, 1, 1, {}, {6}, {LS::Active}));  // 0-d, values not recorded
  p0.events.push_back(memory_event(EventKind::Atomic, 0, 0, {2}, {3, 3}, {LS::Active, LS::Active}, {kInf, -0.0}));
  Event dot;
  dot.kind = EventKind::Dot;
  dot.loc = 2;
  dot.shape = {16, 32};
  dot.a_shape = {16, 64};
  dot.b_shape = {64, 32};
  dot.op = "tf32";
  p0.events.push_back(dot);
  Event reduce;
  reduce.kind = EventKind::Reduce;
  reduce.loc = 0;
  reduce.shape = {4, 8};
  reduce.axis = 1;
  reduce.op = "sum";
  p0.events.push_back(reduce);
  Event print;
  print.kind = EventKind::Print;
  print.loc = 1;
  print.text = "x = [1, 2]\n\"quoted\"\ttab \xce\xbb";
  p0.events.push_back(print);
  t.programs.push_back(p0);

  tl::ProgramTrace p1;
  p1.pid = {3, 1, 0};
  t.programs.push_back(p1);

  t.truncated = true;
  t.budget_bytes = int64_t{1} << 20;
  t.recorded_bytes = 123456;
  return t;
}

// Equal, NaN equal to NaN, and the sign of zero kept.
bool same_double(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return a == b && std::signbit(a) == std::signbit(b);
}

bool same_doubles(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!same_double(a[i], b[i])) return false;
  return true;
}

void check_same(const Trace& a, const Trace& b) {
  CHECK(a.version == b.version);
  CHECK(a.kernel == b.kernel);
  CHECK(a.source_file == b.source_file);
  CHECK(a.grid == b.grid);
  REQUIRE(a.buffers.size() == b.buffers.size());
  for (size_t i = 0; i < a.buffers.size(); ++i) {
    CHECK(a.buffers[i].name == b.buffers[i].name);
    CHECK(a.buffers[i].dtype == b.buffers[i].dtype);
    CHECK(a.buffers[i].shape == b.buffers[i].shape);
    CHECK(a.buffers[i].strides == b.buffers[i].strides);
    CHECK(a.buffers[i].extent == b.buffers[i].extent);
    CHECK(a.buffers[i].param_index == b.buffers[i].param_index);
  }
  REQUIRE(a.scalars.size() == b.scalars.size());
  for (size_t i = 0; i < a.scalars.size(); ++i) {
    CHECK(a.scalars[i].name == b.scalars[i].name);
    CHECK(same_double(a.scalars[i].value, b.scalars[i].value));
    CHECK(a.scalars[i].constant == b.scalars[i].constant);
  }
  CHECK(a.locations == b.locations);
  REQUIRE(a.programs.size() == b.programs.size());
  for (size_t p = 0; p < a.programs.size(); ++p) {
    CHECK(a.programs[p].pid == b.programs[p].pid);
    REQUIRE(a.programs[p].events.size() == b.programs[p].events.size());
    for (size_t i = 0; i < a.programs[p].events.size(); ++i) {
      const Event &x = a.programs[p].events[i], &y = b.programs[p].events[i];
      INFO("programs[" << p << "].events[" << i << "]");
      CHECK(x.kind == y.kind);
      CHECK(x.loc == y.loc);
      CHECK(x.shape == y.shape);
      CHECK(x.op == y.op);
      CHECK(x.text == y.text);
      if (x.kind == EventKind::Load || x.kind == EventKind::Store || x.kind == EventKind::Atomic) {
        CHECK(x.buffer == y.buffer);
        CHECK(x.offsets == y.offsets);
        CHECK(x.lanes == y.lanes);
        CHECK(same_doubles(x.values, y.values));
        CHECK(x.has_other == y.has_other);
      }
      if (x.kind == EventKind::Reduce) CHECK(x.axis == y.axis);
      if (x.kind == EventKind::Dot) {
        CHECK(x.a_shape == y.a_shape);
        CHECK(x.b_shape == y.b_shape);
      }
    }
  }
  CHECK(a.truncated == b.truncated);
  CHECK(a.budget_bytes == b.budget_bytes);
  CHECK(a.recorded_bytes == b.recorded_bytes);
}

// The message trace_from_json throws for `text`, or "" when it accepts it.
// Any other exception type escapes and fails the test.
std::string error_of(const std::string& text) {
  try {
    tl::trace_from_json(text);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

// The sample as a JSON DOM, to break in one place at a time.
json sample_json() { return json::parse(tl::trace_to_json(sample_trace())); }
std::string error_of(const json& j) { return error_of(j.dump()); }

// A file path of this process's own, removed when the test ends.
class TempPath {
 public:
  explicit TempPath(const std::string& name)
      : path_(std::filesystem::temp_directory_path() /
              ("tilescope_test_" + std::to_string(::getpid()) + "_" + name)) {}
  ~TempPath() {
    std::error_code ec;
    std::filesystem::remove(path_, ec);
  }
  std::string str() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

}  // namespace

TEST_CASE("trace JSON round-trips every event kind, NaN/inf values and the truncated marker", "[trace]") {
  Trace original = sample_trace();
  SECTION("compact") { check_same(original, tl::trace_from_json(tl::trace_to_json(original))); }
  SECTION("indented") { check_same(original, tl::trace_from_json(tl::trace_to_json(original, 2))); }
  SECTION("writing what was read gives the same text") {
    std::string text = tl::trace_to_json(original);
    CHECK(tl::trace_to_json(tl::trace_from_json(text)) == text);
  }
}

TEST_CASE("trace JSON has the documented header and compact lanes", "[trace]") {
  json j = sample_json();
  CHECK(j["format"] == "tilescope-trace");
  CHECK(j["version"] == tl::kTraceVersion);
  CHECK(j["grid"] == json::array({4, 2, 1}));
  CHECK(j["buffers"][1]["dtype"] == "f16");
  CHECK(j["scalars"][2]["value"] == "nan");
  CHECK(j["scalars"][3]["value"] == "inf");
  CHECK(j["scalars"][4]["value"] == "-inf");
  const json& load = j["programs"][0]["events"][0];
  CHECK(load["kind"] == "load");
  CHECK(load["lanes"] == "0123");
  CHECK(load["has_other"] == true);
  CHECK(j["programs"][0]["events"][1]["values"] == json::array({1.5, "nan", "-inf"}));
  CHECK(j["programs"][0]["events"][2]["values"] == json::array());
  CHECK(j["truncated"] == true);
}

TEST_CASE("an empty trace round-trips", "[trace]") {
  Trace empty;
  check_same(empty, tl::trace_from_json(tl::trace_to_json(empty)));
}

TEST_CASE("the example in docs/trace-format.md loads", "[trace]") {
  std::ifstream in(std::string(TILESCOPE_SOURCE_DIR) + "/docs/trace-format.md");
  REQUIRE(in);
  std::string doc((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  size_t start = doc.find("```json\n");
  REQUIRE(start != std::string::npos);
  start += 8;
  std::string example = doc.substr(start, doc.find("```", start) - start);
  Trace t = tl::trace_from_json(example);
  CHECK(t.kernel == "add");
  REQUIRE(t.programs.size() == 1);
  REQUIRE(t.programs[0].events.size() == 1);
  CHECK(t.programs[0].events[0].lanes[2] == LaneState::MaskedOutOfBounds);
  check_same(t, tl::trace_from_json(tl::trace_to_json(t)));
}

TEST_CASE("trace files save and load", "[trace]") {
  TempPath file("roundtrip.json");
  Trace original = sample_trace();
  tl::save_trace(original, file.str());
  check_same(original, tl::load_trace(file.str()));
}

TEST_CASE("trace JSON names lane states and event kinds", "[trace]") {
  CHECK(std::string(tl::lane_state_name(LaneState::Active)) == "active");
  CHECK(std::string(tl::lane_state_name(LaneState::MaskedOutOfBounds)) == "masked out-of-bounds");
  CHECK(std::string(tl::event_kind_name(EventKind::Atomic)) == "atomic");
  CHECK(std::string(tl::event_kind_name(EventKind::Print)) == "print");
}

TEST_CASE("event_bytes grows with the lanes recorded", "[trace]") {
  Event small = memory_event(EventKind::Store, 0, 0, {4}, {0, 1, 2, 3}, std::vector<LaneState>(4), {1, 2, 3, 4});
  Event big = memory_event(EventKind::Store, 0, 0, {1024}, std::vector<int64_t>(1024),
                           std::vector<LaneState>(1024), std::vector<double>(1024));
  CHECK(Trace::event_bytes(small) >= static_cast<int64_t>(sizeof(Event)) + 4 * (8 + 1 + 8));
  CHECK(Trace::event_bytes(big) - Trace::event_bytes(small) == 1020 * (8 + 1 + 8));
}

TEST_CASE("malformed trace JSON: missing fields", "[trace]") {
  json j = sample_json();
  SECTION("top level") {
    j.erase("grid");
    CHECK(error_of(j) == "trace JSON: top level: missing required field \"grid\"");
  }
  SECTION("in an event") {
    j["programs"][0]["events"][0].erase("offsets");
    CHECK(error_of(j) == "trace JSON: programs[0].events[0]: missing required field \"offsets\"");
  }
  SECTION("store values") {
    j["programs"][0]["events"][1].erase("values");
    CHECK(error_of(j) == "trace JSON: programs[0].events[1]: missing required field \"values\"");
  }
  SECTION("in a buffer") {
    j["buffers"][1].erase("strides");
    CHECK(error_of(j) == "trace JSON: buffers[1]: missing required field \"strides\"");
  }
}

TEST_CASE("malformed trace JSON: wrong types", "[trace]") {
  json j = sample_json();
  SECTION("grid as a string") {
    j["grid"] = "4,2,1";
    CHECK(error_of(j) == "trace JSON: grid: expected an array, got a string");
  }
  SECTION("loc as a string") {
    j["programs"][0]["events"][4]["loc"] = "2";
    CHECK(error_of(j) == "trace JSON: programs[0].events[4].loc: expected an integer, got a string");
  }
  SECTION("fractional offset") {
    j["programs"][0]["events"][0]["offsets"][2] = 1.5;
    CHECK(error_of(j) == "trace JSON: programs[0].events[0].offsets[2]: expected an integer, got a non-integer number");
  }
  SECTION("lanes as an array") {
    j["programs"][0]["events"][0]["lanes"] = json::array({0, 1, 2, 3});
    CHECK(error_of(j) == "trace JSON: programs[0].events[0].lanes: expected a string of lane states, got an array");
  }
  SECTION("has_other as a number") {
    j["programs"][0]["events"][0]["has_other"] = 1;
    CHECK(error_of(j) == "trace JSON: programs[0].events[0].has_other: expected a boolean, got an integer");
  }
  SECTION("a value that is not a number") {
    j["programs"][0]["events"][1]["values"][1] = "NaN";
    CHECK(error_of(j) == "trace JSON: programs[0].events[1].values[1]: expected a number or \"nan\", \"inf\", "
                         "\"-inf\", got the string \"NaN\"");
  }
  SECTION("an event that is not an object") {
    j["programs"][1]["events"] = json::array({42});
    CHECK(error_of(j) == "trace JSON: programs[1].events[0]: expected an object, got an integer");
  }
  SECTION("an integer too large for int64") {
    j["budget_bytes"] = uint64_t{1} << 63;
    CHECK(error_of(j) == "trace JSON: budget_bytes: integer 9223372036854775808 is out of range");
  }
}

TEST_CASE("malformed trace JSON: lane and value counts", "[trace]") {
  json j = sample_json();
  SECTION("one lane state short") {
    j["programs"][0]["events"][0]["lanes"] = "012";
    CHECK(error_of(j) == "trace JSON: programs[0].events[0].lanes: expected 4 lane states, got 3");
  }
  SECTION("a 0-d tile has one lane") {
    j["programs"][0]["events"][2]["lanes"] = "";
    CHECK(error_of(j) == "trace JSON: programs[0].events[2].lanes: expected 1 lane states, got 0");
  }
  SECTION("offsets") {
    j["programs"][0]["events"][3]["offsets"] = json::array({3});
    CHECK(error_of(j) == "trace JSON: programs[0].events[3].offsets: expected 2 offsets, got 1");
  }
  SECTION("values") {
    j["programs"][0]["events"][3]["values"] = json::array({1, 2, 3});
    CHECK(error_of(j) == "trace JSON: programs[0].events[3].values: expected 2 values (or none), got 3");
  }
  SECTION("an invalid lane character") {
    j["programs"][0]["events"][0]["lanes"] = "0143";
    CHECK(error_of(j) == "trace JSON: programs[0].events[0].lanes[2]: invalid lane state '4' (expected '0'..'3')");
  }
  SECTION("a lane state that contradicts its offset") {
    j["programs"][0]["events"][0]["lanes"] = "0103";  // offset -1 marked masked (in bounds)
    CHECK(error_of(j) == "trace JSON: programs[0].events[0].lanes[2]: lane state '0' (active) contradicts offset -1 "
                         "(buffer \"x\" has offsets [0, 8))");
  }
  SECTION("a shape whose element count overflows") {
    j["programs"][0]["events"][0]["shape"] = json::array({int64_t{1} << 40, int64_t{1} << 40});
    CHECK(error_of(j) == "trace JSON: programs[0].events[0].shape: shape [1099511627776,1099511627776] has too "
                         "many elements");
  }
}

TEST_CASE("malformed trace JSON: indices and ranges", "[trace]") {
  json j = sample_json();
  SECTION("loc past the end") {
    j["programs"][0]["events"][5]["loc"] = 3;
    CHECK(error_of(j) == "trace JSON: programs[0].events[5].loc: location index 3 is out of range (the trace has 3 "
                         "locations)");
  }
  SECTION("negative loc") {
    j["programs"][0]["events"][5]["loc"] = -1;
    CHECK(error_of(j) == "trace JSON: programs[0].events[5].loc: value -1 is out of range [0, 2147483647]");
  }
  SECTION("buffer past the end") {
    j["programs"][0]["events"][1]["buffer"] = 2;
    CHECK(error_of(j) == "trace JSON: programs[0].events[1].buffer: buffer index 2 is out of range (the trace has 2 "
                         "buffers)");
  }
  SECTION("a zero grid") {
    j["grid"][1] = 0;
    CHECK(error_of(j) == "trace JSON: grid[1]: value 0 is out of range [1, 9223372036854775807]");
  }
  SECTION("a program outside the grid") {
    j["programs"][1]["pid"][1] = 2;
    CHECK(error_of(j) == "trace JSON: programs[1].pid[1]: program id 2 is outside the grid (size 2 on axis 1)");
  }
  SECTION("a reduce axis out of range") {
    j["programs"][0]["events"][5]["axis"] = 2;
    CHECK(error_of(j) == "trace JSON: programs[0].events[5].axis: value 2 is out of range [0, 1]");
  }
  SECTION("dot shapes that disagree") {
    j["programs"][0]["events"][4]["b_shape"] = json::array({32, 32});
    CHECK(error_of(j) == "trace JSON: programs[0].events[4]: dot shapes do not agree: a [16, 64] x b [32, 32] -> "
                         "[16, 32] (expected [.., M, K] x [.., K, N] -> [.., M, N])");
  }
  SECTION("an unknown event kind") {
    j["programs"][0]["events"][6]["kind"] = "gather";
    CHECK(error_of(j) == "trace JSON: programs[0].events[6].kind: unknown event kind \"gather\" (expected load, "
                         "store, atomic, dot, reduce or print)");
  }
  SECTION("an unknown dtype") {
    j["buffers"][0]["dtype"] = "float32";
    CHECK(error_of(j) == "trace JSON: buffers[0].dtype: unknown dtype \"float32\"");
  }
  SECTION("strides that do not match the shape") {
    j["buffers"][1]["strides"] = json::array({1});
    CHECK(error_of(j) == "trace JSON: buffers[1].strides: expected 2 strides (one per dimension), got 1");
  }
  SECTION("a negative line") {
    j["locations"][0]["line"] = -5;
    CHECK(error_of(j) == "trace JSON: locations[0].line: value -5 is out of range [0, 4294967295]");
  }
}

TEST_CASE("malformed trace JSON: format and version", "[trace]") {
  json j = sample_json();
  SECTION("a newer version") {
    j["version"] = 2;
    CHECK(error_of(j) == "trace JSON: version: unsupported trace version 2 (this build reads version 1)");
  }
  SECTION("version zero") {
    j["version"] = 0;
    CHECK(error_of(j) == "trace JSON: version: unsupported trace version 0 (this build reads version 1)");
  }
  SECTION("version as a string") {
    j["version"] = "1";
    CHECK(error_of(j) == "trace JSON: version: expected an integer, got a string");
  }
  SECTION("the version is checked before other fields") {
    j = json{{"format", "tilescope-trace"}, {"version", 7}};
    CHECK(error_of(j) == "trace JSON: version: unsupported trace version 7 (this build reads version 1)");
  }
  SECTION("another format") {
    j["format"] = "chrome-trace";
    CHECK(error_of(j) == "trace JSON: format: expected \"tilescope-trace\", got \"chrome-trace\"");
  }
  SECTION("some other JSON document") {
    CHECK(error_of(std::string("{\"a\": 1}")) == "trace JSON: top level: missing required field \"format\"");
    CHECK(error_of(std::string("[1, 2]")) == "trace JSON: top level: expected an object, got an array");
  }
}

TEST_CASE("malformed trace JSON: not JSON, empty, truncated", "[trace]") {
  SECTION("not JSON at all") {
    CHECK(error_of(std::string("hello")) ==
          "trace JSON: parse error at line 1, column 1: syntax error while parsing value - invalid literal; last "
          "read: 'h'");
    CHECK(error_of(std::string("{\"format\": 1e999}")) ==
          "trace JSON: number overflow parsing '1e999'");
  }
  SECTION("empty") {
    CHECK(error_of(std::string()) == "trace JSON: the input is empty");
    CHECK(error_of(std::string(" \n\t ")) == "trace JSON: the input is empty");
  }
  SECTION("truncated text names the position") {
    std::string text = tl::trace_to_json(sample_trace(), 1);
    // Cut where a writer killed mid-file would stop: after a complete token.
    std::string cut = text.substr(0, text.find("\"programs\":") + 11);
    std::string message = error_of(cut);
    CHECK_THAT(message, Catch::Matchers::StartsWith("trace JSON: parse error at line "));
    CHECK_THAT(message, Catch::Matchers::Contains("unexpected end of input"));
  }
  SECTION("every prefix of a document is rejected cleanly") {
    std::string text = tl::trace_to_json(sample_trace());
    for (size_t n = 0; n < text.size(); ++n) {
      INFO("prefix of " << n << " bytes");
      CHECK_THAT(error_of(text.substr(0, n)), Catch::Matchers::StartsWith("trace JSON: "));
    }
  }
  SECTION("deep nesting does not exhaust the stack") {
    std::string deep = std::string(100000, '[') + std::string(100000, ']');
    CHECK(error_of(deep) == "trace JSON: top level: expected an object, got an array");
  }
}

TEST_CASE("corrupted trace JSON is rejected or accepted, never crashes", "[trace]") {
  // Single-byte corruptions at fixed pseudo-random places: each must either
  // still be a valid trace or raise the documented runtime_error.
  const std::string text = tl::trace_to_json(sample_trace());
  const std::string bytes = "{}[]\",:0123456789-.eE\\ ntfx\x01\xff";
  std::mt19937 rng(12345);
  for (int trial = 0; trial < 2000; ++trial) {
    std::string bad = text;
    size_t at = rng() % bad.size();
    bad[at] = bytes[rng() % bytes.size()];
    INFO("byte " << at << " set to " << static_cast<int>(static_cast<unsigned char>(bad[at])));
    std::string message = error_of(bad);
    if (!message.empty()) CHECK_THAT(message, Catch::Matchers::StartsWith("trace JSON: "));
  }
}

TEST_CASE("load_trace explains files it cannot use", "[trace]") {
  SECTION("missing file") {
    TempPath missing("does_not_exist.json");
    CHECK_THROWS_WITH(tl::load_trace(missing.str()),
                      "cannot open trace file '" + missing.str() + "': No such file or directory");
  }
  SECTION("a directory") {
    std::string dir = std::filesystem::temp_directory_path().string();
    CHECK_THROWS_WITH(tl::load_trace(dir), "cannot read trace file '" + dir + "': Is a directory");
  }
  SECTION("an empty file") {
    TempPath file("empty.json");
    write_file(file.str(), "");
    CHECK_THROWS_WITH(tl::load_trace(file.str()), file.str() + ": trace JSON: the input is empty");
  }
  SECTION("a parse error names the file, line and column") {
    TempPath file("broken.json");
    write_file(file.str(), "{\n  \"format\": \"tilescope-trace\",\n  \"version\": 1,,\n}\n");
    CHECK_THROWS_WITH(tl::load_trace(file.str()),
                      file.str() + ": trace JSON: parse error at line 3, column 16: syntax error while parsing "
                                   "object key - unexpected ','; expected string literal");
  }
  SECTION("a valid file with a bad field names the file and the field") {
    TempPath file("badfield.json");
    json j = sample_json();
    j["programs"][0]["events"][0]["lanes"] = "01";
    write_file(file.str(), j.dump());
    CHECK_THROWS_WITH(tl::load_trace(file.str()),
                      file.str() + ": trace JSON: programs[0].events[0].lanes: expected 4 lane states, got 2");
  }
  SECTION("save_trace into a missing folder") {
    std::string path = std::filesystem::temp_directory_path().string() + "/tilescope_no_such_dir/t.json";
    CHECK_THROWS_WITH(tl::save_trace(sample_trace(), path),
                      "cannot write trace file '" + path + "': No such file or directory");
  }
}
