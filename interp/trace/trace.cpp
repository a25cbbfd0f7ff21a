#include "trace.h"

namespace tl {

const char* lane_state_name(LaneState s) {
  switch (s) {
    case LaneState::Active: return "active";
    case LaneState::Masked: return "masked";
    case LaneState::OutOfBounds: return "out-of-bounds";
    case LaneState::MaskedOutOfBounds: return "masked out-of-bounds";
  }
  return "unknown";
}

const char* event_kind_name(EventKind k) {
  switch (k) {
    case EventKind::Load: return "load";
    case EventKind::Store: return "store";
    case EventKind::Atomic: return "atomic";
    case EventKind::Dot: return "dot";
    case EventKind::Reduce: return "reduce";
    case EventKind::Print: return "print";
  }
  return "unknown";
}

const char* finding_kind_name(FindingKind k) {
  switch (k) {
    case FindingKind::OutOfBoundsLoad: return "out-of-bounds load";
    case FindingKind::OutOfBoundsStore: return "out-of-bounds store";
    case FindingKind::WriteConflict: return "write conflict";
    case FindingKind::ReadWriteRace: return "read-write race";
    case FindingKind::UninitializedRead: return "uninitialized read";
    case FindingKind::UndefinedValueUsed: return "undefined value used";
    case FindingKind::PoisonStored: return "poison stored";
    case FindingKind::RuntimeIssue: return "runtime issue";
    case FindingKind::NeverWritten: return "never written";
    case FindingKind::BlockPtrOutOfShape: return "block pointer outside its shape";
    case FindingKind::IndexOverflow: return "integer overflow in index arithmetic";
    case FindingKind::ShiftOutOfRange: return "shift count out of range";
    case FindingKind::LossyIntCast: return "lossy integer conversion";
    case FindingKind::FloatToIntOutOfRange: return "float-to-int conversion out of range";
    case FindingKind::FloatCastOverflow: return "float conversion overflows to inf";
    case FindingKind::InputNeverRead: return "input never read";
    case FindingKind::StepBudgetExceeded: return "step budget exceeded";
    case FindingKind::IndexOutOfRange: return "index out of range";
    case FindingKind::Deadlock: return "deadlock";
    case FindingKind::CoResidency: return "wait needs more programs resident than the GPU holds";
  }
  return "unknown";
}

int64_t Trace::event_bytes(const Event& e) {
  // The struct itself plus what its vectors and strings hold on the heap;
  // capacity slack and allocator headers are ignored, so this is a floor
  // that grows linearly with the lanes recorded, which is what a budget needs.
  auto vec_bytes = [](const auto& v) {
    return static_cast<int64_t>(v.size() * sizeof(v[0]));
  };
  return static_cast<int64_t>(sizeof(Event)) + vec_bytes(e.shape) + vec_bytes(e.offsets) +
         vec_bytes(e.lanes) + vec_bytes(e.values) + vec_bytes(e.a_shape) + vec_bytes(e.b_shape) +
         static_cast<int64_t>(e.op.size() + e.text.size());
}

}  // namespace tl
