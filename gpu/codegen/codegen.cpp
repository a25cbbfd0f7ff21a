// The structure of a generated kernel: its name and signature, the kernel
// function around the body (shared memory, persistent grid-stride loop),
// register declarations and the output helpers. Control flow lives in
// codegen_control.cpp, per-op emission in the other codegen_*.cpp files.
#include <algorithm>
#include <cctype>
#include <set>
#include <stdexcept>

#include "codegen_emitter.h"
#include "cuda_prelude.h"

namespace tl::gpu {

std::string cuda_register_type(DType d) {
  switch (d) {
    case DType::i1: return "bool";
    case DType::i8: return "int8_t";
    case DType::i16: return "int16_t";
    case DType::i32: return "int32_t";
    case DType::i64: return "int64_t";
    case DType::u8: return "uint8_t";
    case DType::u16: return "uint16_t";
    case DType::u32: return "uint32_t";
    case DType::u64: return "uint64_t";
    case DType::f16: return "__half";
    case DType::bf16: return "__nv_bfloat16";
    case DType::f32: return "float";
    case DType::f64: return "double";
  }
  return "?";
}

std::string cuda_memory_type(DType d) { return d == DType::i1 ? "uint8_t" : cuda_register_type(d); }

namespace detail {

int64_t TileLayout::element_of(int64_t slot, int64_t t) const {
  if (!mma) return n >= threads ? slot / vec * threads * vec + t * vec + slot % vec : t % n;
  const int64_t w = t / 32, g = (t % 32) / 4, q = t % 4, step = slot / 4, v = slot % 4;
  const int64_t row = w / wn * tm * 16 + step / tn * 16 + g + v / 2 * 8;
  const int64_t col = w % wn * tn * 8 + step % tn * 8 + 2 * q + v % 2;
  return transposed ? col * (n / cols) + row : row * cols + col;
}

int64_t TileLayout::slot_of(int64_t e, int64_t t) const {
  if (!mma) {
    if (n >= threads) {
      const int64_t stripe = threads * vec;
      return e % stripe / vec == t ? e / stripe * vec + e % vec : -1;
    }
    return t % n == e ? 0 : -1;
  }
  // (row, col) in the layout's own [n / cols, cols] grid.
  const int64_t row = transposed ? e % (n / cols) : e / cols, col = transposed ? e / (n / cols) : e % cols, w = t / 32;
  if (row / (tm * 16) != w / wn || col / (tn * 8) != w % wn) return -1;
  const int64_t r = row % (tm * 16), c = col % (tn * 8);
  if (r % 8 != (t % 32) / 4 || c % 8 / 2 != t % 4) return -1;
  return (r / 16 * tn + c / 8) * 4 + r % 16 / 8 * 2 + c % 2;
}

std::optional<TileLayout> mma_layout(const ir::Shape& s, int threads, bool rows_per_warp) {
  if (s.size() < 2 || s.size() > 3 || (s.size() == 3 && s[0] != 1)) return std::nullopt;
  const int64_t M = s[s.size() - 2], N = s.back(), warps = threads / 32;
  if (M % 16 != 0 || N % 8 != 0) return std::nullopt;
  TileLayout l;
  l.threads = threads;
  l.scalar = false;
  l.mma = true;
  l.n = M * N;
  l.cols = N;
  // Split the warps over rows and columns, keeping each warp's tile as
  // square as the 16 x 8 steps allow (fewer fragment loads per step).
  int64_t wm = 1, wn = 1;
  if (rows_per_warp && M == 16 * warps && N <= 256) wm = warps;
  while (wm * wn < warps) {
    const bool can_m = M / (2 * wm) >= 16, can_n = N / (2 * wn) >= 8;
    if (can_m && (M / wm >= N / wn || !can_n)) wm *= 2;
    else if (can_n) wn *= 2;
    else return std::nullopt;  // too small a tile for this many warps
  }
  l.wm = static_cast<int>(wm);
  l.wn = static_cast<int>(wn);
  l.tm = static_cast<int>(M / wm / 16);
  l.tn = static_cast<int>(N / wn / 8);
  l.slots = l.n / threads;
  return l;
}

std::optional<TileLayout> transposed_mma_layout(const ir::Shape& s, int threads) {
  if (s.size() < 2 || s.size() > 3 || (s.size() == 3 && s[0] != 1)) return std::nullopt;
  const int64_t M = s[s.size() - 2], N = s.back();
  if (threads % 128 != 0 || N != 16 * (threads / 32)) return std::nullopt;  // whole warpgroups
  std::optional<TileLayout> l = mma_layout({N, M}, threads, true);
  if (!l || l->wm != threads / 32 || l->wn != 1 || l->tm != 1) return std::nullopt;
  l->transposed = true;
  return l;
}

std::vector<int64_t> row_major_strides(const ir::Shape& s) {
  std::vector<int64_t> st(s.size(), 1);
  for (int i = static_cast<int>(s.size()) - 2; i >= 0; --i) st[i] = st[i + 1] * s[i + 1];
  return st;
}

namespace {

bool is_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// Names a parameter may not take: C++ keywords and the generator's own.
bool is_reserved(const std::string& s) {
  static const std::set<std::string> words = {
      "auto", "bool", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum",
      "extern", "false", "float", "for", "goto", "if", "inline", "int", "long", "new", "delete", "register",
      "return", "short", "signed", "sizeof", "static", "struct", "switch", "this", "true", "typedef", "union",
      "unsigned", "void", "volatile", "while", "class", "template", "typename", "namespace", "using", "operator",
      "private", "public", "protected", "virtual", "friend", "throw", "try", "catch", "asm", "tid", "sm", "e",
      "s", "k", "acc", "best", "base", "sa", "sb", "v", "failed", "threadIdx", "blockIdx", "gridDim", "blockDim",
      "warpSize", "printf", "memcpy"};
  if (words.count(s) || s.rfind("ts_", 0) == 0 || s.rfind("__", 0) == 0) return true;
  // r<digits> and it<digits> are register and loop-counter names.
  for (const char* p : {"r", "it"}) {
    std::string pre(p);
    if (s.size() > pre.size() && s.rfind(pre, 0) == 0 &&
        std::all_of(s.begin() + static_cast<long>(pre.size()), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
      return true;
  }
  return false;
}

std::string sanitize(const std::string& s) {
  std::string out;
  for (char c : s) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0]))) out = "k_" + out;
  return out;
}

}  // namespace

Emitter::Emitter(const ir::Kernel& k, const CodegenOptions& opt)
    : k_(k), opt_(opt), threads_(32 * opt.num_warps), def_count_(k.regs.size(), 0), declared_(k.regs.size(), false) {
  if (opt.num_warps < 1 || opt.num_warps > 32 || (opt.num_warps & (opt.num_warps - 1)) != 0)
    throw CodegenError("num_warps must be a power of two between 1 and 32, got " + std::to_string(opt.num_warps));
  if (opt.num_stages != 0 && (opt.num_stages < 2 || opt.num_stages > 4))
    throw CodegenError("num_stages must be 0 (automatic) or 2 to 4, got " + std::to_string(opt.num_stages));
  if (opt.persistent() && (opt.persistent_grid[1] < 1 || opt.persistent_grid[2] < 1))
    throw CodegenError("a persistent kernel's logical grid needs every axis >= 1, got (" +
                       std::to_string(opt.persistent_grid[0]) + ", " + std::to_string(opt.persistent_grid[1]) + ", " +
                       std::to_string(opt.persistent_grid[2]) + ")");
  if (opt.persistent_interleave != 1 && opt.persistent_interleave != 2)
    throw CodegenError("persistent_interleave must be 1 or 2, got " + std::to_string(opt.persistent_interleave));
  if (opt.persistent_interleave == 2 && !opt.persistent())
    throw CodegenError("interleaving two programs needs a persistent kernel (persistent_grid)");
  if (opt.producer_warpgroups != 1 && opt.producer_warpgroups != 2)
    throw CodegenError("producer_warpgroups must be 1 or 2, got " + std::to_string(opt.producer_warpgroups));
  def_of_.assign(k.regs.size(), nullptr);
  use_count_.assign(k.regs.size(), 0);
  int64_t order = 0;
  ir::for_each_instr(k.body, [&](const ir::Instr& in, const ir::Block& b) {
    if (in.dst >= 0) {
      ++def_count_[in.dst];
      def_of_[in.dst] = &in;  // the last, if several
    }
    for (int a : in.args) ++use_count_[a];
    for (int y : in.yields) ++use_count_[y];
    if (in.cond_reg >= 0) ++use_count_[in.cond_reg];
    position_[&in] = {&b, order};
    if (in.op == ir::Op::Store || ir::is_atomic(in.op)) writes_.push_back(order);
    ++order;
  });
  assign_layouts();
  plan_pipelines();
}

std::string Emitter::function_name() const {
  // The kernel's name and its compile-time constants: one name per
  // specialization, readable in profilers and sanitizer reports.
  std::string n = sanitize(k_.name);
  for (size_t i = 0; i < k_.params.size(); ++i) {
    const ir::Param& p = k_.params[i];
    if (p.kind != ir::ParamKind::Constant) continue;
    std::string v = p.value < 0 ? "m" + std::to_string(-p.value) : std::to_string(p.value);
    n += "_" + sanitize(p.name.empty() ? "c" + std::to_string(i) : p.name) + "_" + v;
  }
  if (opt_.persistent()) n += opt_.persistent_interleave == 2 ? "_persistent_x2" : "_persistent";
  return n;
}

std::string Emitter::param_name(int index) const {
  const std::string& n = k_.params[index].name;
  if (is_identifier(n) && !is_reserved(n)) return n;
  return "arg" + std::to_string(index);
}

std::string Emitter::program_id_expr(int axis) const {
  static const char* axes[] = {"x", "y", "z"};
  return opt_.persistent() ? "ts_pid_" + std::string(axes[axis]) + copy_suffix_ : "blockIdx." + std::string(axes[axis]);
}

std::string Emitter::num_programs_expr(int axis) const {
  static const char* axes[] = {"x", "y", "z"};
  if (opt_.persistent()) return std::to_string(opt_.persistent_grid[axis]);
  return std::string("gridDim.") + axes[axis];
}

std::string Emitter::signature() const {
  // setmaxnreg (CodegenOptions::producer_warpgroups) needs ptxas to know
  // the registers at entry: one block an SM says 65536 / threads.
  const std::string bounds = std::to_string(block_threads()) + (producer_warpgroups_ > 1 ? ", 1" : "");
  std::string s = "extern \"C\" __global__ void __launch_bounds__(" + bounds + ") " + function_name() + "(";
  bool first = true;
  for (size_t i = 0; i < k_.params.size(); ++i) {
    const ir::Param& p = k_.params[i];
    if (p.kind == ir::ParamKind::Constant) continue;
    s += first ? "" : ", ";
    first = false;
    if (p.kind == ir::ParamKind::Pointer) s += cuda_memory_type(p.dtype) + "* " + param_name(static_cast<int>(i));
    else s += cuda_register_type(p.dtype) + " " + param_name(static_cast<int>(i));
  }
  // TMA descriptors live in parameter space (__grid_constant__): the TMA
  // unit reads them by their generic address.
  for (size_t i = 0; i < tensor_maps_.size(); ++i) {
    s += first ? "" : ", ";
    first = false;
    s += "const __grid_constant__ ts_tensor_map ts_tmap" + std::to_string(i);
  }
  if (!tensor_maps_.empty()) s += ", int ts_tma_launch";
  return s + ")";
}

LoweredKernel Emitter::run() {
  if (opt_.persistent_interleave == 2) interleaved_body();
  else block(k_.body);
  // Pipelined loops keep their stages above the scratch space other ops use.
  int64_t pipe_base = -1;
  if (pipe_bytes_ > 0 && used_pipeline_) {
    const int64_t align = swizzled_stages_ ? 1024 : 16;
    pipe_base = (smem_bytes_ + align - 1) / align * align;
    smem_bytes_ = pipe_base + pipe_bytes_;
  }
  LoweredKernel out;
  out.name = function_name();
  out.threads = block_threads();
  out.smem_bytes = smem_bytes_;
  for (size_t i = 0; i < k_.params.size(); ++i)
    if (k_.params[i].kind != ir::ParamKind::Constant) out.params.push_back(static_cast<int>(i));
  out.tensor_maps = tensor_maps_;
  for (const Pipeline& p : pipelines_) {
    out.wgmma_dot_pairs += static_cast<int>(p.wgmma_pairs.size());
    if (p.copies_after_dot && p.wgmma_async) ++out.copies_behind_dots;
    if (p.written_transposed()) ++out.b_in_stage;
    if (p.decoupled) ++out.decoupled;
    if (p.specialized) ++out.warp_specialized;
    for (const StagedLoad& s : p.loads)
      if (s.register_read_by_tma()) ++out.b_tma;
    if (p.cluster_axis >= 0) out.cluster_axis = p.cluster_axis;  // some load is shared (multicast_axis)
  }
  if (smem_bytes_ > kMaxSharedBytes)
    throw CodegenError("kernel " + k_.name + " needs " + std::to_string(smem_bytes_) +
                       " bytes of shared memory for its tiles, more than the " + std::to_string(kMaxSharedBytes) +
                       " a block may have; use smaller blocks");
  std::ostringstream src;
  const bool any_16bit = std::any_of(k_.regs.begin(), k_.regs.end(), [](const auto& r) { return is_half(r.type.dtype); }) ||
                         std::any_of(k_.params.begin(), k_.params.end(), [](const auto& p) { return is_half(p.dtype); });
  if (!any_16bit) src << "#define TS_NO_16BIT  // no f16 or bf16 value: the prelude leaves their headers out\n";
  src << cuda_prelude() << "\n";
  src << wgmma_helpers() << transposed_stage_helpers();
  src << "\n"
      << "// Kernel " << k_.name << ": " << block_threads() << " threads per program (" << opt_.num_warps
      << " warps" << (!specialized_any_ ? "" : producer_warpgroups_ > 1 ? " and two producer warpgroups" : " and a producer warpgroup")
      << "), " << smem_bytes_
      << " bytes of shared memory.\n"
      << signature() << " {\n";
  if (smem_bytes_ > 0)
    src << "  extern __shared__ __align__(" << (swizzled_stages_ ? 1024 : 16) << ") unsigned char ts_smem[];\n";
  if (!tensor_maps_.empty()) {
    // The copy path this form of the kernel takes (TS_TMA_PATH, in the
    // prelude): 2 where the launch formed clusters of two, else 1; 0 in the
    // cp.async form. Nonzero or zero at compile time either way.
    src << "  const int ts_tma_ok = TS_TMA_PATH ? (ts_tma_launch == 2 ? 2 : 1) : 0;\n";
  }
  if (pipe_base >= 0) src << "  const int ts_pipe = " << pipe_base << ";  // the pipelines' stages, above every op's scratch\n";
  if (uses_tid_) {
    // Told the thread's range, NVVM turns each slot's (s * T + tid) / N into
    // a shift, or a constant, instead of a signed division's fix-up per
    // slot: e5_fwd at one warp (64 slots) went from 4004 to 2994 PTX lines
    // and its NVRTC time from 0.36 to 0.27 s (development machine).
    src << "  const int tid = threadIdx.x;\n"
        << "  TS_ASSUME(tid >= 0 && tid < " << block_threads() << ");\n";
  }
  if (opt_.persistent()) {
    // Grid-stride over the logical programs; the barrier at the end keeps a
    // program's shared-memory reads ahead of the next program's writes.
    const int64_t gx = opt_.persistent_grid[0], gy = opt_.persistent_grid[1], gz = opt_.persistent_grid[2];
    auto decode = [&](const std::string& suffix, const std::string& prog) {
      src << "  const unsigned ts_pid_x" << suffix << " = (unsigned)(" << prog << " % " << gx << "), ts_pid_y" << suffix
          << " = (unsigned)(" << prog << " / " << gx << " % " << gy << "), ts_pid_z" << suffix << " = (unsigned)("
          << prog << " / " << gx * gy << ");\n"
          << "  (void)ts_pid_x" << suffix << "; (void)ts_pid_y" << suffix << "; (void)ts_pid_z" << suffix << ";\n";
    };
    if (opt_.persistent_interleave == 2) {
      // Program b is the block's next one, or a again past the last program
      // (its stores are then skipped: ts_has_b).
      src << "  for (int64_t ts_prog = blockIdx.x; ts_prog < " << gx * gy * gz
          << "LL; ts_prog += 2LL * gridDim.x) {\n"
          << "  const bool ts_has_b = ts_prog + gridDim.x < " << gx * gy * gz << "LL;\n"
          << "  const int64_t ts_prog_b = ts_has_b ? ts_prog + gridDim.x : ts_prog;\n";
      decode("", "ts_prog");
      decode("_b", "ts_prog_b");
    } else {
      src << "  for (int64_t ts_prog = blockIdx.x; ts_prog < " << gx * gy * gz << "LL; ts_prog += gridDim.x) {\n";
      decode("", "ts_prog");
    }
    src << body_.str() << "  __syncthreads();\n  }\n}\n";
  } else {
    src << body_.str() << "}\n";
  }
  out.source = src.str();
  return out;
}

// ---- Output helpers -----------------------------------------------------------

void Emitter::line(const std::string& s) { body_ << std::string(static_cast<size_t>(indent_) * 2, ' ') << s << "\n"; }

void Emitter::open(const std::string& head) {
  line(head.empty() ? "{" : head + " {");
  ++indent_;
}

void Emitter::close() {
  --indent_;
  line("}");
}

void Emitter::open_else() {
  --indent_;
  line("} else {");
  ++indent_;
}

void Emitter::for_slots(int64_t slots, const std::function<void(const std::string&)>& body) {
  if (slots == 1) {
    body("0");
    return;
  }
  line("#pragma unroll");
  open("for (int s = 0; s < " + std::to_string(slots) + "; ++s)");
  body("s");
  close();
}

void Emitter::comment(const ir::Instr& in) {
  if (!opt_.comments) return;
  std::string c = "// ";
  if (in.dst >= 0) c += "%" + std::to_string(in.dst) + ": " + type(in.dst).str() + " = ";
  c += ir::op_name(in.op);
  switch (in.op) {
    case ir::Op::PtrParam: case ir::Op::ScalarParam: c += " " + param_name(in.param_index); break;
    case ir::Op::Const: c += " " + constant_literal(type(in.dst).dtype, in.ival, in.fval); break;
    case ir::Op::Arange: c += " " + std::to_string(in.ival) + ", " + std::to_string(in.ival2); break;
    case ir::Op::ProgramId: case ir::Op::NumPrograms: c += " " + std::to_string(in.axis); break;
    case ir::Op::Reduce: c += std::string(".") + ir::reduce_name(in.reduce) + " axis=" + std::to_string(in.axis); break;
    case ir::Op::Dot: c += std::string(".") + ir::precision_name(in.precision); break;
    case ir::Op::Permute: {
      c += " dims=[";
      for (size_t i = 0; i < in.dims.size(); ++i) c += (i ? "," : "") + std::to_string(in.dims[i]);
      c += "]";
      break;
    }
    default: break;
  }
  for (size_t i = 0; i < in.args.size(); ++i) c += (i ? ", %" : " %") + std::to_string(in.args[i]);
  if (in.loc.known()) c += "  (line " + std::to_string(in.loc.line) + ")";
  line(c);
}

[[noreturn]] void Emitter::fail(const ir::Instr& in, const std::string& what) const {
  std::string where = in.loc.known() ? in.loc.str() + ": " : std::string();
  throw CodegenError(where + "cannot lower " + ir::op_name(in.op) + " in kernel " + k_.name + ": " + what);
}

// ---- Registers ----------------------------------------------------------------

TileLayout Emitter::layout_of(const ir::Shape& s) const {
  TileLayout l;
  l.threads = threads_;
  l.scalar = s.empty();
  l.n = ir::numel(s);
  l.slots = l.n >= threads_ ? l.n / threads_ : 1;  // every dimension is a power of two
  return l;
}

TileLayout Emitter::layout(int r) const {
  auto c = converted_.find(r);
  return c == converted_.end() ? layouts_[r] : c->second.second;
}

std::string Emitter::at(int r, const std::string& slot) const {
  if (layouts_[r].scalar) return name(r);
  auto f = recomputed_.find(r);
  if (f != recomputed_.end()) return f->second(slot);
  auto c = converted_.find(r);
  return (c == converted_.end() ? name(r) : c->second.first) + "[" + slot + "]";
}

std::string Emitter::reg_type(int r) const {
  const ir::Type& t = type(r);
  return t.is_ptr ? cuda_memory_type(t.dtype) + "*" : cuda_register_type(t.dtype);
}

std::string Emitter::const_type(int r) const {
  // A constant pointer, not a pointer to constants: stores go through it.
  return type(r).is_ptr ? reg_type(r) + " const" : "const " + reg_type(r);
}

void Emitter::declare(int r) {
  if (declared_[r]) return;
  declared_[r] = true;
  TileLayout l = layout(r);
  line(reg_type(r) + " " + name(r) + (l.scalar ? ";" : "[" + std::to_string(l.slots) + "];"));
}

void Emitter::assign(int dst, const std::function<std::string(const std::string&)>& expr) {
  TileLayout l = layout(dst);
  if (l.scalar && !declared_[dst] && def_count_[dst] == 1) {
    declared_[dst] = true;
    line(const_type(dst) + " " + name(dst) + " = " + expr("0") + ";");
    return;
  }
  declare(dst);
  for_slots(l.slots, [&](const std::string& s) { line(at(dst, s) + " = " + expr(s) + ";"); });
}

std::string Emitter::run_start(const TileLayout& l, const std::string& slot) {
  const std::string v = std::to_string(l.vec);
  return "(" + slot + ") / " + v + " * " + std::to_string(l.threads * l.vec) + " + tid * " + v;
}

std::string Emitter::element(const TileLayout& l, const std::string& slot) {
  if (l.n == 1) return "0";
  uses_tid_ = true;
  if (l.mma) {
    // Slot s is step s / 4 (tile row step / tn, column step % tn) and
    // place s % 4 in it; the warp picks the warp tile (see TileLayout).
    const int64_t rows = l.n / l.cols;  // of the layout's own grid
    const ir::Shape tile = l.transposed ? ir::Shape{l.cols, rows} : ir::Shape{rows, l.cols};
    const std::vector<std::string> rc = element_coordinates(l, tile, slot);
    return "(" + rc[0] + " * " + std::to_string(tile[1]) + " + " + rc[1] + ")";
  }
  if (l.replicated()) return "(tid & " + std::to_string(l.n - 1) + ")";
  if (l.vec > 1) return "(" + run_start(l, slot) + " + (" + slot + ") % " + std::to_string(l.vec) + ")";
  if (slot == "0") return "tid";
  return "(" + slot + " * " + std::to_string(l.threads) + " + tid)";
}

std::vector<std::string> Emitter::element_coordinates(const TileLayout& l, const ir::Shape& shape, const std::string& slot) {
  std::vector<std::string> c(shape.size());
  // An MMA layout knows each slot's row and column: written out directly,
  // they spare every use the division and remainder of the flat index
  // (signed, since the compiler cannot see that it is non-negative), which
  // in an epilogue cost more instructions than the math.
  const bool rows_and_cols = l.mma && shape.size() >= 2 && shape[shape.size() - (l.transposed ? 2 : 1)] == l.cols &&
                             std::all_of(shape.begin(), shape.end() - 2, [](int64_t e) { return e == 1; });
  if (!l.mma && l.vec > 1 && !shape.empty() && shape.back() % l.vec == 0) {
    // A run of vec lies in one row: every axis but the last is the run's
    // first element's, the same text for the run's slots (so a value read
    // at those coordinates alone, a broadcast's source, is read once), and
    // the last is that element's plus the place in the run.
    uses_tid_ = true;
    const int64_t len = shape.back(), per_row = len / l.vec;  // threads a row
    if (len > 1 && (l.threads * l.vec) % len == 0 && (per_row & (per_row - 1)) == 0) {
      // A stripe of whole rows (CodegenOptions::row_runs): a thread's
      // column is the same in every stripe, its row a stripe's first plus
      // tid / per_row. Written so, without the flat index's division and
      // remainder, NVVM sees that a slot's column depends on tid and its
      // place in the run only (one read per column of a broadcast row).
      int shift = 0;
      while ((int64_t{1} << shift) < per_row) ++shift;
      const std::string row = "((" + slot + ") / " + std::to_string(l.vec) + " * " +
                              std::to_string(l.threads * l.vec / len) + " + (tid >> " + std::to_string(shift) + "))";
      const ir::Shape rows(shape.begin(), shape.end() - 1);
      for (size_t ax = 0; ax + 1 < shape.size(); ++ax) c[ax] = coordinate(row, rows, ax);
      c.back() = "((tid & " + std::to_string(per_row - 1) + ") * " + std::to_string(l.vec) + " + (" + slot + ") % " +
                 std::to_string(l.vec) + ")";
      return c;
    }
    const std::string first = "(" + run_start(l, slot) + ")";
    for (size_t ax = 0; ax + 1 < shape.size(); ++ax) c[ax] = coordinate(first, shape, ax);
    const size_t last = shape.size() - 1;
    c[last] = shape[last] == 1 ? "0" : "(" + coordinate(first, shape, last) + " + (" + slot + ") % " + std::to_string(l.vec) + ")";
    return c;
  }
  if (!rows_and_cols) {
    const std::string e = "(" + element(l, slot) + ")";
    for (size_t ax = 0; ax < shape.size(); ++ax) c[ax] = coordinate(e, shape, ax);
    return c;
  }
  uses_tid_ = true;
  const std::string st = "(" + slot + ")";
  for (size_t ax = 0; ax + 2 < shape.size(); ++ax) c[ax] = "0";
  // A transposed layout's row is the tile's column and the other way round.
  const size_t row_axis = shape.size() - (l.transposed ? 1 : 2), col_axis = shape.size() - (l.transposed ? 2 : 1);
  c[row_axis] = "((tid >> 5) / " + std::to_string(l.wn) + " * " + std::to_string(l.tm * 16) + " + " + st + " / 4 / " +
                        std::to_string(l.tn) + " * 16 + ((tid & 31) >> 2) + (" + st + " >> 1 & 1) * 8)";
  c[col_axis] = "((tid >> 5) % " + std::to_string(l.wn) + " * " + std::to_string(l.tn * 8) + " + " + st + " / 4 % " +
                        std::to_string(l.tn) + " * 8 + (tid & 3) * 2 + (" + st + " & 1))";
  return c;
}

std::string Emitter::owner_guard(const TileLayout& l) {
  if (!l.replicated()) return "";
  uses_tid_ = true;
  return "tid < " + std::to_string(l.n);
}

void Emitter::need_smem(int64_t bytes) { smem_bytes_ = std::max(smem_bytes_, bytes); }

}  // namespace detail

LoweredKernel lower(const ir::Kernel& k, const CodegenOptions& opt) {
  try {
    return detail::Emitter(k, opt).run();
  } catch (const detail::NotSpecializable&) {
    CodegenOptions plain = opt;
    plain.warp_specialize = false;
    return detail::Emitter(k, plain).run();
  }
}

std::string lower_to_cuda(const ir::Kernel& k, const CodegenOptions& opt) { return lower(k, opt).source; }

LoweredKernel cp_async_form(const LoweredKernel& k) {
  if (k.tensor_maps.empty()) throw std::invalid_argument("kernel " + k.name + " has no TMA copies, so no cp.async form");
  LoweredKernel f = k;
  f.source = "#define TS_TMA_PATH 0  // the cp.async form: launches whose tensors the TMA unit cannot describe\n" + k.source;
  return f;
}

}  // namespace tl::gpu
