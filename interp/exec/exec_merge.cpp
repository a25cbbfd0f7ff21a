// Folding what each program recorded into the launch's result and trace,
// in program order, as soon as every earlier program is done: memory then
// holds the merged result plus the few programs that finished ahead of a
// slower one, not a log per program of the whole grid.
#include <cstring>

#include "exec.h"

namespace tl {

namespace {

int location_index(const std::vector<SrcLoc>& locs, const SrcLoc& loc) {
  for (size_t i = 0; i < locs.size(); ++i)
    if (locs[i] == loc) return static_cast<int>(i);
  return -1;
}

// Groups one program's raw findings into the launch's list: one finding per
// (kind, op, buffer), counting lanes and programs, keeping the first examples.
void group_findings(const LaunchState& L, ProgramLog& lg, bool events_kept, RunResult& r,
                    std::vector<std::array<int64_t, 3>>& last_program) {
  constexpr size_t kExamples = 5;
  for (RawFinding& raw : lg.findings) {
    int loc = raw.step >= 0 ? L.plan.steps[raw.step].loc : location_index(L.locations, raw.loc);
    int buffer = L.buffer_index(raw.param);
    Finding* f = nullptr;
    for (Finding& g : r.findings)
      if (g.kind == raw.kind && g.loc == loc && g.buffer == buffer && g.message == raw.message) f = &g;
    if (!f) {
      Finding g;
      g.kind = raw.kind;
      g.loc = loc;
      g.buffer = buffer;
      g.message = raw.message;
      r.findings.push_back(std::move(g));
      last_program.push_back({-1, -1, -1});
      f = &r.findings.back();
    }
    f->lanes += raw.lanes;
    // One program can raise the same finding from several ops on one line.
    auto& last = last_program[static_cast<size_t>(f - r.findings.data())];
    if (last != lg.pid) {
      f->programs += 1;
      last = lg.pid;
    }
    for (FindingExample& e : raw.examples) {
      if (f->examples.size() >= kExamples) break;
      if (!events_kept) e.event = -1;
      f->examples.push_back(std::move(e));
    }
  }
}

}  // namespace

void LaunchState::add_never_written(RunResult& r) const {
  if (r.stopped) return;  // a strict stop leaves the rest unwritten by design
  for (size_t p = 0; p < bufs.size(); ++p) {
    const Buffer* b = bufs[p];
    // Only buffers this kernel stores to: an input it merely reads is the
    // host's business.
    if (!b || !b->tracks_writes() || !param_written[p]) continue;
    bool seen_before = false;  // one finding per buffer, even when bound twice
    for (size_t q = 0; q < p; ++q) seen_before |= bufs[q] == b;
    if (seen_before) continue;
    const auto& w = b->written_map();
    Finding f;
    f.kind = FindingKind::NeverWritten;
    f.buffer = buffer_index(static_cast<int>(p));
    // memchr finds the next unwritten element at memory speed: a launch
    // that wrote everything (the common case) costs a fraction of an
    // instruction per element here, in the serial part of the launch.
    const uint8_t* map = w.data();
    const size_t size = w.size();
    for (size_t e = 0; e < size;) {
      const void* hit = std::memchr(map + e, 0, size - e);
      if (!hit) break;
      e = static_cast<size_t>(static_cast<const uint8_t*>(hit) - map);
      ++f.lanes;
      if (f.examples.size() < 5) {
        FindingExample ex;
        ex.pid = {-1, -1, -1};
        ex.offset = static_cast<int64_t>(e);
        f.examples.push_back(ex);
      }
      ++e;
    }
    if (f.lanes == 0) continue;
    // Point at the kernel's first store that may reach this buffer.
    for (const Step& s : plan.steps)
      if ((s.op == ir::Op::Store || ir::is_atomic(s.op)) && s.loc >= 0 &&
          (p >= 64 || (provenance[s.a[0]] >> p) & 1)) {
        f.loc = s.loc;
        break;
      }
    r.findings.push_back(std::move(f));
  }
}

void LaunchState::begin_merge(RunResult& r, Trace* t, int64_t budget) {
  merge_ = MergeState{};
  merge_.r = &r;
  merge_.t = t;
  merge_.budget = budget;
  merged_trace_bytes = 0;
  // A replay in program order starts the result over.
  r.findings.clear();
  r.oob.clear();
  r.issues.clear();
  r.printed.clear();
  r.oob_loads = r.oob_stores = 0;
  r.stopped = false;
  if (t) {
    t->programs.clear();
    t->truncated = false;
    t->recorded_bytes = 0;
  }
}

void LaunchState::deposit(int64_t linear, std::unique_ptr<ProgramLog> log) {
  MergeState& m = merge_;
  const size_t k = static_cast<size_t>(linear - m.frontier);
  if (k >= m.window.size()) m.window.resize(k + 1);
  m.window[k].done = true;
  m.window[k].log = std::move(log);
  while (!m.window.empty() && m.window.front().done) {
    merge_one(m.frontier, m.window.front().log.get());
    m.window.pop_front();
    ++m.frontier;
  }
}

void LaunchState::merge_one(int64_t i, ProgramLog* lg) {
  MergeState& m = merge_;
  RunResult& r = *m.r;
  Trace* t = m.t;
  if (!lg) {
    if (t && !m.trace_stopped && wants_trace(i)) t->programs.push_back(ProgramTrace{pid_of(i), {}});
    return;
  }
  const bool fits = lg->traced && !lg->trace_over && m.used + lg->trace_bytes <= m.budget;
  const bool keep_events = t && !m.trace_stopped && wants_trace(i) && fits;
  group_findings(*this, *lg, keep_events, r, m.last_program);
  r.stopped |= lg->stopped;
  r.oob_loads += lg->oob_loads;
  r.oob_stores += lg->oob_stores;
  for (auto& o : lg->oob)
    if (r.oob.size() < RunResult::kMaxOob) r.oob.push_back(std::move(o));
  for (auto& is : lg->issues) r.issues.push_back(std::move(is));
  r.printed += lg->printed;
  if (!t || m.trace_stopped || !wants_trace(i)) return;
  if (!fits) {
    m.trace_stopped = true;
    t->truncated = true;
    return;
  }
  m.used += lg->trace_bytes;
  merged_trace_bytes.store(m.used, std::memory_order_relaxed);
  t->programs.push_back(ProgramTrace{lg->pid, std::move(lg->events)});
}

void LaunchState::end_merge() {
  if (merge_.t) merge_.t->recorded_bytes = merge_.used;
  merge_.window.clear();
}

}  // namespace tl
