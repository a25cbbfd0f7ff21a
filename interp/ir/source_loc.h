// Where in the kernel's C++ source an operation was written.
#pragma once
#include <cstdint>
#include <string>
#include <version>
// clang 14 with libstdc++ 12 (the fuzz build, tests/fuzz/) has no
// std::source_location; the trace code it compiles does not need from().
#ifdef __cpp_lib_source_location
#include <source_location>
#endif

namespace tl {

struct SrcLoc {
  std::string file;
  uint32_t line = 0;
  uint32_t col = 0;
#ifdef __cpp_lib_source_location
  static SrcLoc from(const std::source_location& l) {
    return SrcLoc{l.file_name(), l.line(), l.column()};
  }
#endif
  bool known() const { return line != 0; }
  std::string str() const;  // "file:line:col"
  bool operator==(const SrcLoc&) const = default;
};

}  // namespace tl
