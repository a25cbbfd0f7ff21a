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
    if (p && p->wgmma) {
      wgmma_from_registers(*p, x, is_a, o.base, wrote_registers);
      return o;
    }
    std::string where;
    if (p) {
      where = stage + " + " + std::to_string(p->reg_operands.at(x));
    } else {
      where = "ts_smem + " + std::to_string(scratch);
      scratch += (rows * o.stride * elem + 15) / 16 * 16;
      need_smem(scratch);
    }
    const std::string& var = o.base;
    const std::string ctype = tf32 ? "float" : cuda_register_type(d);
    line(ctype + "* " + var + " = reinterpret_cast<" + ctype + "*>(" + where + ");");
    if (p && !p->reg_written.insert(x).second) return o;  // an earlier dot of this iteration wrote it
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
    wrote_registers = true;
    return o;
  };
  auto operand = [&](int x, bool is_a) {
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

  if (p && p->wgmma_transposed) {
    // C^T = B^T A^T (Pipeline::wgmma_transposed): warpgroup g's rows
    // 64g..64g+63 of C^T (columns n of C) as wgmma's A from registers, read
    // from B's [K][N + 8] rows: lane 4g' + q takes (k + q, n + g'), the 32
    // lanes on distinct banks; a0..a3 are (g', q), (g' + 8, q), (g', q + 4),
    // (g' + 8, q + 4) as in mma.sync's A. A's staged tile is wgmma's
    // K-major B of M rows, by descriptor as above.
    bool a_t = false;
    const bool swizzled = staged_operand_in(*p, a, &a_t)->swizzle128;
    wgmma_rs_widths_.insert(M);
    const std::string tail = swizzled ? ")" : ", 128, " + std::to_string(K * 32) + ")";
    const std::string desc = swizzled ? "ts_wgmma_desc_sw128(" : "ts_wgmma_desc(";
    const int64_t k_step = swizzled ? 8 : 64;
    line("const uint32_t* ts_bt = reinterpret_cast<const uint32_t*>(" + B.base +
         ") + (tid >> 7) * 64 + (tid >> 5 & 3) * 16 + ((tid & 31) >> 2) + (tid & 3) * " + std::to_string(B.stride) + ";");
    line("uint32_t ts_fa[" + std::to_string(K / 8) + "][4];");
    for (int64_t kk = 0; kk < K / 8; ++kk) {
      const int64_t lo = 8 * kk * B.stride, hi = (8 * kk + 4) * B.stride;
      const std::string f = "ts_fa[" + std::to_string(kk) + "]";
      line(f + "[0] = ts_bt[" + std::to_string(lo) + "]; " + f + "[1] = ts_bt[" + std::to_string(lo + 8) + "]; " + f +
           "[2] = ts_bt[" + std::to_string(hi) + "]; " + f + "[3] = ts_bt[" + std::to_string(hi + 8) + "];");
    }
    line("ts_wgmma_fence();");
    for (int64_t kk = 0; kk < K / 8; ++kk)
      line("ts_wgmma_tf32_rs_n" + std::to_string(M) + "(" + name(dst) + ", ts_fa[" + std::to_string(kk) + "], " + desc +
           A.base + " + " + std::to_string(k_step * kk) + tail + ");");
    line("ts_wgmma_commit();");
    if (p->copies_after_dot) {
      // Every thread passed this iteration's barrier, so every group that
      // read the stage these copies fill (the previous iteration's) is done.
      open("");
      issue_ahead(*p);
      close();
    }
    // Waited for at once (plan_pipelines): the next iteration rewrites the
    // fragment registers, which PTX forbids while their group is in flight.
    line("ts_wgmma_wait0();");
    for_slots(ld.slots, [&](const std::string& s) { line("ts_fence_operand(" + at(dst, s) + ");"); });
    close();
    return;
  }
  if (p && p->wgmma && !tf32) {
    wgmma_16bit(in, *p, A.base, B.base);
    close();
    return;
  }
  if (p && p->wgmma) {
    // Hopper (CodegenOptions::wgmma): warpgroup g multiplies rows 64g..64g+63
    // of A by all of B, straight from the staged tiles. Rows of 128 bytes
    // are 128-byte swizzled (staged_offset): 8-row groups 1024 bytes apart
    // (SBO), a k8 step 32 bytes further along the row, the hardware
    // applying the same XOR. Other widths: core matrices, 2 along k per
    // k8 step (LBO 128 bytes), 8-row groups K * 32 bytes apart (SBO).
    bool a_t = false, b_t = false;
    const bool swizzled = staged_operand_in(*p, a, &a_t)->swizzle128;
    if (swizzled != staged_operand_in(*p, b, &b_t)->swizzle128)
      throw CodegenError("wgmma operands of one dot staged in two layouts");  // wgmma_fits admits K of one size
    auto pair = p->wgmma_pairs.find(&in);
    const bool paired = pair != p->wgmma_pairs.end();
    (paired ? wgmma_pair_widths_ : wgmma_widths_).insert(paired ? 2 * N : N);
    const std::string fn = paired ? "ts_wgmma_tf32_pair_n" + std::to_string(2 * N) : "ts_wgmma_tf32_n" + std::to_string(N);
    const std::string accumulators = paired ? name(dst) + ", " + name(pair->second->args[2]) : name(dst);
    const std::string tail = swizzled ? ")" : ", 128, " + std::to_string(K * 32) + ")";
    const std::string desc = swizzled ? "ts_wgmma_desc_sw128(" : "ts_wgmma_desc(";
    const int64_t k_step = swizzled ? 8 : 64;  // elements from one k8 step to the next
    line("const int ts_wg = tid >> 7;");
    line("ts_wgmma_fence();");
    for (int64_t kk = 0; kk < K / 8; ++kk)
      line(fn + "(" + accumulators + ", " + desc + A.base + " + ts_wg * " + std::to_string(64 * K) + " + " +
           std::to_string(k_step * kk) + tail + ", " + desc + B.base + " + " + std::to_string(k_step * kk) + tail + ");");
    line("ts_wgmma_commit();");
    if (p->wgmma_async) {
      // One group per dot; after the body's last dot its own groups stay in
      // flight and the previous iteration's are done, so their stage may
      // take new copies. The accumulators are the loop's own arrays (see the
      // alias above): nothing reads them until the loop ends.
      wgmma_group_done(*p, in.args[2]);
    } else {
      line("ts_wgmma_wait0();");
      // The accumulators are the asm's until the wait: no access moves above it.
      for_slots(ld.slots, [&](const std::string& s) { line("ts_fence_operand(" + at(dst, s) + ");"); });
    }
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
  // ldmatrix (issue 16) where the rows it reads are 16 bytes of one
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

// A 16-bit wgmma operand from registers (wgmma_fits), written to its stage
// region once an iteration, whichever dot comes first: as K-major core
// matrices, element (r, k) of its rows (m of A, n of B) at (r >> 3) * 8K +
// (k >> 3) * 64 + (r & 7) * 8 + (k & 7), the layout of ts_wgmma_desc(LBO 128
// bytes, SBO 16K bytes); or, a B in Pipeline::reg_n_major, N-major in
// 128-byte swizzled columns (staged_offset's layout).
void Emitter::wgmma_from_registers(Pipeline& p, int x, bool is_a, const std::string& var, bool& wrote) {
  const ir::Shape& xs = type(x).shape;
  const int64_t K = is_a ? xs[1] : xs[0];
  const std::string stage = "ts_smem + ts_pipe + " + p.stage_var + " * " + std::to_string(p.stage_bytes);
  line("unsigned short* " + var + " = reinterpret_cast<unsigned short*>(" + stage + " + " +
       std::to_string(p.reg_operands.at(x)) + ");");
  if (!p.reg_written.insert(x).second) return;  // an earlier dot of this iteration wrote it
  wrote = true;
  const std::string as_bits = type(x).dtype == DType::bf16 ? "__bfloat16_as_ushort(" : "__half_as_ushort(";
  const TileLayout l = layout(x);
  uses_tid_ = true;
  if (!is_a && one_column_a_thread(x)) {
    // Striped with one thread a column: thread t holds B's row n = t, its
    // slot k element k, so 8 neighbours along k are one 16-byte store
    // (a warp's 32 stores fill 4 x 128 contiguous bytes: no bank conflict).
    for (int64_t c = 0; c < K / 8; ++c) {
      std::string words;
      for (int64_t w = 0; w < 4; ++w)
        words += std::string(w ? ", " : "") + "ts_pack2(" + as_bits + at(x, std::to_string(8 * c + 2 * w)) + "), " + as_bits +
                 at(x, std::to_string(8 * c + 2 * w + 1)) + "))";
      line("*reinterpret_cast<ts_u4*>(" + var + " + (tid >> 3) * " + std::to_string(8 * K) + " + " + std::to_string(64 * c) +
           " + (tid & 7) * 8) = ts_u4{" + words + "};");
    }
    return;
  }
  const std::string guard = owner_guard(l);
  if (!guard.empty()) open("if (" + guard + ")");
  const bool n_major = p.reg_n_major.count(x) > 0;
  for_slots(l.slots, [&](const std::string& sl) {
    const std::string e = "(" + element(l, sl) + ")";
    const std::string cols = std::to_string(xs[1]);
    const std::string r = is_a ? e + " / " + cols : e + " % " + cols, k = is_a ? e + " % " + cols : e + " / " + cols;
    // N-major: element (k, n) at (n / 64) * 64K + k * 64 + ((n % 64 / 8) ^ (k & 7)) * 8 + n % 8.
    const std::string place =
        n_major ? "(" + r + ") / 64 * " + std::to_string(64 * K) + " + (" + k + ") * 64 + ((((" + r + ") & 63) >> 3) ^ ((" + k +
                      ") & 7)) * 8 + ((" + r + ") & 7)"
                : "((" + r + ") >> 3) * " + std::to_string(8 * K) + " + ((" + k + ") >> 3) * 64 + ((" + r + ") & 7) * 8 + ((" + k +
                      ") & 7)";
    line(var + "[" + place + "] = " + as_bits + at(x, sl) + ");");
  });
  if (!guard.empty()) close();
}

bool Emitter::one_column_a_thread(int x) const {
  const ir::Shape& xs = type(x).shape;
  const TileLayout l = layout(x);
  return xs.size() == 2 && !l.mma && !l.replicated() && l.threads == xs[1] && l.slots == xs[0] && xs[0] % 8 == 0;
}

// A 16-bit dot by wgmma (m64nNk16, f32 accumulators in the layout tf32's
// use): warpgroup g multiplies rows 64g..64g+63 of A by all of B. Each
// operand by descriptor, as it sits in the stage:
// - K-major core matrices (from registers, or a staged tile with k along
//   its rows): a k16 step 256 bytes on, LBO 128, SBO 16K bytes;
// - K-major rows of 128 bytes, 128-byte swizzled: a k16 step 32 bytes on;
// - M- or N-major (k across the rows; the instruction's transpose bit),
//   128-byte swizzled in columns of 64 (staged_offset): a k16 step 16 rows
//   (2048 bytes) on, SBO 1024 between 8-row groups, LBO between columns;
// - M- or N-major core matrices (8 k rows x 8 values along the row): a k16
//   step 2 row groups on, LBO between them, SBO 128 between 8-value blocks.
void Emitter::wgmma_16bit(const ir::Instr& in, Pipeline& p, const std::string& a_base, const std::string& b_base) {
  const int dst = in.dst;
  const int64_t M = type(in.args[0]).shape[0], K = type(in.args[0]).shape[1], N = type(dst).shape.back();
  struct Desc {
    bool mn_major = false;
    std::string at;                   // the start of warpgroup 0's rows, k step 0
    int64_t k_step = 0, wg_step = 0;  // elements a k16 step and a warpgroup's 64 rows on
    std::string tail;                 // the descriptor call's other arguments
    bool swizzled = false;
  };
  auto describe = [&](int x, const std::string& base, int64_t rows) {
    Desc dsc;
    dsc.at = base;
    bool transposed = false;
    const StagedLoad* sl = staged_operand_in(p, x, &transposed);
    if (p.reg_n_major.count(x)) {  // from registers, N-major in swizzled columns (wgmma_from_registers)
      dsc.mn_major = dsc.swizzled = true;
      dsc.k_step = 16 * 64;
      dsc.tail = ", " + std::to_string(K * 128) + ")";
      return dsc;
    }
    if (!sl || sl->k_inner) {
      dsc.swizzled = sl && sl->swizzle128;
      dsc.k_step = dsc.swizzled ? 16 : 128;
      dsc.wg_step = 64 * K;
      dsc.tail = dsc.swizzled ? ")" : ", 128, " + std::to_string(16 * K) + ")";
      return dsc;
    }
    dsc.mn_major = true;
    dsc.swizzled = sl->swizzle128;
    if (dsc.swizzled) {
      dsc.k_step = 16 * 64;
      dsc.wg_step = K * 64;  // the next 128-byte column
      dsc.tail = ", " + std::to_string(K * 128) + ")";
    } else {
      dsc.k_step = 16 * rows;
      dsc.wg_step = 8 * 64;
      dsc.tail = ", " + std::to_string(16 * rows) + ", 128)";
    }
    return dsc;
  };
  const Desc A = describe(in.args[0], a_base, M), B = describe(in.args[1], b_base, N);
  const bool bf16 = type(in.args[0]).dtype == DType::bf16;
  wgmma16_helpers_.insert({N, bf16, A.mn_major, B.mn_major});
  const std::string fn = std::string("ts_wgmma_") + (bf16 ? "bf16" : "f16") + "_n" + std::to_string(N) + "_" +
                         (A.mn_major ? "t" : "n") + (B.mn_major ? "t" : "n");
  auto call = [](const Desc& dsc, const std::string& offset) {
    const std::string f = !dsc.swizzled ? "ts_wgmma_desc(" : dsc.mn_major ? "ts_wgmma_desc_sw128_mn(" : "ts_wgmma_desc_sw128(";
    return f + dsc.at + " + " + offset + dsc.tail;
  };
  line("const int ts_wg = tid >> 7;");
  line("ts_wgmma_fence();");
  for (int64_t kk = 0; kk < K / 16; ++kk)
    line(fn + "(" + name(dst) + ", " +
         call(A, "ts_wg * " + std::to_string(A.wg_step) + " + " + std::to_string(A.k_step * kk)) + ", " +
         call(B, std::to_string(B.k_step * kk)) + ");");
  line("ts_wgmma_commit();");
  if (p.wgmma_async) {
    wgmma_group_done(p, in.args[2]);
  } else {
    line("ts_wgmma_wait0();");
    const TileLayout ld = layout(dst);
    for_slots(ld.slots, [&](const std::string& s) { line("ts_fence_operand(" + at(dst, s) + ");"); });
  }
}

void Emitter::wgmma_group_done(Pipeline& p, int accumulator) {
  // After the body's last dot its own groups stay in flight and the
  // previous iteration's are retired, so their stage may take new copies.
  p.wgmma_accumulators.push_back(accumulator);
  if (p.wgmma_accumulators.size() == static_cast<size_t>(p.wgmma_dots)) {
    line("ts_wgmma_wait<" + std::to_string(p.wgmma_groups) + ">();");
    if (p.late_issue) issue_after_wait(p);
  }
}

namespace {

// One wgmma.m64n<n>k8 tf32 step in inline asm, its n / 2 accumulator
// registers named by `outs` (the asm names every register); A by
// descriptor `a`, or from the four registers a[0..3].
std::string wgmma_asm(int64_t n, const std::string& outs, bool a_in_registers = false) {
  std::string regs;
  for (int64_t i = 0; i < n / 2; ++i) regs += (i ? ", %" : "%") + std::to_string(i);
  const int64_t a0 = n / 2, b = a_in_registers ? a0 + 4 : a0 + 1, scale = b + 1;
  const std::string a_operand = a_in_registers ? "{%" + std::to_string(a0) + ", %" + std::to_string(a0 + 1) + ", %" +
                                                     std::to_string(a0 + 2) + ", %" + std::to_string(a0 + 3) + "}"
                                               : "%" + std::to_string(a0);
  const std::string a_inputs = a_in_registers ? "\"r\"(a[0]), \"r\"(a[1]), \"r\"(a[2]), \"r\"(a[3])" : "\"l\"(a)";
  return "  asm volatile(\"{\\n.reg .pred p;\\nsetp.ne.b32 p, %" + std::to_string(scale) + ", 0;\\n" +
         "wgmma.mma_async.sync.aligned.m64n" + std::to_string(n) + "k8.f32.tf32.tf32 {" + regs + "}, " + a_operand + ", %" +
         std::to_string(b) + ", p, 1, 1;\\n}\\n\"\n    : " + outs + "\n    : " + a_inputs + ", \"l\"(b), \"r\"(1));\n";
}

}  // namespace

std::string Emitter::wgmma_helpers() const {
  std::string out;
  // One helper per accumulator width N.
  for (int64_t n : wgmma_widths_) {
    const std::string fn = "ts_wgmma_tf32_n" + std::to_string(n);
    std::string outs;
    for (int64_t i = 0; i < n / 2; ++i) outs += (i ? ", \"+f\"(d[" : "\"+f\"(d[") + std::to_string(i) + "])";
    out += "#ifndef TS_HOST_MMA\nTS_INLINE void " + fn + "(float* d, uint64_t a, uint64_t b) {\n" + wgmma_asm(n, outs) +
           "}\n#else\nTS_INLINE void " + fn + "(float* d, uint64_t a, uint64_t b) { emu_wgmma_tf32(d, a, b, " +
           std::to_string(n) + "); }\n#endif\n";
  }
  // A from registers (Pipeline::wgmma_transposed).
  for (int64_t n : wgmma_rs_widths_) {
    const std::string fn = "ts_wgmma_tf32_rs_n" + std::to_string(n);
    std::string outs;
    for (int64_t i = 0; i < n / 2; ++i) outs += (i ? ", \"+f\"(d[" : "\"+f\"(d[") + std::to_string(i) + "])";
    out += "#ifndef TS_HOST_MMA\nTS_INLINE void " + fn + "(float* d, const uint32_t* a, uint64_t b) {\n" +
           wgmma_asm(n, outs, true) + "}\n#else\nTS_INLINE void " + fn +
           "(float* d, const uint32_t* a, uint64_t b) { emu_wgmma_tf32_rs(d, a, b, " + std::to_string(n) + "); }\n#endif\n";
  }
  // 16-bit dots (wgmma_16bit): m64nNk16, the transpose bits in the name.
  for (const auto& [n, bf16, ta, tb] : wgmma16_helpers_) {
    const std::string type = bf16 ? "bf16" : "f16";
    const std::string fn = "ts_wgmma_" + type + "_n" + std::to_string(n) + "_" + (ta ? "t" : "n") + (tb ? "t" : "n");
    std::string regs, outs;
    for (int64_t i = 0; i < n / 2; ++i) {
      regs += (i ? ", %" : "%") + std::to_string(i);
      outs += (i ? ", \"+f\"(d[" : "\"+f\"(d[") + std::to_string(i) + "])";
    }
    const std::string a = std::to_string(n / 2), b = std::to_string(n / 2 + 1), scale = std::to_string(n / 2 + 2);
    out += "#ifndef TS_HOST_MMA\nTS_INLINE void " + fn + "(float* d, uint64_t a, uint64_t b) {\n" +
           "  asm volatile(\"{\\n.reg .pred p;\\nsetp.ne.b32 p, %" + scale + ", 0;\\n" +
           "wgmma.mma_async.sync.aligned.m64n" + std::to_string(n) + "k16.f32." + type + "." + type + " {" + regs + "}, %" + a +
           ", %" + b + ", p, 1, 1, " + (ta ? "1" : "0") + ", " + (tb ? "1" : "0") + ";\\n}\\n\"\n    : " + outs +
           "\n    : \"l\"(a), \"l\"(b), \"r\"(1));\n}\n#else\nTS_INLINE void " + fn +
           "(float* d, uint64_t a, uint64_t b) { emu_wgmma_16(d, a, b, " + std::to_string(n) + ", " + (bf16 ? "true" : "false") +
           ", " + (ta ? "true" : "false") + ", " + (tb ? "true" : "false") + "); }\n#endif\n";
  }
  // Fused pairs (Pipeline::wgmma_pairs): the first dot's accumulator holds
  // columns 0..N/2-1 of the wide result, the second's the rest.
  for (int64_t n : wgmma_pair_widths_) {
    const std::string fn = "ts_wgmma_tf32_pair_n" + std::to_string(n), h = std::to_string(n / 4);
    std::string outs;
    for (int64_t i = 0; i < n / 2; ++i)
      outs += std::string(i ? ", " : "") + "\"+f\"(" + (i < n / 4 ? "d0[" + std::to_string(i) : "d1[" + std::to_string(i - n / 4)) + "])";
    out += "#ifndef TS_HOST_MMA\nTS_INLINE void " + fn + "(float* d0, float* d1, uint64_t a, uint64_t b) {\n" +
           wgmma_asm(n, outs) + "}\n#else\nTS_INLINE void " + fn + "(float* d0, float* d1, uint64_t a, uint64_t b) {\n" +
           "  float d[" + std::to_string(n / 2) + "];\n" + "  for (int i = 0; i < " + h + "; ++i) d[i] = d0[i], d[i + " + h +
           "] = d1[i];\n" + "  emu_wgmma_tf32(d, a, b, " + std::to_string(n) + ");\n" + "  for (int i = 0; i < " + h +
           "; ++i) d0[i] = d[i], d1[i] = d[i + " + h + "];\n}\n#endif\n";
  }
  return out;
}

}  // namespace tl::gpu::detail
