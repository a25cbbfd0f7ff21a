// The sanitizer's findings as a user reads them: compiler-style
// diagnostics that name the kernel line, the program, the lane and the
// buffer, one per (op, kind), with counts instead of thousands of lines.
#pragma once
#include <string>
#include <vector>

#include "interpreter.h"
#include "trace.h"

namespace tl {

// Everything a finding's indices refer to.
struct FindingContext {
  std::string kernel;
  const std::vector<SrcLoc>* locations = nullptr;
  const std::vector<TraceBuffer>* buffers = nullptr;
};
FindingContext context_of(const RunResult& r);
FindingContext context_of(const Trace& t);

// "file:line:col: error: out-of-bounds store to z ..." plus the source
// line, a caret, and the notes (buffer, lane, counts, more examples).
std::string format_finding(const Finding& f, const FindingContext& c);
// All findings of a run, then one summary line ("3 findings: ..."); "" if none.
std::string format_findings(const std::vector<Finding>& fs, const FindingContext& c);
// "error" for bugs, "warning" for what is legal but suspicious.
const char* finding_severity(FindingKind k);
// The kinds about a lane's value (overflow, shift count, conversions):
// their examples carry `detail`.
bool is_value_finding(FindingKind k);
// The multi-index an element offset has in a buffer ("[2, 5]"), given its
// shape and strides; "" when the offset is outside every index.
std::string element_index(const TraceBuffer& b, int64_t offset);

}  // namespace tl
