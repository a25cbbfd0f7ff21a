// tilescope's public API: debug your own tile kernel from your own program.
//
//   #include <tilescope/tilescope.h>
//
//   void my_kernel(tl::Ptr x, tl::Ptr y, tl::Int N, tl::Const BLOCK) { ... }
//
//   const tilescope::Kernel kernel("my_kernel", my_kernel,
//                                  {{"x", tl::f32, {"N"}}, {"y", tl::f32, {"N"}}, {"N"}, {"BLOCK"}});
//   tilescope::Buffer x("x", tl::f32, {N}), y("y", tl::f32, {N});
//   tilescope::Result r = tilescope::launch(kernel, {tl::cdiv(N, 128)}, {x, y, N, 128},
//                                           {.trace = tilescope::Tracing::Full});
//   if (!r.ok()) std::fputs(r.report().c_str(), stderr);
//   tilescope::save_trace(r, "trace.json");   // then: tilescope view trace.json
//
// It reads like Triton's `kernel[grid](x, y, N, BLOCK=128)`: arguments are
// positional, buffers are updated in place, and every load and store is
// bounds-checked by the interpreter. Nothing here throws for a mistake in the
// kernel or the launch: such mistakes come back in Result::error as
// compiler-style diagnostics ("file:line:col: error: ...") naming your line.
// The reference is docs/api.md.
#pragma once
#include <array>
#include <atomic>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <source_location>
#include <string>
#include <vector>

#include "buffer.h"
#include "interpreter.h"
#include "kernel.h"
#include "tl.h"
#include "trace.h"

namespace tilescope {

using Buffer = tl::Buffer;
using DType = tl::DType;
using Grid = tl::Grid;
using Arg = tl::Arg;
using Program = std::array<int64_t, 3>;

// ---- Declaring a kernel ------------------------------------------------------

// One dimension of a declared buffer shape: a number, or the name of an
// integer parameter of the same kernel whose launch value it takes.
struct Dim {
  template <std::integral I>
  Dim(I n) : size(static_cast<int64_t>(n)) {}
  Dim(const char* parameter) : parameter(parameter) {}
  Dim(std::string parameter) : parameter(std::move(parameter)) {}
  int64_t size = -1;
  std::string parameter;
};

// What a kernel does with a tl::Ptr parameter's buffer, when declared. A
// launch in which any parameter declares a role checks each promise:
enum class Role {
  Unspecified,  // no promise, nothing checked
  In,           // read: elements no program read are a warning (input never read)
  Out,          // written: the host's values are not input; elements never
                // written are a warning, reads before any write an error
  InOut,        // read and written: as In for the reads, nothing for the writes
};

// What a kernel parameter is called and, for a tl::Ptr, what buffer it
// takes. A launch whose buffer has another dtype or shape is refused with a
// diagnostic at the launch line, before the kernel runs.
struct Param {
  Param(const char* name) : name(name) {}
  Param(std::string name) : name(std::move(name)) {}
  Param(std::string name, DType dtype, std::vector<Dim> shape = {}, Role role = Role::Unspecified)
      : name(std::move(name)), dtype(dtype), shape(std::move(shape)), role(role) {}
  std::string name;
  std::optional<DType> dtype;  // pointers: the buffer's dtype; unset: any
  std::vector<Dim> shape;      // pointers: the buffer's shape; empty: any
  Role role = Role::Unspecified;
};

// A kernel function and (optionally) its parameters' names and contracts,
// one Param per function parameter in order. Its IR is built once per
// specialization (buffer dtypes, constants) and cached; copies share it.
class Kernel {
 public:
  template <class... A>
  Kernel(std::string name, void (*fn)(A...), std::vector<Param> params = {},
         std::source_location declared = std::source_location::current())
      : def_(std::make_shared<tl::KernelDef>(std::move(name), fn, names_of(params), declared)),
        params_(std::move(params)) {}

  // A kernel whose IR another front end builds (the Python one: see
  // tl::KernelDef's BuildFn constructor).
  Kernel(std::shared_ptr<tl::KernelDef> def, std::vector<Param> params)
      : def_(std::move(def)), params_(std::move(params)) {}

  const std::string& name() const { return def_->name(); }
  const std::vector<Param>& params() const { return params_; }
  // The interpreter's kernel definition (for the tl:: layer below this API).
  const tl::KernelDef& def() const { return *def_; }

 private:
  static std::vector<std::string> names_of(const std::vector<Param>& params) {
    std::vector<std::string> names;
    for (const Param& p : params) names.push_back(p.name);
    return names;
  }
  std::shared_ptr<tl::KernelDef> def_;
  std::vector<Param> params_;
};

// ---- Buffers ----------------------------------------------------------------
// tilescope::Buffer (tl::Buffer) owns zero-filled row-major storage:
//   Buffer x("x", tl::f32, {rows, cols});  x.as<float>()[i] = ...;  x.get(i)
// or wraps memory you own (strides in elements; row-major when empty):

template <class T>
constexpr DType dtype_of() {
  if constexpr (std::same_as<T, bool>) return tl::i1;
  else if constexpr (std::same_as<T, float>) return tl::f32;
  else if constexpr (std::same_as<T, double>) return tl::f64;
  else if constexpr (std::signed_integral<T> && sizeof(T) == 1) return tl::i8;
  else if constexpr (std::signed_integral<T> && sizeof(T) == 2) return tl::i16;
  else if constexpr (std::signed_integral<T> && sizeof(T) == 4) return tl::i32;
  else if constexpr (std::signed_integral<T> && sizeof(T) == 8) return tl::i64;
  else if constexpr (std::unsigned_integral<T> && sizeof(T) == 1) return tl::u8;
  else if constexpr (std::unsigned_integral<T> && sizeof(T) == 2) return tl::u16;
  else if constexpr (std::unsigned_integral<T> && sizeof(T) == 4) return tl::u32;
  else if constexpr (std::unsigned_integral<T> && sizeof(T) == 8) return tl::u64;
  else static_assert(sizeof(T) == 0, "no tl:: dtype for this element type; pass the dtype to wrap()");
}

// Wraps `data` (not copied, not owned); the dtype follows the element type.
template <class T>
Buffer wrap(std::string name, T* data, std::vector<int64_t> shape, std::vector<int64_t> strides = {}) {
  return Buffer::wrap(std::move(name), dtype_of<T>(), data, std::move(shape), std::move(strides));
}
// Wraps untyped memory (f16/bf16 data, for instance) as `dtype`.
inline Buffer wrap(std::string name, DType dtype, void* data, std::vector<int64_t> shape,
                   std::vector<int64_t> strides = {}) {
  return Buffer::wrap(std::move(name), dtype, data, std::move(shape), std::move(strides));
}

// ---- Launching --------------------------------------------------------------

enum class Tracing {
  Off,       // no trace: fastest; findings are still reported
  Full,      // every event of every program
  Filtered,  // only the programs in Options::trace_programs
};

struct Options {
  Tracing trace = Tracing::Off;
  std::vector<Program> trace_programs;  // with Tracing::Filtered
  // Stop at the first finding instead of running every program.
  bool strict = false;
  // Interpreter threads; 0: all cores. Results do not depend on it.
  int threads = 0;
  // A runaway kernel: past this many steps (executed operations, loop
  // iterations included) in one program, the launch stops with a
  // StepBudgetExceeded finding naming the loop, its line and its trip
  // count. The default is far above any correct kernel we know; 0: none.
  int64_t max_steps = tl::kDefaultMaxSteps;
  // Set it (from your SIGINT handler, say) to stop the launch at its next
  // step: Result::interrupted, with the findings and trace so far.
  const std::atomic<bool>* cancel = nullptr;
  // Progress on stderr (programs done of total, rate) for launches longer
  // than about a second: Auto shows it only when stderr is a terminal.
  enum class Progress { Auto, Never, Always } progress = Progress::Auto;
  // Also run the kernel on the GPU (through tilescope's CUDA code generator,
  // on the same inputs) and compare every buffer with the interpreter's.
  // Needs tilescope built with the GPU backend and a CUDA driver; without
  // them Result::gpu says why it did not run.
  bool gpu_compare = false;
  // Also time the GPU kernel (CUDA events, median of gpu_timing_runs).
  bool gpu_time = false;
  int gpu_timing_runs = 20;
  // An optional reference check: given copies of the buffer arguments as
  // they were before the launch (in parameter order), compute in them what
  // each buffer should hold afterwards (outputs filled, inputs left as they
  // are). Result::reference then holds every buffer's diff against the
  // launch, each mismatch with the program and lane that stored it. An
  // element matches when |found - expected| <= atol + rtol * |expected|
  // (NaN matches NaN).
  std::function<void(std::vector<Buffer>& expected)> reference;
  double reference_rtol = 1e-5, reference_atol = 1e-6;
};

struct BufferComparison {
  std::string name;
  bool pass = false;
  std::string summary;  // "rel 3.1e-08, max |diff| 2e-07 (tolerance 1e-06 ...)" or what differs
};

// One buffer argument as the GPU left it (its bytes, laid out as the
// interpreter's buffer), for callers that compare values themselves.
struct GpuBuffer {
  std::string name;
  std::vector<std::byte> bytes;
};

struct GpuReport {
  bool ran = false;    // the kernel ran on a GPU
  std::string error;   // why not: "not available: ...", no driver, a compile or CUDA error
  std::string device;  // "NVIDIA H100 80GB HBM3 (sm_90a, 132 SMs)"
  std::vector<BufferComparison> buffers;  // every buffer argument, in parameter order
  std::vector<GpuBuffer> outputs;         // when it ran: every buffer argument after the GPU's launch
  bool matches = false;                   // every buffer within the tolerance
  std::vector<double> times_ms;           // with gpu_time: one per timed launch
  double median_ms = 0;
};

// One element that differs from the reference.
struct Mismatch {
  std::vector<int64_t> index;  // in the buffer's shape
  double expected = 0, found = 0;
  // The program and lane whose store left `found` there; program
  // {-1, -1, -1} when no store did (never written, or not traced: a
  // launch past the trace's byte budget).
  Program program{-1, -1, -1};
  std::vector<int64_t> lane;   // the lane's index in that store's tile
  int line = 0;                // the store's kernel line
};

// A buffer against its reference (Options::reference).
struct BufferDiff {
  std::string name;
  int64_t total = 0, mismatch_count = 0;
  double max_abs_diff = 0;
  std::vector<Mismatch> first;  // the first mismatches in row-major order (up to 10)
  bool pass() const { return mismatch_count == 0; }
};

struct Result {
  // A kernel that does not build or a launch that does not fit it, as a
  // compiler would say it ("file:line:col: error: ..."); "" when it ran.
  std::string error;
  // The sanitizer's findings (out-of-bounds accesses, races, undefined
  // values, ...), and all of them formatted as compiler-style diagnostics.
  std::vector<tl::Finding> findings;
  std::string findings_text;
  bool stopped = false;             // strict mode stopped at the first finding
  bool interrupted = false;         // Options::cancel stopped the launch part-way
  std::shared_ptr<tl::Trace> trace;  // null unless traced
  std::string printed;              // tl::print output, in program order
  std::optional<GpuReport> gpu;     // with gpu_compare or gpu_time
  std::vector<BufferDiff> reference;  // with Options::reference: every buffer argument, in order
  tl::RunResult run;                // everything the interpreter returned

  // Ran, no findings, the GPU (where it ran and compared) agrees, and every
  // buffer matches the reference (where one was given).
  bool ok() const;
  // What a person reads: the error, or the findings and the GPU comparison.
  std::string report() const;
};

// Runs `kernel` on every program of `grid` in the interpreter, with `args`
// matched positionally to its parameters (buffers, integers, floats,
// constants). Buffers hold the results afterwards. `where` is the launch
// line named by launch errors; leave it defaulted.
Result launch(const Kernel& kernel, Grid grid, const std::vector<Arg>& args, const Options& options = {},
              std::source_location where = std::source_location::current());

// ---- Saving and viewing -------------------------------------------------------

struct Status {
  bool ok = true;
  std::string message;  // why not, when !ok
  explicit operator bool() const { return ok; }
};

// Writes the launch's trace as versioned JSON (docs/trace-format.md), for
// `tilescope view FILE` or to share. Needs a traced launch.
Status save_trace(const Result& result, const std::string& path);

struct ViewOptions {
  std::optional<Program> program;  // select this program first
  std::string screenshot;          // render a PNG here and return (no window)
  std::string executable;          // the tilescope executable; empty: found as below
};

namespace detail {
Status view_file(const std::string& trace_path, const ViewOptions& options, const char* default_executable);
Status view_result(const Result& result, const ViewOptions& options, const char* default_executable);
}  // namespace detail

// Opens the viewer on a saved trace, or on a traced launch (saved to a
// temporary file first), by running `tilescope view`, and waits until its
// window is closed. The executable is options.executable, else
// $TILESCOPE_EXECUTABLE, else the one installed with this library, else
// `tilescope` on PATH. Without a display (DISPLAY unset) it returns an
// error status saying how to view the trace elsewhere; it never aborts.
#ifdef TILESCOPE_EXECUTABLE_PATH
inline constexpr const char* kDefaultExecutable = TILESCOPE_EXECUTABLE_PATH;
#else
inline constexpr const char* kDefaultExecutable = "tilescope";
#endif
inline Status view(const std::string& trace_path, const ViewOptions& options = {}) {
  return detail::view_file(trace_path, options, kDefaultExecutable);
}
inline Status view(const Result& result, const ViewOptions& options = {}) {
  return detail::view_result(result, options, kDefaultExecutable);
}

}  // namespace tilescope
