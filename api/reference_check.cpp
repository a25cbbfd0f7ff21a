#include "reference_check.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace tilescope::detail {

namespace {

// Row-major walk over a shape: calls f(index) for every element.
template <class F>
void each_index(const std::vector<int64_t>& shape, F&& f) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  std::vector<int64_t> idx(shape.size(), 0);
  for (int64_t e = 0; e < n; ++e) {
    f(idx);
    for (size_t d = shape.size(); d-- > 0;) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
}

bool matches(double expected, double found, double rtol, double atol) {
  if (std::isnan(expected) || std::isnan(found)) return std::isnan(expected) && std::isnan(found);
  if (expected == found) return true;  // infinities included
  return std::fabs(found - expected) <= atol + rtol * std::fabs(expected);
}

std::string list(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

std::string num(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

// Who stored each of `offsets` last, from the trace's store and atomic
// events on trace buffer `buffer` (programs and events are in order).
std::map<int64_t, Mismatch> last_stores(const tl::Trace& t, int buffer, const std::vector<int64_t>& offsets) {
  std::map<int64_t, Mismatch> who;
  for (int64_t o : offsets) who[o] = Mismatch{};
  for (const tl::ProgramTrace& p : t.programs)
    for (const tl::Event& e : p.events) {
      if (e.buffer != buffer || (e.kind != tl::EventKind::Store && e.kind != tl::EventKind::Atomic)) continue;
      for (size_t i = 0; i < e.offsets.size(); ++i) {
        if (e.lanes[i] != tl::LaneState::Active) continue;
        auto it = who.find(e.offsets[i]);
        if (it == who.end()) continue;
        it->second.program = p.pid;
        std::vector<int64_t> lane(e.shape.size());
        int64_t rest = static_cast<int64_t>(i);
        for (size_t d = e.shape.size(); d-- > 0;) {
          lane[d] = rest % e.shape[d];
          rest /= e.shape[d];
        }
        it->second.lane = lane;
        it->second.line = e.loc >= 0 ? static_cast<int>(t.locations[e.loc].line) : 0;
      }
    }
  return who;
}

// The reference's values in the trace buffer's storage order; elements the
// buffer's view does not cover keep their value after the launch.
void keep_expected(const Options& options, const Buffer& want, const Buffer& found, tl::TraceBuffer& tb) {
  if (tb.values_after.empty()) return;  // too large to keep, as values_after says
  tb.values_expected = tb.values_after;
  tb.expected_rtol = options.reference_rtol;
  tb.expected_atol = options.reference_atol;
  each_index(found.shape(), [&](const std::vector<int64_t>& idx) {
    const int64_t o = found.offset_of(idx);
    if (o >= 0 && o < static_cast<int64_t>(tb.values_expected.size())) tb.values_expected[o] = want.get(want.offset_of(idx));
  });
}

}  // namespace

std::vector<Buffer> copy_buffers(const std::vector<Arg>& args) {
  std::vector<Buffer> out;
  for (const Arg& a : args) {
    if (a.kind() != Arg::Kind::Buffer) {
      out.emplace_back();
      continue;
    }
    const Buffer& b = *a.buffer();
    Buffer c(b.name(), b.dtype(), b.shape());
    each_index(b.shape(), [&](const std::vector<int64_t>& idx) { c.set_bits(c.offset_of(idx), b.get_bits(b.offset_of(idx))); });
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<BufferDiff> reference_diff(const Options& options, std::vector<Buffer> before, const std::vector<Arg>& args,
                                       const tl::RunResult& run, tl::Trace* trace) {
  options.reference(before);
  std::vector<BufferDiff> diffs;
  constexpr size_t kFirst = 10;
  for (size_t i = 0; i < args.size() && i < before.size(); ++i) {
    if (args[i].kind() != Arg::Kind::Buffer) continue;
    const Buffer& found = *args[i].buffer();
    const Buffer& want = before[i];
    BufferDiff d;
    int trace_buffer = -1;
    for (size_t k = 0; k < run.buffers.size(); ++k)
      if (run.buffers[k].param_index == static_cast<int>(i)) {
        d.name = run.buffers[k].name;
        trace_buffer = static_cast<int>(k);
      }
    if (d.name.empty()) d.name = found.name();
    if (want.shape() != found.shape()) {
      // The reference reshaped a buffer: every element counts as different.
      d.total = d.mismatch_count = found.numel();
      diffs.push_back(std::move(d));
      continue;
    }
    if (trace && trace_buffer >= 0) keep_expected(options, want, found, trace->buffers[trace_buffer]);
    std::vector<int64_t> offsets;
    each_index(found.shape(), [&](const std::vector<int64_t>& idx) {
      ++d.total;
      const double e = want.get(want.offset_of(idx)), f = found.get(found.offset_of(idx));
      if (matches(e, f, options.reference_rtol, options.reference_atol)) return;
      ++d.mismatch_count;
      if (!std::isnan(e) && !std::isnan(f)) d.max_abs_diff = std::max(d.max_abs_diff, std::fabs(f - e));
      if (d.first.size() >= kFirst) return;
      Mismatch m;
      m.index = idx;
      m.expected = e;
      m.found = f;
      d.first.push_back(m);
      offsets.push_back(found.offset_of(idx));
    });
    if (trace && !offsets.empty()) {
      std::map<int64_t, Mismatch> who = last_stores(*trace, trace_buffer, offsets);
      for (size_t k = 0; k < d.first.size(); ++k) {
        const Mismatch& w = who[offsets[k]];
        d.first[k].program = w.program;
        d.first[k].lane = w.lane;
        d.first[k].line = w.line;
      }
    }
    diffs.push_back(std::move(d));
  }
  return diffs;
}

std::string format_reference(const std::vector<BufferDiff>& diffs) {
  std::string out;
  for (const BufferDiff& d : diffs) {
    if (d.pass()) {
      out += "reference: " + d.name + " matches (" + std::to_string(d.total) + " elements)\n";
      continue;
    }
    out += "reference: " + d.name + ": " + std::to_string(d.mismatch_count) + " of " + std::to_string(d.total) +
           " elements differ (max |diff| " + num(d.max_abs_diff) + ")\n";
    for (const Mismatch& m : d.first) {
      out += "  " + d.name + list(m.index) + ": expected " + num(m.expected) + ", found " + num(m.found);
      if (m.program[0] >= 0)
        out += ", stored by program (" + std::to_string(m.program[0]) + ", " + std::to_string(m.program[1]) + ", " +
               std::to_string(m.program[2]) + "), lane " + list(m.lane) + " at line " + std::to_string(m.line);
      else
        out += ", no traced store wrote it";
      out += "\n";
    }
    if (d.mismatch_count > static_cast<int64_t>(d.first.size())) out += "  ...\n";
  }
  return out;
}

}  // namespace tilescope::detail
