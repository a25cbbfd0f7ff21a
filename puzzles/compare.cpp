#include "compare.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <set>

#include "inputs.h"

namespace puzzles {

namespace {

struct Element {
  double value = 0;
  bool never_written = false;
};

// One output element, widened exactly. "Never written" comes from the
// buffer's written map when it keeps one (a NaN computed from the fill
// carries the fill's bits, yet was written); else from the fill's bits.
Element read_element(const tl::Buffer& out, int64_t i) {
  if (out.tracks_writes()) return {out.get(i), out.written_map()[static_cast<size_t>(i)] == 0};
  if (out.dtype() == tl::DType::f32) {
    const float v = out.as<float>()[i];
    return {double(v), std::bit_cast<uint32_t>(v) == kNeverWrittenBits};
  }
  return {out.get(i), false};
}

}  // namespace

std::string element_label(const std::string& name, const std::vector<int64_t>& index) {
  std::string s = name + "[";
  for (size_t d = 0; d < index.size(); ++d) s += (d ? ", " : "") + std::to_string(index[d]);
  return s + "]";
}

OutputComparison compare_output(const Puzzle& p, const SizeSet& set, const tl::Buffer& out,
                                const std::vector<double>& ref, size_t max_mismatches) {
  return compare_tensor(p, p.output, p.tolerance, set, out, ref, max_mismatches);
}

double tolerance_of(const Puzzle& p, const TensorDecl& decl) { return decl.tolerance >= 0 ? decl.tolerance : p.tolerance; }

OutputComparison compare_tensor(const Puzzle& p, const TensorDecl& decl, double tolerance, const SizeSet& set,
                                const tl::Buffer& out, const std::vector<double>& ref, size_t max_mismatches) {
  OutputComparison c;
  const std::vector<int64_t> shape = decl.shape(set);
  c.total = static_cast<int64_t>(ref.size());

  double ref_max = 0, ref_sq = 0, diff_sq = 0, out_sq = 0;
  for (double r : ref) {
    ref_max = std::max(ref_max, std::fabs(r));
    ref_sq += r * r;
  }
  const double bound = tolerance * ref_max;

  bool all_finite = true;
  std::set<ProgramId> owners;
  for (int64_t i = 0; i < c.total; ++i) {
    const Element e = read_element(out, i);
    const double diff = e.value - ref[i];
    const bool finite = std::isfinite(e.value);
    all_finite &= finite;
    diff_sq += diff * diff;
    out_sq += e.value * e.value;
    if (finite && std::fabs(diff) <= bound) continue;

    const MismatchKind kind = e.never_written ? MismatchKind::NeverWritten
                              : !finite       ? MismatchKind::NonFinite
                                              : MismatchKind::WrongValue;
    ++c.mismatch_count;
    ++(kind == MismatchKind::NeverWritten ? c.never_written : kind == MismatchKind::NonFinite ? c.non_finite : c.wrong_value);
    std::vector<int64_t> index = unravel(i, shape);
    ProgramId owner = owner_of(p, set, index);
    owners.insert(owner);
    if (c.mismatches.size() >= max_mismatches) continue;
    Mismatch m;
    m.flat = i;
    m.label = element_label(decl.name, index);
    m.index = std::move(index);
    m.found = e.value;
    m.expected = ref[i];
    m.abs_diff = std::fabs(diff);
    m.owner = owner;
    m.kind = kind;
    c.mismatches.push_back(std::move(m));
  }

  if (!all_finite)
    c.err = std::numeric_limits<double>::infinity();
  else if (ref_sq == 0)
    c.err = std::sqrt(out_sq);
  else
    c.err = std::sqrt(diff_sq) / std::sqrt(ref_sq);

  c.owner_count = static_cast<int64_t>(owners.size());
  for (const ProgramId& o : owners) {
    if (c.owners.size() >= OutputComparison::kMaxOwners) break;
    c.owners.push_back(o);
  }
  return c;
}

}  // namespace puzzles
