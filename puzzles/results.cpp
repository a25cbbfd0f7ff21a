#include "results.h"

#include <cmath>
#include <cstdio>

#include "findings.h"

namespace puzzles {

const char* mismatch_kind_name(MismatchKind k) {
  switch (k) {
    case MismatchKind::NeverWritten: return "never written";
    case MismatchKind::NonFinite: return "non-finite";
    case MismatchKind::WrongValue: return "wrong value";
  }
  return "?";
}

const char* run_status_name(RunStatus s) {
  switch (s) {
    case RunStatus::Pass: return "pass";
    case RunStatus::Fail: return "fail";
    case RunStatus::Error: return "error";
  }
  return "?";
}

std::vector<std::string> failure_reasons(const RunReport& r) {
  std::vector<std::string> why;
  if (r.status == RunStatus::Pass) return why;
  if (r.status == RunStatus::Error) {
    why.push_back(r.error_kind + " error");
    return why;
  }
  if (r.never_written > 0) why.push_back(std::to_string(r.never_written) + " elements never written");
  if (r.non_finite > 0) why.push_back(std::to_string(r.non_finite) + " non-finite values");
  if (std::isfinite(r.err) && !(r.err <= r.threshold)) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "wrong output (err %.3g > %.3g)", r.err, r.threshold);
    why.emplace_back(buf);
  }
  for (const OutputCheck& o : r.extra_outputs)
    if (!o.passed()) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "wrong output %s (err %.3g > %.3g, %lld of %lld elements)", o.name.c_str(), o.err,
                    o.threshold, static_cast<long long>(o.mismatch_count), static_cast<long long>(o.total));
      why.emplace_back(buf);
    }
  if (r.oob_loads + r.oob_stores > 0) why.push_back("out-of-bounds access");
  int64_t other_findings = 0;
  for (const tl::Finding& f : r.findings)
    if (f.kind != tl::FindingKind::OutOfBoundsLoad && f.kind != tl::FindingKind::OutOfBoundsStore &&
        std::string(tl::finding_severity(f.kind)) == "error")
      ++other_findings;
  if (other_findings > 0) why.push_back(std::to_string(other_findings) + " sanitizer findings");
  if (!r.modified_inputs.empty()) why.push_back("input modified");
  return why;
}

}  // namespace puzzles
