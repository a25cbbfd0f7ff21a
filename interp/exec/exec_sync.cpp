// Happens-before between programs (docs/memory-model.md). A launch whose
// atomics acquire or release keeps, next to each element's last writer and
// reader, the clock of that program at the access; an access by another
// program conflicts only when the earlier one does not happen before it,
// which the current program's vector clock answers. Releases publish the
// releasing program's clock on the element; acquires join it.
#include <algorithm>
#include <cstring>

#include "exec.h"

namespace tl {

uint32_t VectorClock::get(uint32_t program) const {
  auto it = std::lower_bound(e_.begin(), e_.end(), program, [](const auto& x, uint32_t p) { return x.first < p; });
  return it != e_.end() && it->first == program ? it->second : 0;
}

void VectorClock::raise(uint32_t program, uint32_t clock) {
  auto it = std::lower_bound(e_.begin(), e_.end(), program, [](const auto& x, uint32_t p) { return x.first < p; });
  if (it != e_.end() && it->first == program) it->second = std::max(it->second, clock);
  else e_.insert(it, {program, clock});
}

void VectorClock::join(const VectorClock& o) {
  if (o.e_.empty()) return;
  if (e_.empty()) {
    e_ = o.e_;
    return;
  }
  merged_.clear();
  merged_.reserve(e_.size() + o.e_.size());
  size_t a = 0, b = 0;
  while (a < e_.size() || b < o.e_.size()) {
    if (b == o.e_.size() || (a < e_.size() && e_[a].first < o.e_[b].first)) {
      merged_.push_back(e_[a++]);
    } else if (a == e_.size() || o.e_[b].first < e_[a].first) {
      merged_.push_back(o.e_[b++]);
    } else {
      merged_.emplace_back(e_[a].first, std::max(e_[a].second, o.e_[b].second));
      ++a, ++b;
    }
  }
  e_.swap(merged_);
}

namespace {

constexpr uint32_t kManyReaders = 0xffffffffu;
constexpr uint32_t kAtomicWriter = 0x80000000u;

}  // namespace

bool Exec::ordered_before_me(uint32_t program, uint32_t clock) const {
  return program == me_ || vc_.get(program) >= clock;
}

void Exec::ordered_access(MemAccess kind, const Step& s, int64_t lane, const eval::PtrVal& pv, const BufView& bv) {
  const ir::Shape& tile = type(s.in->args[0]).shape;
  const int param = static_cast<int>(pv.buf);
  SyncState& sync = *L_.sync;
  const uint64_t key = SyncState::key(pv.buf, pv.off);
  uint32_t& w = bv.wrote[pv.off];
  uint32_t& wc = bv.wclk[pv.off];
  const uint32_t writer = w & ~kAtomicWriter;
  const bool atomic = kind == MemAccess::Atomic;
  // Against the last write: atomics meet atomics freely; anything else
  // must come after it.
  if (w && !(atomic && (w & kAtomicWriter)) && !ordered_before_me(writer, wc))
    note(kind == MemAccess::Load ? FindingKind::ReadWriteRace : FindingKind::WriteConflict, s, param, lane, tile,
         pv.off, static_cast<int64_t>(writer) - 1);
  if (!bv.read) {
    if (kind == MemAccess::Load) return;
  } else if (kind == MemAccess::Load) {
    uint32_t& r = bv.read[pv.off];
    uint32_t& rc = bv.rclk[pv.off];
    if (!r || r == me_ || (r != kManyReaders && ordered_before_me(r, rc))) {
      r = me_;
      rc = clock_;
      return;
    }
    // Readers not ordered with each other: a write must come after each.
    auto& readers = sync.shared_reads[key];
    if (r != kManyReaders) readers[r] = rc;
    r = kManyReaders;
    readers[me_] = clock_;
    return;
  } else {
    uint32_t& r = bv.read[pv.off];
    uint32_t& rc = bv.rclk[pv.off];
    if (r == kManyReaders) {
      auto it = sync.shared_reads.find(key);
      if (it != sync.shared_reads.end()) {
        uint32_t first = 0;
        for (const auto& [p, c] : it->second)
          if (!ordered_before_me(p, c) && (!first || p < first)) first = p;
        if (first) note(FindingKind::ReadWriteRace, s, param, lane, tile, pv.off, static_cast<int64_t>(first) - 1);
        sync.shared_reads.erase(it);
      }
    } else if (r && !ordered_before_me(r, rc)) {
      note(FindingKind::ReadWriteRace, s, param, lane, tile, pv.off, static_cast<int64_t>(r) - 1);
    }
    // Every later access ordered after this write is ordered after those
    // reads too: they need no record any more.
    r = 0;
    rc = 0;
  }
  w = me_ | (atomic ? kAtomicWriter : 0);
  wc = clock_;
  // A plain store ends what the element's last release published.
  if (!atomic && param < 64 && ((sync.released_params >> param) & 1)) sync.released.erase(key);
}

void Exec::atomic_lane_order(const Step& s, const eval::PtrVal& pv, bool wrote) {
  const ir::MemSem sem = s.in->sem;
  SyncState& sync = *L_.sync;
  const uint64_t key = SyncState::key(pv.buf, pv.off);
  if (sem == ir::MemSem::acquire || sem == ir::MemSem::acq_rel) {
    auto it = sync.released.find(key);
    if (it != sync.released.end() && it->second.get() != sync.last_acquired) {
      acquired_.join(*it->second);
      sync.last_acquired = it->second.get();
    }
  }
  // A failed compare-and-swap writes nothing and so releases nothing.
  if (wrote && (sem == ir::MemSem::release || sem == ir::MemSem::acq_rel)) {
    std::shared_ptr<const VectorClock>& published = sync.released[key];
    if (!sync.release_memo || published != sync.release_from) {
      // Joined, not replaced: a read-modify-write continues the release
      // sequence of the writes before it.
      auto next = std::make_shared<VectorClock>();
      if (published) next->join(*published);
      next->join(vc_);
      next->raise(me_, clock_);
      sync.release_from = published;
      sync.release_to = std::move(next);
      sync.release_memo = true;
    }
    published = sync.release_to;
    if (pv.buf < 64) sync.released_params |= uint64_t{1} << pv.buf;
    released_ = true;
  }
}

void Exec::end_atomic_order() {
  SyncState& sync = *L_.sync;
  sync.release_from.reset();
  sync.release_to.reset();
  sync.last_acquired = nullptr;
  sync.release_memo = false;
  vc_.join(acquired_);
  acquired_.clear();
  // Accesses after a release are not covered by what it published.
  if (released_) ++clock_;
  released_ = false;
}

}  // namespace tl
