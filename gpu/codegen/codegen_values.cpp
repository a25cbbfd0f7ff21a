// Leaves (parameters, constants, arange, program ids) and elementwise ops.
// Each IR op becomes one expression per slot; what SEMANTICS.md defines
// beyond C++ goes through the prelude's ts_* helpers. f16/bf16 values are
// computed in f32 and rounded back after every op, as the interpreter does.
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "codegen_emitter.h"
#include "eval.h"

namespace tl::gpu::detail {

namespace {

std::string hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%" PRIx64, v);
  return buf;
}

// The shortest decimal that reads back as exactly `v` ("10.0f", "0.1f").
std::string float_literal(float v) {
  char buf[64];
  for (int digits = 6; digits <= 9; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, static_cast<double>(v));
    if (std::strtof(buf, nullptr) == v) break;
  }
  std::string s = buf;
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  return s + "f";
}

std::string double_literal(double v) {
  char buf[64];
  for (int digits = 15; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  std::string s = buf;
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  return s;
}

}  // namespace

std::string Emitter::compute_type(DType d) { return is_half(d) ? "float" : cuda_register_type(d); }

std::string Emitter::widen(DType d, const std::string& x) {
  if (d == DType::f16) return "__half2float(" + x + ")";
  if (d == DType::bf16) return "__bfloat162float(" + x + ")";
  return x;
}

std::string Emitter::narrow(DType d, const std::string& x) {
  if (d == DType::f16) return "__float2half_rn(" + x + ")";
  if (d == DType::bf16) return "__float2bfloat16_rn(" + x + ")";
  return x;
}

std::string Emitter::constant_literal(DType d, int64_t ival, double fval) const {
  // The interpreter's own conversion makes the value; only its spelling
  // is decided here, so both back ends start from the same bits.
  alignas(8) unsigned char bits[16] = {};
  eval::constant(d, ival, fval, bits);
  auto as = [&]<class T>() {
    T v;
    std::memcpy(&v, bits, sizeof v);
    return v;
  };
  switch (d) {
    case DType::i1: return as.operator()<uint8_t>() ? "true" : "false";
    case DType::i8: return "(int8_t)" + std::to_string(as.operator()<int8_t>());
    case DType::i16: return "(int16_t)" + std::to_string(as.operator()<int16_t>());
    case DType::i32: {
      int32_t v = as.operator()<int32_t>();
      return v == INT32_MIN ? "(-2147483647 - 1)" : std::to_string(v);
    }
    case DType::i64: {
      int64_t v = as.operator()<int64_t>();
      return v == INT64_MIN ? "(-9223372036854775807LL - 1)" : "(int64_t)" + std::to_string(v) + "LL";
    }
    case DType::u8: return "(uint8_t)" + std::to_string(as.operator()<uint8_t>());
    case DType::u16: return "(uint16_t)" + std::to_string(as.operator()<uint16_t>());
    case DType::u32: return std::to_string(as.operator()<uint32_t>()) + "u";
    case DType::u64: return std::to_string(as.operator()<uint64_t>()) + "ull";
    case DType::f16: return "__ushort_as_half((unsigned short)" + hex(as.operator()<uint16_t>()) + ")";
    case DType::bf16: return "__ushort_as_bfloat16((unsigned short)" + hex(as.operator()<uint16_t>()) + ")";
    case DType::f32: {
      float v = as.operator()<float>();
      if (std::isfinite(v)) return float_literal(v);
      uint32_t b;
      std::memcpy(&b, &v, 4);
      return "__uint_as_float(" + hex(b) + "u) /* " + (v != v ? "nan" : v > 0 ? "inf" : "-inf") + " */";
    }
    case DType::f64: {
      double v = as.operator()<double>();
      if (std::isfinite(v)) return double_literal(v);
      uint64_t b;
      std::memcpy(&b, &v, 8);
      return "__longlong_as_double((long long)" + hex(b) + "ull) /* " + (v != v ? "nan" : v > 0 ? "inf" : "-inf") + " */";
    }
  }
  return "0";
}

void Emitter::leaf(const ir::Instr& in) {
  using ir::Op;
  switch (in.op) {
    case Op::PtrParam:
    case Op::ScalarParam: assign(in.dst, [&](const std::string&) { return param_name(in.param_index); }); return;
    case Op::Const: {
      std::string lit = constant_literal(type(in.dst).dtype, in.ival, in.fval);
      assign(in.dst, [&](const std::string&) { return lit; });
      return;
    }
    case Op::Arange: {
      TileLayout l = layout(in.dst);
      assign(in.dst, [&](const std::string& s) {
        std::string e = element(l, s);
        return in.ival == 0 ? "(int32_t)" + e : "(int32_t)(" + e + " + " + std::to_string(in.ival) + ")";
      });
      return;
    }
    case Op::ProgramId:
    case Op::NumPrograms: {
      const std::string v = in.op == Op::ProgramId ? program_id_expr(in.axis) : num_programs_expr(in.axis);
      assign(in.dst, [&](const std::string&) { return "(int32_t)" + v; });
      return;
    }
    default: fail(in, "not a leaf");
  }
}

std::string Emitter::unary_expr(const ir::Instr& in, DType d, const std::string& x) const {
  using ir::Op;
  const bool f64 = d == DType::f64;
  const std::string w = widen(d, x);
  auto math = [&](const char* f32_name, const char* f64_name) {
    return narrow(d, std::string(f64 ? f64_name : f32_name) + "(" + w + ")");
  };
  switch (in.op) {
    case Op::Neg:
      if (is_int(d)) return "ts_neg(" + x + ")";
      return narrow(d, "-" + w);
    case Op::Not:
      if (d == DType::i1) return "!" + x;
      if (is_int(d)) return "(" + cuda_register_type(d) + ")~" + x;
      break;
    case Op::Abs:
      if (is_signed_int(d)) return "ts_abs(" + x + ")";
      if (is_int(d)) return x;
      return math("fabsf", "fabs");
    case Op::Exp: return math("expf", "exp");
    case Op::Exp2: return math("exp2f", "exp2");
    case Op::Log: return math("logf", "log");
    case Op::Log2: return math("log2f", "log2");
    case Op::Sqrt: return math("sqrtf", "sqrt");
    case Op::Sin: return math("sinf", "sin");
    case Op::Cos: return math("cosf", "cos");
    case Op::Tanh: return math("tanhf", "tanh");
    case Op::Floor: return math("floorf", "floor");
    case Op::Ceil: return math("ceilf", "ceil");
    // As the interpreter computes them: an IEEE division, not rsqrtf's or
    // __expf's approximations.
    case Op::Rsqrt: return narrow(d, f64 ? "1.0 / sqrt(" + w + ")" : "1.0f / sqrtf(" + w + ")");
    case Op::Sigmoid:
      return narrow(d, f64 ? "1.0 / (1.0 + exp(-" + w + "))" : "1.0f / (1.0f + expf(-" + w + "))");
    default: break;
  }
  fail(in, std::string("unary op on ") + std::string(tl::name(d)));
}

std::string Emitter::binary_expr(const ir::Instr& in, DType d, const std::string& a, const std::string& b) const {
  using ir::Op;
  if (ir::is_compare(in.op)) {
    static const char* sym[] = {"==", "!=", "<", "<=", ">", ">="};
    std::string op = sym[static_cast<int>(in.op) - static_cast<int>(Op::Eq)];
    return "(" + widen(d, a) + " " + op + " " + widen(d, b) + ")";
  }
  if (d == DType::i1) {
    switch (in.op) {
      case Op::And: return "(" + a + " && " + b + ")";
      case Op::Or: return "(" + a + " || " + b + ")";
      case Op::Xor: return "(" + a + " != " + b + ")";
      // i1 + - * i1 stay i1 with 1-bit wrap-around (SEMANTICS, as Triton).
      case Op::Add: case Op::Sub: return "(" + a + " != " + b + ")";
      case Op::Mul: return "(" + a + " && " + b + ")";
      default: fail(in, "arithmetic on i1 (the front end widens it to i32)");
    }
  }
  if (is_int(d)) {
    const std::string t = cuda_register_type(d);
    auto call = [&](const char* f) { return std::string(f) + "(" + a + ", " + b + ")"; };
    switch (in.op) {
      case Op::Add: return call("ts_add");
      case Op::Sub: return call("ts_sub");
      case Op::Mul: return call("ts_mul");
      case Op::Div: return call("ts_div");
      case Op::Mod: return call("ts_mod");
      case Op::Shl: return call("ts_shl");
      case Op::Shr: return call("ts_shr");
      case Op::And: return "(" + t + ")(" + a + " & " + b + ")";
      case Op::Or: return "(" + t + ")(" + a + " | " + b + ")";
      case Op::Xor: return "(" + t + ")(" + a + " ^ " + b + ")";
      case Op::Maximum: return "(" + a + " > " + b + " ? " + a + " : " + b + ")";
      case Op::Minimum: return "(" + a + " < " + b + " ? " + a + " : " + b + ")";
      default: break;
    }
    fail(in, std::string("integer op on ") + std::string(tl::name(d)));
  }
  const bool f64 = d == DType::f64;
  const std::string x = widen(d, a), y = widen(d, b);
  auto infix = [&](const char* op) { return narrow(d, "(" + x + " " + op + " " + y + ")"); };
  auto call = [&](const std::string& f) { return narrow(d, f + "(" + x + ", " + y + ")"); };
  switch (in.op) {
    case Op::Add: return infix("+");
    case Op::Sub: return infix("-");
    case Op::Mul: return infix("*");
    case Op::Div: return infix("/");
    // frem as Triton's NVPTX lowering expands it (the interpreter's gpu_frem):
    // x - trunc(x / y) * y in one fma, x for an infinite y.
    case Op::Mod:
      return narrow(d, f64 ? "(isinf(" + y + ") ? " + x + " : fma(-trunc(" + x + " / " + y + "), " + y + ", " + x + "))"
                           : "(isinf(" + y + ") ? " + x + " : fmaf(-truncf(" + x + " / " + y + "), " + y + ", " + x + "))");
    // fmaxf/fminf drop NaN (IEEE maxNum), as Triton's GPU max does.
    case Op::Maximum: return call(in.propagate_nan ? "ts_fmax_nan" : f64 ? "fmax" : "fmaxf");
    case Op::Minimum: return call(in.propagate_nan ? "ts_fmin_nan" : f64 ? "fmin" : "fminf");
    default: break;
  }
  fail(in, std::string("float op on ") + std::string(tl::name(d)));
}

std::string Emitter::cast_expr(DType from, DType to, const std::string& x) {
  if (from == to) return x;
  const std::string t = cuda_register_type(to);
  if (to == DType::i1) return is_int(from) ? "(" + x + " != 0)" : "!(" + widen(from, x) + " == 0)";  // NaN -> true
  if (is_int(from) && is_int(to)) return "(" + t + ")" + x;  // extend, or keep the low bits
  if (is_int(from)) {
    if (to == DType::f32 || to == DType::f64) return "(" + t + ")" + x;  // round to nearest even
    // Through f64 as the interpreter does (exact below 2^53; 64-bit values
    // round there first, as they do in the interpreter).
    return std::string(to == DType::f16 ? "__double2half" : "__double2bfloat16") + "((double)" + x + ")";
  }
  if (is_int(to)) {
    if (from == DType::f64) return "ts_float_to_int<" + t + ">(" + x + ")";
    return "ts_f32_to_int<" + t + ">(" + widen(from, x) + ")";  // f16/bf16 widen to f32 exactly
  }
  // float -> float, each one correctly rounded conversion.
  if (from == DType::f64) {
    if (to == DType::f32) return "(float)" + x;
    return std::string(to == DType::f16 ? "__double2half" : "__double2bfloat16") + "(" + x + ")";
  }
  std::string f = widen(from, x);  // exact in f32
  if (to == DType::f64) return "(double)" + f;
  if (to == DType::f32) return f;
  return narrow(to, f);
}

std::optional<int64_t> Emitter::small_constant(int r, int64_t limit) const {
  const std::optional<TensorMapSpec::Value> v = launch_value(r);
  if (!v || v->param >= 0 || v->constant < 0 || v->constant >= limit) return std::nullopt;
  return v->constant;
}

// Whether every element of i32 register r is known to lie in [0, limit):
// r is a constant there, or an `and` with one, through copies, broadcasts
// and reshapes (E4's codes: (word >> shift) & 3).
bool Emitter::nonneg_below(int r, int64_t limit) const {
  for (int depth = 0; depth < 16 && def_count_[r] == 1 && def_of_[r]; ++depth) {
    const ir::Instr& in = *def_of_[r];
    if (type(r).dtype != DType::i32) return false;
    if (in.op == ir::Op::Copy || in.op == ir::Op::Broadcast || in.op == ir::Op::Reshape) {
      r = in.args[0];
      continue;
    }
    if (in.op == ir::Op::Const) return small_constant(r, limit).has_value();
    if (in.op == ir::Op::And) return small_constant(in.args[0], limit) || small_constant(in.args[1], limit);
    return false;
  }
  return false;
}

std::optional<std::pair<int, int64_t>> Emitter::masked_u23(const ir::Instr& cast) const {
  if (cast.op != ir::Op::Cast || type(cast.args[0]).dtype != DType::i32 || type(cast.dst).dtype != DType::f32)
    return std::nullopt;
  int r = cast.args[0];
  const TileLayout& l = layouts_[r];
  for (int depth = 0; depth < 8 && def_count_[r] == 1 && def_of_[r] && layouts_[r] == l; ++depth) {
    const ir::Instr& in = *def_of_[r];
    if (in.op == ir::Op::Copy || in.op == ir::Op::Reshape) {
      r = in.args[0];
      continue;
    }
    if (in.op != ir::Op::And) return std::nullopt;
    for (int i = 0; i < 2; ++i) {
      const int x = in.args[i];
      const std::optional<int64_t> mask = small_constant(in.args[1 - i], int64_t{1} << 23);
      if (mask && layouts_[x] == l && type(x).shape == type(r).shape) return std::pair{x, *mask};
    }
    return std::nullopt;
  }
  return std::nullopt;
}

std::string Emitter::elementwise_expr(const ir::Instr& in, const std::vector<std::string>& args) const {
  using ir::Op;
  const DType d = type(in.args[0]).dtype;  // operand dtype (Where: the condition's)
  const DType out = type(in.dst).dtype;
  switch (in.op) {
    case Op::Copy: return args[0];
    case Op::Cast:
      if (d == DType::i32 && out == DType::f32 && nonneg_below(in.args[0], int64_t{1} << 23))
        return "ts_u23_to_f32(" + args[0] + ")";  // E4's 2-bit codes
      return in.rounding == ir::Rounding::rtz ? cast_rtz_expr(d, out, args[0]) : cast_expr(d, out, args[0]);
    case Op::Bitcast: return "ts_bitcast<" + cuda_register_type(out) + ">(" + args[0] + ")";
    case Op::PtrAdd: {
      // Element offsets: signed ones sign-extend, unsigned ones zero-extend.
      std::string ext = is_signed_int(type(in.args[1]).dtype) ? "(int64_t)" : "(uint64_t)";
      return args[0] + " + " + ext + args[1];
    }
    case Op::Where: return args[0] + " ? " + args[1] + " : " + args[2];
    case Op::Fma: {
      std::string f = out == DType::f64 ? "fma(" : "fmaf(";
      return narrow(out, f + widen(out, args[0]) + ", " + widen(out, args[1]) + ", " + widen(out, args[2]) + ")");
    }
    default:
      if ((in.op >= Op::Erf && in.op <= Op::Round) || in.op == Op::Pow || in.op == Op::UMulHi ||
          ir::is_libdevice_unary(in.op) || ir::is_libdevice_binary(in.op))
        return math_expr(in, d, args);
      if (ir::is_unary(in.op)) return unary_expr(in, d, args[0]);
      return binary_expr(in, d, args[0], args[1]);
  }
}

void Emitter::elementwise(const ir::Instr& in) {
  if (in.op == ir::Op::Copy && in.dst == in.args[0]) return;
  if (const auto m = masked_u23(in); m && !converted_.count(in.args[0])) {  // E4's codes: (word >> shift) & 3
    assign(in.dst, [&](const std::string& s) {
      return "ts_u23_mask_to_f32(" + at(m->first, s) + ", " + std::to_string(m->second) + "u)";
    });
    return;
  }
  assign(in.dst, [&](const std::string& s) {
    std::vector<std::string> args;
    for (int a : in.args) args.push_back(at(a, s));
    return elementwise_expr(in, args);
  });
}

}  // namespace tl::gpu::detail
