// dot: a [.., M, K] x b [.., K, N] (+ acc) -> [.., M, N]. Correctness first:
// both operands go to shared memory in their compute type (tf32-truncated
// for f32 with input_precision tf32, SEMANTICS §8), then every thread forms
// its own output elements with a K loop. The products and sums are spelled
// __fmul_rn/__fadd_rn so NVRTC cannot fuse them into FMAs: the result then
// rounds exactly as the interpreter's k-ordered loop does. tf32 dots of
// tensor-core shapes take dot_mma_tf32 instead (LOWERING §6).
#include <algorithm>

#include "codegen_emitter.h"

namespace tl::gpu::detail {

// tf32 dots whose shapes fit the m16n8k8 tensor-core step: operands go to
// shared memory tf32-rounded (so the tensor core sees exactly the values
// the interpreter multiplies), rows padded so fragment loads hit distinct
// banks; each warp computes 32 x 32 chunks of the product (up to 2 x 4
// steps) over all of K, writes them to a third shared buffer, and every
// thread then reads its own elements. Sums are not in k order: tf32 dots
// compare at 1e-3 (SEMANTICS §8).
void Emitter::dot_mma_tf32(const ir::Instr& in) {
  const int a = in.args[0], b = in.args[1], dst = in.dst;
  const ir::Shape& as = type(a).shape;
  const ir::Shape& bs = type(b).shape;
  const size_t r = as.size();
  const int64_t batch = r == 3 ? as[0] : 1, M = as[r - 2], K = as[r - 1], N = bs[r - 1];
  const DType out = type(dst).dtype;
  const int64_t SA = K + 4, SB = N + 8;  // padded row strides (floats)
  const int64_t a_bytes = batch * M * SA * 4, b_bytes = batch * K * SB * 4;
  const int64_t b_off = (a_bytes + 15) / 16 * 16, o_off = b_off + (b_bytes + 15) / 16 * 16;
  need_smem(o_off + batch * M * N * 4);
  const int64_t CM = std::min<int64_t>(M / 16, 2), CN = std::min<int64_t>(N / 8, 4);
  const int64_t chunks_m = M / 16 / CM, chunks_n = N / 8 / CN, chunks = batch * chunks_m * chunks_n;
  const int warps = threads_ / 32;
  uses_tid_ = true;
  declare(dst);
  open("");
  line("float* sa = reinterpret_cast<float*>(ts_smem);");
  line("float* sb = reinterpret_cast<float*>(ts_smem + " + std::to_string(b_off) + ");");
  line("float* so = reinterpret_cast<float*>(ts_smem + " + std::to_string(o_off) + ");");
  // a[bt, m, k] -> sa[(bt * M + m) * SA + k]; b[bt, k, n] -> sb[(bt * K + k) * SB + n].
  auto spill = [&](int x, const std::string& var, int64_t cols, int64_t stride) {
    TileLayout l = layout(x);
    std::string guard = owner_guard(l);
    if (!guard.empty()) open("if (" + guard + ")");
    for_slots(l.slots, [&](const std::string& s) {
      std::string e = element(l, s);
      line(var + "[(" + e + " / " + std::to_string(cols) + ") * " + std::to_string(stride) + " + " + e + " % " +
           std::to_string(cols) + "] = ts_tf32(" + at(x, s) + ");");
    });
    if (!guard.empty()) close();
  };
  spill(a, "sa", K, SA);
  spill(b, "sb", N, SB);
  line("__syncthreads();");
  line("const int warp = tid >> 5, g = (tid & 31) >> 2, q = tid & 3;");
  // Every warp runs the same number of steps (a warp past the last chunk
  // repeats it without writing), so the loop is uniform across the block.
  open("for (int c0 = 0; c0 < " + std::to_string(chunks) + "; c0 += " + std::to_string(warps) + ")");
  line("const int chunk = c0 + warp < " + std::to_string(chunks) + " ? c0 + warp : " + std::to_string(chunks - 1) + ";");
  line("const int bt = chunk / " + std::to_string(chunks_m * chunks_n) + ";");
  line("const int m0 = (chunk / " + std::to_string(chunks_n) + ") % " + std::to_string(chunks_m) + " * " +
       std::to_string(CM * 16) + ", n0 = chunk % " + std::to_string(chunks_n) + " * " + std::to_string(CN * 8) + ";");
  line("const float* pa = sa + (bt * " + std::to_string(M) + " + m0 + g) * " + std::to_string(SA) + " + q;");
  line("const float* pb = sb + (bt * " + std::to_string(K) + " + q) * " + std::to_string(SB) + " + n0 + g;");
  line("float c[" + std::to_string(CM) + "][" + std::to_string(CN) + "][4] = {};");
  line("#pragma unroll 2");
  open("for (int k0 = 0; k0 < " + std::to_string(K) + "; k0 += 8)");
  line("uint32_t fa[" + std::to_string(CM) + "][4], fb[" + std::to_string(CN) + "][2];");
  line("#pragma unroll");
  open("for (int i = 0; i < " + std::to_string(CM) + "; ++i)");
  line("const float* p = pa + i * " + std::to_string(16 * SA) + " + k0;");
  line("fa[i][0] = __float_as_uint(p[0]);");
  line("fa[i][1] = __float_as_uint(p[" + std::to_string(8 * SA) + "]);");
  line("fa[i][2] = __float_as_uint(p[4]);");
  line("fa[i][3] = __float_as_uint(p[" + std::to_string(8 * SA + 4) + "]);");
  close();
  line("#pragma unroll");
  open("for (int j = 0; j < " + std::to_string(CN) + "; ++j)");
  line("const float* p = pb + k0 * " + std::to_string(SB) + " + j * 8;");
  line("fb[j][0] = __float_as_uint(p[0]);");
  line("fb[j][1] = __float_as_uint(p[" + std::to_string(4 * SB) + "]);");
  close();
  line("#pragma unroll");
  open("for (int i = 0; i < " + std::to_string(CM) + "; ++i)");
  line("#pragma unroll");
  line("for (int j = 0; j < " + std::to_string(CN) + "; ++j) ts_mma_tf32(c[i][j], fa[i], fb[j]);");
  close();
  close();  // k0
  open("if (c0 + warp < " + std::to_string(chunks) + ")");
  line("#pragma unroll");
  open("for (int i = 0; i < " + std::to_string(CM) + "; ++i)");
  line("#pragma unroll");
  open("for (int j = 0; j < " + std::to_string(CN) + "; ++j)");
  line("float* o = so + (bt * " + std::to_string(M) + " + m0 + i * 16 + g) * " + std::to_string(N) +
       " + n0 + j * 8 + 2 * q;");
  line("o[0] = c[i][j][0];");
  line("o[1] = c[i][j][1];");
  line("o[" + std::to_string(8 * N) + "] = c[i][j][2];");
  line("o[" + std::to_string(8 * N + 1) + "] = c[i][j][3];");
  close();
  close();
  close();  // if
  close();  // c0
  line("__syncthreads();");
  const TileLayout ld = layout(dst);
  for_slots(ld.slots, [&](const std::string& s) {
    std::string v = "so[" + element(ld, s) + "]";
    if (in.has_acc) v = "(" + widen(out, at(in.args[2], s)) + " + " + v + ")";
    line(at(dst, s) + " = " + cast_expr(DType::f32, out, v) + ";");
  });
  line("__syncthreads();");
  close();
}

// The destination lives in the MMA layout (codegen_layout.cpp), so each
// warp accumulates its warp tile straight into the destination's
// registers: no result buffer. Each operand sits in shared memory either
// with k along its rows ("k inner": A as [M][K], B as [N][K]) or across
// them ([K][M], [K][N]); the fragment loads below read either. Operands
// from registers are written as A [M][K + pad], B [K][N + 8] (tf32) or
// [N][K + 8] (16-bit); operands a pipeline staged (codegen_pipeline.cpp)
// keep the orientation in which global memory was contiguous. Rows are
// padded so the eight rows (or four k rows) a fragment load touches fall
// in distinct banks. Outside a pipelined loop: stage, barrier, compute,
// barrier. Inside one: the first dot of the iteration waits for the
// staged copies, puts up the barrier and issues the next iteration's
// copies before computing; no barrier after (the next iteration writes
// the other stage).
void Emitter::dot_mma_fragments(const ir::Instr& in) {
  const int a = in.args[0], b = in.args[1], dst = in.dst;
  const ir::Shape& as = type(a).shape;
  const ir::Shape& bs = type(b).shape;
  const int64_t M = as[as.size() - 2], K = as.back(), N = bs.back();
  const DType d = type(a).dtype;
  const bool tf32 = d == DType::f32;
  const TileLayout ld = layout(dst);
  const int64_t elem = tf32 ? 4 : 2;
  Pipeline* p = pipeline_of(in);
  uses_tid_ = true;
  if (p && p->wgmma_async) {  // every dot of the body accumulates in place (plan_pipelines)
    // The result names the accumulator's own registers: an in-flight wgmma
    // group may own them until the wait, and a copy between arrays would
    // read them early (PTX leaves that undefined).
    declared_[dst] = true;
    line("float (&" + name(dst) + ")[" + std::to_string(ld.slots) + "] = " + name(in.args[2]) + ";");
    if (p->wgmma_pair_seconds.count(&in)) {
      // Computed with its pair's first dot, in the same group.
      wgmma_group_done(*p, in.args[2]);
      return;
    }
  } else {
    declare(dst);
    for_slots(ld.slots, [&](const std::string& s) { line(at(dst, s) + " = " + (in.has_acc ? at(in.args[2], s) : "0.0f") + ";"); });
  }
  open("");

  // Where each operand is: its base, orientation and row stride.
  struct Operand {
    std::string base;
    bool k_inner = true;
    int64_t stride = 0;
  };
  const std::string stage = p ? "ts_smem + ts_pipe + " + p->stage_var + " * " + std::to_string(p->stage_bytes) : "";
  int64_t scratch = 0;  // outside a pipeline: bytes of scratch used so far
  bool wrote_registers = false;
  auto from_registers = [&](int x, bool is_a) {
    const bool k_inner = is_a || !tf32;
    const int64_t rows = is_a ? M : k_inner ? N : K, cols = is_a ? K : k_inner ? K : N;
    const Operand o{is_a ? "sa" : "sb", k_inner, cols + (k_inner ? 16 / elem : 8)};
    std::string where;
    if (p) {
      where = stage + " + " + std::to_string(p->reg_operands.at(x));
    } else {
      where = "ts_smem + " + std::to_string(scratch);
      scratch += (rows * o.stride * elem + 15) / 16 * 16;
      need_smem(scratch);
    }
    const std::string& var = o.base;
    // wgmma's operands go in as 16-bit words, in its own layouts (wgmma_from_registers).
    const std::string ctype = tf32 ? "float" : p && p->wgmma ? "unsigned short" : cuda_register_type(d);
    line(ctype + "* " + var + " = reinterpret_cast<" + ctype + "*>(" + where + ");");
    if (p && !p->reg_written.insert(x).second) return o;  // an earlier dot of this iteration wrote it
    if (role_ == Role::consumer) return o;  // the producer warpgroup wrote it (warp specialization)
    wrote_registers = true;
    if (p && p->wgmma) {
      wgmma_from_registers(*p, x, is_a, var);
      return o;
    }
    TileLayout l = layout(x);
    std::string guard = owner_guard(l);
    if (!guard.empty()) open("if (" + guard + ")");
    const std::string k_str = std::to_string(K), n_str = std::to_string(N), st = std::to_string(o.stride);
    for_slots(l.slots, [&](const std::string& s) {
      const std::string e = "(" + element(l, s) + ")";
      std::string place = is_a ? e + " / " + k_str + " * " + st + " + " + e + " % " + k_str
                          : o.k_inner ? e + " % " + n_str + " * " + st + " + " + e + " / " + n_str
                                      : e + " / " + n_str + " * " + st + " + " + e + " % " + n_str;
      line(var + "[" + place + "] = " + (tf32 ? "ts_tf32(" + at(x, s) + ")" : at(x, s)) + ";");
    });
    if (!guard.empty()) close();
    return o;
  };
  auto operand = [&](int x, bool is_a) {
    // Fed to wgmma from its own registers (wgmma_16bit_register_a).
    if (p && x == p->wgmma_register_a) return Operand{"", true, 0};
    bool transposed = false;
    const StagedLoad* sl = p ? staged_operand_in(*p, x, &transposed) : nullptr;
    if (!sl) return from_registers(x, is_a);
    const size_t rank = type(x).shape.size();
    const size_t k_axis = is_a ? rank - 1 : rank - 2;
    const int k_in_load = transposed ? static_cast<int>(def_of_[x]->dims[k_axis]) : static_cast<int>(k_axis);
    const Operand o{is_a ? "sa" : "sb", sl->inner_axis == k_in_load, sl->stride};  // f32 read raw (ts_tf32 by the hardware)
    const std::string ctype = tf32 ? "float" : cuda_register_type(d);
    line(ctype + "* " + o.base + " = reinterpret_cast<" + ctype + "*>(" + stage + " + " + std::to_string(sl->offset) + ");");
    return o;
  };
  const Operand A = operand(a, true), B = operand(b, false);
  if (!p) {
    line("__syncthreads();");
  } else if (!p->published) {
    publish_stage(*p);
  } else if (wrote_registers) {
    if (p->wgmma) line("ts_fence_proxy_async();");  // generic-proxy stores, read by wgmma's async proxy
    line("__syncthreads();");
  }

  if (p && p->wgmma) {  // codegen_wgmma.cpp
    if (p->wgmma_register_a >= 0) wgmma_16bit_register_a(in, *p, A.base);
    else if (p->wgmma_transposed) wgmma_tf32_transposed(in, *p, A.base, B.base, B.stride);
    else if (tf32) wgmma_tf32(in, *p, A.base, B.base);
    else wgmma_16bit(in, *p, A.base, B.base);
    close();
    return;
  }

  // Fragment words. Element (r, k) of an operand with rows r (m of A, n of
  // B) is base[r * stride + k] (k inner) or base[k * stride + r]; a 16-bit
  // fragment word holds k and k + 1.
  line("const int warp = tid >> 5, g = (tid & 31) >> 2, q = tid & 3;");
  line("const int m0 = warp / " + std::to_string(ld.wn) + " * " + std::to_string(ld.tm * 16) + ", n0 = warp % " +
       std::to_string(ld.wn) + " * " + std::to_string(ld.tn * 8) + ";");
  auto word = [&](const Operand& o, const std::string& r, const std::string& k) {
    const std::string st = std::to_string(o.stride);
    if (tf32) {
      std::string idx = o.k_inner ? "(" + r + ") * " + st + " + " + k : "(" + k + ") * " + st + " + " + r;
      return "reinterpret_cast<const uint32_t*>(" + o.base + ")[" + idx + "]";
    }
    if (o.k_inner)
      return "reinterpret_cast<const uint32_t*>(" + o.base + ")[((" + r + ") * " + st + " + " + k + ") >> 1]";
    const std::string h = "reinterpret_cast<const unsigned short*>(" + o.base + ")";
    return "ts_pack2(" + h + "[(" + k + ") * " + st + " + " + r + "], " + h + "[(" + k + " + 1) * " + st + " + " + r + "])";
  };
  const std::string kq = tf32 ? "q" : "2 * q", khi = tf32 ? "4" : "8";
  const int64_t kstep = tf32 ? 8 : 16, steps = K / kstep;
  line(steps <= 8 ? "#pragma unroll" : "#pragma unroll 2");
  open("for (int k0 = 0; k0 < " + std::to_string(K) + "; k0 += " + std::to_string(kstep) + ")");
  line("uint32_t fa[" + std::to_string(ld.tm) + "][4], fb[" + std::to_string(ld.tn) + "][2];");
  // ldmatrix where the rows it reads are 16 bytes of one
  // operand row: any 16-bit operand (.trans when k runs across the rows),
  // a tf32 one only with k along its rows (its words are whole floats).
  // Lane l gives the address of row l % 8 of matrix l / 8 (see the prelude).
  auto by_ldmatrix = [&](const Operand& o) {
    return opt_.ldmatrix && (o.stride * elem) % 16 == 0 && (!tf32 || o.k_inner);
  };
  const std::string lane_row = "(tid & 7)", half0 = "((tid >> 3) & 1)", half1 = "((tid >> 4) & 1)";
  const std::string st_a = std::to_string(A.stride), st_b = std::to_string(B.stride);
  line("#pragma unroll");
  open("for (int i = 0; i < " + std::to_string(ld.tm) + "; ++i)");
  if (by_ldmatrix(A)) {
    // Matrices (m, k): (lo, lo), (hi, lo), (lo, hi), (hi, hi) are a0..a3.
    if (A.k_inner)
      line("ts_ldsm_x4(fa[i], " + A.base + " + (m0 + i * 16 + " + half0 + " * 8 + " + lane_row + ") * " + st_a +
           " + k0 + " + half1 + " * " + khi + ");");
    else
      line("ts_ldsm_x4_trans(fa[i], " + A.base + " + (k0 + " + half1 + " * 8 + " + lane_row + ") * " + st_a +
           " + m0 + i * 16 + " + half0 + " * 8);");
  } else {
    const std::string mr = "m0 + i * 16 + g", mr8 = "m0 + i * 16 + g + 8";
    line("fa[i][0] = " + word(A, mr, "k0 + " + kq) + ";");
    line("fa[i][1] = " + word(A, mr8, "k0 + " + kq) + ";");
    line("fa[i][2] = " + word(A, mr, "k0 + " + kq + " + " + khi) + ";");
    line("fa[i][3] = " + word(A, mr8, "k0 + " + kq + " + " + khi) + ";");
  }
  close();
  if (by_ldmatrix(B)) {
    // Two n blocks per x4: matrices (n, k) (j, lo), (j, hi), (j + 1, lo),
    // (j + 1, hi); an odd last block by x2.
    auto ldsm_b = [&](const std::string& fn, const std::string& j, const std::string& which, const std::string& dst) {
      if (B.k_inner)
        line(fn + "(" + dst + ", " + B.base + " + (n0 + (" + j + " + " + which + ") * 8 + " + lane_row + ") * " + st_b +
             " + k0 + " + half0 + " * " + khi + ");");
      else
        line(fn + "_trans(" + dst + ", " + B.base + " + (k0 + " + half0 + " * 8 + " + lane_row + ") * " + st_b +
             " + n0 + (" + j + " + " + which + ") * 8);");
    };
    if (ld.tn >= 2) {
      line("#pragma unroll");
      open("for (int j = 0; j + 1 < " + std::to_string(ld.tn) + "; j += 2)");
      line("uint32_t w[4];");
      ldsm_b("ts_ldsm_x4", "j", half1, "w");
      line("fb[j][0] = w[0]; fb[j][1] = w[1]; fb[j + 1][0] = w[2]; fb[j + 1][1] = w[3];");
      close();
    }
    if (ld.tn % 2 == 1) ldsm_b("ts_ldsm_x2", std::to_string(ld.tn - 1), "0", "fb[" + std::to_string(ld.tn - 1) + "]");
  } else {
    line("#pragma unroll");
    open("for (int j = 0; j < " + std::to_string(ld.tn) + "; ++j)");
    const std::string nc = "n0 + j * 8 + g";
    line("fb[j][0] = " + word(B, nc, "k0 + " + kq) + ";");
    line("fb[j][1] = " + word(B, nc, "k0 + " + kq + " + " + khi) + ";");
    close();
  }
  const std::string mma = tf32 ? "ts_mma_tf32" : d == DType::bf16 ? "ts_mma_bf16" : "ts_mma_f16";
  line("#pragma unroll");
  open("for (int i = 0; i < " + std::to_string(ld.tm) + "; ++i)");
  line("#pragma unroll");
  line("for (int j = 0; j < " + std::to_string(ld.tn) + "; ++j) " + mma + "(&" + name(dst) + "[(i * " +
       std::to_string(ld.tn) + " + j) * 4], fa[i], fb[j]);");
  close();
  close();  // k0
  if (!p) line("__syncthreads();");
  close();
}

void Emitter::dot(const ir::Instr& in) {
  const int a = in.args[0], b = in.args[1], dst = in.dst;
  const ir::Shape& as = type(a).shape;
  const ir::Shape& bs = type(b).shape;
  const size_t r = as.size();
  const int64_t batch = r == 3 ? as[0] : 1, M = as[r - 2], K = as[r - 1], N = bs[r - 1];
  const DType d = type(a).dtype, out = type(dst).dtype;
  if (layouts_[dst].mma) return dot_mma_fragments(in);
  if (d == DType::f32 && in.precision == ir::Precision::tf32 && M % 16 == 0 && N % 8 == 0 && K % 8 == 0 &&
      !opt_.scalar_dots)
    return dot_mma_tf32(in);
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
