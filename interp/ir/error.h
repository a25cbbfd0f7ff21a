// Errors that read like a compiler's: "file:line:col: error: what", then
// the offending kernel line and a caret under the column.
#pragma once
#include <stdexcept>
#include <string>

#include "source_loc.h"

namespace tl {

// A rule of SEMANTICS.md broken while the kernel's IR was being built.
class BuildError : public std::runtime_error {
 public:
  BuildError(SrcLoc loc, std::string message);
  const SrcLoc& loc() const { return loc_; }
  const std::string& message() const { return message_; }

 private:
  SrcLoc loc_;
  std::string message_;
};

// A mistake in how a kernel was launched (wrong buffers, grid, arguments).
class LaunchError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The text of line `line` (1-based) of `file`, or "" when unreadable.
std::string source_line(const std::string& file, uint32_t line);
// Gives source_line the text of a file that is not on disk (a notebook
// cell's code), replacing what it read before.
void set_source_text(const std::string& file, const std::string& text);
// "file:line:col: error: message\n  <line>\n  <caret>" (the last two when the
// file can be read).
std::string format_diagnostic(const SrcLoc& loc, const std::string& severity,
                              const std::string& message);
// Shorten an absolute path to one relative to the working directory when it
// lies below it.
std::string display_path(const std::string& file);

}  // namespace tl
