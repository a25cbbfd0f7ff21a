// Reductions. The fast path (reduce_tree) handles an op over the last axis
// with an order-free combine: each thread first combines the elements it
// holds for one output, then lanes that share an output combine with xor
// shuffles (a butterfly when a thread holds several outputs' values), and
// the per-warp partials meet in shared memory. Everything
// else (argmax/argmin with their lowest-index ties, f16/bf16 sums that
// round every step like the interpreter, other axes) walks the axis in
// order through shared memory (reduce_serial).
#include "codegen_emitter.h"

namespace tl::gpu::detail {

namespace {

int log2_of(int64_t v) {
  int k = 0;
  while ((int64_t{1} << k) < v) ++k;
  return k;
}

}  // namespace

bool reduced_by_tree(const ir::Instr& in, DType d, size_t rank) {
  const bool order_free = in.reduce == ir::ReduceKind::Max || in.reduce == ir::ReduceKind::Min ||
                          (in.reduce == ir::ReduceKind::Sum && !is_half(d));
  return static_cast<size_t>(in.axis) + 1 == rank && order_free && d != DType::i1;
}

void Emitter::reduce(const ir::Instr& in) {
  const ir::Type& t = type(in.args[0]);
  if (reduced_by_tree(in, t.dtype, t.shape.size())) return reduce_tree(in);
  reduce_serial(in);
}

// The combine of two partial results, in the compute type.
std::string Emitter::combine_expr(const ir::Instr& in, DType d, const std::string& a, const std::string& b) const {
  const bool is_max = in.reduce == ir::ReduceKind::Max;
  if (in.reduce == ir::ReduceKind::Sum) return is_int(d) ? "ts_add(" + a + ", " + b + ")" : "(" + a + " + " + b + ")";
  if (is_float(d)) {
    std::string f = in.propagate_nan ? (is_max ? "ts_fmax_nan" : "ts_fmin_nan")
                                     : std::string(is_max ? "fmax" : "fmin") + (d == DType::f64 ? "" : "f");
    return f + "(" + a + ", " + b + ")";
  }
  return "(" + b + (is_max ? " > " : " < ") + a + " ? " + b + " : " + a + ")";
}

void Emitter::reduce_tree(const ir::Instr& in) {
  const int src = in.args[0], dst = in.dst;
  const DType d = type(src).dtype;
  const std::string c = compute_type(d);
  // Striped, or in runs along the rows (convert_operands saw to it).
  const TileLayout ls = layout(src), ld = layout(dst);
  const bool runs = reduces_row_runs(in);  // each warp holds whole rows
  const int64_t len = type(src).shape.back(), n = ls.n, T = threads_;
  auto comb = [&](const std::string& a, const std::string& b) { return combine_expr(in, d, a, b); };

  // Lanes sharing an output form aligned groups of `group` lanes (a whole
  // warp at most); each group leaves `parts` partials per output.
  const bool whole_rows_per_thread = !runs && n >= T && len >= T;  // every thread holds len/T elements of each output
  const int64_t group = runs || whole_rows_per_thread ? 32 : std::min<int64_t>(len, 32);
  const int64_t parts = runs ? 1 : whole_rows_per_thread ? T / 32 : len / group;
  const int64_t outputs = n / len;
  if (whole_rows_per_thread && parts == 1 && outputs == 1) {
    // One warp holds the whole row of the only output: after the xor
    // shuffles every lane has the total, so neither shared memory nor a
    // barrier (E2's min and max at one warp a row).
    declare(dst);
    open("");
    line(c + " v = " + widen(d, at(src, "0")) + ";");
    for (int64_t k = 1; k < len / T; ++k) line("v = " + comb("v", widen(d, at(src, std::to_string(k)))) + ";");
    for (int64_t off = 16; off >= 1; off /= 2)
      line("{ const " + c + " ts_o = ts_shfl_xor(v, " + std::to_string(off) + "); v = " + comb("v", "ts_o") + "; }");
    for_slots(ld.slots, [&](const std::string& s) { line(at(dst, s) + " = " + narrow(d, "v") + ";"); });
    close();
    return;
  }
  need_smem(outputs * parts * byte_size(is_half(d) ? DType::f32 : d));  // partials in the compute type
  uses_tid_ = true;
  declare(dst);
  open("");
  line(c + "* sm = reinterpret_cast<" + c + "*>(ts_smem);");

  // One partial per (output, thread): shuffled within its group, written
  // by the group's first lane.
  auto shuffle_and_write = [&](const std::string& value, const std::string& out_index, const std::string& part_index,
                               const std::string& guard) {
    line(c + " v = " + value + ";");
    // The shuffle into a variable of its own: an integer max/min combine
    // names its second operand twice under a ?:, and a shuffle there would
    // run only in the threads that take that branch (a divergent
    // __shfl_xor_sync: undefined on a GPU, a deadlock in the host emulation).
    for (int64_t off = group / 2; off >= 1; off /= 2)
      line("{ const " + c + " ts_o = ts_shfl_xor(v, " + std::to_string(off) + "); v = " + comb("v", "ts_o") + "; }");
    std::string cond = "(tid & " + std::to_string(group - 1) + ") == 0";
    if (!guard.empty()) cond += " && " + guard;
    line("if (" + cond + ") sm[(" + out_index + ") * " + std::to_string(parts) + " + " + part_index + "] = v;");
  };

  // Several values a thread, each for a different output, reduced over
  // groups of G lanes: a butterfly that halves the values a lane holds at
  // each xor step instead of reducing each value on its own. At the step
  // over lane bit m a lane keeps the half of its values selected by that
  // bit and takes its partner's partial of the same half (p09's 64 rows a
  // program: 62 shuffles, not 320). Each output still meets the same
  // partners in the same order (a + b where one reduction per value had
  // a + b or b + a, equal), so the results are bit for bit the same.
  // Afterwards lane l of a group holds values j + count * ((l % G) >> shift),
  // j < count; `output_of` names value i's output, `part` its partial.
  auto butterfly_and_write = [&](int64_t R, int64_t G, const std::function<std::string(const std::string&)>& output_of,
                                 const std::string& part) {
    int64_t count = R;
    int bits_used = 0;
    for (int64_t m = G / 2; m >= 1; m /= 2) {
      if (count > 1) {
        const int64_t half = count / 2;
        open("");
        line("const bool ts_hi = (tid & " + std::to_string(m) + ") != 0;");
        line("#pragma unroll");
        open("for (int j = 0; j < " + std::to_string(half) + "; ++j)");
        // Both values read first: `ts_hi ? ps[a] : ps[b]` tempts the
        // compiler into ps[ts_hi ? a : b], an indexed array in local memory.
        line("const " + c + " ts_lo_v = ps[j], ts_hi_v = ps[j + " + std::to_string(half) + "];");
        line("const " + c + " ts_keep = ts_hi ? ts_hi_v : ts_lo_v;");
        line("const " + c + " ts_send = ts_hi ? ts_lo_v : ts_hi_v;");
        line("const " + c + " ts_o = ts_shfl_xor(ts_send, " + std::to_string(m) + ");");
        line("ps[j] = " + comb("ts_keep", "ts_o") + ";");
        close();
        close();
        count = half;
        ++bits_used;
      } else {
        line("{ const " + c + " ts_o = ts_shfl_xor(ps[0], " + std::to_string(m) + "); ps[0] = " + comb("ps[0]", "ts_o") +
             "; }");
      }
    }
    const int shift = log2_of(G) - bits_used;
    // Lanes that differ only below `shift` hold the same values: one writes.
    if (shift > 0) open("if ((tid & " + std::to_string((1 << shift) - 1) + ") == 0)");
    line("#pragma unroll");
    open("for (int j = 0; j < " + std::to_string(count) + "; ++j)");
    const std::string value = "(j + " + std::to_string(count) + " * ((tid & " + std::to_string(G - 1) + ") >> " +
                              std::to_string(shift) + "))";
    line("sm[(" + output_of(value) + ") * " + std::to_string(parts) + " + " + part + "] = ps[j];");
    close();
    if (shift > 0) close();
  };
  // Tile extents are powers of two (the front end checks), so the counts
  // below halve evenly: every thread with values of two or more outputs
  // takes the butterfly.
  // ps[r] = the combine of the thread's slots r * per .. r * per + per - 1
  // (its own elements of one output), for r < count.
  auto combine_own = [&](int64_t count, int64_t per) {
    const std::string p = std::to_string(per);
    line(c + " ps[" + std::to_string(count) + "];");
    line("#pragma unroll");
    open("for (int ts_r = 0; ts_r < " + std::to_string(count) + "; ++ts_r)");
    line(c + " p = " + widen(d, at(src, "(ts_r * " + p + ")")) + ";");
    for (int64_t k = 1; k < per; ++k)
      line("p = " + comb("p", widen(d, at(src, "(ts_r * " + p + " + " + std::to_string(k) + ")"))) + ";");
    line("ps[ts_r] = p;");
    close();
  };
  if (runs) {
    // Runs of V = len / 32 (CodegenOptions::row_runs): in each stripe of
    // T * V elements thread t holds V neighbours of row stripe * T / 32 +
    // t / 32, its warp the whole row. Each thread combines its run of each
    // of its rows, then its warp's butterfly; one partial per output.
    const int64_t rows = ls.slots / ls.vec;
    combine_own(rows, ls.vec);
    butterfly_and_write(
        rows, 32, [&](const std::string& r) { return "(" + r + ") * " + std::to_string(T / 32) + " + (tid >> 5)"; }, "0");
  } else if (whole_rows_per_thread && outputs > 1) {
    // Slots s*T + tid: slot s belongs to output s*T/len, len/T slots each;
    // each thread combines its own first, one partial per output.
    combine_own(outputs, len / T);
    butterfly_and_write(outputs, 32, [](const std::string& r) { return r; }, "(tid >> 5)");
  } else if (!whole_rows_per_thread && !ls.replicated() && ls.slots > 1) {
    // One output per slot and group of `group` lanes (element s*T + tid,
    // output element >> log2(len)); a group's lanes share the output.
    line(c + " ps[" + std::to_string(ls.slots) + "];");
    for_slots(ls.slots, [&](const std::string& sl) { line("ps[" + sl + "] = " + widen(d, at(src, sl)) + ";"); });
    const std::string part = len > 32 ? "((tid & " + std::to_string(len - 1) + ") >> 5)" : "0";
    const std::string T_str = std::to_string(T), shift = std::to_string(log2_of(len));
    butterfly_and_write(
        ls.slots, group, [&](const std::string& v) { return "((" + v + ") * " + T_str + " + tid) >> " + shift; }, part);
  } else if (whole_rows_per_thread) {
    // The only output, its len/T slots in every thread (several warps'
    // partials; one warp's took the path without shared memory above).
    open("");
    line(c + " p = " + widen(d, at(src, "0")) + ";");
    for (int64_t k = 1; k < len / T; ++k) line("p = " + comb("p", widen(d, at(src, std::to_string(k)))) + ";");
    shuffle_and_write("p", "0", "(tid >> 5)", "");
    close();
  } else {
    // One output per slot and group of len lanes: element s*T + tid (or
    // tid % n for a tile smaller than the block, owned by tid < n).
    const std::string part = len > 32 ? "((tid & " + std::to_string(len - 1) + ") >> 5)" : "0";
    const std::string guard = ls.replicated() ? "tid < " + std::to_string(n) : "";
    for_slots(ls.slots, [&](const std::string& s) {
      open("");
      std::string e = element(ls, s);
      shuffle_and_write(widen(d, at(src, s)), e + " >> " + std::to_string(log2_of(len)), part, guard);
      close();
    });
  }
  line("__syncthreads();");
  for_slots(ld.slots, [&](const std::string& s) {
    open("");
    line("const unsigned e = " + element(ld, s) + ";");
    line(c + " acc = sm[e * " + std::to_string(parts) + "];");
    if (parts > 1) {
      open("for (int k = 1; k < " + std::to_string(parts) + "; ++k)");
      line("acc = " + comb("acc", "sm[e * " + std::to_string(parts) + " + k]") + ";");
      close();
    }
    line(at(dst, s) + " = " + narrow(d, "acc") + ";");
    close();
  });
  line("__syncthreads();");
  close();
}

void Emitter::reduce_serial(const ir::Instr& in) {
  const int src = in.args[0], dst = in.dst;
  const ir::Shape& ss = type(src).shape;
  const DType d = type(src).dtype;
  int64_t outer = 1, len = ss[in.axis], inner = 1;
  for (int i = 0; i < in.axis; ++i) outer *= ss[i];
  for (size_t i = in.axis + 1; i < ss.size(); ++i) inner *= ss[i];
  const TileLayout ld = layout(dst);
  const std::string c = compute_type(d);
  const bool arg = in.reduce == ir::ReduceKind::ArgMax || in.reduce == ir::ReduceKind::ArgMin;
  const bool is_max = in.reduce == ir::ReduceKind::Max || in.reduce == ir::ReduceKind::ArgMax;

  need_smem(ir::numel(type(src).shape) * byte_size(d));
  declare(dst);
  open("");
  spill_to_smem(src, "sm", cuda_register_type(d), 0, [](const std::string& x) { return x; });
  line("__syncthreads();");
  for_slots(ld.slots, [&](const std::string& s) {
    // Output element e = (o, j) reads x[o, 0..len, j]; the axis is walked
    // in order, as in the interpreter, so sums round the same way.
    line("const unsigned e = " + element(ld, s) + ";");
    std::string base = inner == 1 ? "e * " + std::to_string(len)
                       : outer == 1 ? "e"
                                    : "(e / " + std::to_string(inner) + ") * " + std::to_string(len * inner) +
                                          " + e % " + std::to_string(inner);
    line("const unsigned base = " + base + ";");
    line(c + " acc = " + widen(d, "sm[base]") + ";");
    if (arg) line("int32_t best = 0;");
    open("for (int k = 1; k < " + std::to_string(len) + "; ++k)");
    std::string step = inner == 1 ? "k" : "k * " + std::to_string(inner);
    line("const " + c + " v = " + widen(d, "sm[base + " + step + "]") + ";");
    if (in.reduce == ir::ReduceKind::Sum) {
      if (is_int(d)) line("acc = ts_add(acc, v);");
      else if (c == "float" && d != DType::f32) line("acc = " + widen(d, narrow(d, "acc + v")) + ";");  // rounds like f16
      else line("acc = acc + v;");
    } else if (arg) {
      line(std::string("bool better = v ") + (is_max ? ">" : "<") + " acc;");
      if (is_float(d)) line("if (acc != acc && v == v) better = true;  // NaN never wins");
      open("if (better)");
      line("acc = v;");
      line("best = k;");
      close();
    } else if (is_float(d)) {
      const bool f64 = d == DType::f64;
      std::string f = in.propagate_nan ? (is_max ? "ts_fmax_nan" : "ts_fmin_nan")
                                       : std::string(is_max ? "fmax" : "fmin") + (f64 ? "" : "f");
      line("acc = " + f + "(acc, v);");
    } else {
      line(std::string("acc = v ") + (is_max ? ">" : "<") + " acc ? v : acc;");
    }
    close();
    line(at(dst, s) + " = " + (arg ? std::string("best") : narrow(d, "acc")) + ";");
  });
  line("__syncthreads();");
  close();
}

}  // namespace tl::gpu::detail
