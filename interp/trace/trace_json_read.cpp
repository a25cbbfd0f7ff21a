// The Trace's JSON form (docs/trace-format.md), reading side: every field
// is checked, because a trace file may come from anywhere and the viewer
// indexes buffers and locations with what it holds. Each problem is one
// std::runtime_error naming where in the document it is.
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>

#include "trace_json_common.h"

namespace tl {

namespace {

using namespace trace_json;

// ---------------------------------------------------------------- reading

// Where a value sits in the document, e.g. programs[3].events[7].lanes.
// Paths are chains of stack objects and become text only when a check
// fails, so reading a million events builds no strings.
struct Path {
  const Path* parent = nullptr;
  std::string_view key;  // a field name, unless is_index
  size_t index = 0;
  bool is_index = false;

  Path field(std::string_view k) const { return Path{this, k, 0, false}; }
  Path at(size_t i) const { return Path{this, {}, i, true}; }
  std::string str() const {
    std::string head = parent ? parent->str() : "";
    if (is_index) return head + "[" + std::to_string(index) + "]";
    return head.empty() ? std::string(key) : head + "." + std::string(key);
  }
};

[[noreturn]] void fail(const Path& path, const std::string& what) {
  std::string where = path.str();
  throw std::runtime_error("trace JSON: " + (where.empty() ? std::string("top level") : where) + ": " + what);
}

// "an array", "a string", ...: what a value is, for "expected X, got Y".
std::string describe(const Json& v) {
  if (v.is_number_float()) return "a non-integer number";
  if (v.is_number()) return "an integer";
  if (v.is_null()) return "null";
  std::string type = v.type_name();  // object, array, string, boolean
  return (type[0] == 'a' || type[0] == 'o' ? "an " : "a ") + type;
}

[[noreturn]] void wrong_type(const Path& path, const char* expected, const Json& got) {
  fail(path, std::string("expected ") + expected + ", got " + describe(got));
}

const Json& require_object(const Json& v, const Path& path) {
  if (!v.is_object()) wrong_type(path, "an object", v);
  return v;
}
const Json& require_array(const Json& v, const Path& path) {
  if (!v.is_array()) wrong_type(path, "an array", v);
  return v;
}

// The member `key` of `obj` (already checked to be an object).
const Json& member(const Json& obj, const Path& path, std::string_view key) {
  auto it = obj.find(key);
  if (it == obj.end()) fail(path, "missing required field \"" + std::string(key) + "\"");
  return *it;
}

constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();
constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();
constexpr int kIntMax = std::numeric_limits<int>::max();

int64_t read_int(const Json& v, const Path& path, int64_t lo, int64_t hi) {
  if (!v.is_number_integer()) wrong_type(path, "an integer", v);
  // nlohmann keeps integers above INT64_MAX as unsigned; they fit no field.
  if (v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(kInt64Max))
    fail(path, "integer " + v.dump() + " is out of range");
  int64_t x = v.get<int64_t>();
  if (x < lo || x > hi)
    fail(path, "value " + std::to_string(x) + " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return x;
}

int read_int32(const Json& v, const Path& path, int lo, int hi) { return static_cast<int>(read_int(v, path, lo, hi)); }

double read_double(const Json& v, const Path& path) {
  if (v.is_number()) return v.get<double>();
  if (v.is_string()) {
    const auto& s = v.get_ref<const std::string&>();
    if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
    if (s == "inf") return std::numeric_limits<double>::infinity();
    if (s == "-inf") return -std::numeric_limits<double>::infinity();
    fail(path, "expected a number or \"nan\", \"inf\", \"-inf\", got the string " + v.dump());
  }
  wrong_type(path, "a number", v);
}

std::string read_string(const Json& v, const Path& path) {
  if (!v.is_string()) wrong_type(path, "a string", v);
  return v.get<std::string>();
}
bool read_bool(const Json& v, const Path& path) {
  if (!v.is_boolean()) wrong_type(path, "a boolean", v);
  return v.get<bool>();
}

// An array of reals of length 0 ("not recorded") or `expected`.
std::vector<double> read_optional_reals(const Json& v, const Path& path, size_t expected) {
  require_array(v, path);
  if (!v.empty() && v.size() != expected)
    fail(path, "expected " + std::to_string(expected) + " values (or none), got " + std::to_string(v.size()));
  std::vector<double> out;
  out.reserve(v.size());
  for (size_t i = 0; i < v.size(); ++i) out.push_back(read_double(v[i], path.at(i)));
  return out;
}

// A kind by its JSON name. Kinds are numbered from 0 without gaps, so the
// names run until json_name() returns nullptr.
template <class Kind>
Kind read_kind(const Json& v, const Path& path, const char* what) {
  std::string s = read_string(v, path);
  for (int i = 0; json_name(static_cast<Kind>(i)); ++i)
    if (s == json_name(static_cast<Kind>(i))) return static_cast<Kind>(i);
  std::string known;
  for (int i = 0; json_name(static_cast<Kind>(i)); ++i)
    known += (i ? ", " : "") + std::string(json_name(static_cast<Kind>(i)));
  fail(path, "unknown " + std::string(what) + " \"" + s + "\" (expected one of: " + known + ")");
}

std::vector<int64_t> read_int_array(const Json& v, const Path& path, int64_t lo) {
  require_array(v, path);
  std::vector<int64_t> out;
  out.reserve(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    const Json& x = v[i];
    // Fast path for the common case; the checked read only to explain a failure.
    if (x.is_number_integer() && !x.is_number_unsigned() && x.get<int64_t>() >= lo) {
      out.push_back(x.get<int64_t>());
    } else {
      out.push_back(read_int(x, path.at(i), lo, kInt64Max));
    }
  }
  return out;
}

// A tile or buffer shape: non-negative dimensions whose product fits in int64.
ir::Shape read_shape(const Json& v, const Path& path) {
  ir::Shape s = read_int_array(v, path, 0);
  int64_t n = 1;
  for (int64_t d : s)
    if (__builtin_mul_overflow(n, d, &n)) fail(path, "shape " + v.dump() + " has too many elements");
  return s;
}

std::array<int64_t, 3> read_triple(const Json& v, const Path& path, int64_t lo) {
  require_array(v, path);
  if (v.size() != 3) fail(path, "expected 3 integers, got " + std::to_string(v.size()));
  std::array<int64_t, 3> out{};
  for (size_t i = 0; i < 3; ++i) out[i] = read_int(v[i], path.at(i), lo, kInt64Max);
  return out;
}

// Reads member `key` of object `obj` with `read`, e.g.
// field(v, p, "extent", read_int, 0, kInt64Max).
template <class Reader, class... Limits>
auto field(const Json& obj, const Path& path, std::string_view key, Reader read, Limits... limits) {
  return read(member(obj, path, key), path.field(key), limits...);
}

// Reads array member `key` of `obj`, each element with `read_one`.
template <class T, class ReadOne>
std::vector<T> read_list(const Json& obj, const Path& p, std::string_view key, ReadOne read_one) {
  Path list_path = p.field(key);
  const Json& list = require_array(member(obj, p, key), list_path);
  std::vector<T> out;
  out.reserve(list.size());
  for (size_t i = 0; i < list.size(); ++i) out.push_back(read_one(list[i], list_path.at(i)));
  return out;
}

TraceBuffer read_buffer(const Json& v, const Path& p) {
  require_object(v, p);
  TraceBuffer b;
  b.name = field(v, p, "name", read_string);
  std::string dtype = field(v, p, "dtype", read_string);
  auto parsed = parse_dtype(dtype);
  if (!parsed) fail(p.field("dtype"), "unknown dtype \"" + dtype + "\"");
  b.dtype = *parsed;
  b.shape = field(v, p, "shape", read_shape);
  b.strides = field(v, p, "strides", read_int_array, kInt64Min);
  if (b.strides.size() != b.shape.size())
    fail(p.field("strides"), "expected " + std::to_string(b.shape.size()) + " strides (one per dimension), got " +
                                 std::to_string(b.strides.size()));
  b.extent = field(v, p, "extent", read_int, 0, kInt64Max);
  b.param_index = field(v, p, "param_index", read_int32, -1, kIntMax);
  b.values_before = field(v, p, "values_before", read_optional_reals, static_cast<size_t>(b.extent));
  b.values_after = field(v, p, "values_after", read_optional_reals, static_cast<size_t>(b.extent));
  if (v.contains("values_expected")) {
    b.values_expected = field(v, p, "values_expected", read_optional_reals, static_cast<size_t>(b.extent));
    b.expected_rtol = field(v, p, "expected_rtol", read_double);
    b.expected_atol = field(v, p, "expected_atol", read_double);
    if (!(b.expected_rtol >= 0) || !(b.expected_atol >= 0))
      fail(p.field("expected_rtol"), "expected non-negative tolerances");
  }
  return b;
}

TraceScalar read_scalar(const Json& v, const Path& p) {
  require_object(v, p);
  TraceScalar s;
  s.name = field(v, p, "name", read_string);
  s.value = field(v, p, "value", read_double);
  s.constant = field(v, p, "constant", read_bool);
  return s;
}

SrcLoc read_location(const Json& v, const Path& p) {
  require_object(v, p);
  constexpr int64_t kMaxU32 = std::numeric_limits<uint32_t>::max();
  SrcLoc l;
  l.file = field(v, p, "file", read_string);
  l.line = static_cast<uint32_t>(field(v, p, "line", read_int, 0, kMaxU32));
  l.col = static_cast<uint32_t>(field(v, p, "col", read_int, 0, kMaxU32));
  return l;
}

// An index into a table of `count` entries, or -1 where `none_ok`.
int read_index(const Json& obj, const Path& p, std::string_view key, size_t count, const char* table, bool none_ok) {
  int i = field(obj, p, key, read_int32, none_ok ? -1 : 0, kIntMax);
  if (i >= 0 && static_cast<size_t>(i) >= count)
    fail(p.field(key), std::string(table) + " index " + std::to_string(i) + " is out of range (the trace has " +
                           std::to_string(count) + " " + table + "s)");
  return i;
}

std::array<int64_t, 3> read_pid(const Json& obj, const Path& p, std::string_view key, const Trace& header) {
  std::array<int64_t, 3> pid = field(obj, p, key, read_triple, 0);
  for (size_t i = 0; i < 3; ++i)
    if (pid[i] >= header.grid[i])
      fail(p.field(key).at(i), "program id " + std::to_string(pid[i]) + " is outside the grid (size " +
                                   std::to_string(header.grid[i]) + " on axis " + std::to_string(i) + ")");
  return pid;
}

void read_memory_event(const Json& v, const Path& p, const Trace& header, Event& e) {
  // The buffer of the tile's first lane. Lane states were decided against
  // each lane's own buffer, which differs in the rare tile that mixes
  // buffers, so offsets are not checked against this buffer's extent.
  e.buffer = read_index(v, p, "buffer", header.buffers.size(), "buffer", false);
  e.shape = field(v, p, "shape", read_shape);
  const size_t lanes = static_cast<size_t>(ir::numel(e.shape));
  e.offsets = field(v, p, "offsets", read_int_array, kInt64Min);
  if (e.offsets.size() != lanes)
    fail(p.field("offsets"), "expected " + std::to_string(lanes) + " offsets, got " + std::to_string(e.offsets.size()));

  Path lanes_path = p.field("lanes");
  const Json& states_json = member(v, p, "lanes");
  if (!states_json.is_string()) wrong_type(lanes_path, "a string of lane states", states_json);
  const auto& states = states_json.get_ref<const std::string&>();
  if (states.size() != lanes)
    fail(lanes_path, "expected " + std::to_string(lanes) + " lane states, got " + std::to_string(states.size()));
  e.lanes.resize(lanes);
  for (size_t i = 0; i < lanes; ++i) {
    char c = states[i];
    if (c < '0' || c > '3') {
      std::string shown = (c >= 0x20 && c < 0x7f) ? std::string("'") + c + "'"
                                                  : "byte " + std::to_string(static_cast<unsigned char>(c));
      fail(lanes_path.at(i), "invalid lane state " + shown + " (expected '0'..'3')");
    }
    e.lanes[i] = static_cast<LaneState>(c - '0');
  }

  if (e.kind == EventKind::Load)
    e.has_other = field(v, p, "has_other", read_bool);
  else
    e.values = field(v, p, "values", read_optional_reals, lanes);
}

void read_dot_event(const Json& v, const Path& p, Event& e) {
  e.shape = field(v, p, "shape", read_shape);
  e.a_shape = field(v, p, "a_shape", read_shape);
  e.b_shape = field(v, p, "b_shape", read_shape);
  e.op = field(v, p, "op", read_string);
  // [.., M, K] x [.., K, N] -> [.., M, N], 2-D or batched 3-D.
  const ir::Shape &a = e.a_shape, &b = e.b_shape, &r = e.shape;
  size_t rank = r.size();
  bool ok = (rank == 2 || rank == 3) && a.size() == rank && b.size() == rank && a[rank - 1] == b[rank - 2] &&
            r[rank - 2] == a[rank - 2] && r[rank - 1] == b[rank - 1] && (rank == 2 || (a[0] == r[0] && b[0] == r[0]));
  if (!ok)
    fail(p, "dot shapes do not agree: a " + ir::shape_str(a) + " x b " + ir::shape_str(b) + " -> " + ir::shape_str(r) +
                " (expected [.., M, K] x [.., K, N] -> [.., M, N])");
}

Event read_event(const Json& v, const Path& p, const Trace& header) {
  require_object(v, p);
  Event e;
  e.kind = field(v, p, "kind", read_kind<EventKind>, "event kind");
  e.loc = read_index(v, p, "loc", header.locations.size(), "location", false);
  if (is_memory(e.kind)) {
    read_memory_event(v, p, header, e);
  } else if (e.kind == EventKind::Reduce) {
    e.shape = field(v, p, "shape", read_shape);
    int rank = static_cast<int>(e.shape.size());
    if (rank == 0) fail(p.field("shape"), "a reduction needs a tile of rank >= 1, got []");
    e.axis = field(v, p, "axis", read_int32, 0, rank - 1);
    e.op = field(v, p, "op", read_string);
  } else if (e.kind == EventKind::Dot) {
    read_dot_event(v, p, e);
  } else {
    e.text = field(v, p, "text", read_string);
  }
  return e;
}

ProgramTrace read_program(const Json& v, const Path& p, const Trace& header) {
  require_object(v, p);
  ProgramTrace prog;
  prog.pid = read_pid(v, p, "pid", header);
  prog.events = read_list<Event>(v, p, "events", [&](const Json& e, const Path& ep) { return read_event(e, ep, header); });
  return prog;
}

// Traced programs by program id, for findings that point at their events.
using ProgramIndex = std::map<std::array<int64_t, 3>, const ProgramTrace*>;

FindingExample read_example(const Json& v, const Path& p, const Trace& header, const ProgramIndex& traced) {
  require_object(v, p);
  FindingExample x;
  x.pid = read_pid(v, p, "pid", header);
  x.lane = field(v, p, "lane", read_int, -1, kInt64Max);
  x.lane_index = field(v, p, "lane_index", read_int_array, 0);
  x.offset = field(v, p, "offset", read_int, kInt64Min, kInt64Max);
  // [-1, -1, -1] when there is no other program.
  x.other_pid = field(v, p, "other_pid", read_triple, -1);
  if (x.other_pid != std::array<int64_t, 3>{-1, -1, -1}) x.other_pid = read_pid(v, p, "other_pid", header);
  auto it = traced.find(x.pid);
  size_t num_events = it == traced.end() ? 0 : it->second->events.size();
  x.event = field(v, p, "event", read_int32, -1, kIntMax);
  if (x.event >= 0 && static_cast<size_t>(x.event) >= num_events)
    fail(p.field("event"), "event index " + std::to_string(x.event) + " is out of range (program " +
                               encode_triple(x.pid).dump() + " has " + std::to_string(num_events) + " traced events)");
  // Optional (block-pointer findings only; absent in traces from before them).
  if (v.contains("block")) {
    const Json& b = require_object(v["block"], p.field("block"));
    const Path bp = p.field("block");
    x.dim = static_cast<int>(read_int(member(b, bp, "dim"), bp.field("dim"), 0, 63));
    x.index = read_int(member(b, bp, "index"), bp.field("index"), kInt64Min, kInt64Max);
    x.extent = read_int(member(b, bp, "extent"), bp.field("extent"), kInt64Min, kInt64Max);
  }
  // Optional (value findings only; absent in traces from before them).
  if (v.contains("detail")) x.detail = field(v, p, "detail", read_string);
  return x;
}

Finding read_finding(const Json& v, const Path& p, const Trace& header, const ProgramIndex& traced) {
  require_object(v, p);
  Finding f;
  f.kind = field(v, p, "kind", read_kind<FindingKind>, "finding kind");
  f.loc = read_index(v, p, "loc", header.locations.size(), "location", true);
  f.buffer = read_index(v, p, "buffer", header.buffers.size(), "buffer", true);
  f.lanes = field(v, p, "lanes", read_int, 0, kInt64Max);
  f.programs = field(v, p, "programs", read_int, 0, kInt64Max);
  f.message = field(v, p, "message", read_string);
  f.examples = read_list<FindingExample>(v, p, "examples", [&](const Json& x, const Path& xp) {
    return read_example(x, xp, header, traced);
  });
  return f;
}

Trace read_trace(const Json& root) {
  const Path top;
  require_object(root, top);
  Trace t;
  // Format and version first: a file from another tool or a newer tilescope
  // should say so, not complain about some field it happens to lack.
  std::string format = field(root, top, "format", read_string);
  if (format != kFormatName)
    fail(top.field("format"), "expected \"" + std::string(kFormatName) + "\", got \"" + format + "\"");
  t.version = field(root, top, "version", read_int32, std::numeric_limits<int>::min(), kIntMax);
  if (t.version != kTraceVersion)
    fail(top.field("version"), "unsupported trace version " + std::to_string(t.version) + " (this build reads version " +
                                   std::to_string(kTraceVersion) + ")");

  t.kernel = field(root, top, "kernel", read_string);
  t.source_file = field(root, top, "source_file", read_string);
  t.grid = field(root, top, "grid", read_triple, 1);
  // The viewer numbers programs x + gx * (y + gy * z): the count must fit.
  int64_t programs = 0;
  if (__builtin_mul_overflow(t.grid[0], t.grid[1], &programs) || __builtin_mul_overflow(programs, t.grid[2], &programs))
    fail(top.field("grid"), "grid " + encode_triple(t.grid).dump() + " has too many programs");
  t.buffers = read_list<TraceBuffer>(root, top, "buffers", read_buffer);
  t.scalars = read_list<TraceScalar>(root, top, "scalars", read_scalar);
  t.locations = read_list<SrcLoc>(root, top, "locations", read_location);
  // Programs and findings refer into the header read so far.
  t.programs = read_list<ProgramTrace>(root, top, "programs",
                                       [&](const Json& v, const Path& p) { return read_program(v, p, t); });
  ProgramIndex traced;
  for (size_t i = 0; i < t.programs.size(); ++i) {
    auto [it, added] = traced.emplace(t.programs[i].pid, &t.programs[i]);
    if (!added)
      fail(top.field("programs").at(i).field("pid"), "program " + encode_triple(t.programs[i].pid).dump() +
                                                           " appears twice (also programs[" +
                                                           std::to_string(it->second - t.programs.data()) + "])");
  }
  t.findings = read_list<Finding>(root, top, "findings",
                                  [&](const Json& v, const Path& p) { return read_finding(v, p, t, traced); });
  t.truncated = field(root, top, "truncated", read_bool);
  t.budget_bytes = field(root, top, "budget_bytes", read_int, 0, kInt64Max);
  t.recorded_bytes = field(root, top, "recorded_bytes", read_int, 0, kInt64Max);
  return t;
}

// nlohmann's messages start with "[json.exception.parse_error.101] "; the
// rest ("parse error at line 3, column 7: syntax error ...") is what a user needs.
std::string strip_exception_id(const char* what) {
  std::string_view s(what);
  if (s.starts_with("[json.exception.")) {
    size_t end = s.find("] ");
    if (end != std::string_view::npos) s.remove_prefix(end + 2);
  }
  return std::string(s);
}

}  // namespace

Trace trace_from_json(const std::string& text) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw std::runtime_error("trace JSON: the input is empty");
  Json root;
  try {
    root = Json::parse(text);
  } catch (const Json::exception& e) {
    // Mostly parse_error; a number too large for a double ("1e999") is
    // out_of_range, and reads just as well.
    throw std::runtime_error("trace JSON: " + strip_exception_id(e.what()));
  }
  try {
    return read_trace(root);
  } catch (const Json::exception& e) {
    // The checks above should leave no nlohmann call that can throw; this
    // keeps the promise of one clear runtime_error if one is missed.
    throw std::runtime_error("trace JSON: " + strip_exception_id(e.what()));
  }
}

}  // namespace tl
