// The math functions in CUDA: erf, log1p, expm1, rint, round, pow (the
// CUDA math library's, which libdevice is), umulhi, and casts rounding
// toward zero.
#include "codegen_emitter.h"

namespace tl::gpu::detail {

std::string Emitter::math_expr(const ir::Instr& in, DType d, const std::vector<std::string>& args) const {
  using ir::Op;
  const bool f64 = d == DType::f64;
  auto call = [&](const char* f32_name, const char* f64_name) {
    std::string out = std::string(f64 ? f64_name : f32_name) + "(";
    for (size_t i = 0; i < args.size(); ++i) out += (i ? ", " : "") + widen(d, args[i]);
    return narrow(d, out + ")");
  };
  switch (in.op) {
    case Op::Erf: return call("erff", "erf");
    case Op::Log1p: return call("log1pf", "log1p");
    case Op::Expm1: return call("expm1f", "expm1");
    case Op::Rint: return call("rintf", "rint");
    case Op::Round: return call("roundf", "round");
    case Op::Pow: return call("powf", "pow");
    case Op::UMulHi: return "ts_umulhi(" + args[0] + ", " + args[1] + ")";
#define TL_X(OP, NAME) \
  case Op::OP: return call(#NAME "f", #NAME);
      TL_LIBDEVICE_UNARY(TL_X)
      TL_LIBDEVICE_BINARY(TL_X)
#undef TL_X
    default: break;
  }
  fail(in, std::string("`") + ir::op_name(in.op) + "` is not supported on the GPU backend");
}

std::string Emitter::cast_rtz_expr(DType from, DType to, const std::string& x) {
  // Truncation composes: f64 -> f32 -> f16 toward zero twice is f64 -> f16
  // toward zero once.
  const std::string f = from == DType::f64 ? "__double2float_rz(" + x + ")" : widen(from, x);
  if (to == DType::f32) return f;
  if (to == DType::f16) return "__float2half_rz(" + f + ")";
  if (to == DType::bf16) return "__float2bfloat16_rz(" + f + ")";
  return cast_expr(from, to, x);
}

}  // namespace tl::gpu::detail
