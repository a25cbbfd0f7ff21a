#include "model_conflicts.h"

#include <algorithm>
#include <unordered_map>

namespace viz {

const ConflictCell* BufferConflicts::at(int64_t offset) const {
  auto it = std::lower_bound(cells.begin(), cells.end(), offset,
                             [](const ConflictCell& c, int64_t o) { return c.offset < o; });
  return it != cells.end() && it->offset == offset ? &*it : nullptr;
}

bool has_write_conflicts(const tl::Trace& t, int buffer) {
  for (const tl::Finding& f : t.findings)
    if (f.kind == tl::FindingKind::WriteConflict && f.buffer == buffer) return true;
  return false;
}

BufferConflicts compute_conflicts(const tl::Trace& t, int buffer, const BufferCoverage& cov) {
  BufferConflicts out;
  std::unordered_map<int64_t, size_t> slot;
  auto add = [&](int64_t o) -> ConflictCell& {
    auto [it, inserted] = slot.emplace(o, out.cells.size());
    if (inserted) {
      out.cells.push_back({});
      out.cells.back().offset = o;
      out.cells.back().storers = o >= 0 && o < cov.extent ? cov.stores[o] : 0;
    }
    return out.cells[it->second];
  };
  for (int64_t o = 0; o < cov.extent; ++o)
    if (cov.stores[o] > 1) add(o);
  // The programs, in trace order: the first two distinct storers of each element.
  if (!out.cells.empty())
    for (const tl::ProgramTrace& p : t.programs)
      for (const tl::Event& e : p.events) {
        if (e.kind != tl::EventKind::Store || e.buffer != buffer || e.offsets.size() != e.lanes.size()) continue;
        for (size_t l = 0; l < e.lanes.size(); ++l) {
          if (e.lanes[l] != tl::LaneState::Active) continue;
          auto it = slot.find(e.offsets[l]);
          if (it == slot.end()) continue;
          ConflictCell& c = out.cells[it->second];
          if (c.first[0] < 0) c.first = p.pid;
          else if (c.second[0] < 0 && c.first != p.pid) c.second = p.pid;
        }
      }
  // The findings' examples: also two lanes of one program on one element.
  for (const tl::Finding& f : t.findings) {
    if (f.kind != tl::FindingKind::WriteConflict || f.buffer != buffer) continue;
    for (const tl::FindingExample& ex : f.examples) {
      if (ex.offset < 0 || ex.offset >= cov.extent) continue;
      ConflictCell& c = add(ex.offset);
      if (c.first[0] < 0) {
        c.first = ex.other_pid[0] >= 0 ? ex.other_pid : ex.pid;
        c.second = ex.pid;
      }
      c.storers = std::max<int64_t>(c.storers, 1);
    }
  }
  std::sort(out.cells.begin(), out.cells.end(),
            [](const ConflictCell& a, const ConflictCell& b) { return a.offset < b.offset; });
  return out;
}

std::vector<CellBounds> conflict_runs(const BufferConflicts& c, const GridLayout& layout) {
  std::vector<Cell> cells;
  for (const ConflictCell& cc : c.cells) {
    if (layout.kind == LayoutKind::Strip) {
      cells.push_back({cc.offset / layout.wrap, cc.offset % layout.wrap});
      continue;
    }
    if (auto cell = layout.cell_of(unravel_unbounded(cc.offset, layout.shape))) cells.push_back(*cell);
  }
  std::sort(cells.begin(), cells.end());
  std::vector<CellBounds> runs;
  for (const Cell& cell : cells) {
    if (!runs.empty() && runs.back().row0 == cell.row && runs.back().col1 == cell.col) {
      ++runs.back().col1;
      continue;
    }
    if (!runs.empty() && runs.back().row0 == cell.row && runs.back().col1 > cell.col) continue;  // duplicate
    runs.push_back({cell.row, cell.col, cell.row + 1, cell.col + 1});
  }
  return runs;
}

}  // namespace viz
