// Shared by the tests of build errors (test_build_errors.cpp and the
// per-area tests: atomics, math, casts, block pointers, dot dtypes, scans):
// specialize a kernel and catch the BuildError it stops with, then check
// that the error names what is wrong and points at the offending kernel
// line of the test's own file. Each test file keeps its own kernel and
// parameter dtypes; only these steps are common.
#pragma once
#include <catch2/catch.hpp>
#include <optional>
#include <source_location>
#include <string>
#include <string_view>
#include <vector>

#include "error.h"
#include "kernel.h"

namespace build_error_fixture {

// A test sets it, on the offending kernel line itself, to __LINE__;
// specialize_error() resets it to -1 first, so a body that never reaches
// its marked line cannot pass for one that does.
inline int g_line = -1;

// The error that specializing k with s stops with; nullopt when it builds.
inline std::optional<tl::BuildError> specialize_error(const tl::KernelDef& k, const tl::Specialization& s) {
  g_line = -1;
  try {
    k.specialize(s);
  } catch (const tl::BuildError& e) {
    return e;
  }
  return std::nullopt;
}

// The error exists, names each of `words`, and points at g_line in the file
// of the test that calls this (its source_location, taken at the call).
inline void check_error(const std::optional<tl::BuildError>& e, const std::vector<std::string>& words,
                        std::source_location caller = std::source_location::current()) {
  REQUIRE(e.has_value());
  INFO(e->what());
  for (const std::string& w : words) CHECK(e->message().find(w) != std::string::npos);
  CHECK(static_cast<int>(e->loc().line) == g_line);
  std::string_view file = caller.file_name();
  file.remove_prefix(file.rfind('/') + 1);  // the file name, as the tests always checked it
  CHECK(e->loc().file.find(file) != std::string::npos);
}

}  // namespace build_error_fixture
