// Ordering between programs (docs/memory-model.md): vector clocks for the
// happens-before that acquire and release atomics create, and what a
// program waiting on memory watches. Internal to interp/.
#pragma once
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

namespace tl {

// A program's knowledge of the others: for each program (linear id + 1)
// the latest clock of it that happens before now. Sparse and sorted by
// program: most programs synchronize with few others.
class VectorClock {
 public:
  uint32_t get(uint32_t program) const;
  void join(const VectorClock& o);
  // Sets `program`'s entry to at least `clock`.
  void raise(uint32_t program, uint32_t clock);
  void clear() { e_.clear(); }
  bool empty() const { return e_.empty(); }

 private:
  std::vector<std::pair<uint32_t, uint32_t>> e_;
  std::vector<std::pair<uint32_t, uint32_t>> merged_;  // join's scratch
};

// Per launch: what the releases published, per element, and the readers
// of elements that programs read without ordering between them.
struct SyncState {
  static uint64_t key(int64_t param, int64_t off) { return (static_cast<uint64_t>(param) << 48) | static_cast<uint64_t>(off); }
  // An element some release wrote: the clocks an acquire of it joins.
  // Shared: the lanes of one atomic op, which publish the same clocks,
  // share one copy (a tile atomic would otherwise copy it per lane).
  std::unordered_map<uint64_t, std::shared_ptr<const VectorClock>> released;
  // Within one atomic op: the last lane's clocks before and after its
  // release (a lane holding the same `from` gets the same `to`), and the
  // last clocks acquired (joined once however many lanes hold them).
  std::shared_ptr<const VectorClock> release_from, release_to;
  const VectorClock* last_acquired = nullptr;
  bool release_memo = false;
  uint64_t released_params = 0;  // bit i: `released` may hold an element of parameter i
  // An element read by programs not ordered with each other: each
  // reader's latest clock there (a write must come after all of them).
  std::unordered_map<uint64_t, std::unordered_map<uint32_t, uint32_t>> shared_reads;
};

// One element a waiting loop read in its last iteration, with the value
// it saw (and an atomic_cas's expected value): the loop can only go on
// once some element holds another value.
struct Watch {
  int param = -1;
  int64_t off = 0;
  uint64_t value = 0, cmp = 0;
  uint8_t bytes = 0;
  bool has_cmp = false;
};

}  // namespace tl
