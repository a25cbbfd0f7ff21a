// What the trace's JSON writer (trace_json.cpp) and reader
// (trace_json_read.cpp) share: the document type, the format's name for
// each kind, and the small encoders the reader's messages reuse. Internal
// to interp/trace/.
#pragma once
#include <array>
#include <cstdint>
#include <string_view>

#include <nlohmann/json.hpp>

#include "trace.h"

namespace tl::trace_json {

// ordered_json keeps keys in the order written, so files read top-down the
// way the schema document does ("format" and "version" first).
using Json = nlohmann::ordered_json;

inline constexpr std::string_view kFormatName = "tilescope-trace";

// The format's spelling of each kind, fixed by docs/trace-format.md and kept
// apart from the display names in trace.cpp. Switches rather than tables:
// a kind added to trace.h without a name here is a -Wswitch warning, not a
// read past the end of an array. nullptr for values outside the enum.
inline const char* json_name(EventKind k) {
  switch (k) {
    case EventKind::Load: return "load";
    case EventKind::Store: return "store";
    case EventKind::Atomic: return "atomic";
    case EventKind::Dot: return "dot";
    case EventKind::Reduce: return "reduce";
    case EventKind::Print: return "print";
  }
  return nullptr;
}

inline const char* json_name(FindingKind k) {
  switch (k) {
    case FindingKind::OutOfBoundsLoad: return "out_of_bounds_load";
    case FindingKind::OutOfBoundsStore: return "out_of_bounds_store";
    case FindingKind::WriteConflict: return "write_conflict";
    case FindingKind::ReadWriteRace: return "read_write_race";
    case FindingKind::UninitializedRead: return "uninitialized_read";
    case FindingKind::UndefinedValueUsed: return "undefined_value_used";
    case FindingKind::PoisonStored: return "poison_stored";
    case FindingKind::RuntimeIssue: return "runtime_issue";
    case FindingKind::NeverWritten: return "never_written";
    case FindingKind::BlockPtrOutOfShape: return "block_ptr_out_of_shape";
    case FindingKind::IndexOverflow: return "index_overflow";
    case FindingKind::ShiftOutOfRange: return "shift_out_of_range";
    case FindingKind::LossyIntCast: return "lossy_int_cast";
    case FindingKind::FloatToIntOutOfRange: return "float_to_int_out_of_range";
    case FindingKind::FloatCastOverflow: return "float_cast_overflow";
    case FindingKind::InputNeverRead: return "input_never_read";
    case FindingKind::StepBudgetExceeded: return "step_budget_exceeded";
    case FindingKind::IndexOutOfRange: return "index_out_of_range";
    case FindingKind::Deadlock: return "deadlock";
    case FindingKind::CoResidency: return "co_residency";
  }
  return nullptr;
}

// Never a null string, even for a corrupted enum value (readers reject "unknown").
template <class Kind>
const char* kind_name_or_unknown(Kind k) { return json_name(k) ? json_name(k) : "unknown"; }

inline bool is_memory(EventKind k) { return k == EventKind::Load || k == EventKind::Store || k == EventKind::Atomic; }

inline Json encode_triple(const std::array<int64_t, 3>& g) { return Json::array({g[0], g[1], g[2]}); }

}  // namespace tl::trace_json
