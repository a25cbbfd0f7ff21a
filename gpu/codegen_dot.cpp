// dot: a [.., M, K] x b [.., K, N] (+ acc) -> [.., M, N]. Correctness first:
// both operands go to shared memory in their compute type (tf32-truncated
// for f32 with input_precision tf32, SEMANTICS §8), then every thread forms
// its own output elements with a K loop. The products and sums are spelled
// __fmul_rn/__fadd_rn so NVRTC cannot fuse them into FMAs: the result then
// rounds exactly as the interpreter's k-ordered loop does. Tensor cores
// (LOWERING §6) are the next step.
#include "codegen_emitter.h"

namespace tl::gpu::detail {

void Emitter::dot(const ir::Instr& in) {
  const int a = in.args[0], b = in.args[1], dst = in.dst;
  const ir::Shape& as = type(a).shape;
  const ir::Shape& bs = type(b).shape;
  const size_t r = as.size();
  const int64_t batch = r == 3 ? as[0] : 1, M = as[r - 2], K = as[r - 1], N = bs[r - 1];
  const DType d = type(a).dtype, out = type(dst).dtype;
  const bool eight = d == DType::i8 || d == DType::u8;
  const std::string c = eight ? "int32_t" : d == DType::f64 ? "double" : "float";
  const int64_t csize = d == DType::f64 ? 8 : 4;
  const bool tf32 = d == DType::f32 && in.precision == ir::Precision::tf32;
  const bool tf32x3 = d == DType::f32 && in.precision == ir::Precision::tf32x3;

  const int64_t a_bytes = batch * M * K * csize;
  const int64_t b_offset = (a_bytes + 15) / 16 * 16;
  need_smem(b_offset + batch * K * N * csize);
  auto operand = [&](const std::string& x) {
    if (tf32) return "ts_tf32(" + x + ")";
    if (eight) return "(int32_t)" + x;
    return widen(d, x);
  };
  declare(dst);
  open("");
  spill_to_smem(a, "sa", c, 0, operand);
  spill_to_smem(b, "sb", c, b_offset, operand);
  line("__syncthreads();");
  // Every thread keeps one accumulator per output slot, in registers; the K
  // loop runs outside the slot loop, so each step is one unrolled sweep
  // over the slots and each output still sums in k order.
  const TileLayout ld = layout(dst);
  const std::string acc_type = eight ? "uint32_t" : c;  // 8-bit products wrap in u32, exactly
  line(acc_type + " acc[" + std::to_string(ld.slots) + "];");
  for_slots(ld.slots, [&](const std::string& s) {
    std::string init = in.has_acc ? (eight ? "(uint32_t)" + at(in.args[2], s) : widen(out, at(in.args[2], s))) : "0";
    line("acc[" + s + "] = " + init + ";");
  });
  const std::string add = c == "double" ? "__dadd_rn" : "__fadd_rn", mul = c == "double" ? "__dmul_rn" : "__fmul_rn";
  auto k_loop = [&](const std::function<std::string(const std::string&, const std::string&, const std::string&)>& term) {
    // A long unrolled slot sweep is enough code per step: keep K rolled then.
    if (ld.slots * K > 1024) line("#pragma unroll 1");
    open("for (int k = 0; k < " + std::to_string(K) + "; ++k)");
    for_slots(ld.slots, [&](const std::string& s) {
      const std::string e = element(ld, s);
      // a[.., m, k] at (e / N) * K + k; b[.., k, n] at batch * K * N + k * N + n.
      std::string a_at = "sa[(" + e + " / " + std::to_string(N) + ") * " + std::to_string(K) + " + k]";
      std::string b_at = "sb[" + (batch > 1 ? "(" + e + " / " + std::to_string(M * N) + ") * " + std::to_string(K * N) + " + " : std::string()) +
                         "k * " + std::to_string(N) + " + " + e + " % " + std::to_string(N) + "]";
      line("acc[" + s + "] = " + term("acc[" + s + "]", a_at, b_at) + ";");
    });
    close();
  };
  if (eight) {
    k_loop([](const std::string& acc, const std::string& x, const std::string& y) {
      return acc + " + (uint32_t)" + x + " * (uint32_t)" + y;
    });
  } else if (tf32x3) {
    // big = tf32(x), small = tf32(x - big); the small-term products first.
    auto big = [](const std::string& x) { return "ts_tf32(" + x + ")"; };
    auto small = [&](const std::string& x) { return "ts_tf32(" + x + " - " + big(x) + ")"; };
    for (int pass = 0; pass < 3; ++pass)
      k_loop([&](const std::string& acc, const std::string& x, const std::string& y) {
        std::string p = pass == 0 ? small(x) + ", " + big(y) : pass == 1 ? big(x) + ", " + small(y) : big(x) + ", " + big(y);
        return add + "(" + acc + ", " + mul + "(" + p + "))";
      });
  } else {
    k_loop([&](const std::string& acc, const std::string& x, const std::string& y) {
      return add + "(" + acc + ", " + mul + "(" + x + ", " + y + "))";
    });
  }
  for_slots(ld.slots, [&](const std::string& s) {
    std::string v = "acc[" + s + "]";
    line(at(dst, s) + " = " + (eight ? "(int32_t)" + v : cast_expr(c == "double" ? DType::f64 : DType::f32, out, v)) + ";");
  });
  line("__syncthreads();");
  close();
}

}  // namespace tl::gpu::detail
