// Tensor-core dot kernels and cases the GPU tests share: a tiled
// C = A @ Bt^T with its A mask chosen by the caller, and a bench case's
// kernel and blocks at sizes of the test's choosing (small, with tails).
#pragma once
#include <catch2/catch.hpp>

#include <cstdint>
#include <memory>
#include <tuple>
#include <utility>
#include <vector>

#include "bench_cases.h"
#include "codegen.h"
#include "gpu_compare.h"
#include "harness.h"
#include "inputs.h"
#include "tl.h"

namespace dot_cases {

// C = A @ Bt^T over tiles of 64 x 64 x 32, its A tile masked by
// `a_mask(rows, ks, M, K)`; Bt and C masked by their bounds.
template <class AMask>
void tile_dot(tl::Ptr A, tl::Ptr Bt, tl::Ptr C, tl::Int M, tl::Int N, tl::Int K, AMask a_mask) {
  constexpr int BM = 64, BN = 64, BK = 32;
  auto rows = tl::program_id(0) * BM + tl::arange(0, BM);
  auto cols = tl::program_id(1) * BN + tl::arange(0, BN);
  auto acc = tl::zeros({BM, BN}, tl::f32);
  for (auto k : tl::range(0, K, BK)) {
    auto ks = k + tl::arange(0, BK);
    auto a = tl::load(A + rows.col() * K + ks.row(), a_mask(rows, ks, M, K), 0.0f);
    auto b = tl::load(Bt + cols.row() * K + ks.col(), (ks < K).col() & (cols < N).row(), 0.0f);
    acc = tl::dot(a, b, acc);
  }
  tl::store(C + rows.col() * N + cols.row(), acc, (rows < M).col() & (cols < N).row());
}

// The mask of every element inside [M, K].
inline auto in_bounds = [](auto rows, auto ks, tl::Int M, tl::Int K) { return (rows < M).col() & (ks < K).row(); };

// Bench case `name` (its kernel and blocks) at the given sizes.
inline tl::gpu::BenchCase bench_case_sized(const char* name, puzzles::Params sizes) {
  for (tl::gpu::BenchCase c : tl::gpu::anchor_cases())
    if (c.name == name) {
      c.set.sizes = std::move(sizes);
      return c;
    }
  FAIL("no bench case " << name);
  return {};
}

// Bench case `name` at sizes M, N, K (E1's).
inline tl::gpu::BenchCase bench_case_at(const char* name, int64_t M, int64_t N, int64_t K) {
  return bench_case_sized(name, {{"M", M}, {"N", N}, {"K", K}});
}

// The IR of a bench case's kernel at its sizes and blocks (the buffers
// only give their dtypes: the IR keeps none of them).
inline std::shared_ptr<const tl::ir::Kernel> case_ir(const tl::gpu::BenchCase& c) {
  puzzles::RunBuffers b = puzzles::make_buffers(*c.puzzle, c.set, 0);
  return tl::build_ir(*c.puzzle->solution, puzzles::launch_args(c.set, b));
}

// wgmma at `warps` and `stages` (0: the code generator's choice), its
// groups in flight or waited for, the staged tiles by TMA or cp.async.
inline tl::gpu::CodegenOptions wgmma_options(int warps, int stages = 0, bool in_flight = true, bool tma = false) {
  tl::gpu::CodegenOptions cg;
  cg.wgmma = true;
  cg.num_warps = warps;
  cg.num_stages = stages;
  cg.wgmma_in_flight = in_flight;
  cg.tma = tma;
  return cg;
}

// A bench case run by the interpreter and once more by `run(ir, grid,
// args)` (the GPU or the host emulation) from the same inputs; the output
// compared at the interpreter-vs-GPU tolerance.
template <class Run>
void check_against_interpreter(const tl::gpu::BenchCase& c, Run run) {
  puzzles::RunBuffers ib = puzzles::make_buffers(*c.puzzle, c.set, 1), rb = puzzles::make_buffers(*c.puzzle, c.set, 1);
  const tl::Grid grid = puzzles::grid_for(c.set);
  tl::run(*c.puzzle->solution, grid, puzzles::launch_args(c.set, ib));
  const std::vector<tl::Arg> args = puzzles::launch_args(c.set, rb);
  auto ir = tl::build_ir(*c.puzzle->solution, args);
  run(*ir, grid, args);
  const tl::gpu::BufferDiff diff = tl::gpu::diff_buffers(ib.output, rb.output, tl::gpu::tolerance_for(*ir, ib.output.dtype()));
  INFO(diff.str());
  CHECK(diff.pass);
}

// p11 (N2 = 1) at the given blocks, on a small problem with tails on every
// axis: at B1 = 16 x warps its dot runs wgmma as C^T = B^T A^T.
inline tl::gpu::BenchCase p11_at(int64_t b0, int64_t b1, int64_t bk) {
  tl::gpu::BenchCase c = bench_case_sized("p11", {{"N0", 130}, {"N1", 150}, {"N2", 1}, {"MID", 70}});
  c.set.blocks = {{"B0", b0}, {"B1", b1}, {"B2", 1}, {"B_MID", bk}};
  return c;
}

// p11 at the given blocks and sizes (the batch term too: N2 > 1).
inline tl::gpu::BenchCase p11_sized(int64_t b0, int64_t b1, int64_t bk, int64_t n0, int64_t n1, int64_t n2, int64_t mid) {
  tl::gpu::BenchCase c = p11_at(b0, b1, bk);
  c.set.sizes = {{"N0", n0}, {"N1", n1}, {"N2", n2}, {"MID", mid}};
  return c;
}

// p11's TMA forms at BK = 64 (x's rows of 256 bytes: a box per 128-byte
// column), as p11_cluster_forms without clusters (one box a column, never
// halves): MID = 72 by the TMA unit, 70 by the cp.async form (y, by TMA
// too, needs N1 % 4 == 0 as well); batched too.
inline const std::vector<std::tuple<int64_t, int64_t, int64_t, int, int, int64_t, int64_t, int64_t, int64_t>>
    p11_wide_k_tma_forms = {{256, 128, 64, 8, 2, 300, 200, 2, 72},
                            {128, 64, 64, 4, 3, 130, 148, 1, 72},
                            {256, 128, 64, 8, 2, 300, 200, 1, 70}};

// p11's forms with TMA and clusters (CodegenOptions::cluster_multicast):
// blocks B0, B1, BK, warps, stages, sizes N0, N1, N2, MID. Tails on every
// axis; MID = 72 has rows the TMA unit can stride, MID = 70 does not (the
// kernel's cp.async copies), nor does N1 = 150 for y's
// (CodegenOptions::wgmma_b_tma): the whole launch falls back; N1 = 148
// at B1 = 64 gives an odd grid axis (no clusters: one thread issues both
// halves of the x tile).
inline const std::vector<std::tuple<int64_t, int64_t, int64_t, int, int, int64_t, int64_t, int64_t, int64_t>>
    p11_cluster_forms = {{256, 128, 32, 8, 3, 300, 200, 2, 72},
                         {128, 128, 32, 8, 0, 130, 150, 1, 72},
                         {128, 64, 32, 4, 4, 130, 148, 2, 72},
                         {256, 128, 32, 8, 3, 300, 200, 1, 70}};

// The transposed wgmma's forms the tests run: blocks B0, B1, BK, warps,
// stages (0: the code generator's choice). Swizzled rows (BK = 32), two
// swizzled 128-byte columns (BK = 64) and core matrices (BK = 16); C^T's
// accumulator 256, 128 and 64 wide; one, two and four warpgroups; two to
// four stages.
inline const std::vector<std::tuple<int64_t, int64_t, int64_t, int, int>> p11_transposed_forms = {
    {128, 128, 32, 8, 0}, {128, 64, 32, 4, 0}, {64, 128, 32, 8, 3}, {128, 128, 16, 8, 2}, {256, 128, 32, 8, 4},
    {256, 128, 32, 8, 3}, {256, 64, 32, 4, 4},  {256, 128, 64, 8, 2}, {128, 64, 64, 4, 3}, {128, 256, 32, 16, 4}};

// Each transposed form checked against the interpreter with wgmma on,
// its groups waited for (B^T's fragments read into registers) and in flight
// (B^T written K-major into the stage, where the form fits: BK 32, 64
// columns a warpgroup), the latter also at sizes whose rows the 16-byte
// reads and the TMA unit take (MID 72, N1 152); and waited for with the
// warpgroups decoupled (CodegenOptions::wgmma_decoupled: by TMA, at those
// sizes, where two or more warpgroups read 64 columns of B each), y by
// cp.async; and with y by TMA too (CodegenOptions::wgmma_b_tma, at those
// sizes, decoupled from 8 warps on):
// `run(ir, grid, args, lowered, b0)` runs the form's kernel (on the GPU or
// the host emulation).
template <class Run>
void check_transposed_forms(Run run) {
  enum class Form { Waited, InFlight, Decoupled, BByTma };
  for (auto [b0, b1, bk, warps, stages] : p11_transposed_forms)
    for (Form form : {Form::Waited, Form::InFlight, Form::Decoupled, Form::BByTma}) {
      const bool in_flight = form == Form::InFlight, decoupled = form == Form::Decoupled, b_tma = form == Form::BByTma;
      const bool written = in_flight && bk == 32 && b1 == 16 * warps;
      if (decoupled && !(warps >= 8 && b1 == 16 * warps)) continue;
      for (bool aligned : written ? std::vector<bool>{false, true} : std::vector<bool>{decoupled || b_tma}) {
        const tl::gpu::BenchCase c = aligned ? p11_sized(b0, b1, bk, 130, 152, 1, 72) : p11_at(b0, b1, bk);
        INFO("p11 at " << c.set.sizes.str() << " | " << c.set.blocks.str() << ", " << warps << " warps, stages " << stages
                       << ", in flight " << in_flight << ", decoupled " << decoupled << ", B by TMA " << b_tma);
        tl::gpu::CodegenOptions cg = wgmma_options(warps, stages, in_flight, aligned);
        cg.wgmma_b_in_stage = in_flight;
        cg.wgmma_decoupled = decoupled || b_tma;
        cg.wgmma_b_tma = b_tma;
        const int64_t m = b0;
        check_against_interpreter(c, [&](const tl::ir::Kernel& ir, tl::Grid grid, const std::vector<tl::Arg>& args) {
          const tl::gpu::LoweredKernel k = tl::gpu::lower(ir, cg);
          const std::string n = std::to_string(m);
          REQUIRE(k.source.find((written ? "ts_wgmma_tf32_n" : "ts_wgmma_tf32_rs_n") + n + "(r") != std::string::npos);
          REQUIRE((k.source.find("ts_rotate4(ts_w, ts_tw") != std::string::npos) == written);
          // Decoupled wherever x came by TMA (BK 16's rows are not the
          // swizzled ones the TMA unit writes); y by TMA wherever x came
          // so too, decoupled with two warpgroups or more, and without a
          // warpgroup barrier (nothing of theirs to wait for).
          const bool tma = !k.tensor_maps.empty();
          REQUIRE((k.source.find("ts_warpgroup_sync();") != std::string::npos) == (decoupled && tma));
          REQUIRE(k.decoupled == ((decoupled || (b_tma && warps >= 8)) && tma ? 1 : 0));
          REQUIRE(k.b_tma == (b_tma && tma ? 1 : 0));
          run(ir, grid, args, k, m);
        });
      }
    }
}

}  // namespace dot_cases
