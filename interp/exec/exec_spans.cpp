// A parallel run's conflict detection: after the programs ran, the spans
// of elements each program wrote or read (of buffers the kernel writes)
// are sorted per buffer and swept once for two programs on one element
// with a write involved. See LaunchState's comment in exec.h.
#include <algorithm>
#include <mutex>

#include "exec.h"
#include "worker_pool.h"

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

// Sorts spans by their first element: a counting sort into about one
// bucket per span by that element, then each bucket's few spans by
// comparison (a plain sort of 32 k spans was the largest serial cost of a
// parallel elementwise launch on 16 cores).
void sort_by_start(std::vector<LaunchState::Span>& spans, int64_t base, int64_t extent) {
  using Span = LaunchState::Span;
  auto by_start = [](const Span& a, const Span& b) { return a.lo < b.lo; };
  const size_t n = spans.size();
  if (n < 64 || extent <= 0) {
    std::sort(spans.begin(), spans.end(), by_start);
    return;
  }
  int shift = 0;
  while ((extent >> shift) > static_cast<int64_t>(n)) ++shift;
  const size_t buckets = static_cast<size_t>(extent >> shift) + 1;
  thread_local std::vector<uint32_t> start;
  thread_local std::vector<Span> out;
  start.assign(buckets + 1, 0);
  // Spans start inside [base, base + extent) (the caller clips them).
  auto bucket = [&](const Span& s) { return static_cast<size_t>((s.lo - base) >> shift); };
  for (const Span& s : spans) ++start[bucket(s) + 1];
  for (size_t b = 0; b < buckets; ++b) start[b + 1] += start[b];
  out.resize(n);
  for (const Span& s : spans) out[start[bucket(s)]++] = s;
  // start[b] is now the end of bucket b.
  size_t lo = 0;
  for (size_t b = 0; b < buckets; ++b) {
    const size_t hi = start[b];
    if (hi - lo > 1) std::sort(out.begin() + static_cast<std::ptrdiff_t>(lo), out.begin() + static_cast<std::ptrdiff_t>(hi), by_start);
    lo = hi;
  }
  spans.swap(out);
}

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

namespace {

// Do two programs' spans in [lo, hi) of one parameter overlap, a write
// involved? The spans are clipped to [lo, hi), sorted and swept once.
bool stripe_conflict(const std::vector<LaunchState::SpanLog>& logs, uint32_t param, int64_t lo, int64_t hi) {
  using Span = LaunchState::Span;
  // Kept from call to call on this thread: its pages stay mapped.
  thread_local std::vector<Span> all;
  all.clear();
  auto add = [&](const Span& s, int64_t a, int64_t b) {
    Span c = s;
    c.lo = std::max(a, lo);
    c.hi = std::min(b, hi);
    c.rows = 1;
    all.push_back(c);
  };
  for (const LaunchState::SpanLog& log : logs)
    for (const Span& s : log.spans) {
      if (s.param != param || s.lo >= hi || s.end() <= lo) continue;
      if (s.rows == 1) {
        add(s, s.lo, s.hi);
        continue;
      }
      // A 2-D span: its rows that meet [lo, hi), one by one.
      const int64_t first = s.hi > lo ? 0 : (lo - s.hi) / s.stride + 1;
      const int64_t last = std::min<int64_t>(s.rows, (hi - s.lo + s.stride - 1) / s.stride);
      for (int64_t r = first; r < last; ++r) add(s, s.lo + r * s.stride, s.hi + r * s.stride);
    }
  if (all.size() < 2) return false;
  sort_by_start(all, lo, hi - lo);
  FurthestTwo writes, reads;
  for (const Span& s : all) {
    // An earlier write on these elements by another program, or (this one
    // writing) an earlier read by another program.
    if (writes.overlaps_other(s.lo, s.program)) return true;
    if (s.write && reads.overlaps_other(s.lo, s.program)) return true;
    (s.write ? writes : reads).add(s.hi, s.program);
  }
  return false;
}

// The common case of a tiled kernel, decided without looking at rows:
// only writes to this parameter, and every span a rectangle of one grid of
// `stride` columns (its rows do not cross a grid row). Then two programs
// meet exactly when two of their rectangles do, which one sweep down the
// grid rows finds, keeping the column intervals of the rectangles that
// cover the current row. Returns 1 (a conflict), 0 (none) or -1 (not this
// case, or two rectangles of one program overlap: the row sweep decides).
int rectangles_conflict(const std::vector<LaunchState::SpanLog>& logs, uint32_t param, int64_t extent) {
  using Span = LaunchState::Span;
  int64_t stride = 0;
  size_t count = 0;
  for (const LaunchState::SpanLog& log : logs)
    for (const Span& s : log.spans) {
      if (s.param != param) continue;
      if (!s.write) return -1;
      ++count;
      if (s.rows > 1) {
        if (stride != 0 && s.stride != stride) return -1;
        stride = s.stride;
      }
    }
  if (count < 2) return 0;
  if (stride == 0) stride = std::max<int64_t>(extent, 1);  // single rows: one grid row
  struct Rect {
    int64_t row, end_row, c0, c1;
    uint32_t program;
  };
  thread_local std::vector<Rect> rects;
  rects.clear();
  for (const LaunchState::SpanLog& log : logs)
    for (const Span& s : log.spans) {
      if (s.param != param) continue;
      // Elements may lie outside [0, extent) only in a span no store
      // logged (stores log in-bounds lanes); floor division keeps this exact.
      const int64_t row = s.lo >= 0 ? s.lo / stride : -((-s.lo + stride - 1) / stride);
      const int64_t c0 = s.lo - row * stride, c1 = c0 + (s.hi - s.lo);
      if (c1 > stride) return -1;  // a row crosses the grid's
      rects.push_back(Rect{row, row + s.rows, c0, c1, s.program});
    }
  // By first row: counted into one bucket per row when the rows are few
  // (a tiled output has a row per grid row), else sorted.
  int64_t lo_row = INT64_MAX, hi_row = INT64_MIN;
  for (const Rect& r : rects) {
    lo_row = std::min(lo_row, r.row);
    hi_row = std::max(hi_row, r.row);
  }
  if (hi_row - lo_row < static_cast<int64_t>(4 * rects.size())) {
    thread_local std::vector<uint32_t> start;
    thread_local std::vector<Rect> sorted;
    start.assign(static_cast<size_t>(hi_row - lo_row + 2), 0);
    for (const Rect& r : rects) ++start[static_cast<size_t>(r.row - lo_row + 1)];
    for (size_t b = 1; b < start.size(); ++b) start[b] += start[b - 1];
    sorted.resize(rects.size());
    for (const Rect& r : rects) sorted[start[static_cast<size_t>(r.row - lo_row)]++] = r;
    rects.swap(sorted);
    // Then each row's rectangles by first column.
    auto by_c0 = [](const Rect& a, const Rect& b) { return a.c0 < b.c0; };
    for (size_t i = 0; i < rects.size();) {
      size_t j = i + 1;
      while (j < rects.size() && rects[j].row == rects[i].row) ++j;
      if (j - i > 1) std::sort(rects.begin() + static_cast<std::ptrdiff_t>(i), rects.begin() + static_cast<std::ptrdiff_t>(j), by_c0);
      i = j;
    }
  } else {
    std::sort(rects.begin(), rects.end(),
              [](const Rect& a, const Rect& b) { return a.row < b.row || (a.row == b.row && a.c0 < b.c0); });
  }
  // The rectangles covering the current grid row, by first column (their
  // column intervals are disjoint while no conflict was found): a sorted
  // vector. A tiled launch keeps one band of tiles open, and single rows
  // (one grid row, taken by rising column) only ever append; should many
  // rectangles stay open while others land between them, the row sweep
  // takes over rather than moving them on every insert.
  constexpr size_t kMaxOpen = 256;
  thread_local std::vector<Rect> active;
  active.clear();
  int64_t row = INT64_MIN;
  for (const Rect& r : rects) {
    if (r.row != row) {
      if (active.size() > kMaxOpen) return -1;
      row = r.row;
      std::erase_if(active, [&](const Rect& a) { return a.end_row <= row; });
    }
    auto next = std::lower_bound(active.begin(), active.end(), r.c0, [](const Rect& a, int64_t c) { return a.c0 < c; });
    const Rect* hit = nullptr;
    if (next != active.end() && next->c0 < r.c1) hit = &*next;
    if (!hit && next != active.begin() && std::prev(next)->c1 > r.c0) hit = &*std::prev(next);
    if (hit) return hit->program == r.program ? -1 : 1;
    if (next != active.end() && active.size() > kMaxOpen) return -1;
    active.insert(next, r);
  }
  return 0;
}

}  // namespace

bool LaunchState::spans_conflict() const {
  if (span_logs.empty()) return false;
  size_t total = 0;
  for (const SpanLog& log : span_logs)
    for (const Span& s : log.spans) total += s.rows;
  // Many spans: the buffer is cut into one stripe per worker, swept on the
  // launch's worker threads (this runs after the parallel part, alone).
  const int parts = total >= 8192 ? static_cast<int>(span_logs.size()) : 1;
  for (size_t p = 0; p < bufs.size(); ++p) {
    if (!bufs[p] || !param_written[p]) continue;
    const int64_t extent = bufs[p]->extent();
    const int rect = rectangles_conflict(span_logs, static_cast<uint32_t>(p), extent);
    if (rect >= 0) {
      if (rect == 1) return true;
      continue;
    }
    if (parts == 1) {
      if (stripe_conflict(span_logs, static_cast<uint32_t>(p), 0, extent)) return true;
      continue;
    }
    std::atomic<bool> found{false};
    run_on_workers(parts, [&](int t) {
      const int64_t lo = extent * t / parts, hi = extent * (t + 1) / parts;
      if (lo < hi && stripe_conflict(span_logs, static_cast<uint32_t>(p), lo, hi)) found = true;
    });
    if (found) return true;
  }
  return false;
}

}  // namespace tl
