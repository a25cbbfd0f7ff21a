// The Trace: everything a launch did, per program and in order. It is the
// only thing the viewer needs, and is saved as versioned JSON
// (docs in docs/trace-format.md).
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "dtype.h"
#include "ir.h"
#include "source_loc.h"

namespace tl {

inline constexpr int kTraceVersion = 1;

// The state of one lane of a load, store or atomic.
enum class LaneState : uint8_t {
  Active = 0,             // in bounds, mask true (or no mask): memory touched
  Masked = 1,             // mask false, address in bounds: nothing touched
  OutOfBounds = 2,        // mask true, address outside the buffer: a bug
  MaskedOutOfBounds = 3,  // mask false, address outside: what masks are for
};
const char* lane_state_name(LaneState s);

enum class EventKind : uint8_t { Load, Store, Atomic, Dot, Reduce, Print };
const char* event_kind_name(EventKind k);

struct Event {
  EventKind kind = EventKind::Load;
  int loc = -1;           // index into Trace::locations
  int buffer = -1;        // index into Trace::buffers (memory events)
  ir::Shape shape;        // the tile's shape (memory: the pointer tile; reduce: the input)
  std::vector<int64_t> offsets;   // per lane, element offset into the buffer
  std::vector<LaneState> lanes;   // per lane
  std::vector<double> values;     // stores/atomics: the values written (when recorded)
  bool has_other = false;         // load: masked lanes got `other` (else 0)
  int axis = -1;                  // reduce: the axis
  std::string op;                 // reduce: sum/max/...; dot: precision
  ir::Shape a_shape, b_shape;     // dot: operand shapes (shape is the result's)
  std::string text;               // print: the formatted line(s)
};

struct ProgramTrace {
  std::array<int64_t, 3> pid{0, 0, 0};
  std::vector<Event> events;
};

struct TraceBuffer {
  std::string name;
  DType dtype = DType::f32;
  std::vector<int64_t> shape, strides;
  int64_t extent = 0;
  int param_index = -1;
  // Element values (by flat offset, [0, extent)) before and after the
  // launch; empty when the buffer was too large to keep (see
  // kTraceMaxValues) or values were not asked for.
  std::vector<double> values_before, values_after;
  // What the buffer should hold after the launch (Options::reference of the
  // public API), by flat offset like values_after, and the tolerance it was
  // checked with: |after - expected| <= atol + rtol * |expected|, NaN
  // matching NaN. Empty when no reference was given or values are not kept.
  std::vector<double> values_expected;
  double expected_rtol = 0, expected_atol = 0;
};

// Buffers larger than this many elements keep no values in the trace.
inline constexpr int64_t kTraceMaxValues = int64_t{1} << 22;

// What the sanitizer found (the interpreter fills these; the viewer lists them).
enum class FindingKind : uint8_t {
  OutOfBoundsLoad,
  OutOfBoundsStore,
  WriteConflict,       // two programs store one element without atomics
  ReadWriteRace,       // one program reads an element another program writes
  UninitializedRead,   // an element of an output read before anything wrote it
  UndefinedValueUsed,  // masked lanes without `other` reach a reduction, dot or store
  PoisonStored,        // a value from an out-of-bounds load reaches memory
  RuntimeIssue,        // division by zero, over-wide shift, failed device_assert
  NeverWritten,        // elements of an unwritten buffer the kernel stores to, left unwritten
  BlockPtrOutOfShape,  // a block-pointer access reaches outside the pointer's shape on a dim not boundary-checked
  // Value bugs that stay in bounds. Each example's `detail`
  // holds the lane's values ("2 * 1073741824 = 2147483648, wraps to ...").
  IndexOverflow,         // signed integer + - * << that wrapped, on a value feeding a pointer offset
  ShiftOutOfRange,       // a shift count negative or not below the bit width
  LossyIntCast,          // an integer conversion that changes the value (drops set bits or flips the sign)
  FloatToIntOutOfRange,  // a float -> int conversion of NaN or of a value outside the integer's range
  FloatCastOverflow,     // a finite float converted to a narrower float (f16, bf16, f32) became inf
  InputNeverRead,        // elements of an input (a buffer the kernel never stores to) that no program read
  StepBudgetExceeded,  // a program ran past the step budget (a runaway loop); the launch was stopped
  IndexOutOfRange,     // a gather index outside [0, the source's extent on its axis)
  // Programs that wait on each other (docs/memory-model.md).
  Deadlock,     // every unfinished program waits and none can change what the others wait for; the launch was stopped
  CoResidency,  // every program a GPU of the configured size holds at once waits on programs it would start only later
};
const char* finding_kind_name(FindingKind k);

struct FindingExample {
  std::array<int64_t, 3> pid{0, 0, 0};
  int64_t lane = -1;                    // row-major lane in the tile
  std::vector<int64_t> lane_index;      // the lane's tile coordinates
  int64_t offset = 0;                   // element offset in the buffer
  std::array<int64_t, 3> other_pid{-1, -1, -1};  // write conflict: the other program
  int event = -1;                       // index into that program's traced events, -1 if untraced
  // BlockPtrOutOfShape: the dim, the lane's index on it, the shape there.
  int dim = -1;
  int64_t index = 0, extent = 0;
  // Value findings (IndexOverflow, ShiftOutOfRange, the casts): the
  // lane's operands and result in words; "" for other kinds.
  std::string detail;
};

// One finding per (op, kind), with counts and the first few examples.
struct Finding {
  FindingKind kind = FindingKind::OutOfBoundsLoad;
  int loc = -1;     // index into Trace::locations
  int buffer = -1;  // index into Trace::buffers
  int64_t lanes = 0;     // lanes (elements) affected, all counted
  int64_t programs = 0;  // distinct programs affected
  std::string message;   // one line, e.g. "load from x: 24 lanes out of bounds [0, 200)"
  std::vector<FindingExample> examples;
};

struct TraceScalar {
  std::string name;
  double value = 0;
  bool constant = false;  // a compile-time constant rather than a runtime scalar
};

struct Trace {
  int version = kTraceVersion;
  std::string kernel;
  std::string source_file;
  std::array<int64_t, 3> grid{1, 1, 1};
  std::vector<TraceBuffer> buffers;
  std::vector<TraceScalar> scalars;
  std::vector<SrcLoc> locations;
  std::vector<ProgramTrace> programs;  // in program-id order (pid0, pid1, pid2 lexicographic)
  std::vector<Finding> findings;
  bool truncated = false;              // the byte budget stopped recording
  int64_t budget_bytes = 0;
  int64_t recorded_bytes = 0;

  // Approximate memory one event takes (what the budget counts).
  static int64_t event_bytes(const Event& e);
};

// JSON form. to_json writes a complete document; from_json validates it and
// throws std::runtime_error with a clear message on anything malformed.
std::string trace_to_json(const Trace& t, int indent = -1);
Trace trace_from_json(const std::string& text);
void save_trace(const Trace& t, const std::string& path);
Trace load_trace(const std::string& path);

}  // namespace tl
