// Waiting on other programs (docs/memory-model.md): which launches may
// wait, and the while loop of a cooperative launch, which suspends its
// program after an iteration that only spun. Such an iteration read
// elements of buffers the kernel writes, changed no memory, and left every
// loop-carried value as it found it: run again on the same memory it
// would do exactly the same, so the program waits until some element it
// read holds another value.
#include <algorithm>
#include <cstring>

#include "coop.h"
#include "exec.h"

namespace tl {

namespace {

// Elements one spinning iteration may watch; an iteration that reads more
// (a loop over a large tile) is taken as working, never as spinning.
constexpr size_t kMaxWatched = 4096;

}  // namespace

void LaunchState::prepare_waits() {
  uint64_t written_mask = 0;
  for (size_t i = 0; i < k.params.size(); ++i)
    if (param_written[i]) written_mask |= i < 64 ? uint64_t{1} << i : ~uint64_t{0};
  // Per register: the steps that write it.
  std::vector<std::vector<int>> writers(k.regs.size());
  for (size_t j = 0; j < plan.steps.size(); ++j)
    if (plan.steps[j].dst >= 0) writers[static_cast<size_t>(plan.steps[j].dst)].push_back(static_cast<int>(j));
  bool sync_atomics = false;
  for (size_t i = 0; i < plan.steps.size(); ++i) {
    const Step& s = plan.steps[i];
    if (ir::is_atomic(s.op) && s.in->sem != ir::MemSem::relaxed) sync_atomics = true;
    if (s.op != ir::Op::While) continue;
    const int lo = static_cast<int>(i), hi = s.else_end;
    bool reads_written = false;
    std::vector<int> regs;
    for (int j = lo + 1; j < hi; ++j) {
      const Step& t = plan.steps[j];
      if ((t.op == ir::Op::Load || ir::is_atomic(t.op)) && t.a[0] >= 0 && (provenance[t.a[0]] & written_mask))
        reads_written = true;
      if (t.dst < 0) continue;
      bool outside = false;
      for (int w : writers[static_cast<size_t>(t.dst)]) outside |= w < lo || w >= hi;
      if (outside && std::find(regs.begin(), regs.end(), t.dst) == regs.end()) regs.push_back(t.dst);
    }
    if (!reads_written) continue;
    cooperative = true;
    carried[lo] = std::move(regs);
  }
  if (sync_atomics || cooperative) sync = std::make_unique<SyncState>();
}

void Exec::run_while_waiting(int i) {
  const Step& s = L_.plan.steps[i];
  static const std::vector<int> kNone;
  auto found = L_.carried.find(i);
  const std::vector<int>& carried = found == L_.carried.end() ? kNone : found->second;
  auto carried_bytes = [&](int r) { return static_cast<size_t>(ir::numel(type(r).shape)) * eval::elem_bytes(type(r)); };
  int64_t iterations = 0;
  loops_.push_back(ActiveLoop{i, 0});
  const size_t depth = loops_.size() - 1;
  ++while_depth_;
  for (;;) {
    tick();
    const size_t watch_begin = watch_.size();
    const int64_t changes = changes_;
    const size_t snapshot = carried_start_.size();
    for (int r : carried) carried_start_.insert(carried_start_.end(), reg(r), reg(r) + carried_bytes(r));
    run(i + 1, s.end);
    bool go_on = *as<uint8_t>(s.in->cond_reg) != 0;
    if (go_on && ++iterations > kMaxWhileIterations) {
      issue(*s.in, "while loop still running after " + std::to_string(kMaxWhileIterations) +
                       " iterations; stopped (does its condition ever become false?)");
      go_on = false;
    }
    if (go_on) run(s.end, s.else_end);
    bool spun = go_on && changes_ == changes && watch_.size() > watch_begin && !watch_overflow_;
    size_t at = snapshot;
    for (int r : carried) {
      if (!spun) break;
      const size_t bytes = carried_bytes(r);
      spun = std::memcmp(carried_start_.data() + at, reg(r), bytes) == 0;
      at += bytes;
    }
    carried_start_.resize(snapshot);
    if (spun) coop_->suspend(i, watch_.data() + watch_begin, watch_.data() + watch_.size());
    watch_.resize(watch_begin);
    if (!go_on) break;
    loops_[depth].trips = iterations;
  }
  if (--while_depth_ == 0) watch_overflow_ = false;
  loops_.pop_back();
}

void Exec::observe(MemAccess kind, const eval::PtrVal& pv, const std::byte* now, const std::byte* old,
                   const std::byte* cmp, size_t bytes) {
  const bool changed = kind == MemAccess::Store || (kind == MemAccess::Atomic && std::memcmp(now, old, bytes) != 0);
  if (changed) {
    ++changes_;
    written_params_ |= pv.buf < 64 ? uint64_t{1} << pv.buf : ~uint64_t{0};
    return;
  }
  if (while_depth_ == 0) return;
  if (watch_.size() >= kMaxWatched) {
    watch_overflow_ = true;
    return;
  }
  Watch w;
  w.param = static_cast<int>(pv.buf);
  w.off = pv.off;
  w.bytes = static_cast<uint8_t>(bytes);
  std::memcpy(&w.value, now, bytes);
  if (cmp) {
    w.has_cmp = true;
    std::memcpy(&w.cmp, cmp, bytes);
  }
  watch_.push_back(w);
}

}  // namespace tl
