// A tiny kernel harness for the sanitizer tests (test_findings*.cpp): each
// test writes its kernel body as a lambda over x, y and n, and launch()
// builds a fresh kernel from it and runs it.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "findings.h"
#include "interpreter.h"
#include "tl.h"

namespace findings_fixture {

using tl::FindingKind;
using Pid = std::array<int64_t, 3>;

struct K {
  const tl::Ptr& x;
  const tl::Ptr& y;
  const tl::Int& n;
};
inline std::function<void(const K&)> g_body;
inline void findings_kernel(tl::Ptr x, tl::Ptr y, tl::Int n) { g_body(K{x, y, n}); }

// Builds a fresh kernel from `fn` (so no IR is reused between tests) and
// runs it over x, y and the scalar n.
inline tl::RunResult launch(std::function<void(const K&)> fn, tl::Buffer& x, tl::Buffer& y, tl::Grid grid = {},
                            tl::RunOptions opt = {}, int64_t n = 0) {
  g_body = std::move(fn);
  tl::KernelDef k("findings_kernel", findings_kernel, {"x", "y", "n"});
  return tl::run(k, grid, {x, y, n}, opt);
}

inline tl::Buffer f32(const char* name, int64_t n) {
  tl::Buffer b(name, tl::DType::f32, {n});
  for (int64_t i = 0; i < n; ++i) b.set(i, 0.25 * static_cast<double>(i) - 1.0);
  return b;
}

inline std::vector<FindingKind> kinds(const tl::RunResult& r) {
  std::vector<FindingKind> v;
  for (const tl::Finding& f : r.findings) v.push_back(f.kind);
  return v;
}

inline int line_of(const tl::RunResult& r, const tl::Finding& f) {
  return f.loc >= 0 ? static_cast<int>(r.locations.at(static_cast<size_t>(f.loc)).line) : -1;
}

inline std::string buffer_of(const tl::RunResult& r, const tl::Finding& f) {
  return f.buffer >= 0 ? r.buffers.at(static_cast<size_t>(f.buffer)).name : "";
}

// Everything a finding says, for comparing two runs' findings exactly.
inline std::string describe(const tl::Finding& f) {
  std::string s = std::string(tl::finding_kind_name(f.kind)) + " loc " + std::to_string(f.loc) + " buf " +
                  std::to_string(f.buffer) + " lanes " + std::to_string(f.lanes) + " programs " +
                  std::to_string(f.programs) + " '" + f.message + "'";
  for (const tl::FindingExample& e : f.examples) {
    s += " | (" + std::to_string(e.pid[0]) + "," + std::to_string(e.pid[1]) + "," + std::to_string(e.pid[2]) +
         ") lane " + std::to_string(e.lane) + " off " + std::to_string(e.offset) + " other (" +
         std::to_string(e.other_pid[0]) + "," + std::to_string(e.other_pid[1]) + "," +
         std::to_string(e.other_pid[2]) + ") idx";
    for (int64_t i : e.lane_index) s += " " + std::to_string(i);
    if (!e.detail.empty()) s += " '" + e.detail + "'";
  }
  return s;
}

inline std::vector<std::string> describe_all(const std::vector<tl::Finding>& fs) {
  std::vector<std::string> v;
  for (const tl::Finding& f : fs) v.push_back(describe(f));
  return v;
}

}  // namespace findings_fixture
