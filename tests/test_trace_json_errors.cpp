// The Trace's JSON form: every kind of malformed input gets one clear line
// naming the JSON path, and nothing malformed crashes the reader.
#include <catch2/catch.hpp>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <random>
#include <string>

#include "trace.h"
#include "trace_fixtures.h"

using namespace trace_fixtures;
using nlohmann::json;

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
  SECTION("lane states are not checked against the named buffer") {
    // A tile may mix buffers (through where); the event names the first
    // lane's, and each lane's state was decided against its own buffer.
    j["programs"][0]["events"][0]["lanes"] = "0000";
    CHECK(error_of(j) == "");
  }
  SECTION("buffer values of the wrong length") {
    j["buffers"][0]["values_after"] = json::array({1, 2});
    CHECK(error_of(j) == "trace JSON: buffers[0].values_after: expected 8 values (or none), got 2");
  }
  SECTION("expected values (a reference check's) of the wrong length, or without their tolerance") {
    j["buffers"][0]["values_expected"] = json::array({1, 2});
    j["buffers"][0]["expected_rtol"] = 0;
    j["buffers"][0]["expected_atol"] = 0;
    CHECK(error_of(j) == "trace JSON: buffers[0].values_expected: expected 8 values (or none), got 2");
    j["buffers"][0]["values_expected"] = json::array({1, 2, 3, 4, 5, 6, 7, 8});
    CHECK(error_of(j) == "");
    j["buffers"][0]["expected_atol"] = -1;
    CHECK(error_of(j) == "trace JSON: buffers[0].expected_rtol: expected non-negative tolerances");
    j["buffers"][0].erase("expected_atol");
    CHECK(error_of(j) == "trace JSON: buffers[0]: missing required field \"expected_atol\"");
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
    CHECK(error_of(j) == "trace JSON: programs[0].events[6].kind: unknown event kind \"gather\" (expected one of: "
                         "load, store, atomic, dot, reduce, print)");
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

TEST_CASE("malformed trace JSON: programs and findings", "[trace]") {
  json j = sample_json();
  SECTION("a program recorded twice") {
    j["programs"][1]["pid"] = json::array({0, 0, 0});
    CHECK(error_of(j) == "trace JSON: programs[1].pid: program [0,0,0] appears twice (also programs[0])");
  }
  SECTION("findings missing") {
    j.erase("findings");
    CHECK(error_of(j) == "trace JSON: top level: missing required field \"findings\"");
  }
  SECTION("an unknown finding kind") {
    j["findings"][0]["kind"] = "race";
    CHECK(error_of(j) == "trace JSON: findings[0].kind: unknown finding kind \"race\" (expected one of: "
                         "out_of_bounds_load, out_of_bounds_store, write_conflict, read_write_race, "
                         "uninitialized_read, undefined_value_used, poison_stored, runtime_issue, never_written, "
                         "block_ptr_out_of_shape, index_overflow, shift_out_of_range, lossy_int_cast, "
                         "float_to_int_out_of_range, "
                         "float_cast_overflow, input_never_read, step_budget_exceeded, index_out_of_range, deadlock, co_residency)");
  }
  SECTION("an example's optional block-pointer detail, when present, is complete") {
    j["findings"][0]["examples"][0]["block"] = json{{"dim", 1}, {"index", 130}, {"extent", 128}};
    CHECK(error_of(j) == "");
    j["findings"][0]["examples"][0]["block"].erase("extent");
    CHECK(error_of(j) == "trace JSON: findings[0].examples[0].block: missing required field \"extent\"");
    j["findings"][0]["examples"][0]["block"] = json{{"dim", -1}, {"index", 0}, {"extent", 0}};
    CHECK(error_of(j) == "trace JSON: findings[0].examples[0].block.dim: value -1 is out of range [0, 63]");
  }
  SECTION("a finding may have no location or buffer, but not a bad one") {
    j["findings"][0]["loc"] = -1;
    j["findings"][0]["buffer"] = -1;
    CHECK(error_of(j) == "");
    j["findings"][0]["loc"] = -2;
    CHECK(error_of(j) == "trace JSON: findings[0].loc: value -2 is out of range [-1, 2147483647]");
    j["findings"][0]["loc"] = 0;
    j["findings"][0]["buffer"] = 5;
    CHECK(error_of(j) == "trace JSON: findings[0].buffer: buffer index 5 is out of range (the trace has 2 buffers)");
  }
  SECTION("an example's event past the program's traced events") {
    j["findings"][0]["examples"][0]["event"] = 7;
    CHECK(error_of(j) == "trace JSON: findings[0].examples[0].event: event index 7 is out of range (program "
                         "[0,0,0] has 7 traced events)");
  }
  SECTION("an example's event in a program that traced none") {
    j["findings"][1]["examples"][0]["event"] = 0;
    CHECK(error_of(j) == "trace JSON: findings[1].examples[0].event: event index 0 is out of range (program "
                         "[3,1,0] has 0 traced events)");
  }
  SECTION("an other_pid that is half missing") {
    j["findings"][1]["examples"][0]["other_pid"] = json::array({-1, 0, 0});
    CHECK(error_of(j) == "trace JSON: findings[1].examples[0].other_pid[0]: value -1 is out of range [0, "
                         "9223372036854775807]");
  }
  SECTION("an example outside the grid") {
    j["findings"][0]["examples"][0]["pid"] = json::array({0, 0, 1});
    CHECK(error_of(j) == "trace JSON: findings[0].examples[0].pid[2]: program id 1 is outside the grid (size 1 on "
                         "axis 2)");
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

