// A parallel run's conflict detection: after the programs ran, the spans
// of elements each program wrote or read (of buffers the kernel writes)
// are sorted per buffer and swept once for two programs on one element
// with a write involved. See LaunchState's comment in exec.h.
#include <algorithm>
#include <mutex>

#include "exec.h"

namespace tl {

namespace {

// Span logs whose storage outlived their launch: a launch takes its logs
// from here and gives them back, so their capacity (the memory already
// paged in) carries over instead of being allocated again.
std::mutex spare_mu;
std::vector<std::vector<LaunchState::Span>>& spare_logs() {
  static auto* spare = new std::vector<std::vector<LaunchState::Span>>;
  return *spare;
}

// The spans seen so far of one kind (writes, or reads): the furthest end
// of any, with its program, and the furthest end among the other programs.
// An earlier span overlaps a later one starting at `lo` exactly when its
// end is past `lo` (the sweep goes by rising starts).
struct FurthestTwo {
  int64_t hi1 = INT64_MIN, hi2 = INT64_MIN;
  uint32_t program1 = 0;
  bool overlaps_other(int64_t lo, uint32_t program) const {
    return (program1 != program && hi1 > lo) || hi2 > lo;
  }
  void add(int64_t hi, uint32_t program) {
    if (program == program1) {
      hi1 = std::max(hi1, hi);
    } else if (hi > hi1) {
      hi2 = hi1;
      hi1 = hi;
      program1 = program;
    } else {
      hi2 = std::max(hi2, hi);
    }
  }
};

}  // namespace

LaunchState::~LaunchState() { release_span_logs(); }

void LaunchState::acquire_span_logs(int workers) {
  span_logs = std::vector<SpanLog>(static_cast<size_t>(workers));
  std::lock_guard<std::mutex> lock(spare_mu);
  auto& spare = spare_logs();
  for (SpanLog& log : span_logs) {
    if (spare.empty()) break;
    log.spans = std::move(spare.back());
    spare.pop_back();
    log.spans.clear();
  }
}

void LaunchState::release_span_logs() {
  if (span_logs.empty()) return;
  std::lock_guard<std::mutex> lock(spare_mu);
  auto& spare = spare_logs();
  for (SpanLog& log : span_logs)
    if (log.spans.capacity() > 0 && spare.size() < 256) spare.push_back(std::move(log.spans));
  span_logs.clear();
}

bool LaunchState::spans_conflict() const {
  if (span_logs.empty()) return false;
  // Kept from call to call on this thread: its pages stay mapped.
  thread_local std::vector<Span> all;
  for (size_t p = 0; p < bufs.size(); ++p) {
    if (!bufs[p] || !param_written[p]) continue;
    all.clear();
    for (const SpanLog& log : span_logs)
      for (const Span& s : log.spans)
        if (s.param == p) all.push_back(s);
    if (all.size() < 2) continue;
    std::sort(all.begin(), all.end(), [](const Span& a, const Span& b) { return a.lo < b.lo; });
    FurthestTwo writes, reads;
    for (const Span& s : all) {
      // An earlier write on these elements by another program, or (this
      // one writing) an earlier read by another program.
      if (writes.overlaps_other(s.lo, s.program)) return true;
      if (s.write && reads.overlaps_other(s.lo, s.program)) return true;
      (s.write ? writes : reads).add(s.hi, s.program);
    }
  }
  return false;
}

}  // namespace tl
