// IR basics and the text printer.
#include <sstream>

#include "error.h"
#include "ir.h"

namespace tl::ir {

int64_t numel(const Shape& s) {
  int64_t n = 1;
  for (int64_t d : s) n *= d;
  return n;
}

std::string shape_str(const Shape& s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "]";
}

std::string Type::str() const {
  std::string out = is_ptr ? "ptr<" + std::string(name(dtype)) + ">" : std::string(name(dtype));
  if (!shape.empty()) {
    out += "[";
    for (size_t i = 0; i < shape.size(); ++i) out += (i ? "," : "") + std::to_string(shape[i]);
    out += "]";
  }
  return out;
}

const char* op_name(Op op) {
  switch (op) {
    case Op::PtrParam: return "ptr_param";
    case Op::ScalarParam: return "scalar_param";
    case Op::Const: return "const";
    case Op::Arange: return "arange";
    case Op::ProgramId: return "program_id";
    case Op::NumPrograms: return "num_programs";
    case Op::Neg: return "neg";
    case Op::Not: return "not";
    case Op::Abs: return "abs";
    case Op::Exp: return "exp";
    case Op::Exp2: return "exp2";
    case Op::Log: return "log";
    case Op::Log2: return "log2";
    case Op::Sqrt: return "sqrt";
    case Op::Rsqrt: return "rsqrt";
    case Op::Sigmoid: return "sigmoid";
    case Op::Tanh: return "tanh";
    case Op::Sin: return "sin";
    case Op::Cos: return "cos";
    case Op::Floor: return "floor";
    case Op::Ceil: return "ceil";
    case Op::Cast: return "cast";
    case Op::Bitcast: return "bitcast";
    case Op::Copy: return "copy";
    case Op::Add: return "add";
    case Op::Sub: return "sub";
    case Op::Mul: return "mul";
    case Op::Div: return "div";
    case Op::Mod: return "mod";
    case Op::And: return "and";
    case Op::Or: return "or";
    case Op::Xor: return "xor";
    case Op::Shl: return "shl";
    case Op::Shr: return "shr";
    case Op::Eq: return "eq";
    case Op::Ne: return "ne";
    case Op::Lt: return "lt";
    case Op::Le: return "le";
    case Op::Gt: return "gt";
    case Op::Ge: return "ge";
    case Op::Maximum: return "maximum";
    case Op::Minimum: return "minimum";
    case Op::PtrAdd: return "ptr_add";
    case Op::Where: return "where";
    case Op::Fma: return "fma";
    case Op::Broadcast: return "broadcast";
    case Op::Reshape: return "reshape";
    case Op::Permute: return "permute";
    case Op::Reduce: return "reduce";
    case Op::Dot: return "dot";
    case Op::Load: return "load";
    case Op::Store: return "store";
    case Op::AtomicAdd: return "atomic_add";
    case Op::Print: return "print";
    case Op::Assert: return "assert";
    case Op::For: return "for";
    case Op::If: return "if";
    case Op::While: return "while";
    case Op::Scan: return "scan";
    case Op::ReduceWith: return "reduce_with";
    case Op::Sort: return "sort";
    case Op::Flip: return "flip";
    case Op::Join: return "join";
    case Op::Split: return "split";
    case Op::Gather: return "gather";
    case Op::Histogram: return "histogram";
    case Op::AtomicRMW: return "atomic_rmw";
    case Op::Erf: return "erf";
    case Op::Log1p: return "log1p";
    case Op::Expm1: return "expm1";
    case Op::Rint: return "rint";
    case Op::Round: return "round";
    case Op::Pow: return "pow";
    case Op::UMulHi: return "umulhi";
#define TL_X(OP, NAME) \
  case Op::OP: return #NAME;
    TL_LIBDEVICE_UNARY(TL_X)
    TL_LIBDEVICE_BINARY(TL_X)
#undef TL_X
  }
  return "?";
}

const char* reduce_name(ReduceKind k) {
  switch (k) {
    case ReduceKind::Sum: return "sum";
    case ReduceKind::Max: return "max";
    case ReduceKind::Min: return "min";
    case ReduceKind::ArgMax: return "argmax";
    case ReduceKind::ArgMin: return "argmin";
  }
  return "?";
}

const char* precision_name(Precision p) {
  switch (p) {
    case Precision::tf32: return "tf32";
    case Precision::tf32x3: return "tf32x3";
    case Precision::ieee: return "ieee";
  }
  return "?";
}

const char* atomic_name(AtomicKind k) {
  switch (k) {
    case AtomicKind::Max: return "max";
    case AtomicKind::Min: return "min";
    case AtomicKind::And: return "and";
    case AtomicKind::Or: return "or";
    case AtomicKind::Xor: return "xor";
    case AtomicKind::Xchg: return "xchg";
    case AtomicKind::Cas: return "cas";
  }
  return "?";
}

const char* sem_name(MemSem s) {
  switch (s) {
    case MemSem::acq_rel: return "acq_rel";
    case MemSem::acquire: return "acquire";
    case MemSem::release: return "release";
    case MemSem::relaxed: return "relaxed";
  }
  return "?";
}

const char* scope_name(MemScope s) {
  switch (s) {
    case MemScope::gpu: return "gpu";
    case MemScope::cta: return "cta";
    case MemScope::sys: return "sys";
  }
  return "?";
}

bool is_unary(Op op) {
  return (op >= Op::Neg && op <= Op::Copy) || (op >= Op::Erf && op <= Op::Round) || is_libdevice_unary(op);
}
bool is_binary(Op op) {
  return (op >= Op::Add && op <= Op::PtrAdd) || op == Op::Pow || op == Op::UMulHi || is_libdevice_binary(op);
}
bool is_libdevice_unary(Op op) { return op >= Op::Acos && op <= Op::Logb; }
bool is_libdevice_binary(Op op) { return op >= Op::Atan2 && op <= Op::Remainder; }
bool is_atomic(Op op) { return op == Op::AtomicAdd || op == Op::AtomicRMW; }
bool is_compare(Op op) { return op >= Op::Eq && op <= Op::Ge; }

void for_each_instr(const Block& b, const std::function<void(const Instr&, const Block&)>& fn) {
  for (const Instr& in : b.instrs) {
    fn(in, b);
    if (in.cond_body) for_each_instr(*in.cond_body, fn);
    if (in.body) for_each_instr(*in.body, fn);
    if (in.else_body) for_each_instr(*in.else_body, fn);
  }
}

size_t operand_count(const Instr& in) {
  return in.args.size() - 2 * in.shape_dims.size();
}

size_t instruction_count(const Block& b) {
  size_t n = 0;
  for_each_instr(b, [&](const Instr&, const Block&) { ++n; });
  return n;
}

namespace {

class Printer {
 public:
  Printer(const Kernel& k, bool locs) : k_(k), locs_(locs) {}

  std::string run() {
    out_ << "kernel " << k_.name << "(";
    for (size_t i = 0; i < k_.params.size(); ++i) {
      const Param& p = k_.params[i];
      out_ << (i ? ", " : "") << (p.name.empty() ? "arg" + std::to_string(i) : p.name) << ": ";
      switch (p.kind) {
        case ParamKind::Pointer: out_ << "ptr<" << name(p.dtype) << ">"; break;
        case ParamKind::Scalar: out_ << name(p.dtype); break;
        case ParamKind::Constant: out_ << "const = " << p.value; break;
      }
    }
    out_ << ") {\n";
    block(k_.body, 1);
    out_ << "}\n";
    return out_.str();
  }

 private:
  std::string reg(int r) const { return "%" + std::to_string(r); }

  void block(const Block& b, int indent) {
    for (const Instr& in : b.instrs) instr(in, indent);
  }

  void instr(const Instr& in, int indent) {
    std::ostringstream line;
    line << std::string(indent * 2, ' ');
    if (in.op == Op::For) {
      line << "for " << reg(in.dst) << " in range(" << reg(in.args[0]) << ", " << reg(in.args[1]) << ", "
           << reg(in.args[2]) << ") {";
      emit(line.str(), in);
      block(*in.body, indent + 1);
      out_ << std::string(indent * 2, ' ') << "}\n";
      return;
    }
    if (in.op == Op::While) {
      // The condition block, then the value it leaves, as scf.while's
      // scf.condition: read "run the block; stop unless %c; run the body".
      line << "while {";
      emit(line.str(), in);
      if (in.cond_body) block(*in.cond_body, indent + 1);
      out_ << std::string((indent + 1) * 2, ' ') << "condition " << reg(in.cond_reg) << "\n";
      out_ << std::string(indent * 2, ' ') << "} do {\n";
      if (in.body) block(*in.body, indent + 1);
      out_ << std::string(indent * 2, ' ') << "}\n";
      return;
    }
    if (in.op == Op::If) {
      line << "if " << reg(in.args[0]) << " {";
      emit(line.str(), in);
      block(*in.body, indent + 1);
      if (in.else_body && !in.else_body->instrs.empty()) {
        out_ << std::string(indent * 2, ' ') << "} else {\n";
        block(*in.else_body, indent + 1);
      }
      out_ << std::string(indent * 2, ' ') << "}\n";
      return;
    }
    if (in.dst >= 0) line << reg(in.dst) << ": " << k_.type(in.dst).str() << " = ";
    line << op_name(in.op);
    switch (in.op) {
      case Op::PtrParam:
      case Op::ScalarParam: {
        const Param& p = k_.params[in.param_index];
        line << " " << (p.name.empty() ? "arg" + std::to_string(in.param_index) : p.name);
        break;
      }
      case Op::Const:
        if (is_float(k_.type(in.dst).dtype)) line << " " << in.fval;
        else line << " " << in.ival;
        break;
      case Op::Arange: line << " " << in.ival << ", " << in.ival2; break;
      case Op::ProgramId:
      case Op::NumPrograms: line << " " << in.axis; break;
      case Op::Reduce: line << "." << reduce_name(in.reduce) << " axis=" << in.axis; break;
      case Op::Permute: {
        line << " dims=[";
        for (size_t i = 0; i < in.dims.size(); ++i) line << (i ? "," : "") << in.dims[i];
        line << "]";
        break;
      }
      case Op::Dot: line << "." << precision_name(in.precision); break;
      case Op::Scan:
      case Op::ReduceWith:
        line << " axis=" << in.axis << (in.ival ? " reverse" : "");
        if (in.args.size() > 1) line << " output=" << in.ival2;
        break;
      case Op::Sort: line << (in.ival ? " descending" : ""); break;
      case Op::Flip:
      case Op::Gather: line << " axis=" << in.axis; break;
      case Op::Split: line << " half=" << in.ival; break;
      case Op::Histogram: line << " bins=" << in.ival; break;
      case Op::AtomicRMW: line << "." << atomic_name(in.atomic); break;
      default: break;
    }
    const size_t own = operand_count(in);
    for (size_t i = 0; i < own; ++i) {
      line << (i ? ", " : " ");
      if (in.op == Op::Load && i == 1 && in.has_mask) line << "mask=";
      if (in.op == Op::Load && i == 2) line << "other=";
      if ((in.op == Op::Store || is_atomic(in.op)) && i == 2 && in.has_mask) line << "mask=";
      if (in.op == Op::AtomicRMW && in.atomic == AtomicKind::Cas && i + 1 == own) line << "cmp=";
      if (in.op == Op::Dot && i == 2) line << "acc=";
      line << reg(in.args[i]);
    }
    // A block pointer's shape checks: dim, the block's offset, the extent.
    for (size_t k = 0; k < in.shape_dims.size(); ++k)
      line << ", in_shape(dim=" << in.shape_dims[k] << ", " << reg(in.args[own + 2 * k]) << ", "
           << reg(in.args[own + 2 * k + 1]) << ")";
    // Only what differs from Triton's defaults, so older dumps read the same.
    if (is_atomic(in.op) && in.sem != MemSem::acq_rel) line << " sem=" << sem_name(in.sem);
    if (is_atomic(in.op) && in.scope != MemScope::gpu) line << " scope=" << scope_name(in.scope);
    if (in.op == Op::Cast && in.rounding == Rounding::rtz) line << " rounding=rtz";
    if (!in.text.empty()) line << " \"" << in.text << "\"";
    if (in.combine) {
      // The combine function: (running values, next values) -> yields.
      line << " combine(";
      for (size_t i = 0; i < in.block_args.size(); ++i) line << (i ? ", " : "") << reg(in.block_args[i]);
      line << ") {";
      emit(line.str(), in);
      block(*in.combine, indent + 1);
      std::string y = std::string((indent + 1) * 2, ' ') + "yield";
      for (size_t i = 0; i < in.yields.size(); ++i) y += (i ? ", " : " ") + reg(in.yields[i]);
      out_ << y << "\n" << std::string(indent * 2, ' ') << "}\n";
      return;
    }
    emit(line.str(), in);
  }

  void emit(const std::string& s, const Instr& in) {
    out_ << s;
    if (locs_ && in.loc.known()) {
      size_t pad = s.size() < 56 ? 56 - s.size() : 1;
      out_ << std::string(pad, ' ') << "# line " << in.loc.line;
    }
    out_ << "\n";
  }

  const Kernel& k_;
  bool locs_;
  std::ostringstream out_;
};

}  // namespace

std::string print(const Kernel& k, bool with_locations) { return Printer(k, with_locations).run(); }

}  // namespace tl::ir
