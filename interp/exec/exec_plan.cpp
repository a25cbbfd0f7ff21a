#include "exec_plan.h"

#include <algorithm>
#include <stdexcept>

#include "eval.h"

namespace tl {

namespace {

// Collapses adjacent axes that walk the input contiguously (or both
// stretch), so a typical broadcast becomes a 1-D or 2-D copy.
void set_walk(Step& s, const ir::Shape& out, std::vector<int64_t> st) {
  std::vector<int64_t> d(out.begin(), out.end());
  // Drop unit axes.
  std::vector<int64_t> dd, ss;
  for (size_t i = 0; i < d.size(); ++i)
    if (d[i] != 1) {
      dd.push_back(d[i]);
      ss.push_back(st[i]);
    }
  // Merge axis i into i+1 when stride[i] == stride[i+1] * dim[i+1].
  std::vector<int64_t> md, ms;
  for (size_t i = 0; i < dd.size(); ++i) {
    if (!md.empty() && ms.back() == ss[i] * dd[i]) {
      md.back() *= dd[i];
      ms.back() = ss[i];
    } else {
      md.push_back(dd[i]);
      ms.push_back(ss[i]);
    }
  }
  if (md.empty()) {
    md.push_back(1);
    ms.push_back(0);
  }
  if (md.size() > static_cast<size_t>(kMaxPlanRank))
    throw std::runtime_error("interpreter: tiles of more than 8 dimensions are not supported");
  s.rank = static_cast<int>(md.size());
  for (int i = 0; i < s.rank; ++i) {
    s.dims[i] = md[i];
    s.strides[i] = ms[i];
  }
}

std::vector<int64_t> row_major(const ir::Shape& s) {
  std::vector<int64_t> st(s.size(), 1);
  for (int i = static_cast<int>(s.size()) - 2; i >= 0; --i) st[i] = st[i + 1] * s[i + 1];
  return st;
}

class Flattener {
 public:
  Flattener(const ir::Kernel& k, std::vector<SrcLoc>& locs, Plan& p) : k_(k), locs_(locs), p_(p) {}

  void block(const ir::Block& b) {
    for (const ir::Instr& in : b.instrs) instr(in);
  }

 private:
  const ir::Type& t(int r) const { return k_.regs[r].type; }

  void instr(const ir::Instr& in) {
    Step s;
    s.in = &in;
    s.op = in.op;
    s.unary = ir::is_unary(in.op);
    s.binary = ir::is_binary(in.op);
    s.dst = in.dst;
    for (size_t i = 0; i < in.args.size() && i < 3; ++i) s.a[i] = in.args[i];
    if (in.loc.known()) {
      auto it = std::find(locs_.begin(), locs_.end(), in.loc);
      s.loc = static_cast<int>(it - locs_.begin());
      if (it == locs_.end()) locs_.push_back(in.loc);
      p_.loc_of_instr[&in] = s.loc;
    }
    if (!in.args.empty()) s.dtype = t(in.args[0]).dtype;
    if (in.dst >= 0) {
      const ir::Type& rt = t(in.dst);
      s.out_dtype = rt.dtype;
      s.n = ir::numel(rt.shape);
      s.elem = static_cast<uint32_t>(eval::elem_bytes(rt));
    }
    switch (in.op) {
      case ir::Op::Load:
      case ir::Op::Store:
      case ir::Op::AtomicAdd:
      case ir::Op::AtomicRMW:
        s.n = ir::numel(t(in.args[0]).shape);
        s.elem = static_cast<uint32_t>(byte_size(t(in.args[0]).dtype));
        break;
      case ir::Op::Broadcast: {
        const ir::Shape& src = t(in.args[0]).shape;
        const ir::Shape& out = t(in.dst).shape;
        std::vector<int64_t> src_st = row_major(src), st(out.size(), 0);
        size_t pad = out.size() - src.size();
        for (size_t i = 0; i < src.size(); ++i) st[pad + i] = src[i] == 1 ? 0 : src_st[i];
        set_walk(s, out, st);
        break;
      }
      case ir::Op::Permute: {
        const ir::Shape& src = t(in.args[0]).shape;
        std::vector<int64_t> src_st = row_major(src), st;
        for (int d : in.dims) st.push_back(src_st[d]);
        set_walk(s, t(in.dst).shape, st);
        break;
      }
      case ir::Op::Scan:
      case ir::Op::ReduceWith:
      case ir::Op::Flip:
      case ir::Op::Gather:  // around the index's axis (the result's shape)
      case ir::Op::Sort:    // its axis is the last
      case ir::Op::Reduce: {
        const ir::Shape& src = t(in.args[in.op == ir::Op::Gather ? 1 : 0]).shape;
        s.len = src[in.axis];
        for (int i = 0; i < in.axis; ++i) s.outer *= src[i];
        for (size_t i = in.axis + 1; i < src.size(); ++i) s.inner *= src[i];
        break;
      }
      default: break;
    }
    size_t at = p_.steps.size();
    p_.steps.push_back(s);
    if (in.op == ir::Op::While) {
      // [while][condition block][body]: end marks the body's start.
      block(*in.cond_body);
      p_.steps[at].end = static_cast<int>(p_.steps.size());
      block(*in.body);
      p_.steps[at].else_end = static_cast<int>(p_.steps.size());
    }
    if (in.op == ir::Op::For || in.op == ir::Op::If) {
      block(*in.body);
      p_.steps[at].end = static_cast<int>(p_.steps.size());
      if (in.else_body) block(*in.else_body);
      p_.steps[at].else_end = static_cast<int>(p_.steps.size());
    }
  }

  const ir::Kernel& k_;
  std::vector<SrcLoc>& locs_;
  Plan& p_;
};

}  // namespace

Plan make_plan(const ir::Kernel& k, std::vector<SrcLoc>& locations) {
  Plan p;
  Flattener(k, locations, p).block(k.body);
  return p;
}

void mark_skip_runs(Plan& p) {
  const int n = static_cast<int>(p.steps.size());
  // Which block each step is in (a run never leaves its block): control
  // steps come in plan order and nest, so the innermost claim is last.
  std::vector<int> block(static_cast<size_t>(n), 0);
  int next_block = 1;
  for (int i = 0; i < n; ++i) {
    const Step& s = p.steps[i];
    if (s.op != ir::Op::For && s.op != ir::Op::If && s.op != ir::Op::While) continue;
    const int first = next_block++, second = next_block++;
    for (int j = i + 1; j < s.end; ++j) block[j] = first;
    for (int j = s.end; j < s.else_end; ++j) block[j] = second;
  }
  for (int i = n - 1; i >= 0; --i) {
    Step& s = p.steps[i];
    const bool control = s.op == ir::Op::For || s.op == ir::Op::If || s.op == ir::Op::While;
    if (control || !(s.fused || s.hoisted)) {
      s.skip_run = 0;
      continue;
    }
    s.skip_run = 1 + (i + 1 < n && block[i + 1] == block[i] ? p.steps[i + 1].skip_run : 0);
  }
}

}  // namespace tl
