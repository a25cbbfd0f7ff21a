#include "gpu_compare.h"

#include <cmath>
#include <cstdio>

namespace tl::gpu {

namespace {

struct Features {
  bool rounded_dot = false;  // a dot whose inputs are rounded (tf32, f16, bf16)
  bool exact_dot = false;    // an f32 ieee / tf32x3 / f64 dot: reordered sums only
  bool float_reduce = false;
  bool float_loop = false;  // a float value carried through a loop
};

void scan(const ir::Kernel& k, const ir::Block& b, bool in_loop, Features& f) {
  for (const ir::Instr& in : b.instrs) {
    if (in.op == ir::Op::Dot) {
      DType d = k.type(in.args[0]).dtype;
      bool rounded = d == DType::f16 || d == DType::bf16 || (d == DType::f32 && in.precision == ir::Precision::tf32);
      (rounded ? f.rounded_dot : f.exact_dot) = true;
    }
    if ((in.op == ir::Op::Reduce || in.op == ir::Op::Scan || in.op == ir::Op::ReduceWith) &&
        is_float(k.type(in.args[0]).dtype))
      f.float_reduce = true;  // a GPU may contract a combine function's float math
    if (in_loop && in.op == ir::Op::Copy && is_float(k.type(in.dst).dtype)) f.float_loop = true;
    const bool loop = in_loop || in.op == ir::Op::For || in.op == ir::Op::While;
    if (in.cond_body) scan(k, *in.cond_body, loop, f);
    if (in.body) scan(k, *in.body, loop, f);
    if (in.else_body) scan(k, *in.else_body, in_loop, f);
  }
}

bool same_bits(const Buffer& a, const Buffer& b, int64_t i) { return a.get_bits(i) == b.get_bits(i); }

bool is_fill(const Buffer& b, int64_t i) {
  return b.dtype() == DType::f32 && b.get_bits(i) == kFillBits;
}

}  // namespace

std::string Tolerance::str() const {
  if (kind == Kind::Exact) return "exact";
  char buf[64];
  const char* what = kind == Kind::Tf32Dot ? "rounded dot inputs" : kind == Kind::Reduction ? "reductions" : "elementwise";
  std::snprintf(buf, sizeof buf, "%g (%s)", relative, what);
  return buf;
}

Tolerance tolerance_for(const ir::Kernel& k, DType output) {
  if (is_int(output)) return {Tolerance::Kind::Exact, 0};
  Features f;
  scan(k, k.body, false, f);
  if (f.rounded_dot) return {Tolerance::Kind::Tf32Dot, 1e-3};
  if (f.exact_dot || f.float_reduce || f.float_loop) return {Tolerance::Kind::Reduction, 1e-5};
  return {Tolerance::Kind::Elementwise, 1e-6};
}

BufferDiff diff_buffers(const Buffer& interp, const Buffer& gpu, const Tolerance& tol) {
  BufferDiff d;
  const bool exact = tol.kind == Tolerance::Kind::Exact || !is_float(interp.dtype());
  const int64_t n = std::min(interp.extent(), gpu.extent());
  const bool tracked = interp.tracks_writes();
  double diff_sq = 0, ref_sq = 0;
  for (int64_t i = 0; i < n; ++i) {
    bool bad;
    if (exact) {
      bad = !same_bits(interp, gpu, i);
    } else {
      const double a = interp.get(i), b = gpu.get(i);
      if (std::isnan(a) || std::isnan(b)) {
        // Computed NaNs match whatever their bits (the CPU keeps a NaN's
        // payload through arithmetic, the GPU makes it canonical); an
        // element the interpreter never wrote must still hold the fill on
        // the GPU. Without the interpreter's written map, the fill's bits
        // stand for "never written".
        if (!(std::isnan(a) && std::isnan(b))) bad = true;
        else if (tracked) bad = !interp.written_map()[static_cast<size_t>(i)] && !same_bits(interp, gpu, i);
        else bad = is_fill(interp, i) != is_fill(gpu, i);
      } else if (std::isinf(a) || std::isinf(b)) {
        bad = a != b;
      } else {
        bad = false;
        diff_sq += (a - b) * (a - b);
        ref_sq += a * a;
        d.max_abs = std::max(d.max_abs, std::fabs(a - b));
      }
    }
    if (!bad) continue;
    if (d.mismatched++ == 0) {
      d.first_mismatch = i;
      d.first_interp = interp.get(i);
      d.first_gpu = gpu.get(i);
    }
  }
  if (interp.extent() != gpu.extent()) ++d.mismatched;
  d.relative = ref_sq > 0 ? std::sqrt(diff_sq) / std::sqrt(ref_sq) : std::sqrt(diff_sq);
  d.pass = d.mismatched == 0 && (exact || d.relative <= tol.relative);
  return d;
}

std::string BufferDiff::str() const {
  char buf[256];
  if (mismatched > 0)
    std::snprintf(buf, sizeof buf, "%lld element(s) differ, first at %lld: interpreter %g, GPU %g",
                  static_cast<long long>(mismatched), static_cast<long long>(first_mismatch), first_interp, first_gpu);
  else
    std::snprintf(buf, sizeof buf, "rel %.2g, max |diff| %.2g", relative, max_abs);
  return buf;
}

}  // namespace tl::gpu
