// TMA copies for the staged tiles of wgmma pipelines (CodegenOptions::tma):
// which loads the code generator describes as tensors, what the
// launcher accepts, and (compiled as host C++, gpu_host_runner.h, with the
// TMA unit and mbarriers emulated) that the kernels compute what the
// interpreter computes, with TMA and where the launch falls back to cp.async.
#ifdef TILESCOPE_HAVE_GPU
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "codegen.h"
#include "codegen_text.h"
#include "device_runtime.h"
#include "dot_cases.h"
#include "gpu_compare.h"
#include "gpu_host_runner.h"
#include "harness.h"
#include "inputs.h"
#include "nvrtc_compiler.h"
#include "test_cache.h"
#include "tl.h"

namespace {

using codegen_text::has;

tl::gpu::CodegenOptions tma_options(int warps, int stages = 0, bool in_flight = true) {
  return dot_cases::wgmma_options(warps, stages, in_flight, /*tma=*/true);
}

std::shared_ptr<const tl::ir::Kernel> tile_dot_ir(const tl::KernelDef& k) {
  static tl::Buffer a("A", tl::DType::f32, {64, 64}), bt("Bt", tl::DType::f32, {64, 64}), c("C", tl::DType::f32, {64, 64});
  return tl::build_ir(k, {a, bt, c, tl::Arg(int64_t{64}), tl::Arg(int64_t{64}), tl::Arg(int64_t{64})});
}

}  // namespace

TEST_CASE("TMA: E1's staged tiles are described as the tensors A, BlT and BrT", "[gpu][codegen]") {
  const tl::gpu::BenchCase c = dot_cases::bench_case_at("e1_v1_128", 70, 100, 80);
  puzzles::RunBuffers b = puzzles::make_buffers(*c.puzzle, c.set, 0);
  auto ir = tl::build_ir(*c.puzzle->solution, puzzles::launch_args(c.set, b));
  const tl::gpu::LoweredKernel k = tl::gpu::lower(*ir, tma_options(8, 3));
  // Parameters (A, BlT, BrT, D, M, N, K | BM, BN, BK): A is [M, K] with row
  // stride K in boxes of 128 x 32; BlT and BrT are [N, K] in boxes of 64 x 32.
  REQUIRE(k.tensor_maps.size() == 3);
  for (size_t i = 0; i < 3; ++i) {
    const tl::gpu::TensorMapSpec& t = k.tensor_maps[i];
    INFO("tensor map " << i);
    CHECK(t.base_param == static_cast<int>(i));
    CHECK(t.dtype == tl::DType::f32);
    CHECK(t.cols.param == 6);
    CHECK(t.rows.param == (i == 0 ? 4 : 5));
    CHECK(t.row_stride.param == 6);
    CHECK(t.box_cols == 32);
    CHECK(t.box_rows == (i == 0 ? 128 : 64));
    CHECK(t.swizzle128);
  }
  const std::string body = k.source.substr(k.source.find("__global__"));
  CHECK(has(body, "const __grid_constant__ ts_tensor_map ts_tmap2, int ts_tma_launch)"));
  CHECK(has(body, "ts_mbar_expect_tx(ts_bar, 32768u);"));  // 128 x 32 + 2 x 64 x 32 floats a stage
  CHECK(has(body, "ts_tma_load_2d(ts_stage + 0, &ts_tmap0, "));
  CHECK(has(body, "ts_mbar_wait("));
  CHECK(has(body, "ts_mbar_inval("));
  // The cp.async copies stay in the source, for the kernel's cp.async form
  // (launches that cannot describe the tensors).
  CHECK(has(body, "ts_cp_async16(ts_dst, ts_src, 16);"));
  CHECK(has(body, "const int ts_tma_ok = TS_TMA_PATH ? (ts_tma_launch == 2 ? 2 : 1) : 0;"));
  // Groups in flight (three stages): the copies of iteration i + 2 go out
  // after the wait that retires iteration i - 1's groups, into its stage.
  CHECK(has(body, "const int64_t ts_next = it29 + 2 * (int64_t)r28;"));
  CHECK(body.rfind("ts_tma_load_2d(") > body.find("ts_wgmma_wait<1>();"));
  // The left and right dots share A and their B tiles sit side by side: one
  // m64n128 wgmma computes both accumulators, one group a step.
  CHECK(has(body, "ts_wgmma_tf32_pair_n128(r"));
  CHECK_FALSE(has(body, "ts_wgmma_tf32_n64(r"));
  CHECK(k.wgmma_dot_pairs == 1);
  tl::gpu::CodegenOptions unpaired = tma_options(8, 3);
  unpaired.wgmma_pair_dots = false;
  const std::string apart = tl::gpu::lower(*ir, unpaired).source;
  CHECK(has(apart, "ts_wgmma_tf32_n64(r"));
  CHECK(has(apart, "ts_wgmma_wait<2>();"));
  CHECK_FALSE(has(apart, "ts_wgmma_tf32_pair_n"));
  // ptxas takes it for sm_90a (CI has no GPU to run it).
  CHECK_NOTHROW(tl::gpu::nvrtc_compile(k.source, k.name, tl::gpu::CompileOptions{}, ""));
  // Off, or without wgmma: no tensor maps and the signature of before.
  tl::gpu::CodegenOptions off = tma_options(8, 3);
  off.tma = false;
  CHECK(tl::gpu::lower(*ir, off).tensor_maps.empty());
  off = tma_options(8, 3);
  off.wgmma = false;
  CHECK_FALSE(has(tl::gpu::lower(*ir, off).source, "ts_tma_ok"));
  // E1 v2's B, BiT, is [2 N, K]: its row bound is 2 * N, a product the
  // launcher computes (and refuses past i32).
  const tl::gpu::BenchCase v2 = dot_cases::bench_case_at("e1_v2", 70, 100, 80);
  puzzles::RunBuffers b2 = puzzles::make_buffers(*v2.puzzle, v2.set, 0);
  const tl::gpu::LoweredKernel k2 = tl::gpu::lower(*tl::build_ir(*v2.puzzle->solution, puzzles::launch_args(v2.set, b2)), tma_options(4));
  REQUIRE(k2.tensor_maps.size() == 2);
  CHECK(k2.tensor_maps[1].rows.param == 4);  // (A, BiT, D, M, N, K | ...)
  CHECK(k2.tensor_maps[1].rows.scale == 2);
}

// NVVM keeps one copy path in each form of a TMA kernel: the PTX of the
// TMA form has no cp.async copy where the TMA unit copies every tile (E1),
// and the cp.async form no TMA copy, no mbarrier. With the path a run-time
// branch, both forms held both (a third to a half of E1's NVRTC time).
TEST_CASE("TMA: each form of a TMA kernel compiles to its own copy path only", "[gpu][codegen]") {
  const tl::gpu::BenchCase c = dot_cases::bench_case_at("e1_v1_128", 70, 100, 80);
  puzzles::RunBuffers b = puzzles::make_buffers(*c.puzzle, c.set, 0);
  const tl::gpu::LoweredKernel k = tl::gpu::lower(*tl::build_ir(*c.puzzle->solution, puzzles::launch_args(c.set, b)), tma_options(8, 3));
  REQUIRE(k.tensor_maps.size() == 3);
  const tl::gpu::LoweredKernel f = tl::gpu::cp_async_form(k);
  CHECK(f.name == k.name);
  CHECK(f.params == k.params);
  CHECK(f.tensor_maps.size() == k.tensor_maps.size());
  const std::string tma = tl::gpu::nvrtc_ptx(k.source, k.name, tl::gpu::CompileOptions{});
  const std::string cp = tl::gpu::nvrtc_ptx(f.source, f.name, tl::gpu::CompileOptions{});
  CHECK(has(tma, "cp.async.bulk.tensor.2d"));
  CHECK(has(tma, "wgmma.mma_async"));
  CHECK_FALSE(has(tma, "cp.async.cg.shared.global"));
  CHECK(has(cp, "cp.async.cg.shared.global"));
  CHECK(has(cp, "wgmma.mma_async"));
  CHECK_FALSE(has(cp, "cp.async.bulk.tensor"));
  CHECK_FALSE(has(cp, "mbarrier"));
  // A kernel without tensor maps has no second form.
  tl::gpu::CodegenOptions off = tma_options(8, 3);
  off.tma = false;
  CHECK_THROWS_AS(tl::gpu::cp_async_form(tl::gpu::lower(*tl::build_ir(*c.puzzle->solution, puzzles::launch_args(c.set, b)), off)),
                  std::invalid_argument);
}

TEST_CASE("TMA: a mask that is not `index < launch value` on both axes keeps cp.async", "[gpu][codegen]") {
  static const tl::KernelDef plain("plain", +[](tl::Ptr A, tl::Ptr Bt, tl::Ptr C, tl::Int M, tl::Int N, tl::Int K) {
    dot_cases::tile_dot(A, Bt, C, M, N, K, dot_cases::in_bounds);
  });
  // The same elements, but the k bound is K - 1 with <=, which the launcher
  // cannot read as an extent.
  static const tl::KernelDef shifted("shifted", +[](tl::Ptr A, tl::Ptr Bt, tl::Ptr C, tl::Int M, tl::Int N, tl::Int K) {
    dot_cases::tile_dot(A, Bt, C, M, N, K, [](auto rows, auto ks, tl::Int M, tl::Int K) { return (rows < M).col() & (ks <= K - 1).row(); });
  });
  // Rows bounded, k not: no extent for the tensor's columns.
  static const tl::KernelDef rows_only("rows_only", +[](tl::Ptr A, tl::Ptr Bt, tl::Ptr C, tl::Int M, tl::Int N, tl::Int K) {
    dot_cases::tile_dot(A, Bt, C, M, N, K, [](auto rows, auto ks, tl::Int M, tl::Int) { return (rows < M).col() & (ks >= 0).row(); });
  });
  CHECK(tl::gpu::lower(*tile_dot_ir(plain), tma_options(4)).tensor_maps.size() == 2);
  // One tile that does not qualify keeps the whole pipeline on cp.async.
  CHECK(tl::gpu::lower(*tile_dot_ir(shifted), tma_options(4)).tensor_maps.empty());
  CHECK(tl::gpu::lower(*tile_dot_ir(rows_only), tma_options(4)).tensor_maps.empty());
}

TEST_CASE("TMA: the loop's cp.async fallback is rolled only where the TMA path copies a tile by cp.async too", "[gpu][codegen]") {
  // The pragma over each copy loop of the pipelined loop's iterations (the
  // prologue's are rolled everywhere): "#pragma unroll 1" or "#pragma unroll".
  auto copy_loop_pragmas = [](const std::string& source) {
    std::vector<std::string> pragmas;
    const size_t loop = source.find("for (int64_t it");
    REQUIRE(loop != std::string::npos);
    for (size_t at = source.find("for (int ts_j", loop); at != std::string::npos; at = source.find("for (int ts_j", at + 1)) {
      const size_t line_end = source.rfind('\n', at), line_start = source.rfind('\n', line_end - 1);
      std::string prev = source.substr(line_start + 1, line_end - line_start - 1);
      prev.erase(0, prev.find_first_not_of(' '));
      pragmas.push_back(prev);
    }
    return pragmas;
  };
  auto count_of = [](const std::vector<std::string>& v, const std::string& x) { return std::count(v.begin(), v.end(), x); };
  // p11, each group waited for: x by TMA, y by cp.async on both paths
  // (CodegenOptions::wgmma_b_tma off; four rounds of 256 vectors,
  // unrolled on the TMA path); the fallback's x (two rounds) and y in
  // rolled loops.
  const auto p11_ir = dot_cases::case_ir(dot_cases::p11_sized(256, 128, 32, 300, 200, 2, 72));
  tl::gpu::CodegenOptions waited = tma_options(8, 3);
  waited.wgmma_in_flight = false;
  waited.wgmma_decoupled = waited.wgmma_b_tma = false;
  const std::vector<std::string> p11_pragmas = copy_loop_pragmas(tl::gpu::lower(*p11_ir, waited).source);
  CHECK(count_of(p11_pragmas, "#pragma unroll 1") == 2);
  CHECK(count_of(p11_pragmas, "#pragma unroll") == 1);
  // y by TMA too: the TMA path copies nothing by cp.async, and the
  // fallback's x and y are unrolled.
  waited.wgmma_b_tma = true;
  const std::vector<std::string> panel_pragmas = copy_loop_pragmas(tl::gpu::lower(*p11_ir, waited).source);
  CHECK(count_of(panel_pragmas, "#pragma unroll 1") == 0);
  CHECK(count_of(panel_pragmas, "#pragma unroll") == 2);
  // With B^T written into the stage (CodegenOptions::wgmma_b_in_stage) y
  // is copied by the threads on both paths (its loads and its stores:
  // registers, so unrolled), and the TMA path copies nothing by cp.async:
  // the fallback's x is unrolled too.
  tl::gpu::CodegenOptions written = tma_options(8, 3);
  written.wgmma_b_in_stage = true;
  const std::vector<std::string> in_flight = copy_loop_pragmas(tl::gpu::lower(*p11_ir, written).source);
  CHECK(count_of(in_flight, "#pragma unroll 1") == 0);
  CHECK(count_of(in_flight, "#pragma unroll") == 3);
  // E1 at 4 warps: the TMA unit copies every tile; its fallback (A's four
  // rounds of vectors) stays unrolled (docs/gpu.md says why).
  const tl::gpu::BenchCase e1 = dot_cases::bench_case_at("e1_v1", 70, 100, 80);
  puzzles::RunBuffers eb = puzzles::make_buffers(*e1.puzzle, e1.set, 0);
  const std::vector<std::string> e1_pragmas = copy_loop_pragmas(
      tl::gpu::lower(*tl::build_ir(*e1.puzzle->solution, puzzles::launch_args(e1.set, eb)), tma_options(4, 2)).source);
  CHECK(count_of(e1_pragmas, "#pragma unroll") >= 1);
  CHECK(count_of(e1_pragmas, "#pragma unroll 1") == 0);
}

TEST_CASE("tensor_map_unusable names what keeps a tensor from the TMA unit", "[gpu][codegen]") {
  tl::gpu::TensorMapRequest r;
  r.base = 4096;
  r.cols = 80, r.rows = 70, r.row_stride = 80;
  r.box_cols = 32, r.box_rows = 128;
  r.swizzle128 = true;
  CHECK(tl::gpu::tensor_map_unusable(r).empty());
  auto why = [&](auto change) {
    tl::gpu::TensorMapRequest x = r;
    change(x);
    return tl::gpu::tensor_map_unusable(x);
  };
  CHECK(has(why([](auto& x) { x.base += 4; }), "base address"));
  CHECK(has(why([](auto& x) { x.row_stride = x.cols = 78; }), "multiple of 16 bytes"));
  CHECK(has(why([](auto& x) { x.rows = 0; }), "empty"));
  CHECK(has(why([](auto& x) { x.cols = 84; }), "overlap"));
  // The last element the mask admits at (rows - 1) * stride + cols - 1: at
  // 2^31 - 1 it still fits the kernel's i32 offsets, one further it wraps.
  CHECK(why([](auto& x) { x.rows = 2, x.row_stride = x.cols = 1073741824; }) == "");
  CHECK(has(why([](auto& x) { x.rows = 3, x.row_stride = x.cols = 1073741824; }), "i32"));
  // A batched (3-D) tensor: batches rows x row stride apart or more, on 16
  // bytes, and its last batch's last element within i32 too.
  auto batched = [](auto& x) { x.batched = true, x.batches = 3, x.batch_stride = 70 * 80; };
  CHECK(why(batched) == "");
  CHECK(has(why([&](auto& x) { batched(x), x.batch_stride = 70 * 80 - 4; }), "overlap"));
  CHECK(has(why([&](auto& x) { batched(x), x.batch_stride = 70 * 80 + 2; }), "batch stride not a multiple of 16 bytes"));
  CHECK(has(why([&](auto& x) { batched(x), x.batches = 0; }), "empty"));
  CHECK(has(why([&](auto& x) { batched(x), x.batches = 400000; }), "i32"));
}

TEST_CASE("emulated: TMA copies compute what the interpreter computes", "[gpu][emulated]") {
  // K = 80: rows of 320 bytes, TMA; K = 78: rows of 312 bytes, which the TMA
  // unit cannot stride, so the same kernel runs its cp.async copies.
  // Groups in flight pair E1 v1's dots (one m64n128 wgmma); once unpaired.
  for (auto [name, warps, stages, in_flight, K, pair] :
       {std::tuple{"e1_v1", 4, 0, true, 80, true}, std::tuple{"e1_v1_128", 8, 3, true, 80, true},
        std::tuple{"e1_v1", 4, 2, true, 80, true}, std::tuple{"e1_v1", 4, 4, false, 80, true},
        std::tuple{"e1_v1_128", 8, 0, true, 78, true}, std::tuple{"e1_v2", 4, 0, true, 80, true},
        std::tuple{"e1_v1_128", 8, 3, true, 80, false}}) {
    const tl::gpu::BenchCase c = dot_cases::bench_case_at(name, 70, 100, K);
    INFO(name << " at " << c.set.sizes.str() << ", " << warps << " warps, stages " << stages << ", in flight " << in_flight
              << ", paired " << pair);
    puzzles::RunBuffers ib = puzzles::make_buffers(*c.puzzle, c.set, 1), eb = puzzles::make_buffers(*c.puzzle, c.set, 1);
    const tl::Grid grid = puzzles::grid_for(c.set);
    tl::run(*c.puzzle->solution, grid, puzzles::launch_args(c.set, ib));
    const std::vector<tl::Arg> args = puzzles::launch_args(c.set, eb);
    auto ir = tl::build_ir(*c.puzzle->solution, args);
    tl::gpu::CodegenOptions cg = tma_options(warps, stages, in_flight);
    cg.wgmma_pair_dots = pair;
    const tl::gpu::LoweredKernel k = tl::gpu::lower(*ir, cg);
    CHECK(has(k.source, "ts_wgmma_tf32_pair_n128(r") == (pair && in_flight && stages != 2 && std::string(name) != "e1_v2"));
    REQUIRE(k.tensor_maps.size() == (std::string(name) == "e1_v2" ? 2 : 3));
    gpu_host::HostKernel h(*ir, k);
    h.run(grid, args);
    CHECK(h.tma_used() == (K % 4 == 0));
    tl::gpu::BufferDiff d = tl::gpu::diff_buffers(ib.output, eb.output, tl::gpu::tolerance_for(*ir, ib.output.dtype()));
    INFO(d.str());
    CHECK(d.pass);
  }
}

namespace {

size_t count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

tl::gpu::CodegenOptions cluster_options(int warps, int stages) {
  tl::gpu::CodegenOptions cg = tma_options(warps, stages);
  cg.cluster_multicast = true;
  return cg;
}

}  // namespace

TEST_CASE("TMA: p11's batched x tile is a 3-D tensor, shared by clusters along program_id(1)", "[gpu][codegen]") {
  const tl::gpu::BenchCase c = dot_cases::p11_sized(256, 128, 32, 300, 200, 2, 72);
  puzzles::RunBuffers b = puzzles::make_buffers(*c.puzzle, c.set, 0);
  auto ir = tl::build_ir(*c.puzzle->solution, puzzles::launch_args(c.set, b));
  // (x, y, z, N0, N1, N2, MID | B0, B1, B2, B_MID): x[N2][N0][MID] read at
  // (b * N0 + j) * MID + l, masked by b < N2, j < N0, l < MID.
  const tl::gpu::LoweredKernel k = tl::gpu::lower(*ir, cluster_options(8, 3));
  REQUIRE(k.tensor_maps.size() == 2);  // and y, read into registers (never shared: its columns follow program_id(1))
  const tl::gpu::TensorMapSpec& x = k.tensor_maps[0];
  CHECK(k.tensor_maps[1].box_rows == 32);
  CHECK(k.tensor_maps[1].box_cols == 32);
  CHECK(x.base_param == 0);
  CHECK(x.cols.param == 6);
  CHECK(x.rows.param == 3);
  CHECK(x.row_stride.param == 6);
  CHECK(x.batched);
  CHECK(x.batches.param == 5);
  CHECK(((x.batch_stride.param == 3 && x.batch_stride.param2 == 6) || (x.batch_stride.param == 6 && x.batch_stride.param2 == 3)));
  CHECK(x.batch_stride.scale == 1);
  // x does not depend on program_id(1): neighbours along it share it, each
  // bringing one half (128 of its 256 rows) to both.
  CHECK(k.cluster_axis == 1);
  CHECK(x.box_rows == 128);
  CHECK(x.box_cols == 32);
  CHECK(has(k.source, "ts_tma_load_3d_mc("));
  // The cluster barrier once before the loop (both programs' barriers
  // initialized) and once after it (neither leaves while the other may
  // still reach its shared memory). In the loop, after the barrier that
  // publishes a stage, one thread arrives on the previous stage's empty
  // barrier in both programs; the thread that refills it waits for that.
  CHECK(count(k.source, "ts_cluster_arrive();") == 2);
  CHECK(count(k.source, "ts_cluster_wait();") == 2);
  const size_t published = k.source.find("__syncthreads();\n      if (ts_tma_ok == 2 && tid == 0 && it");
  const size_t arrive = k.source.find("ts_mbar_arrive_cluster(ts_empty, 1);");
  // The refilling thread's wait: on the empty barrier (its own phase bits).
  const size_t wait = k.source.find("ts_mbar_wait(", arrive);
  REQUIRE(published != std::string::npos);
  REQUIRE(wait != std::string::npos);
  CHECK(k.source.find(" >> ts_s) & 1u);", wait) < k.source.find('\n', wait));
  CHECK(published < arrive);
  CHECK(arrive < wait);
  CHECK(wait < k.source.find("ts_tma_load_3d_mc(", wait));
  // Without the option, or with x's rows depending on program_id(1) too
  // (no axis whose neighbours copy the same box), no clusters.
  CHECK(tl::gpu::lower(*ir, tma_options(8, 3)).cluster_axis == -1);
  CHECK_FALSE(has(tl::gpu::lower(*ir, tma_options(8, 3)).source, "ts_cluster_arrive();\n  "));
}

TEST_CASE("TMA: p11's decoupled warpgroups wait for their own part of y and refill a stage after every warp arrived", "[gpu][codegen][nvrtc]") {
  const auto ir = dot_cases::case_ir(dot_cases::p11_sized(256, 128, 32, 300, 200, 2, 72));
  tl::gpu::CodegenOptions cg = tma_options(8, 4, /*in_flight=*/false);
  cg.wgmma_decoupled = true;
  cg.wgmma_b_tma = false;  // y by cp.async (by TMA: the test after this one)
  const tl::gpu::LoweredKernel k = tl::gpu::lower(*ir, cg);
  REQUIRE(k.decoupled == 1);
  const std::string body = codegen_text::body_of(k.source);
  // One empty barrier a stage, one arrival from each of the 8 warps.
  CHECK(count(body, ", 8);\n") == 4);
  // The TMA path's copies of y: each warpgroup its own 64 columns (16
  // vectors of a row), those its fragments read; the fallback all of them.
  CHECK(has(body, "const int ts_v = ts_j * 128 + (tid & 127);"));
  CHECK(has(body, "ts_i = ((tid >> 7) * 16 + ts_v % 16) * 4;"));
  const size_t loop = body.find("for (int64_t it32");
  REQUIRE(loop != std::string::npos);
  // The stage published by the warpgroup's own barrier on the TMA path;
  // the block barrier only on the fallback's, up to the first wgmma.
  const size_t tma_path = body.find("if (ts_tma_ok) {", loop), fallback = body.find("} else {", tma_path);
  const size_t sync = body.find("ts_warpgroup_sync();", tma_path), first_dot = body.find("ts_wgmma_tf32_rs_n256(", loop);
  REQUIRE(fallback != std::string::npos);
  CHECK(sync < fallback);
  CHECK(body.find("__syncthreads();", tma_path) > fallback);
  CHECK(body.find("__syncthreads();", body.find("__syncthreads();", fallback) + 1) > first_dot);
  // The refill of x, after the group's commit: its thread waits on the
  // stage's empty barrier (its own phase bits) after the first iteration.
  const size_t commit = body.find("ts_wgmma_commit();", first_dot);
  const size_t empty_wait = body.find("ts_mbar_wait(", commit);
  CHECK(body.find("(ts_eph32 >> ts_s) & 1u);", empty_wait) < body.find('\n', empty_wait));
  CHECK(empty_wait < body.find("ts_tma_load_3d(", commit));
  // Each warp arrives after its wait for the group, on the stage it read.
  const size_t waited = body.find("ts_wgmma_wait0();", commit), arrive = body.find("ts_mbar_arrive(", commit);
  CHECK(waited < arrive);
  CHECK(has(body.substr(arrive, 120), "+ (ts_st32));"));
  // After the loop the warpgroups meet before the barriers are invalidated.
  CHECK(body.find("__syncthreads();", arrive) < body.find("ts_mbar_inval(", arrive));
  CHECK_NOTHROW(test_cache::nvrtc_compile(k));
  // One warpgroup (4 warps), or no TMA: the option changes nothing.
  for (auto [warps, b1, tma] : {std::tuple{4, 64, true}, std::tuple{8, 128, false}}) {
    const auto other = dot_cases::case_ir(dot_cases::p11_sized(256, b1, 32, 300, 200, 2, 72));
    tl::gpu::CodegenOptions plain = tma_options(warps, 4, false), asked = plain;
    plain.tma = asked.tma = tma;
    plain.wgmma_decoupled = false;
    asked.wgmma_decoupled = true;
    CHECK(tl::gpu::lower(*other, asked).decoupled == 0);
    CHECK(tl::gpu::lower(*other, asked).source == tl::gpu::lower(*other, plain).source);
  }
}

TEST_CASE("TMA: p11's y comes by TMA in x's layout, and its warpgroups meet at no barrier in the loop", "[gpu][codegen][nvrtc]") {
  const auto ir = dot_cases::case_ir(dot_cases::p11_sized(256, 128, 32, 300, 200, 2, 72));
  const tl::gpu::LoweredKernel k = tl::gpu::lower(*ir, tma_options(8, 4, /*in_flight=*/false));  // the defaults
  REQUIRE(k.b_tma == 1);
  REQUIRE(k.decoupled == 1);
  // y[N2][MID][N1]: rows of N1 (param 4), MID of them, boxes of 32 x 32
  // in the 128-byte swizzle.
  REQUIRE(k.tensor_maps.size() == 2);
  const tl::gpu::TensorMapSpec& y = k.tensor_maps[1];
  CHECK(y.base_param == 1);
  CHECK(y.cols.param == 4);
  CHECK(y.rows.param == 6);
  CHECK(y.batched);
  CHECK(y.box_cols == 32);
  CHECK(y.box_rows == 32);
  CHECK(y.swizzle128);
  const std::string body = codegen_text::body_of(k.source);
  // Four columns of 32 rows x 128 bytes, a box each, 4096 bytes apart
  // after x's 32768; the second 32 columns on.
  CHECK(count(body, "ts_tma_load_3d(ts_stage + 32768, &ts_tmap1, ") == 4);  // the prologue's three stages and the refill
  CHECK(count(body, "ts_tma_load_3d(ts_stage + 45056, &ts_tmap1, ") == 4);
  CHECK(has(body, ")))) + 32, "));
  const size_t loop = body.find("for (int64_t it32");
  REQUIRE(loop != std::string::npos);
  const size_t tma_path = body.find("if (ts_tma_ok) {", loop), fallback = body.find("} else {", tma_path);
  REQUIRE(fallback != std::string::npos);
  // On the TMA path the iteration waits for its stage's mbarrier only: no
  // block or warpgroup barrier, no cp.async; the fallback's block barrier.
  const std::string tma_part = body.substr(tma_path, fallback - tma_path);
  CHECK(has(tma_part, "ts_mbar_wait("));
  CHECK_FALSE(has(tma_part, "__syncthreads();"));
  CHECK_FALSE(has(tma_part, "ts_cp_async_wait"));
  CHECK_FALSE(has(body, "ts_warpgroup_sync();"));
  // The fragments: lane 4g' + q of warp w in warpgroup g at n = 64g + 16w
  // + g', k = q; its words for n + 8 and k + 4 at addresses of their own
  // (the swizzle's XOR takes k), a k8 step 256 words on.
  CHECK(has(body, "const int ts_fn = (tid >> 7) * 64 + (tid >> 5 & 3) * 16 + ((tid & 31) >> 2), ts_fk = tid & 3;"));
  CHECK(has(body, "ts_bt3 = ts_b + ((ts_fn + 8)) / 32 * 1024 + ((ts_fk + 4)) * 32 + (((((ts_fn + 8)) % 32) / 4) ^ (((ts_fk + 4)) & 7)) * 4 + ((ts_fn + 8) & 3);"));
  CHECK(has(body, "ts_fa[1][0] = ts_bt0[256]; ts_fa[1][1] = ts_bt1[256]; ts_fa[1][2] = ts_bt2[256]; ts_fa[1][3] = ts_bt3[256];"));
  // The cp.async fallback writes the same swizzled columns.
  CHECK(has(body, "float* ts_dst = reinterpret_cast<float*>(ts_stage + 32768) + (ts_i) / 32 * 1024 + "));
  CHECK_NOTHROW(test_cache::nvrtc_compile(k));
  // Off, y keeps its cp.async copies into padded rows.
  tl::gpu::CodegenOptions off = tma_options(8, 4, false);
  off.wgmma_b_tma = false;
  const tl::gpu::LoweredKernel padded = tl::gpu::lower(*ir, off);
  CHECK(padded.b_tma == 0);
  CHECK(padded.tensor_maps.size() == 1);
}

TEST_CASE("the cluster forms of p11 compile with NVRTC for sm_90a", "[gpu][nvrtc]") {
  // multicast boxes, mapa and the remote arrivals, the cluster barrier, 3-D maps
  for (auto [b0, b1, bk, warps, stages, n0, n1, n2, mid] : dot_cases::p11_cluster_forms) {
    const tl::gpu::BenchCase c = dot_cases::p11_sized(b0, b1, bk, n0, n1, n2, mid);
    INFO("p11 at " << c.set.sizes.str() << " | " << c.set.blocks.str() << ", " << warps << " warps, stages " << stages);
    puzzles::RunBuffers b = puzzles::make_buffers(*c.puzzle, c.set, 0);
    auto ir = tl::build_ir(*c.puzzle->solution, puzzles::launch_args(c.set, b));
    const tl::gpu::LoweredKernel k = tl::gpu::lower(*ir, cluster_options(warps, stages));
    REQUIRE(k.cluster_axis == 1);
    CHECK_NOTHROW(test_cache::nvrtc_compile(k));
  }
}

TEST_CASE("emulated: clusters sharing p11's x tile by TMA multicast compute what the interpreter computes", "[gpu][emulated]") {
  for (auto [b0, b1, bk, warps, stages, n0, n1, n2, mid] : dot_cases::p11_cluster_forms) {
    const tl::gpu::BenchCase c = dot_cases::p11_sized(b0, b1, bk, n0, n1, n2, mid);
    INFO("p11 at " << c.set.sizes.str() << " | " << c.set.blocks.str() << ", " << warps << " warps, stages " << stages);
    dot_cases::check_against_interpreter(c, [&](const tl::ir::Kernel& ir, tl::Grid grid, const std::vector<tl::Arg>& args) {
      const tl::gpu::LoweredKernel k = tl::gpu::lower(ir, cluster_options(warps, stages));
      REQUIRE(k.cluster_axis == 1);
      gpu_host::HostKernel h(ir, k);
      h.run(grid, args);
      CHECK(h.tma_used() == (mid % 4 == 0 && n1 % 4 == 0));
      CHECK(h.clusters_used() == (mid % 4 == 0 && n1 % 4 == 0 && grid.y % 2 == 0));
    });
  }
}

TEST_CASE("TMA: p11's x at BK 64 comes in a box per 128-byte column", "[gpu][codegen][nvrtc]") {
  // x's rows of 64 floats are two swizzled columns of 32 (staged_offset):
  // the TMA unit swizzles rows of at most 128 bytes, so each column is a
  // box of its own, 32 floats wide, and every copy site issues two.
  for (auto [b0, b1, bk, warps, stages, n0, n1, n2, mid] : dot_cases::p11_wide_k_tma_forms) {
    const tl::gpu::BenchCase wide = dot_cases::p11_sized(b0, b1, bk, n0, n1, n2, mid),
                             narrow = dot_cases::p11_sized(b0, b1, 32, n0, n1, n2, mid);
    INFO("p11 at " << wide.set.sizes.str() << " | " << wide.set.blocks.str() << ", " << warps << " warps, stages " << stages);
    puzzles::RunBuffers b = puzzles::make_buffers(*wide.puzzle, wide.set, 0);
    auto ir = tl::build_ir(*wide.puzzle->solution, puzzles::launch_args(wide.set, b));
    auto ir32 = tl::build_ir(*narrow.puzzle->solution, puzzles::launch_args(narrow.set, b));
    const tl::gpu::LoweredKernel k = tl::gpu::lower(*ir, tma_options(warps, stages)),
                                 k32 = tl::gpu::lower(*ir32, tma_options(warps, stages));
    REQUIRE(k.tensor_maps.size() == 2);  // x, and y
    CHECK(k.tensor_maps[0].box_cols == 32);
    CHECK(k.tensor_maps[0].box_rows == b0);
    const std::string box = ", &ts_tmap0, ";  // x's boxes
    CHECK(count(k.source, box) == 2 * count(k32.source, box));
    CHECK(count(k32.source, box) > 0);
    // The second column's box: 32 further along k, b0 rows of 128 bytes on.
    CHECK(has(k.source, ") + 32, "));
    CHECK(has(k.source, "ts_stage + " + std::to_string(b0 * 128) + ", &ts_tmap0"));
    CHECK_NOTHROW(test_cache::nvrtc_compile(k));
  }
}

TEST_CASE("emulated: p11 at BK 64, a TMA box per 128-byte column, computes what the interpreter computes", "[gpu][emulated]") {
  for (auto [b0, b1, bk, warps, stages, n0, n1, n2, mid] : dot_cases::p11_wide_k_tma_forms) {
    const tl::gpu::BenchCase c = dot_cases::p11_sized(b0, b1, bk, n0, n1, n2, mid);
    INFO("p11 at " << c.set.sizes.str() << " | " << c.set.blocks.str() << ", " << warps << " warps, stages " << stages);
    dot_cases::check_against_interpreter(c, [&](const tl::ir::Kernel& ir, tl::Grid grid, const std::vector<tl::Arg>& args) {
      const tl::gpu::LoweredKernel k = tl::gpu::lower(ir, tma_options(warps, stages));
      REQUIRE(k.tensor_maps.size() == 2);
      gpu_host::HostKernel h(ir, k);
      h.run(grid, args);
      CHECK(h.tma_used() == (mid % 4 == 0 && n1 % 4 == 0));
    });
  }
}

#endif  // TILESCOPE_HAVE_GPU
