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
  const TileLayout ld = layout(dst);
  for_slots(ld.slots, [&](const std::string& s) {
    line("const unsigned e = " + element(ld, s) + ";");
    std::string row = batch == 1 ? "e / " + std::to_string(N) : "(e / " + std::to_string(N) + ")";
    line("const " + c + "* arow = sa + " + row + " * " + std::to_string(K) + ";  // a[.., m, :]");
    std::string col = "e % " + std::to_string(N);
    if (batch > 1) col = "(e / " + std::to_string(M * N) + ") * " + std::to_string(K * N) + " + " + col;
    line("const " + c + "* bcol = sb + " + col + ";  // b[.., :, n]");
    std::string init = in.has_acc ? widen(out, at(in.args[2], s)) : "0";
    std::string k_loop = "for (int k = 0; k < " + std::to_string(K) + "; ++k)";
    if (eight) {
      // Exact, wrapping i32 arithmetic (done in u32).
      line("uint32_t acc = (uint32_t)" + (in.has_acc ? at(in.args[2], s) : std::string("0")) + ";");
      line(k_loop + " acc += (uint32_t)arow[k] * (uint32_t)bcol[k * " + std::to_string(N) + "];");
      line(at(dst, s) + " = (int32_t)acc;");
      return;
    }
    const std::string add = c == "double" ? "__dadd_rn" : "__fadd_rn", mul = c == "double" ? "__dmul_rn" : "__fmul_rn";
    line(c + " acc = " + init + ";");
    if (tf32x3) {
      // big = tf32(x), small = tf32(x - big); the small-term products first.
      const std::string bk = "bcol[k * " + std::to_string(N) + "]";
      auto big = [](const std::string& x) { return "ts_tf32(" + x + ")"; };
      auto small = [&](const std::string& x) { return "ts_tf32(" + x + " - " + big(x) + ")"; };
      for (const auto& [x, y] : {std::pair{small("arow[k]"), big(bk)}, std::pair{big("arow[k]"), small(bk)},
                                 std::pair{big("arow[k]"), big(bk)}})
        line(k_loop + " acc = " + add + "(acc, " + mul + "(" + x + ", " + y + "));");
    } else {
      line(k_loop + " acc = " + add + "(acc, " + mul + "(arow[k], bcol[k * " + std::to_string(N) + "]));");
    }
    line(at(dst, s) + " = " + cast_expr(c == "double" ? DType::f64 : DType::f32, out, "acc") + ";");
  });
  line("__syncthreads();");
  close();
}

}  // namespace tl::gpu::detail
