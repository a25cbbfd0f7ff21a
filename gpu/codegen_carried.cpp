// Carried offsets (StagedLoad::carried): the cp.async refills of a TMA
// pipeline's register-read tile (p11's y) recomputed each vector's global
// address from the loop value every iteration: i32 products, sign
// extension and the 64-bit add, ~15 of the ~40 instructions a copy took,
// and 160 of an iteration's 228 for the copies (bench/RESULTS.md,
// eighteenth round, call 7). An offset the pointer adds that is built from
// the loop variable by +, - and products by loop-invariant values is, in
// the kernel's wrapping i32 arithmetic, an affine function of it modulo
// 2^32: the next refill's offset is this one's plus a constant, exactly,
// even where the offset wraps. Each thread keeps its vectors' offsets and
// steps in registers (unrolled copies on the TMA path only).
#include "codegen_emitter.h"

namespace tl::gpu::detail {

namespace {

// Ops whose value follows from their operands alone (no memory, no
// reduction across lanes): the ones the dependence walk may look through.
bool pure_elementwise(ir::Op op) {
  using ir::Op;
  switch (op) {
    case Op::Const: case Op::Arange: case Op::ScalarParam: case Op::PtrParam: case Op::ProgramId:
    case Op::NumPrograms: case Op::Broadcast: case Op::Reshape: case Op::Permute: case Op::Where: case Op::Fma:
      return true;
    default: return ir::is_unary(op) || ir::is_binary(op);
  }
}

constexpr int kMaxDepth = 32;

}  // namespace

bool Emitter::depends_on_loop(int r, const Pipeline& p, int depth) const {
  if (r == p.loop->dst) return true;
  if (!p.in_body[static_cast<size_t>(r)]) return false;  // defined before the loop: the same every iteration
  if (depth > kMaxDepth || def_count_[r] != 1 || !def_of_[r] || !pure_elementwise(def_of_[r]->op)) return true;
  for (int a : def_of_[r]->args)
    if (depends_on_loop(a, p, depth + 1)) return true;
  return false;
}

bool Emitter::affine_in_loop(int r, const Pipeline& p, int depth) const {
  if (r == p.loop->dst) return type(r).dtype == DType::i32;
  if (!depends_on_loop(r, p, depth)) return true;
  if (depth > kMaxDepth || type(r).dtype != DType::i32) return false;
  const ir::Instr& in = *def_of_[r];  // depends_on_loop vouched for it
  using ir::Op;
  switch (in.op) {
    case Op::Broadcast: case Op::Reshape: case Op::Permute:
      return affine_in_loop(in.args[0], p, depth + 1);
    case Op::Add: case Op::Sub:
      return affine_in_loop(in.args[0], p, depth + 1) && affine_in_loop(in.args[1], p, depth + 1);
    case Op::Mul:
      return (!depends_on_loop(in.args[0], p, depth + 1) && affine_in_loop(in.args[1], p, depth + 1)) ||
             (!depends_on_loop(in.args[1], p, depth + 1) && affine_in_loop(in.args[0], p, depth + 1));
    default: return false;
  }
}

void Emitter::plan_carried_offsets(Pipeline& p) const {
  if (!p.tma) return;
  for (StagedLoad& s : p.loads) {
    if (s.tma >= 0 || s.written_transposed) continue;
    // The pointer's chain of additions, through pointer broadcasts and
    // reshapes, down to its base.
    std::vector<int> carried;
    bool ok = true;
    int r = s.load->args[0];
    for (int depth = 0; ok && depth < kMaxDepth; ++depth) {
      if (def_count_[r] != 1 || !def_of_[r]) {
        ok = !depends_on_loop(r, p);
        break;
      }
      const ir::Instr& in = *def_of_[r];
      if (in.op == ir::Op::Broadcast || in.op == ir::Op::Reshape || in.op == ir::Op::Permute) {
        r = in.args[0];
      } else if (in.op == ir::Op::PtrAdd) {
        const int offset = in.args[1];
        if (depends_on_loop(offset, p)) {
          if (type(offset).dtype == DType::i32 && affine_in_loop(offset, p)) carried.push_back(offset);
          else ok = false;
        }
        r = in.args[0];
      } else {
        ok = !depends_on_loop(r, p);
        break;
      }
    }
    // Each offset rematerializes at a vector's first element (as the
    // pointer it is part of does in vector_read).
    AtIteration probe(*this, p, "probe");
    for (int offset : carried) ok = ok && remat(offset, vector_coords(s, "ts_i"), 0).has_value();
    if (ok) s.carried = carried;
  }
}

void Emitter::declare_carried_offsets(const Pipeline& p) {
  const ir::Instr& loop = *p.loop;
  const std::string lo = "(int64_t)" + name(loop.args[0]), step = "(int64_t)" + name(loop.args[2]);
  // The first refill copies iteration lo + ahead * step (issue_ahead).
  auto at = [&](int ahead) { return "(" + reg_type(loop.dst) + ")(" + lo + " + " + std::to_string(ahead) + " * " + step + ")"; };
  for (const StagedLoad& s : p.loads) {
    if (s.carried.empty()) continue;
    const int64_t per_row = s.inner / (16 / byte_size(type(s.reg).dtype));
    const bool by_warpgroup = p.decoupled;
    const int64_t columns = by_warpgroup ? per_row / (threads_ / 128) : per_row, vectors = columns * s.outer;
    const int64_t threads = by_warpgroup ? 128 : threads_, rounds = (vectors + threads - 1) / threads;
    for (size_t k = 0; k < s.carried.size(); ++k)
      line("int32_t " + carried_name(s, k, "c") + "[" + std::to_string(rounds) + "] = {}, " + carried_name(s, k, "d") +
           "[" + std::to_string(rounds) + "] = {};");
    open("");
    for_vectors(
        vectors,
        [&] {
          vector_position(s, by_warpgroup ? columns : 0);
          const std::vector<std::string> c = vector_coords(s, "ts_i");
          for (size_t k = 0; k < s.carried.size(); ++k) {
            const std::string cv = carried_name(s, k, "c") + "[" + vector_slot_ + "]";
            {
              AtIteration first(*this, p, at(p.ahead));
              line(cv + " = " + *remat(s.carried[k], c, 0) + ";");
            }
            AtIteration second(*this, p, at(p.ahead + 1));
            line(carried_name(s, k, "d") + "[" + vector_slot_ + "] = ts_sub((int32_t)(" + *remat(s.carried[k], c, 0) +
                 "), " + cv + ");");
          }
        },
        false, by_warpgroup);
    close();
  }
}

void Emitter::advance_carried_offsets(const Pipeline& p) {
  for (const StagedLoad& s : p.loads)
    for (size_t k = 0; k < s.carried.size(); ++k) {
      const std::string c = carried_name(s, k, "c"), d = carried_name(s, k, "d");
      line("#pragma unroll");
      open("for (int ts_k = 0; ts_k < (int)(sizeof " + c + " / sizeof " + c + "[0]); ++ts_k)");
      line(c + "[ts_k] = ts_add(" + c + "[ts_k], " + d + "[ts_k]);");
      close();
    }
}

}  // namespace tl::gpu::detail
