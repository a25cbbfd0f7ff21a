// 16-bit wgmma forms the emulated tests (test_gpu_wgmma16.cpp) and the GPU
// tests (test_gpu_run.cpp) both run: E4's rows kernel at wgmma's blocks, and
// a bf16 tile dot with its operands in every layout the code generator
// stages them in.
#pragma once
#include <catch2/catch.hpp>

#include <bit>
#include <cstdint>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "bench_cases.h"
#include "codegen.h"
#include "dot_cases.h"
#include "gpu_compare.h"
#include "harness.h"
#include "tl.h"

namespace wgmma16_cases {

// e4_rows at the given blocks on a small problem with tails: K not a
// multiple of the K slices, COUT not of BM.
inline tl::gpu::BenchCase e4_rows_at(int64_t bm, int64_t bn, int64_t bk, int64_t row_blocks, int64_t split_k,
                                     int64_t k = 300, int64_t cout = 200, int64_t cin = 512) {
  tl::gpu::BenchCase c = dot_cases::bench_case_sized("e4_rows", {{"K", k}, {"COUT", cout}, {"CIN", cin}});
  c.set.blocks = {{"BM", bm}, {"BN", bn}, {"BK", bk}, {"ROW_BLOCKS", row_blocks}, {"SPLIT_K", split_k}};
  return c;
}

// wgmma with a computed operand written to the stage (the default; the
// forms below pin it, register_a_forms the other).
inline tl::gpu::CodegenOptions wgmma_at(int warps, int stages = 0, bool in_flight = true) {
  tl::gpu::CodegenOptions cg = dot_cases::wgmma_options(warps, stages, in_flight);
  cg.wgmma_register_a = false;
  return cg;
}

// E4 rows as C^T with X^T fed to wgmma from registers
// (CodegenOptions::wgmma_register_a), 8 warps: (BM, BN, BK, ROW_BLOCKS,
// SPLIT_K, stages). BN = 128 (a warpgroup per 64 of X's columns); the dots'
// wgmma n = BM, 256 and 128, one and two row blocks (the second row block
// past COUT: all masked), BK 32 and 64, two to four stages.
inline const std::vector<std::tuple<int64_t, int64_t, int64_t, int64_t, int64_t, int>> register_a_forms = {
    {128, 128, 32, 2, 2, 0}, {256, 128, 32, 1, 3, 3}, {128, 128, 64, 2, 3, 2}, {64, 128, 32, 3, 2, 4}};

inline tl::gpu::CodegenOptions register_a_at(int stages) {
  tl::gpu::CodegenOptions cg = wgmma_at(8, stages);
  cg.wgmma_register_a = true;
  return cg;
}

// E4 rows at 8 warps: (BN, BK, ROW_BLOCKS, SPLIT_K, stages, in flight, the
// helper's suffix). BN = 256: X written K-major a thread a column (16-byte
// stores); BN = 128 with two row blocks and 64 with two or three: N-major in
// swizzled columns, in runs of 8 along the rows (one 16-byte store each),
// once for every dot. Stages: the default, three, two
// (each group waited for at once), and waited for.
inline const std::vector<std::tuple<int64_t, int64_t, int64_t, int64_t, int, bool, const char*>> e4_forms = {
    {256, 32, 1, 3, 0, true, "_tn(r"}, {256, 64, 1, 2, 3, true, "_tn(r"},  {256, 32, 1, 2, 2, true, "_tn(r"},
    {256, 32, 1, 3, 4, false, "_tn(r"}, {128, 32, 2, 2, 0, true, "_tt(r"}, {128, 64, 2, 3, 2, true, "_tt(r"},
    {64, 32, 3, 3, 0, true, "_tt(r"}, {64, 32, 2, 3, 0, true, "_tt(r"}};

// E4 rows with dY's tiles copied by TMA (CodegenOptions::tma), a warpgroup
// per 64 rows of a dot, 3 K slices over K = 300 (the last one's last step
// short): (BM, BN, BK, ROW_BLOCKS, stages, COUT). COUT = 200: rows of 400
// bytes, TMA, the last row block's columns past COUT filled with zeros;
// COUT = 100: rows of 200 bytes, which the TMA unit cannot stride, so the
// kernel's cp.async form. BM 256: 16 warps.
inline const std::vector<std::tuple<int64_t, int64_t, int64_t, int64_t, int, int64_t>> e4_tma_forms = {
    {128, 64, 32, 2, 0, 200}, {128, 128, 32, 2, 3, 200}, {128, 256, 64, 1, 2, 200}, {128, 64, 32, 2, 0, 100},
    {256, 128, 32, 1, 0, 200}};

inline tl::gpu::CodegenOptions e4_tma_at(int64_t bm, int stages) {
  tl::gpu::CodegenOptions cg = wgmma_at(static_cast<int>(bm / 16), stages);
  cg.tma = true;
  return cg;
}

// E4 rows warp-specialized (CodegenOptions::warp_specialize): a producer
// warpgroup after the BM / 16 consumer warps, 3 K slices over K = 300:
// (BM, BN, BK, ROW_BLOCKS, stages, COUT, producer warpgroups). Three and
// four stages (copies one and two iterations ahead), BN 64 to 256 (X in
// runs of 8, or one column a thread), two or one row blocks, 16 consumer
// warps; COUT = 100: the kernel's cp.async form, where the consumers run
// the loop alone; two producer warpgroups, each half of X (the bench's
// form at BK 64, and the cp.async form, where they give their registers
// back and return); three row blocks at BN 64 (384 rows of dW a program,
// 184 of them past COUT).
inline const std::vector<std::tuple<int64_t, int64_t, int64_t, int64_t, int, int64_t, int>> e4_specialized_forms = {
    {128, 128, 32, 2, 0, 200, 1}, {128, 128, 32, 2, 3, 200, 1}, {128, 64, 32, 2, 4, 200, 1},
    {128, 256, 32, 1, 3, 200, 1}, {128, 128, 64, 2, 4, 200, 1}, {256, 128, 32, 1, 0, 200, 1},
    {128, 128, 32, 2, 0, 100, 1}, {128, 128, 64, 2, 3, 200, 2}, {128, 64, 32, 2, 4, 200, 2},
    {128, 128, 32, 2, 0, 100, 2}, {128, 64, 64, 3, 3, 200, 1}};

inline tl::gpu::CodegenOptions e4_specialized_at(int64_t bm, int stages, int producers) {
  tl::gpu::CodegenOptions cg = e4_tma_at(bm, stages);
  cg.warp_specialize = true;
  cg.producer_warpgroups = producers;
  return cg;
}

// C = A @ B in bf16 over BM x BN x BK tiles; A read as [M, K] (K-major),
// or with A_FORM 1 as the transpose of At [K, M] (M-major), or with A_FORM 2
// as [M, K] doubled in registers (an operand the dot reads from registers,
// written to the stage); B [K, N] always has n along its rows (N-major).
inline void bf16_dot_kernel(tl::Ptr A, tl::Ptr At, tl::Ptr B, tl::Ptr C, tl::Int M, tl::Int N, tl::Int K, tl::Const BM,
                            tl::Const BN, tl::Const BK, tl::Const A_FORM) {
  auto rows = tl::program_id(0) * BM + tl::arange(0, BM);
  auto cols = tl::program_id(1) * BN + tl::arange(0, BN);
  auto acc = tl::zeros({BM, BN}, tl::f32);
  for (auto k : tl::range(0, K, BK)) {
    auto ks = k + tl::arange(0, BK);
    auto read_a = [&] { return tl::load(A + rows.col() * K + ks.row(), (rows < M).col() & (ks < K).row(), 0.0f); };
    auto a = A_FORM == 1   ? tl::trans(tl::load(At + ks.col() * M + rows.row(), (ks < K).col() & (rows < M).row(), 0.0f))
             : A_FORM == 2 ? (read_a() * 2.0f).to(tl::bf16)  // doubling is exact
                           : read_a();
    auto b = tl::load(B + ks.col() * N + cols.row(), (ks < K).col() & (cols < N).row(), 0.0f);
    acc = tl::dot(a, b, acc);
  }
  tl::store(C + rows.col() * N + cols.row(), acc, (rows < M).col() & (cols < N).row());
}
inline const tl::KernelDef bf16_dot("bf16_dot", &bf16_dot_kernel);

// (BN, BK, A_FORM, the helper's suffix) at 4 warps: B N-major at BN = 32
// (64-byte rows: core matrices), 64 (one swizzled column) and 128 (two); A
// K-major at BK = 32 (core matrices) and 64 (rows of 128 bytes, swizzled),
// M-major, or from registers (K-major core matrices).
inline const std::vector<std::tuple<int64_t, int64_t, int64_t, const char*>> layout_forms = {
    {32, 32, 0, "_nt(r"}, {64, 64, 0, "_nt(r"}, {128, 32, 1, "_tt(r"}, {64, 32, 1, "_tt(r"}, {64, 32, 2, "_nt(r"}};

// bf16_dot at each layout form, M, N and K with tails: the interpreter,
// then `run(ir, lowered, grid, args)` from the same inputs, compared.
template <class Run>
void check_layout_forms(Run run) {
  const int64_t M = 70, N = 150, K = 100;
  std::mt19937 gen(5);
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  auto bf16 = [](float f) { return static_cast<uint16_t>(std::bit_cast<uint32_t>(f) >> 16); };
  tl::Buffer A("A", tl::DType::bf16, {M, K}), At("At", tl::DType::bf16, {K, M}), B("B", tl::DType::bf16, {K, N});
  for (int64_t m = 0; m < M; ++m)
    for (int64_t k = 0; k < K; ++k) A.as<uint16_t>()[m * K + k] = At.as<uint16_t>()[k * M + m] = bf16(value(gen));
  for (int64_t i = 0; i < K * N; ++i) B.as<uint16_t>()[i] = bf16(value(gen));
  const tl::Buffer C("C", tl::DType::f32, {M, N});
  for (auto [bn, bk, a_form, suffix] : layout_forms) {
    INFO("BN " << bn << ", BK " << bk << (a_form == 1 ? ", A M-major" : a_form == 2 ? ", A from registers" : ", A K-major"));
    std::vector<tl::Buffer> ib = {A, At, B, C}, rb = ib;
    auto bind = [&](std::vector<tl::Buffer>& b) {
      return std::vector<tl::Arg>{b[0], b[1], b[2], b[3], tl::Arg(M), tl::Arg(N), tl::Arg(K), tl::Arg(int64_t{64}),
                                  tl::Arg(int64_t{bn}), tl::Arg(int64_t{bk}), tl::Arg(int64_t{a_form})};
    };
    const tl::Grid grid{(M + 63) / 64, (N + bn - 1) / bn, 1};
    tl::run(bf16_dot, grid, bind(ib));
    const std::vector<tl::Arg> args = bind(rb);
    auto ir = tl::build_ir(bf16_dot, args);
    const tl::gpu::LoweredKernel k = tl::gpu::lower(*ir, wgmma_at(4));
    REQUIRE(k.source.find("ts_wgmma_bf16_n" + std::to_string(bn) + suffix) != std::string::npos);
    run(*ir, k, grid, args);
    const tl::gpu::BufferDiff d = tl::gpu::diff_buffers(ib[3], rb[3], tl::gpu::tolerance_for(*ir, tl::DType::f32));
    INFO(d.str());
    CHECK(d.pass);
  }
}

}  // namespace wgmma16_cases
