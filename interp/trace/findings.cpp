#include "findings.h"

#include <algorithm>

#include "error.h"

namespace tl {

// Errors are bugs by any reading: a result Triton leaves undefined (an
// over-wide shift, a float -> int conversion out of range) or an index that
// wrapped. Warnings are legal but suspicious: tl:: defines what an integer
// narrowing does (keep the low bits) and packing code truncates on purpose;
// f16 overflow to inf is IEEE behaviour; an input partly unread may be
// intended (a kernel that only needs a slice).
const char* finding_severity(FindingKind k) {
  switch (k) {
    case FindingKind::NeverWritten:
    case FindingKind::RuntimeIssue:
    case FindingKind::LossyIntCast:
    case FindingKind::FloatCastOverflow:
    case FindingKind::InputNeverRead: return "warning";
    default: return "error";
  }
}

bool is_value_finding(FindingKind k) {
  return k == FindingKind::IndexOverflow || k == FindingKind::ShiftOutOfRange || k == FindingKind::LossyIntCast ||
         k == FindingKind::FloatToIntOutOfRange || k == FindingKind::FloatCastOverflow ||
         k == FindingKind::IndexOutOfRange;
}

FindingContext context_of(const RunResult& r) { return FindingContext{r.kernel_name, &r.locations, &r.buffers}; }
FindingContext context_of(const Trace& t) { return FindingContext{t.kernel, &t.locations, &t.buffers}; }

namespace {

std::string list(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

std::string pid_str(const std::array<int64_t, 3>& p) {
  return "(" + std::to_string(p[0]) + ", " + std::to_string(p[1]) + ", " + std::to_string(p[2]) + ")";
}

std::string buffer_desc(const TraceBuffer& b) {
  return b.name + ": " + std::string(name(b.dtype)) + list(b.shape) + ", strides " + list(b.strides) +
         ", valid offsets [0, " + std::to_string(b.extent) + ")";
}

std::string plural(int64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// The headline: what happened, where, to which buffer.
std::string headline(const Finding& f, const TraceBuffer* b, const FindingContext& c) {
  const std::string bn = b ? b->name : "?";
  const FindingExample* e = f.examples.empty() ? nullptr : &f.examples.front();
  std::string at = e && e->pid[0] >= 0 ? " in program " + pid_str(e->pid) : "";
  // A 0-d value (pid * S) has one lane and no index to show.
  std::string lane = e && e->lane >= 0 && !(is_value_finding(f.kind) && e->lane_index.empty())
                         ? ", lane " + list(e->lane_index)
                         : "";
  std::string idx = b && e ? element_index(*b, e->offset) : "";
  const std::string detail = e ? e->detail : "";
  switch (f.kind) {
    case FindingKind::OutOfBoundsLoad:
    case FindingKind::OutOfBoundsStore:
      return std::string(f.kind == FindingKind::OutOfBoundsLoad ? "out-of-bounds load from " : "out-of-bounds store to ") +
             bn + at + lane + ": element offset " + std::to_string(e ? e->offset : 0) + " is outside [0, " +
             std::to_string(b ? b->extent : 0) + ")";
    case FindingKind::WriteConflict:
      if (e && e->other_pid == e->pid)
        return "write conflict on " + bn + idx + at + lane +
               ": another active lane of this store writes the same element; on a GPU either may win "
               "(tl:: keeps the last lane in row-major order)";
      return "write conflict on " + bn + idx + at + lane + ": program " + (e ? pid_str(e->other_pid) : "?") +
             " already stored to this element; on a GPU either store may win";
    case FindingKind::ReadWriteRace:
      return "read-write race on " + bn + idx + at + lane + ": program " +
             (e && e->other_pid[0] >= 0 ? pid_str(e->other_pid) : std::string("another program")) +
             " also accesses this element and one of them writes it; on a GPU their order is undefined";
    case FindingKind::UninitializedRead:
      return "uninitialized read of " + bn + idx + at + lane + ": no program has written this element yet";
    case FindingKind::UndefinedValueUsed:
      return "undefined value used" + at + lane +
             (b ? ": stored to " + bn : std::string(": a masked-off lane reaches this reduction, scan, sort or dot")) +
             "; the masked load that produced it has no `other`, so a GPU leaves the lane undefined";
    case FindingKind::PoisonStored:
      return "poison stored to " + bn + at + lane + ": the value comes from an out-of-bounds load";
    case FindingKind::RuntimeIssue:
    case FindingKind::StepBudgetExceeded:
      return f.message + at;
    case FindingKind::Deadlock:
      return "deadlock: " + f.message;
    case FindingKind::CoResidency:
      return "wait needs co-residency: " + f.message;
    case FindingKind::BlockPtrOutOfShape: {
      // "load through block pointer outside its shape on dim 1 (offset 130
      // of shape 128) in program (1, 0, 0), lane [3, 2]; add boundary_check=(1,)"
      const bool load = f.message.rfind("load", 0) == 0;
      const std::string d = e ? std::to_string(e->dim) : "?";
      return std::string(load ? "load from " : "store to ") + bn + " through a block pointer outside its shape on dim " +
             d + " (offset " + std::to_string(e ? e->index : 0) + " of shape " + std::to_string(e ? e->extent : 0) +
             ")" + at + lane + "; add boundary_check=(" + d + ",) to mask these lanes";
    }
    case FindingKind::NeverWritten:
      return plural(f.lanes, "element", "elements") + " of " + bn + " never written by kernel '" + c.kernel + "'" +
             (e ? ", first " + bn + element_index(*b, e->offset) : "");
    case FindingKind::InputNeverRead:
      // The message is the unread region, "x[:, 192:200]" (exact) or
      // "within x[0:4, 100:200]" (its bounding box).
      return plural(f.lanes, "element", "elements") + " of input " + bn + " never read by kernel '" + c.kernel +
             "': " + f.message;
    case FindingKind::IndexOutOfRange:
      return f.message + at + lane + ": " + detail + " (tl:: gives 0 there; a GPU reads whatever lies outside the tile)";
    case FindingKind::IndexOverflow:
      return "integer overflow in " + f.message + " feeding a pointer offset" + at + lane + ": " + detail;
    case FindingKind::ShiftOutOfRange:
      return "shift count out of range in " + f.message + at + lane + ": " + detail +
             " (undefined in Triton; tl:: clamps as PTX does)";
    case FindingKind::LossyIntCast:
      return "conversion " + f.message + " changes the value" + at + lane + ": " + detail;
    case FindingKind::FloatToIntOutOfRange:
      return "conversion " + f.message + " of a value it cannot hold" + at + lane + ": " + detail +
             " (undefined in Triton; tl:: saturates, NaN gives 0)";
    case FindingKind::FloatCastOverflow:
      return "conversion " + f.message + " overflows to inf" + at + lane + ": " + detail;
  }
  return "";
}

}  // namespace

std::string element_index(const TraceBuffer& b, int64_t offset) {
  if (offset < 0 || offset >= b.extent || b.shape.empty()) return "";
  // Decompose along axes in order of decreasing stride.
  std::vector<int64_t> idx(b.shape.size(), 0);
  std::vector<size_t> order(b.shape.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t x, size_t y) { return b.strides[x] > b.strides[y]; });
  int64_t rest = offset;
  for (size_t ax : order) {
    if (b.strides[ax] <= 0) continue;
    idx[ax] = std::min(rest / b.strides[ax], b.shape[ax] - 1);
    rest -= idx[ax] * b.strides[ax];
  }
  if (rest != 0) return "";  // a gap between strided elements
  return list(idx);
}

std::string format_finding(const Finding& f, const FindingContext& c) {
  const TraceBuffer* b = c.buffers && f.buffer >= 0 && f.buffer < static_cast<int>(c.buffers->size())
                             ? &(*c.buffers)[f.buffer]
                             : nullptr;
  SrcLoc loc;
  if (c.locations && f.loc >= 0 && f.loc < static_cast<int>(c.locations->size())) loc = (*c.locations)[f.loc];
  std::string out = format_diagnostic(loc, finding_severity(f.kind), headline(f, b, c));
  out += "\n  note: kernel '" + c.kernel + "', " + finding_kind_name(f.kind);
  if (f.kind != FindingKind::NeverWritten && f.kind != FindingKind::RuntimeIssue &&
      f.kind != FindingKind::InputNeverRead && f.kind != FindingKind::StepBudgetExceeded &&
      f.kind != FindingKind::Deadlock && f.kind != FindingKind::CoResidency)
    out += ": " + plural(f.lanes, "lane", "lanes") + " in " + plural(f.programs, "program", "programs");
  if (b) out += "\n  note: buffer " + buffer_desc(*b);
  if (f.kind == FindingKind::NeverWritten || f.kind == FindingKind::InputNeverRead) {
    out += f.kind == FindingKind::NeverWritten ? "\n  note: unwritten:" : "\n  note: unread:";
    for (const FindingExample& e : f.examples) out += " " + (b ? b->name + element_index(*b, e.offset) : std::to_string(e.offset));
    if (f.lanes > static_cast<int64_t>(f.examples.size())) out += " ...";
    return out;
  }
  for (size_t i = 1; i < f.examples.size(); ++i) {
    const FindingExample& e = f.examples[i];
    out += "\n  note: also ";
    if (e.pid[0] >= 0) out += "program " + pid_str(e.pid);
    if (e.lane >= 0) out += ", lane " + list(e.lane_index);
    if (b) out += ", offset " + std::to_string(e.offset) + (element_index(*b, e.offset).empty() ? "" : " " + b->name + element_index(*b, e.offset));
    if (e.other_pid[0] >= 0) out += " (with program " + pid_str(e.other_pid) + ")";
    if (e.dim >= 0) out += " (offset " + std::to_string(e.index) + " of shape " + std::to_string(e.extent) + " on dim " + std::to_string(e.dim) + ")";
    if (!e.detail.empty()) out += ": " + e.detail;
  }
  return out;
}

std::string format_findings(const std::vector<Finding>& fs, const FindingContext& c) {
  if (fs.empty()) return "";
  std::string out;
  int errors = 0;
  for (const Finding& f : fs) {
    out += format_finding(f, c) + "\n";
    errors += std::string(finding_severity(f.kind)) == "error";
  }
  out += plural(static_cast<int64_t>(fs.size()), "finding", "findings") + " (" + plural(errors, "error", "errors") +
         ") in kernel '" + c.kernel + "'\n";
  return out;
}

}  // namespace tl
