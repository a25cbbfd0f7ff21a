#include "model_coverage.h"

#include <algorithm>

#include "model_placement.h"

namespace viz {

namespace {

enum : uint8_t { kLoadBit = 1, kStoreBit = 2, kAtomicBit = 4 };

uint8_t kind_bit(tl::EventKind k) {
  return k == tl::EventKind::Load ? kLoadBit : k == tl::EventKind::Store ? kStoreBit : kAtomicBit;
}

// Calls visit(offset, kind bits) once per element each program touched,
// program by program: a program counts once however many lanes or events
// touch an element. `seen` is per element scratch, left all zero.
template <class Visit>
void for_each_touch(const tl::Trace& t, int buffer, int64_t extent, std::vector<uint8_t>& seen, Visit visit) {
  std::vector<int64_t> touched;
  for (size_t p = 0; p < t.programs.size(); ++p) {
    for (const tl::Event& e : t.programs[p].events) {
      if (!is_memory_access(e.kind) || e.buffer != buffer || e.offsets.size() != e.lanes.size()) continue;
      const uint8_t bit = kind_bit(e.kind);
      for (size_t l = 0; l < e.lanes.size(); ++l) {
        const int64_t o = e.offsets[l];
        // Active lanes are in bounds; the check keeps a bad trace harmless.
        if (e.lanes[l] != tl::LaneState::Active || o < 0 || o >= extent) continue;
        if (seen[o] == 0) touched.push_back(o);
        seen[o] |= bit;
      }
    }
    for (int64_t o : touched) {
      visit(static_cast<int32_t>(p), o, seen[o]);
      seen[o] = 0;
    }
    touched.clear();
  }
}

}  // namespace

BufferCoverage compute_coverage(const tl::Trace& t, int buffer, bool known_output) {
  BufferCoverage c;
  c.buffer = buffer;
  if (buffer < 0 || buffer >= static_cast<int>(t.buffers.size())) return c;
  c.extent = t.buffers[buffer].extent;
  const size_t n = static_cast<size_t>(c.extent);
  c.loads.assign(n, 0);
  c.stores.assign(n, 0);
  c.atomics.assign(n, 0);
  c.first.assign(n + 1, 0);
  std::vector<uint8_t> seen(n, 0);
  // First pass: counts, and the size of each element's program list.
  for_each_touch(t, buffer, c.extent, seen, [&](int32_t, int64_t o, uint8_t bits) {
    c.loads[o] += (bits & kLoadBit) != 0;
    c.stores[o] += (bits & kStoreBit) != 0;
    c.atomics[o] += (bits & kAtomicBit) != 0;
    ++c.first[o + 1];
  });
  for (size_t o = 0; o < n; ++o) c.first[o + 1] += c.first[o];
  // Written: the kernel stores to it (even if every lane was masked), or
  // the caller knows it is an output (a puzzle's, before the kernel does anything).
  c.written = known_output;
  for (const tl::ProgramTrace& p : t.programs)
    for (const tl::Event& e : p.events)
      c.written |= e.buffer == buffer && (e.kind == tl::EventKind::Store || e.kind == tl::EventKind::Atomic);
  // Second pass: the lists themselves, in compressed rows.
  c.programs.resize(c.first[n]);
  std::vector<uint64_t> fill(c.first.begin(), c.first.end() - 1);
  for_each_touch(t, buffer, c.extent, seen, [&](int32_t prog, int64_t o, uint8_t) { c.programs[fill[o]++] = prog; });
  for (size_t o = 0; o < n; ++o) {
    c.never_written_count += c.written && c.stores[o] == 0 && c.atomics[o] == 0;
    c.overlapping_count += c.stores[o] > 1;
  }
  return c;
}

std::vector<int> BufferCoverage::touched_by(int64_t offset, size_t max) const {
  std::vector<int> out;
  if (offset < 0 || offset >= extent) return out;
  for (uint64_t i = first[offset]; i < first[offset + 1] && out.size() < max; ++i) out.push_back(programs[i]);
  return out;
}

int64_t BufferCoverage::touched_count(int64_t offset) const {
  if (offset < 0 || offset >= extent) return 0;
  return static_cast<int64_t>(first[offset + 1] - first[offset]);
}

Rgba coverage_color(const BufferCoverage& c, int64_t offset) {
  if (offset < 0 || offset >= c.extent) return palette::untouched;
  if (!c.written) return read_count_color(c.loads[offset]);
  if (c.atomics[offset] > 0) return c.stores[offset] > 0 ? palette::overlap : palette::atomic;
  if (c.stores[offset] == 0) return palette::never_written;
  return c.stores[offset] == 1 ? palette::written_once : palette::overlap;
}

}  // namespace viz
