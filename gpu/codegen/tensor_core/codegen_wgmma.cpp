// Hopper's wgmma (CodegenOptions::wgmma): the dots of a pipelined
// loop that codegen_wgmma_plan.cpp admitted, emitted from dot_mma_fragments
// once their operands are in the stage: tf32 from staged K-major tiles, tf32
// as C^T = B^T A^T with B^T in registers, 16-bit by descriptors of either
// major-ness or from registers; each group left in flight or waited for; and
// the inline-asm helpers those dots call.
#include "codegen_emitter.h"

namespace tl::gpu::detail {

void Emitter::fence_operands(int r) {
  for_slots(layout(r).slots, [&](const std::string& s) { line("ts_fence_operand(" + at(r, s) + ");"); });
}

void Emitter::end_wgmma_group(Pipeline& p, const ir::Instr& in) {
  line("ts_wgmma_commit();");
  if (p.wgmma_async) {
    // One group per dot; after the body's last dot its own groups stay in
    // flight and the previous iteration's are done, so their stage may
    // take new copies. The accumulators are the loop's own arrays (see the
    // alias in dot_mma_fragments): nothing reads them until the loop ends.
    wgmma_group_done(p, in.args[2]);
  } else {
    line("ts_wgmma_wait0();");
    // The accumulators are the asm's until the wait: no access moves above it.
    fence_operands(in.dst);
  }
}

void Emitter::wgmma_group_done(Pipeline& p, int accumulator) {
  // After the body's last dot its own groups stay in flight and the
  // previous iteration's are retired, so their stage may take new copies.
  p.wgmma_accumulators.push_back(accumulator);
  if (p.wgmma_accumulators.size() == static_cast<size_t>(p.wgmma_dots)) {
    // The next copies behind the groups (CodegenOptions::wgmma_copies_after_dots).
    if (role_ == Role::consumer) {  // the producer issues the copies (warp specialization)
      line("ts_wgmma_wait<" + std::to_string(p.wgmma_groups) + ">();");
      release_previous_stage(p);
      return;
    }
    if (p.copies_after_dot) {
      open("");
      issue_ahead(p);
      close();
    }
    line("ts_wgmma_wait<" + std::to_string(p.wgmma_groups) + ">();");
    if (p.late_issue) issue_after_wait(p);
  }
}

// C^T = B^T A^T (Pipeline::wgmma_transposed): warpgroup g's rows
// 64g..64g+63 of C^T (columns n of C) as wgmma's A from registers, read from
// B's [K][N + 8] rows (or from x's layout: CodegenOptions::wgmma_b_tma):
// lane 4g' + q takes (k + q, n + g'), the 32 lanes on distinct banks; a0..a3
// are (g', q), (g' + 8, q), (g', q + 4), (g' + 8, q + 4) as in mma.sync's A.
// A's staged tile is wgmma's K-major B of M rows, by descriptor as in
// wgmma_tf32.
void Emitter::wgmma_tf32_transposed(const ir::Instr& in, Pipeline& p, const std::string& a_base,
                                    const std::string& b_base, int64_t b_stride) {
  const int a = in.args[0], dst = in.dst;
  const ir::Shape& as = type(a).shape;  // [.., M, K]: p11's is batched
  const int64_t M = as[as.size() - 2], K = as.back();
  bool a_t = false;
  const StagedLoad& staged_a = *staged_operand_in(p, a, &a_t);
  const bool swizzled = staged_a.swizzle128;
  const std::string tail = swizzled ? ")" : ", 128, " + std::to_string(K * 32) + ")";
  const std::string desc = swizzled ? "ts_wgmma_desc_sw128(" : "ts_wgmma_desc(";
  if (p.written_transposed()) {
    // B^T written K-major into the stage (codegen_transposed_stage.cpp):
    // warpgroup g's 64 rows of K floats by descriptor, a k8 step 32 bytes
    // along the swizzled rows; the group may stay in flight.
    wgmma_widths_.insert(M);
    line("const int ts_wg = tid >> 7;");
    line("ts_wgmma_fence();");
    for (int64_t kk = 0; kk < K / 8; ++kk)
      line("ts_wgmma_tf32_n" + std::to_string(M) + "(" + name(dst) + ", ts_wgmma_desc_sw128(" + b_base +
           " + ts_wg * " + std::to_string(64 * K) + " + " + std::to_string(8 * kk) + "), " + desc + a_base + " + " +
           std::to_string(tf32_k_offset(staged_a, kk)) + tail + ");");
    if (p.wgmma_async) return end_wgmma_group(p, in);
  } else {
    wgmma_rs_widths_.insert(M);
    bool b_t = false;
    const StagedLoad* staged_b = staged_operand_in(p, in.args[1], &b_t);
    line("uint32_t ts_fa[" + std::to_string(K / 8) + "][4];");
    if (staged_b && staged_b->register_read_by_tma()) {
      // In x's 128-byte swizzled columns (staged_offset: row k, column n's
      // 16-byte chunk, then n % 4 within it). A lane's four words sit at
      // offsets of their own (the XOR takes its k), each a k8 step 256
      // words on; the 32 lanes of a read fall on 16 banks (2-way conflicts).
      line("const int ts_fn = (tid >> 7) * 64 + (tid >> 5 & 3) * 16 + ((tid & 31) >> 2), ts_fk = tid & 3;");
      line("const uint32_t* const ts_b = reinterpret_cast<const uint32_t*>(" + b_base + ");");
      const char* at[4][2] = {{"ts_fn", "ts_fk"}, {"(ts_fn + 8)", "ts_fk"}, {"ts_fn", "(ts_fk + 4)"}, {"(ts_fn + 8)", "(ts_fk + 4)"}};
      for (int i = 0; i < 4; ++i) {
        const std::string n = at[i][0], k = at[i][1];
        line("const uint32_t* const ts_bt" + std::to_string(i) + " = ts_b + " + staged_offset(*staged_b, k, n) + " + (" + n +
             " & 3);");
      }
      for (int64_t kk = 0; kk < K / 8; ++kk) {
        const std::string f = "ts_fa[" + std::to_string(kk) + "]", o = std::to_string(256 * kk);
        line(f + "[0] = ts_bt0[" + o + "]; " + f + "[1] = ts_bt1[" + o + "]; " + f + "[2] = ts_bt2[" + o + "]; " + f +
             "[3] = ts_bt3[" + o + "];");
      }
    } else {
      line("const uint32_t* ts_bt = reinterpret_cast<const uint32_t*>(" + b_base +
           ") + (tid >> 7) * 64 + (tid >> 5 & 3) * 16 + ((tid & 31) >> 2) + (tid & 3) * " + std::to_string(b_stride) + ";");
      for (int64_t kk = 0; kk < K / 8; ++kk) {
        const int64_t lo = 8 * kk * b_stride, hi = (8 * kk + 4) * b_stride;
        const std::string f = "ts_fa[" + std::to_string(kk) + "]";
        line(f + "[0] = ts_bt[" + std::to_string(lo) + "]; " + f + "[1] = ts_bt[" + std::to_string(lo + 8) + "]; " + f +
             "[2] = ts_bt[" + std::to_string(hi) + "]; " + f + "[3] = ts_bt[" + std::to_string(hi + 8) + "];");
      }
    }
    line("ts_wgmma_fence();");
    for (int64_t kk = 0; kk < K / 8; ++kk)
      line("ts_wgmma_tf32_rs_n" + std::to_string(M) + "(" + name(dst) + ", ts_fa[" + std::to_string(kk) + "], " + desc +
           a_base + " + " + std::to_string(tf32_k_offset(staged_a, kk)) + tail + ");");
  }
  line("ts_wgmma_commit();");
  if (p.copies_after_dot) {
    // Every thread passed this iteration's barrier, so every group that
    // read the stage these copies fill (the previous iteration's) is done.
    open("");
    issue_ahead(p);
    close();
  }
  // Waited for at once (plan_pipelines): the next iteration rewrites the
  // fragment registers, which PTX forbids while their group is in flight.
  line("ts_wgmma_wait0();");
  fence_operands(dst);
  if (p.decoupled) {
    // This warp is done with the stage (its fragments read, its part of the
    // group retired): its arrival on the stage's empty barrier, which the
    // refill of the stage waits for (issue_tma).
    open("if (ts_tma_ok && (tid & 31) == 0)");
    line("ts_mbar_arrive(" + empty_barrier_of(p, p.stage_var) + ");");
    close();
  }
}

// Where k8 step kk of a staged tf32 operand starts, in elements: 8 values
// along a swizzled row of 32 (past the first 128-byte column, the next
// column's same row: staged_offset), or one 2-core-matrix step of 64.
int64_t Emitter::tf32_k_offset(const StagedLoad& s, int64_t kk) const {
  if (!s.swizzle128) return 64 * kk;
  return 8 * kk / 32 * (s.outer * 32) + 8 * kk % 32;
}

// Warpgroup g multiplies rows 64g..64g+63 of A by all of B, straight from
// the staged tiles. Rows of 128 bytes are 128-byte swizzled (staged_offset):
// 8-row groups 1024 bytes apart (SBO), a k8 step 32 bytes further along the
// row, the hardware applying the same XOR. Other widths: core matrices, 2
// along k per k8 step (LBO 128 bytes), 8-row groups K * 32 bytes apart (SBO).
void Emitter::wgmma_tf32(const ir::Instr& in, Pipeline& p, const std::string& a_base, const std::string& b_base) {
  const int a = in.args[0], b = in.args[1], dst = in.dst;
  const int64_t K = type(a).shape.back(), N = type(dst).shape.back();
  bool a_t = false, b_t = false;
  const StagedLoad &staged_a = *staged_operand_in(p, a, &a_t), &staged_b = *staged_operand_in(p, b, &b_t);
  const bool swizzled = staged_a.swizzle128;
  if (swizzled != staged_b.swizzle128)
    throw CodegenError("wgmma operands of one dot staged in two layouts");  // wgmma_fits admits K of one size
  auto pair = p.wgmma_pairs.find(&in);
  const bool paired = pair != p.wgmma_pairs.end();
  (paired ? wgmma_pair_widths_ : wgmma_widths_).insert(paired ? 2 * N : N);
  const std::string fn = paired ? "ts_wgmma_tf32_pair_n" + std::to_string(2 * N) : "ts_wgmma_tf32_n" + std::to_string(N);
  const std::string accumulators = paired ? name(dst) + ", " + name(pair->second->args[2]) : name(dst);
  const std::string tail = swizzled ? ")" : ", 128, " + std::to_string(K * 32) + ")";
  const std::string desc = swizzled ? "ts_wgmma_desc_sw128(" : "ts_wgmma_desc(";
  // A warpgroup's 64 rows on: 64 rows of one swizzled column, or 8 groups of core matrices.
  const int64_t wg_rows = swizzled ? 64 * 32 : 64 * K;
  line("const int ts_wg = tid >> 7;");
  line("ts_wgmma_fence();");
  for (int64_t kk = 0; kk < K / 8; ++kk)
    line(fn + "(" + accumulators + ", " + desc + a_base + " + ts_wg * " + std::to_string(wg_rows) + " + " +
         std::to_string(tf32_k_offset(staged_a, kk)) + tail + ", " + desc + b_base + " + " +
         std::to_string(tf32_k_offset(staged_b, kk)) + tail + ");");
  end_wgmma_group(p, in);
}

std::string Emitter::packed_pair(int x, const std::string& lo, const std::string& hi) {
  // A value rounded from f32 (E4's dequantized X) packs by one paired
  // conversion of the f32 values: the same bits as two roundings and a
  // pack, in a third of the instructions.
  if (def_count_[x] == 1 && def_of_[x] && def_of_[x]->op == ir::Op::Cast && def_of_[x]->rounding != ir::Rounding::rtz) {
    const int from = def_of_[x]->args[0];
    if (type(from).dtype == DType::f32 && def_count_[from] == 1 && layout(from) == layout(x))
      return std::string(type(x).dtype == DType::bf16 ? "ts_pack2_bf16_rn(" : "ts_pack2_f16_rn(") + at(from, lo) + ", " +
             at(from, hi) + ")";
  }
  const std::string bits = half_as_bits_call(type(x).dtype);
  return "ts_pack2(" + bits + at(x, lo) + "), " + bits + at(x, hi) + "))";
}

// A 16-bit wgmma operand from registers (wgmma_fits), written through `var`
// (its stage region, as 16-bit words) by the first dot of an iteration that
// reads it (dot_mma_fragments): as K-major core
// matrices, element (r, k) of its rows (m of A, n of B) at (r >> 3) * 8K +
// (k >> 3) * 64 + (r & 7) * 8 + (k & 7), the layout of ts_wgmma_desc(LBO 128
// bytes, SBO 16K bytes); or, a B in Pipeline::reg_n_major, N-major in
// 128-byte swizzled columns (staged_offset's layout).
void Emitter::wgmma_from_registers(const Pipeline& p, int x, bool is_a, const std::string& var) {
  const ir::Shape& xs = type(x).shape;
  const int64_t K = is_a ? xs[1] : xs[0];
  const std::string as_bits = half_as_bits_call(type(x).dtype);
  const TileLayout l = layout(x);
  uses_tid_ = true;
  // Slots first .. first + 7 as the four words of one 16-byte store.
  auto words_of = [&](int64_t first) {
    std::string words;
    for (int64_t w = 0; w < 4; ++w)
      words += std::string(w ? ", " : "") + packed_pair(x, std::to_string(first + 2 * w), std::to_string(first + 2 * w + 1));
    return words;
  };
  // N-major: element (k, n) at (n / 64) * 64K + k * 64 + ((n % 64 / 8) ^ (k & 7)) * 8 + n % 8;
  // here without the last term (the 16-byte chunk of n).
  auto n_major_chunk = [&](const std::string& r, const std::string& k) {
    return "(" + r + ") / 64 * " + std::to_string(64 * K) + " + (" + k + ") * 64 + ((((" + r + ") & 63) >> 3) ^ ((" + k +
           ") & 7)) * 8";
  };
  if (!is_a && one_column_a_thread(x)) {
    // Striped with one thread a column: thread t holds B's row n = t, its
    // slot k element k, so 8 neighbours along k are one 16-byte store
    // (a warp's 32 stores fill 4 x 128 contiguous bytes: no bank conflict).
    for (int64_t c = 0; c < K / 8; ++c)
      line("ts_st_shared16(" + var + " + (tid >> 3) * " + std::to_string(8 * K) + " + " + std::to_string(64 * c) +
           " + (tid & 7) * 8, " + words_of(8 * c) + ");");
    return;
  }
  const bool n_major = p.reg_n_major.count(x) > 0;
  if (!is_a && n_major && l.vec == 8) {
    // Runs of 8 along a row (vectorize_register_operand): 8 neighbours n ..
    // n + 7 of row k, n a multiple of 8, are one 16-byte chunk of the
    // swizzled column, stored at once.
    const std::string cols = std::to_string(xs[1]), v = std::to_string(l.threads * 8);
    for (int64_t run = 0; run < l.slots / 8; ++run) {
      const std::string e = "(" + std::to_string(run) + " * " + v + " + tid * 8)";
      line("ts_st_shared16(" + var + " + " + n_major_chunk(e + " % " + cols, e + " / " + cols) + ", " + words_of(8 * run) +
           ");");
    }
    return;
  }
  const std::string guard = owner_guard(l);
  if (!guard.empty()) open("if (" + guard + ")");
  for_slots(l.slots, [&](const std::string& sl) {
    const std::string e = "(" + element(l, sl) + ")";
    const std::string cols = std::to_string(xs[1]);
    const std::string r = is_a ? e + " / " + cols : e + " % " + cols, k = is_a ? e + " % " + cols : e + " / " + cols;
    const std::string place =
        n_major ? n_major_chunk(r, k) + " + ((" + r + ") & 7)"
                : "((" + r + ") >> 3) * " + std::to_string(8 * K) + " + ((" + k + ") >> 3) * 64 + ((" + r + ") & 7) * 8 + ((" + k +
                      ") & 7)";
    line(var + "[" + place + "] = " + as_bits + at(x, sl) + ");");
  });
  if (!guard.empty()) close();
}

bool Emitter::one_column_a_thread(int x) const {
  const ir::Shape& xs = type(x).shape;
  const TileLayout l = layout(x);
  return xs.size() == 2 && !l.mma && !l.replicated() && l.vec == 1 && l.threads == xs[1] && l.slots == xs[0] && xs[0] % 8 == 0;
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
//
// The offset (in 16-bit values, a multiple of 8: whole 16-byte units) is
// added to the base's descriptor, not to its pointer: the start address
// field is the shared address in 16-byte units, which no offset inside
// shared memory carries out of, so one descriptor of the base serves every
// k step and warpgroup (NVVM cannot fold the masked shift of a sum; a
// descriptor a wgmma cost about six instructions).
std::string Emitter::Wgmma16Operand::descriptor(const std::string& offset) const {
  const std::string f = !swizzled ? "ts_wgmma_desc(" : mn_major ? "ts_wgmma_desc_sw128_mn(" : "ts_wgmma_desc_sw128(";
  return "(" + f + at + tail + " + (uint64_t)((" + offset + ") >> 3))";
}

Emitter::Wgmma16Operand Emitter::wgmma16_operand(const Pipeline& p, int x, const std::string& base, int64_t rows,
                                                 int64_t K) const {
  Wgmma16Operand dsc;
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
}

void Emitter::wgmma_16bit(const ir::Instr& in, Pipeline& p, const std::string& a_base, const std::string& b_base) {
  const int dst = in.dst;
  const int64_t M = type(in.args[0]).shape[0], K = type(in.args[0]).shape[1], N = type(dst).shape.back();
  const Wgmma16Operand A = wgmma16_operand(p, in.args[0], a_base, M, K), B = wgmma16_operand(p, in.args[1], b_base, N, K);
  const bool bf16 = type(in.args[0]).dtype == DType::bf16;
  wgmma16_helpers_.insert({N, bf16, A.mn_major, B.mn_major});
  const std::string fn = std::string("ts_wgmma_") + (bf16 ? "bf16" : "f16") + "_n" + std::to_string(N) + "_" +
                         (A.mn_major ? "t" : "n") + (B.mn_major ? "t" : "n");
  line("const int ts_wg = tid >> 7;");
  line("ts_wgmma_fence();");
  for (int64_t kk = 0; kk < K / 16; ++kk)
    line(fn + "(" + name(dst) + ", " + A.descriptor("ts_wg * " + std::to_string(A.wg_step) + " + " + std::to_string(A.k_step * kk)) +
         ", " + B.descriptor(std::to_string(B.k_step * kk)) + ");");
  end_wgmma_group(p, in);
}

// C^T = B^T A^T (Pipeline::wgmma_register_a): B = x [K, N] sits in the
// transposed MMA layout, which is wgmma's A fragment layout of x^T (warp w
// rows 16w..16w+15 of N; slot 4s + v of k8 step s at row g + 8 (v / 2),
// column 2q + v % 2), so k16 step kk's four words are slots 8kk + 2j and
// 8kk + 2j + 1, the lower k in the low half. A's staged tile [M, K] is
// wgmma's B of M columns (N-major when A came transposed, as E4's dY^T);
// each warpgroup reads all of it. The fragments are this iteration's x,
// which the next rewrites: the group is waited for at once.
void Emitter::wgmma_16bit_register_a(const ir::Instr& in, Pipeline& p, const std::string& a_base) {
  const int x = in.args[1], dst = in.dst;
  const int64_t M = type(in.args[0]).shape[0], K = type(in.args[0]).shape[1];
  const Wgmma16Operand B = wgmma16_operand(p, in.args[0], a_base, M, K);
  const bool bf16 = type(x).dtype == DType::bf16;
  wgmma16_rs_helpers_.insert({M, bf16, B.mn_major});
  const std::string fn = std::string("ts_wgmma_") + (bf16 ? "bf16" : "f16") + "_rs_n" + std::to_string(M) + "_" +
                         (B.mn_major ? "t" : "n");
  line("uint32_t ts_xa[" + std::to_string(K / 16) + "][4];");
  for (int64_t kk = 0; kk < K / 16; ++kk)
    for (int64_t j = 0; j < 4; ++j) {
      const int64_t lo = 8 * kk + 2 * j;
      line("ts_xa[" + std::to_string(kk) + "][" + std::to_string(j) + "] = " +
           packed_pair(x, std::to_string(lo), std::to_string(lo + 1)) + ";");
    }
  line("ts_wgmma_fence();");
  for (int64_t kk = 0; kk < K / 16; ++kk)
    line(fn + "(" + name(dst) + ", ts_xa[" + std::to_string(kk) + "], " + B.descriptor(std::to_string(B.k_step * kk)) + ");");
  line("ts_wgmma_commit();");
  line("ts_wgmma_wait0();");
  fence_operands(dst);
}

namespace {

// The asm operand list "+f"(d[0]), ... of an accumulator of n columns.
std::string accumulator_outputs(int64_t n) {
  std::string outs;
  for (int64_t i = 0; i < n / 2; ++i) outs += (i ? ", \"+f\"(d[" : "\"+f\"(d[") + std::to_string(i) + "])";
  return outs;
}

// One wgmma.m64n<n>k<k> step in inline asm, its n / 2 accumulator registers
// named by `outs` (the asm names every register); `shape` is the rest of
// the instruction's name after n ("k8.f32.tf32.tf32"), `transposes` its
// last immediates (", 1, 0": A M-major, B K-major) or "" (tf32 has none).
// A by descriptor `a`, or from the four registers a[0..3].
std::string wgmma_asm(int64_t n, const std::string& shape, const std::string& outs, bool a_in_registers = false,
                      const std::string& transposes = "") {
  std::string regs;
  for (int64_t i = 0; i < n / 2; ++i) regs += (i ? ", %" : "%") + std::to_string(i);
  const int64_t a0 = n / 2, b = a_in_registers ? a0 + 4 : a0 + 1, scale = b + 1;
  const std::string a_operand = a_in_registers ? "{%" + std::to_string(a0) + ", %" + std::to_string(a0 + 1) + ", %" +
                                                     std::to_string(a0 + 2) + ", %" + std::to_string(a0 + 3) + "}"
                                               : "%" + std::to_string(a0);
  const std::string a_inputs = a_in_registers ? "\"r\"(a[0]), \"r\"(a[1]), \"r\"(a[2]), \"r\"(a[3])" : "\"l\"(a)";
  return "  asm volatile(\"{\\n.reg .pred p;\\nsetp.ne.b32 p, %" + std::to_string(scale) + ", 0;\\n" +
         "wgmma.mma_async.sync.aligned.m64n" + std::to_string(n) + shape + " {" + regs + "}, " + a_operand + ", %" +
         std::to_string(b) + ", p, 1, 1" + transposes + ";\\n}\\n\"\n    : " + outs + "\n    : " + a_inputs +
         ", \"l\"(b), \"r\"(1));\n";
}

}  // namespace

std::string Emitter::wgmma_helpers() const {
  const std::string tf32 = "k8.f32.tf32.tf32";
  std::string out;
  // One helper per accumulator width N.
  for (int64_t n : wgmma_widths_) {
    const std::string fn = "ts_wgmma_tf32_n" + std::to_string(n);
    out += "#ifndef TS_HOST_MMA\nTS_INLINE void " + fn + "(float* d, uint64_t a, uint64_t b) {\n" +
           wgmma_asm(n, tf32, accumulator_outputs(n)) + "}\n#else\nTS_INLINE void " + fn +
           "(float* d, uint64_t a, uint64_t b) { emu_wgmma_tf32(d, a, b, " + std::to_string(n) + "); }\n#endif\n";
  }
  // A from registers (Pipeline::wgmma_transposed).
  for (int64_t n : wgmma_rs_widths_) {
    const std::string fn = "ts_wgmma_tf32_rs_n" + std::to_string(n);
    out += "#ifndef TS_HOST_MMA\nTS_INLINE void " + fn + "(float* d, const uint32_t* a, uint64_t b) {\n" +
           wgmma_asm(n, tf32, accumulator_outputs(n), true) + "}\n#else\nTS_INLINE void " + fn +
           "(float* d, const uint32_t* a, uint64_t b) { emu_wgmma_tf32_rs(d, a, b, " + std::to_string(n) + "); }\n#endif\n";
  }
  // 16-bit dots (wgmma_16bit): m64nNk16, the transpose bits in the name.
  for (const auto& [n, bf16, ta, tb] : wgmma16_helpers_) {
    const std::string type = bf16 ? "bf16" : "f16";
    const std::string fn = "ts_wgmma_" + type + "_n" + std::to_string(n) + "_" + (ta ? "t" : "n") + (tb ? "t" : "n");
    const std::string transposes = std::string(", ") + (ta ? "1" : "0") + ", " + (tb ? "1" : "0");
    out += "#ifndef TS_HOST_MMA\nTS_INLINE void " + fn + "(float* d, uint64_t a, uint64_t b) {\n" +
           wgmma_asm(n, "k16.f32." + type + "." + type, accumulator_outputs(n), false, transposes) +
           "}\n#else\nTS_INLINE void " + fn + "(float* d, uint64_t a, uint64_t b) { emu_wgmma_16(d, a, b, " +
           std::to_string(n) + ", " + (bf16 ? "true" : "false") + ", " + (ta ? "true" : "false") + ", " +
           (tb ? "true" : "false") + "); }\n#endif\n";
  }
  // 16-bit with A from registers (Pipeline::wgmma_register_a): only B's
  // transpose bit.
  for (const auto& [n, bf16, tb] : wgmma16_rs_helpers_) {
    const std::string type = bf16 ? "bf16" : "f16";
    const std::string fn = "ts_wgmma_" + type + "_rs_n" + std::to_string(n) + "_" + (tb ? "t" : "n");
    out += "#ifndef TS_HOST_MMA\nTS_INLINE void " + fn + "(float* d, const uint32_t* a, uint64_t b) {\n" +
           wgmma_asm(n, "k16.f32." + type + "." + type, accumulator_outputs(n), true, std::string(", ") + (tb ? "1" : "0")) +
           "}\n#else\nTS_INLINE void " + fn + "(float* d, const uint32_t* a, uint64_t b) { emu_wgmma_16_rs(d, a, b, " +
           std::to_string(n) + ", " + (bf16 ? "true" : "false") + ", " + (tb ? "true" : "false") + "); }\n#endif\n";
  }
  // Fused pairs (Pipeline::wgmma_pairs): the first dot's accumulator holds
  // columns 0..N/2-1 of the wide result, the second's the rest.
  for (int64_t n : wgmma_pair_widths_) {
    const std::string fn = "ts_wgmma_tf32_pair_n" + std::to_string(n), h = std::to_string(n / 4);
    std::string outs;
    for (int64_t i = 0; i < n / 2; ++i)
      outs += std::string(i ? ", " : "") + "\"+f\"(" + (i < n / 4 ? "d0[" + std::to_string(i) : "d1[" + std::to_string(i - n / 4)) + "])";
    out += "#ifndef TS_HOST_MMA\nTS_INLINE void " + fn + "(float* d0, float* d1, uint64_t a, uint64_t b) {\n" +
           wgmma_asm(n, tf32, outs) + "}\n#else\nTS_INLINE void " + fn + "(float* d0, float* d1, uint64_t a, uint64_t b) {\n" +
           "  float d[" + std::to_string(n / 2) + "];\n" + "  for (int i = 0; i < " + h + "; ++i) d[i] = d0[i], d[i + " + h +
           "] = d1[i];\n" + "  emu_wgmma_tf32(d, a, b, " + std::to_string(n) + ");\n" + "  for (int i = 0; i < " + h +
           "; ++i) d0[i] = d[i], d1[i] = d[i + " + h + "];\n}\n#endif\n";
  }
  return out;
}

}  // namespace tl::gpu::detail
