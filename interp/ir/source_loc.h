// Where in the kernel's C++ source an operation was written.
#pragma once
#include <cstdint>
#include <source_location>
#include <string>

namespace tl {

struct SrcLoc {
  std::string file;
  uint32_t line = 0;
  uint32_t col = 0;
  static SrcLoc from(const std::source_location& l) {
    return SrcLoc{l.file_name(), l.line(), l.column()};
  }
  bool known() const { return line != 0; }
  std::string str() const;  // "file:line:col"
  bool operator==(const SrcLoc&) const = default;
};

}  // namespace tl
