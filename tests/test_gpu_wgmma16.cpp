// 16-bit (bf16, f16) dots by wgmma (CodegenOptions::wgmma): operands M- or
// N-major by the instruction's transpose bits, 128-byte swizzled in columns
// of 64 values or in core matrices, and an operand computed in registers
// (E4's dequantized X) written to its stage as K-major core matrices. What
// the generated code looks like and that NVRTC takes it (CI has no GPU);
// what it computes, by the host emulation of the descriptors
// (gpu_host_emu_tensor_cores.h) against the interpreter. The GPU confirms
// the emulation's reading of the descriptors (test_gpu_run.cpp).
#ifdef TILESCOPE_HAVE_GPU
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "codegen.h"
#include "codegen_text.h"
#include "dot_cases.h"
#include "gpu_host_runner.h"
#include "harness.h"
#include "nvrtc_compiler.h"
#include "wgmma16_cases.h"

using codegen_text::body_of;
using codegen_text::has;
using wgmma16_cases::e4_rows_at;
using wgmma16_cases::wgmma_at;

TEST_CASE("wgmma: E4's bf16 dot reads dY M-major and the dequantized X from the stage", "[gpu][codegen]") {
  const tl::gpu::BenchCase c = e4_rows_at(128, 256, 32, 1, 3);
  puzzles::RunBuffers b = puzzles::make_buffers(*c.puzzle, c.set, 0);
  auto ir = tl::build_ir(*c.puzzle->solution, puzzles::launch_args(c.set, b));
  const tl::gpu::LoweredKernel k = tl::gpu::lower(*ir, wgmma_at(8));
  const std::string body = body_of(k.source);
  // A = dY^T: dY's [32, 128] tile in two 128-byte swizzled columns of 64
  // rows of dW (warpgroup g's), 4096 bytes apart; B = X from registers, one
  // 16-byte store per 8 values along k, in K-major core matrices.
  CHECK(has(k.source, "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {%0,"));
  CHECK(has(k.source, "}, %128, %129, p, 1, 1, 1, 0;"));
  CHECK(has(body, "ts_wgmma_bf16_n256_tn(r"));
  // Offsets go on the base's descriptor (in 16-byte units), not its pointer.
  CHECK(has(body, "(ts_wgmma_desc_sw128_mn(sa, 4096) + (uint64_t)((ts_wg * 2048 + 1024) >> 3)), (ts_wgmma_desc(sb, 128, 512) + (uint64_t)((128) >> 3)));"));
  // The dequantized values go to bf16 two at a time, from their f32 values
  // (one paired conversion per word), and the 2-bit codes to f32 without
  // the conversion unit.
  CHECK(has(body, "ts_st_shared16(sb + (tid >> 3) * 256 + 64 + (tid & 7) * 8, ts_pack2_bf16_rn(r"));
  CHECK(has(body, "= ts_u23_mask_to_f32(r"));
  CHECK(has(body, "(ts_i) / 64 * 2048 + (ts_o) * 64 + ((((ts_i) % 64) / 8) ^ ((ts_o) & 7)) * 8;"));
  CHECK(body.find("ts_fence_proxy_async();") > body.find("ts_st_shared16(sb"));
  CHECK(has(body, "ts_wgmma_wait<1>();"));
  CHECK_FALSE(has(body, "ts_mma_bf16(&r"));
  CHECK_NOTHROW(tl::gpu::nvrtc_compile(k.source, k.name, tl::gpu::CompileOptions{}, ""));
  // At BN = 128 a thread holds every other k of a column: X goes N-major in
  // swizzled columns (a warp's stores of one k row are 64 contiguous
  // bytes), written once for the two row blocks' dots.
  const tl::gpu::BenchCase c2 = e4_rows_at(128, 128, 32, 2, 3);
  puzzles::RunBuffers b2 = puzzles::make_buffers(*c2.puzzle, c2.set, 0);
  const tl::gpu::LoweredKernel k2 = tl::gpu::lower(*tl::build_ir(*c2.puzzle->solution, puzzles::launch_args(c2.set, b2)), wgmma_at(8));
  const std::string body2 = body_of(k2.source);
  CHECK(has(body2, "(ts_wgmma_desc_sw128_mn(sb, 4096) + (uint64_t)((1024) >> 3)));"));
  CHECK(has(body2, ") / 64 * 2048 + ("));
  // In runs of 8 along its rows (CodegenOptions::register_operand_runs):
  // a thread's 8 neighbours of a k row are one 16-byte store, and the
  // packed word, scale and minimum they share are read at an index without
  // the place in the run (one address, which NVVM reads once).
  CHECK(has(body2, "ts_st_shared16(sb + ((1 * 2048 + tid * 8) % 128) / 64 * 2048 + "));
  CHECK_FALSE(has(body2, "sb[("));
  for (size_t at = body2.find("ts_smem + ts_pipe + ts_st"); at != std::string::npos;
       at = body2.find("ts_smem + ts_pipe + ts_st", at + 1)) {
    const std::string line = body2.substr(at, body2.find('\n', at) - at);
    INFO(line);
    CHECK_FALSE(has(line, "(s) % 8)"));
  }
  tl::gpu::CodegenOptions no_runs = wgmma_at(8);
  no_runs.register_operand_runs = false;
  CHECK(has(body_of(tl::gpu::lower(*tl::build_ir(*c2.puzzle->solution, puzzles::launch_args(c2.set, b2)), no_runs).source),
            "sb[("));
  CHECK(has(body2, "ts_wgmma_wait<2>();"));
  const size_t first = body2.find("ts_wgmma_bf16_n128_tt(r"), second = body2.find("ts_wgmma_bf16_n128_tt(r", first + 1);
  CHECK(body2.find("__bfloat16_as_ushort(", first) > body2.find("ts_wgmma_commit();", second));  // no second copy of X
  // The next copies go behind this iteration's groups
  // (CodegenOptions::wgmma_copies_after_dots): after the last commit, before
  // the wait that leaves the groups in flight; or, off, before the first dot.
  const size_t last_commit = body2.find("ts_wgmma_commit();", second), wait = body2.find("ts_wgmma_wait<2>();");
  const size_t copy = body2.find("ts_cp_async16(", body2.find("ts_wgmma_bf16_n128_tt(r"));
  CHECK(copy > last_commit);
  CHECK(copy < wait);
  tl::gpu::CodegenOptions copies_first = wgmma_at(8);
  copies_first.wgmma_copies_after_dots = false;
  const std::string body3 =
      body_of(tl::gpu::lower(*tl::build_ir(*c2.puzzle->solution, puzzles::launch_args(c2.set, b2)), copies_first).source);
  const size_t first3 = body3.find("ts_wgmma_bf16_n128_tt(r");
  CHECK(body3.rfind("ts_cp_async16(", first3) > body3.rfind("__syncthreads();", first3));
  CHECK(body3.find("ts_cp_async16(", first3) == std::string::npos);
  CHECK_NOTHROW(tl::gpu::nvrtc_compile(k2.source, k2.name, tl::gpu::CompileOptions{}, ""));
  // Without wgmma, or at 4 warps (a warpgroup per 64 of the dot's 128
  // rows needs 8): mma.sync as before.
  tl::gpu::CodegenOptions off = wgmma_at(8);
  off.wgmma = false;
  CHECK(has(tl::gpu::lower(*ir, off).source, "ts_mma_bf16(&r"));
  CHECK_FALSE(has(tl::gpu::lower(*ir, wgmma_at(4)).source, "ts_wgmma_bf16"));
}

TEST_CASE("emulated: E4 by bf16 wgmma computes what the interpreter computes", "[gpu][emulated]") {
  for (auto [bn, bk, rows, split, stages, in_flight, suffix] : wgmma16_cases::e4_forms) {
    const tl::gpu::BenchCase c = e4_rows_at(128, bn, bk, rows, split);
    INFO("e4_rows at " << c.set.sizes.str() << " | " << c.set.blocks.str() << ", stages " << stages << ", in flight "
                       << in_flight);
    dot_cases::check_against_interpreter(c, [&](const tl::ir::Kernel& ir, tl::Grid grid, const std::vector<tl::Arg>& args) {
      const tl::gpu::LoweredKernel k = tl::gpu::lower(ir, wgmma_at(8, stages, in_flight));
      REQUIRE(has(k.source, "ts_wgmma_bf16_n" + std::to_string(bn) + suffix));
      gpu_host::HostKernel(ir, k).run(grid, args);
    });
  }
}

TEST_CASE("emulated: E4 with dY copied by TMA computes what the interpreter computes", "[gpu][emulated]") {
  // e4_rows masks its rows by K (the tensor's bound), so dY's tiles are
  // rectangles the TMA unit copies, a box per 128-byte column.
  for (auto [bm, bn, bk, rows, stages, cout] : wgmma16_cases::e4_tma_forms) {
    const tl::gpu::BenchCase c = e4_rows_at(bm, bn, bk, rows, 3, 300, cout);
    INFO("e4_rows at " << c.set.sizes.str() << " | " << c.set.blocks.str() << ", stages " << stages);
    dot_cases::check_against_interpreter(c, [&](const tl::ir::Kernel& ir, tl::Grid grid, const std::vector<tl::Arg>& args) {
      const tl::gpu::LoweredKernel k = tl::gpu::lower(ir, wgmma16_cases::e4_tma_at(bm, stages));
      REQUIRE(has(k.source, "ts_wgmma_bf16_n" + std::to_string(bn)));
      REQUIRE(k.tensor_maps.size() == static_cast<size_t>(rows));  // one a row block's dY tile
      REQUIRE(has(k.source, "a box per 128-byte column"));
      gpu_host::HostKernel h(ir, k);
      h.run(grid, args);
      CHECK(h.tma_used() == (cout * 2 % 16 == 0));
    });
  }
}

TEST_CASE("wgmma: E4's X written into the stage is fenced to the async proxy before the barrier on the TMA path too",
          "[gpu][codegen]") {
  // The threads' stores of X go through the generic proxy, wgmma reads the
  // stage through the async proxy: each path (TMA, and its cp.async
  // fallback) fences between them before the barrier that publishes the
  // stage. Without it on the TMA path, the BN 64 x 2 form computed wrong
  // results on the GPU at its bench size, different from run to run.
  for (int stages : {0, 3}) {
    const auto ir = dot_cases::case_ir(e4_rows_at(128, 64, 32, 2, 3, 300, 200));
    const std::string body = body_of(tl::gpu::lower(*ir, wgmma16_cases::e4_tma_at(128, stages)).source);
    INFO("stages " << stages);
    const size_t loop = body.find("for (int64_t it");
    REQUIRE(loop != std::string::npos);
    const size_t x_store = body.find("ts_st_shared16(sb", loop), wait = body.find("ts_mbar_wait(", loop);
    REQUIRE(x_store != std::string::npos);
    REQUIRE(wait != std::string::npos);
    CHECK(x_store < wait);
    const size_t fallback = body.find("} else {", wait), barrier = body.find("__syncthreads();", wait);
    CHECK(body.find("ts_fence_proxy_async();", wait) < fallback);
    CHECK(body.find("ts_fence_proxy_async();", fallback) < barrier);
  }
}

TEST_CASE("emulated: E4 as C^T with X^T fed to wgmma from registers computes what the interpreter computes",
          "[gpu][emulated]") {
  for (auto [bm, bn, bk, rows, split, stages] : wgmma16_cases::register_a_forms) {
    const tl::gpu::BenchCase c = e4_rows_at(bm, bn, bk, rows, split);
    INFO("e4_rows at " << c.set.sizes.str() << " | " << c.set.blocks.str() << ", stages " << stages);
    dot_cases::check_against_interpreter(c, [&](const tl::ir::Kernel& ir, tl::Grid grid, const std::vector<tl::Arg>& args) {
      const tl::gpu::LoweredKernel k = tl::gpu::lower(ir, wgmma16_cases::register_a_at(stages));
      REQUIRE(has(k.source, "ts_wgmma_bf16_rs_n" + std::to_string(bm) + "_t(r"));
      gpu_host::HostKernel(ir, k).run(grid, args);
    });
  }
}

TEST_CASE("emulated: E4 with its copies before or behind its in-flight groups computes what the interpreter computes",
          "[gpu][emulated]") {
  // CodegenOptions::wgmma_copies_after_dots both ways (the tuner tries both).
  for (auto [bn, rows] : {std::pair{128, 2}, std::pair{64, 2}})
    for (bool behind : {true, false}) {
      const tl::gpu::BenchCase c = e4_rows_at(128, bn, 32, rows, 3);
      INFO("e4_rows at " << c.set.sizes.str() << " | " << c.set.blocks.str() << ", copies behind " << behind);
      dot_cases::check_against_interpreter(c, [&](const tl::ir::Kernel& ir, tl::Grid grid, const std::vector<tl::Arg>& args) {
        tl::gpu::CodegenOptions cg = wgmma_at(8, 4);
        cg.wgmma_copies_after_dots = behind;
        const tl::gpu::LoweredKernel k = tl::gpu::lower(ir, cg);
        REQUIRE(k.copies_behind_dots == (behind ? 1 : 0));
        gpu_host::HostKernel(ir, k).run(grid, args);
      });
    }
}

TEST_CASE("emulated: E4 fused and split-K by bf16 wgmma at 4 warps compute what the interpreter computes",
          "[gpu][emulated]") {
  // Their bench blocks (BM 64: one warpgroup) take wgmma at 4 warps, as the
  // tuner picks them: dY^T in one
  // swizzled column, X [32, 64] from registers N-major.
  for (const char* name : {"e4_fused", "e4_splitk"}) {
    const tl::gpu::BenchCase c = dot_cases::bench_case_sized(name, {{"K", 300}, {"COUT", 100}, {"CIN", 512}});
    INFO(name << " at " << c.set.sizes.str() << " | " << c.set.blocks.str());
    dot_cases::check_against_interpreter(c, [&](const tl::ir::Kernel& ir, tl::Grid grid, const std::vector<tl::Arg>& args) {
      const tl::gpu::LoweredKernel k = tl::gpu::lower(ir, wgmma_at(4));
      REQUIRE(has(k.source, "ts_wgmma_bf16_n64_tt(r"));
      gpu_host::HostKernel(ir, k).run(grid, args);
    });
  }
}

TEST_CASE("emulated: bf16 wgmma reads K-, M- and N-major operands in every layout", "[gpu][emulated]") {
  wgmma16_cases::check_layout_forms([](const tl::ir::Kernel& ir, const tl::gpu::LoweredKernel& k, tl::Grid grid,
                                       const std::vector<tl::Arg>& args) { gpu_host::HostKernel(ir, k).run(grid, args); });
}

#endif  // TILESCOPE_HAVE_GPU
