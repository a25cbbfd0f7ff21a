// The Trace's JSON form: exact round trips, the documented layout, and
// saving and loading files (docs/trace-format.md).
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>

#include "trace.h"
#include "trace_fixtures.h"

using namespace trace_fixtures;
using nlohmann::json;

namespace {

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

TEST_CASE("trace JSON round-trips every event kind, findings, NaN/inf values and the truncated marker", "[trace]") {
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
  CHECK(j["buffers"][0]["values_before"][3] == "nan");
  CHECK(j["buffers"][1]["values_after"] == json::array());
  const json& oob = j["findings"][0];
  CHECK(oob["kind"] == "out_of_bounds_load");
  CHECK(oob["examples"][0]["other_pid"] == json::array({-1, -1, -1}));
  CHECK(j["findings"][2]["loc"] == -1);
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

TEST_CASE("trace JSON names lane states, event kinds and finding kinds", "[trace]") {
  CHECK(std::string(tl::finding_kind_name(tl::FindingKind::WriteConflict)) == "write conflict");
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
