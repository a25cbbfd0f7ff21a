// Scans, combine-function reductions, sort, flip, join/split, gather and
// histogram. Each goes through shared memory: the operands are
// written there, then every thread computes its own result elements by
// reading them back. A scan or reduction walks the axis element by element
// in the interpreter's order (so floats round the same way), running the
// combine block as scalar statements; sort ranks each element (stable,
// NaN above numbers) and scatters it to its place.
#include "codegen_emitter.h"

namespace tl::gpu::detail {

namespace {

std::string str(int64_t v) { return std::to_string(v); }

}  // namespace

void Emitter::through_shared_memory(const ir::Instr& in) {
  using ir::Op;
  const int dst = in.dst;
  const DType d = type(dst).dtype;
  // Operands in shared memory, one region each, 16-byte aligned.
  std::vector<int64_t> offset;
  int64_t bytes = 0;
  for (int a : in.args) {
    offset.push_back(bytes);
    bytes += (ir::numel(type(a).shape) * byte_size(type(a).dtype) + 15) / 16 * 16;
  }
  const int64_t sort_out = bytes;  // sort scatters into a second region
  if (in.op == Op::Sort) bytes += (ir::numel(type(dst).shape) * byte_size(d) + 15) / 16 * 16;
  need_smem(bytes);
  const TileLayout ld = layout(dst);
  uses_tid_ = true;
  declare(dst);
  open("");
  for (size_t i = 0; i < in.args.size(); ++i) {
    const int a = in.args[i];
    if (in.op == Op::Gather && i == 1) continue;  // read element for element from its registers
    if (type(a).shape.empty()) {
      line(cuda_register_type(type(a).dtype) + "* sm" + str(i) + " = reinterpret_cast<" +
           cuda_register_type(type(a).dtype) + "*>(ts_smem + " + str(offset[i]) + ");");
      line("if (tid == 0) sm" + str(i) + "[0] = " + at(a, "0") + ";");
      continue;
    }
    spill_to_smem(a, "sm" + str(i), cuda_register_type(type(a).dtype), offset[i], [](const std::string& x) { return x; });
  }
  line("__syncthreads();");

  // The walked axis: `len` elements `inner` apart.
  const ir::Shape& s0 = type(in.args[in.op == Op::Gather ? 1 : 0]).shape;
  int64_t len = 1, inner = 1;
  if (in.op == Op::Scan || in.op == Op::ReduceWith || in.op == Op::Flip || in.op == Op::Gather || in.op == Op::Sort) {
    len = s0[in.axis];
    for (size_t i = in.axis + 1; i < s0.size(); ++i) inner *= s0[i];
  }
  if (in.op == Op::Sort) sort_ranks(in, sort_out, len);

  for_slots(ld.slots, [&](const std::string& s) {
    open("");
    line("const unsigned e = " + element(ld, s) + ";");
    std::string value;
    switch (in.op) {
      case Op::Scan:
      case Op::ReduceWith: value = combine_walk(in, len, inner); break;
      case Op::Sort: value = "so[e]"; break;
      case Op::Flip:
        value = "sm0[e / " + str(len * inner) + " * " + str(len * inner) + " + (" + str(len - 1) + " - e / " +
                str(inner) + " % " + str(len) + ") * " + str(inner) + " + e % " + str(inner) + "]";
        break;
      case Op::Join: value = "((e & 1) ? sm1[e >> 1] : sm0[e >> 1])"; break;
      case Op::Split: value = "sm0[2 * e + " + str(in.ival) + "]"; break;
      case Op::Gather: value = gather_value(in, s, len, inner); break;
      case Op::Histogram: value = histogram_value(in); break;
      default: fail(in, "no lowering for this op");
    }
    line(at(dst, s) + " = " + value + ";");
    close();
  });
  line("__syncthreads();");
  close();
}

void Emitter::sort_ranks(const ir::Instr& in, int64_t sort_out, int64_t len) {
  // Phase 1: each element's rank in its row, where it is written.
  const DType d = type(in.dst).dtype;
  const std::string T = cuda_register_type(d);
  const TileLayout ls = layout(in.args[0]);
  line(T + "* so = reinterpret_cast<" + T + "*>(ts_smem + " + str(sort_out) + ");");
  const std::string c = compute_type(d);
  const bool desc = in.ival != 0;
  std::string lt = desc ? "(a > b)" : "(a < b)";
  if (is_float(d))
    lt = desc ? "((a != a || b != b) ? (a != a && b == b) : a > b)" : "((a != a || b != b) ? (a == a && b != b) : a < b)";
  line("auto ts_before = [](" + c + " a, " + c + " b) -> bool { return " + lt + "; };");
  std::string guard = owner_guard(ls);
  if (!guard.empty()) open("if (" + guard + ")");
  for_slots(ls.slots, [&](const std::string& s) {
    open("");
    line("const unsigned e = " + element(ls, s) + ";");
    line("const unsigned row = e / " + str(len) + " * " + str(len) + ", me = e % " + str(len) + ";");
    line("const " + c + " x = " + widen(d, "sm0[e]") + ";");
    line("unsigned rank = 0;");
    open("for (unsigned q = 0; q < " + str(len) + "; ++q)");
    line("const " + c + " y = " + widen(d, "sm0[row + q]") + ";");
    line("rank += ts_before(y, x) || (q < me && !ts_before(x, y));");
    close();
    line("so[row + rank] = sm0[e];");
    close();
  });
  if (!guard.empty()) close();
  line("__syncthreads();");
}

std::string Emitter::combine_walk(const ir::Instr& in, int64_t len, int64_t inner) {
  using ir::Op;
  const size_t N = in.args.size();
  const bool scan = in.op == Op::Scan, reverse = in.ival != 0;
  if (scan) {
    line("const unsigned k = e / " + str(inner) + " % " + str(len) + ";");
    line("const unsigned base = e / " + str(len * inner) + " * " + str(len * inner) + " + e % " + str(inner) + ";");
  } else {
    line("const unsigned base = e / " + str(inner) + " * " + str(len * inner) + " + e % " + str(inner) + ";");
  }
  auto nm = [](int r) { return "cb" + std::to_string(r); };
  const std::string first = reverse ? str(len - 1) : "0";
  for (size_t i = 0; i < N; ++i)
    line(cuda_register_type(type(in.args[i]).dtype) + " " + nm(in.block_args[i]) + " = sm" + str(i) + "[base + " +
         first + " * " + str(inner) + "];");
  // Steps 1 .. k (scan) or 1 .. len-1 (reduce), from the axis's start
  // (its end when reversed).
  const std::string steps = scan ? (reverse ? "(" + str(len - 1) + " - k)" : "k") : str(len - 1);
  open("for (unsigned q = 1; q <= " + steps + "; ++q)");
  line("const unsigned pos = " + (reverse ? str(len - 1) + " - q" : std::string("q")) + ";");
  for (size_t i = 0; i < N; ++i)
    line("const " + cuda_register_type(type(in.args[i]).dtype) + " " + nm(in.block_args[N + i]) + " = sm" + str(i) +
         "[base + pos * " + str(inner) + "];");
  std::vector<char> seen(k_.regs.size(), 0);
  for (int r : in.block_args) seen[r] = 1;
  for (const ir::Instr& c : in.combine->instrs) {
    std::string expr;
    if (c.op == Op::Const) {
      expr = constant_literal(type(c.dst).dtype, c.ival, c.fval);
    } else {
      std::vector<std::string> args;
      for (int a : c.args) args.push_back(nm(a));
      expr = elementwise_expr(c, args);
    }
    if (seen[c.dst]) {
      line(nm(c.dst) + " = " + expr + ";");
    } else {
      seen[c.dst] = 1;
      line(cuda_register_type(type(c.dst).dtype) + " " + nm(c.dst) + " = " + expr + ";");
    }
  }
  // Through temporaries: a yield may be another running value.
  for (size_t i = 0; i < N; ++i)
    line("const " + cuda_register_type(type(in.args[i]).dtype) + " ts_y" + str(i) + " = " + nm(in.yields[i]) + ";");
  for (size_t i = 0; i < N; ++i) line(nm(in.block_args[i]) + " = ts_y" + str(i) + ";");
  close();
  return nm(in.block_args[in.ival2]);
}

std::string Emitter::gather_value(const ir::Instr& in, const std::string& s, int64_t len, int64_t inner) {
  const DType id = type(in.args[1]).dtype;
  const int64_t src_len = type(in.args[0]).shape[in.axis];
  const std::string idx = at(in.args[1], s);
  // An index outside the source gives 0, as in the interpreter (which
  // reports it); nothing outside the shared tile is read.
  if (id == DType::u64) line("const long long ix = " + idx + " < " + str(src_len) + "ull ? (long long)" + idx + " : -1;");
  else line("const long long ix = (long long)" + idx + ";");
  line("const unsigned o = e / " + str(len * inner) + ", j = e % " + str(inner) + ";");
  return "(ix >= 0 && ix < " + str(src_len) + " ? sm0[(o * " + str(src_len) + " + (unsigned)ix) * " + str(inner) +
         " + j] : " + constant_literal(type(in.dst).dtype, 0, 0) + ")";
}

std::string Emitter::histogram_value(const ir::Instr& in) {
  const DType xd = type(in.args[0]).dtype;
  const int64_t n = ir::numel(type(in.args[0]).shape);
  const std::string wide = xd == DType::u64 ? "unsigned long long" : "long long";
  line("unsigned count = 0;");
  open("for (unsigned i = 0; i < " + str(n) + "; ++i)");
  line(std::string("count += ") + (in.has_mask ? "sm1[i] && " : "") + "(" + wide + ")sm0[i] == (" + wide + ")e;");
  close();
  return "(int32_t)count";
}

}  // namespace tl::gpu::detail
