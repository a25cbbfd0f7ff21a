// The Trace's JSON form (docs/trace-format.md), writing side, and the
// trace files. Writing is direct; reading (trace_json_read.cpp) checks every
// field, because a trace file may come from anywhere.
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>

#include "trace_json_common.h"

namespace tl {

namespace {

using namespace trace_json;

// ---------------------------------------------------------------- writing

// JSON has no NaN or infinity; they travel as strings.
Json encode_double(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return v;
}

Json encode_doubles(const std::vector<double>& values) {
  Json out = Json::array();
  for (double v : values) out.push_back(encode_double(v));
  return out;
}


Json encode_event(const Event& e) {
  Json j;
  j["kind"] = kind_name_or_unknown(e.kind);
  j["loc"] = e.loc;
  if (is_memory(e.kind)) {
    j["buffer"] = e.buffer;
    j["shape"] = e.shape;
    j["offsets"] = e.offsets;
    std::string lanes(e.lanes.size(), '0');
    for (size_t i = 0; i < e.lanes.size(); ++i) lanes[i] = static_cast<char>('0' + static_cast<int>(e.lanes[i]));
    j["lanes"] = std::move(lanes);
    if (e.kind == EventKind::Load)
      j["has_other"] = e.has_other;
    else
      j["values"] = encode_doubles(e.values);
  } else if (e.kind == EventKind::Reduce) {
    j["shape"] = e.shape;
    j["axis"] = e.axis;
    j["op"] = e.op;
  } else if (e.kind == EventKind::Dot) {
    j["shape"] = e.shape;
    j["a_shape"] = e.a_shape;
    j["b_shape"] = e.b_shape;
    j["op"] = e.op;
  } else {
    j["text"] = e.text;
  }
  return j;
}

Json encode_finding(const Finding& f) {
  Json examples = Json::array();
  for (const FindingExample& x : f.examples) {
    Json e = {{"pid", encode_triple(x.pid)}, {"lane", x.lane}, {"lane_index", x.lane_index},
              {"offset", x.offset}, {"other_pid", encode_triple(x.other_pid)}, {"event", x.event}};
    // Block-pointer details only where there are some: older readers and
    // older traces never see or need them.
    if (x.dim >= 0) e["block"] = {{"dim", x.dim}, {"index", x.index}, {"extent", x.extent}};
    if (!x.detail.empty()) e["detail"] = x.detail;  // value findings only
    examples.push_back(std::move(e));
  }
  return {{"kind", kind_name_or_unknown(f.kind)}, {"loc", f.loc}, {"buffer", f.buffer}, {"lanes", f.lanes},
          {"programs", f.programs}, {"message", f.message}, {"examples", std::move(examples)}};
}

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

}  // namespace

std::string trace_to_json(const Trace& t, int indent) {
  Json j;
  j["format"] = kFormatName;
  j["version"] = kTraceVersion;
  j["kernel"] = t.kernel;
  j["source_file"] = t.source_file;
  j["grid"] = encode_triple(t.grid);
  j["buffers"] = Json::array();
  for (const TraceBuffer& b : t.buffers) {
    Json jb{{"name", b.name}, {"dtype", std::string(name(b.dtype))}, {"shape", b.shape},
            {"strides", b.strides}, {"extent", b.extent}, {"param_index", b.param_index},
            {"values_before", encode_doubles(b.values_before)},
            {"values_after", encode_doubles(b.values_after)}};
    // Optional: only traces of launches with a reference check have them.
    if (!b.values_expected.empty()) {
      jb["values_expected"] = encode_doubles(b.values_expected);
      jb["expected_rtol"] = encode_double(b.expected_rtol);
      jb["expected_atol"] = encode_double(b.expected_atol);
    }
    j["buffers"].push_back(std::move(jb));
  }
  j["scalars"] = Json::array();
  for (const TraceScalar& s : t.scalars)
    j["scalars"].push_back({{"name", s.name}, {"value", encode_double(s.value)}, {"constant", s.constant}});
  j["locations"] = Json::array();
  for (const SrcLoc& l : t.locations) j["locations"].push_back({{"file", l.file}, {"line", l.line}, {"col", l.col}});
  j["programs"] = Json::array();
  for (const ProgramTrace& p : t.programs) {
    Json events = Json::array();
    for (const Event& e : p.events) events.push_back(encode_event(e));
    j["programs"].push_back({{"pid", encode_triple(p.pid)}, {"events", std::move(events)}});
  }
  j["findings"] = Json::array();
  for (const Finding& f : t.findings) j["findings"].push_back(encode_finding(f));
  j["truncated"] = t.truncated;
  j["budget_bytes"] = t.budget_bytes;
  j["recorded_bytes"] = t.recorded_bytes;
  // Kernel names, paths and printed text are not guaranteed UTF-8; replace
  // bad bytes rather than fail to save a whole trace over one character.
  return j.dump(indent, ' ', false, Json::error_handler_t::replace);
}

void save_trace(const Trace& t, const std::string& path) {
  std::string text = trace_to_json(t) + "\n";
  std::unique_ptr<std::FILE, FileCloser> f(std::fopen(path.c_str(), "wb"));
  if (!f) throw std::runtime_error("cannot write trace file '" + path + "': " + std::strerror(errno));
  bool ok = std::fwrite(text.data(), 1, text.size(), f.get()) == text.size();
  ok = (std::fclose(f.release()) == 0) && ok;  // a full disk may only show at close
  if (!ok) throw std::runtime_error("cannot write trace file '" + path + "': " + std::strerror(errno));
}

Trace load_trace(const std::string& path) {
  std::string text;
  {
    std::unique_ptr<std::FILE, FileCloser> f(std::fopen(path.c_str(), "rb"));
    if (!f) throw std::runtime_error("cannot open trace file '" + path + "': " + std::strerror(errno));
    char chunk[1 << 16];
    size_t n;
    while ((n = std::fread(chunk, 1, sizeof chunk, f.get())) > 0) text.append(chunk, n);
    // A directory opens fine on Linux and fails only here (EISDIR).
    if (std::ferror(f.get())) throw std::runtime_error("cannot read trace file '" + path + "': " + std::strerror(errno));
  }
  try {
    return trace_from_json(text);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(path + ": " + e.what());
  }
}

}  // namespace tl
