// The code-generation options of the bench's autotuner: persistent
// (grid-stride) kernels and the pipeline's stage count. What they generate
// and that NVRTC takes it here (CI has no GPU); what they compute is checked
// by compiling the kernels as host C++ (gpu_host_runner.h) against the
// interpreter.
#ifdef TILESCOPE_HAVE_GPU
#include <catch2/catch.hpp>

#include <string>
#include <tuple>
#include <vector>

#include "bench_cases.h"
#include "codegen.h"
#include "codegen_text.h"
#include "dot_cases.h"
#include "gpu_bench.h"
#include "gpu_compare.h"
#include "gpu_host_runner.h"
#include "harness.h"
#include "inputs.h"
#include "nvrtc_compiler.h"
#include "registry.h"
#include "tl.h"

namespace {

using codegen_text::has;

struct Built {
  const puzzles::Puzzle* p;
  const puzzles::SizeSet* set;
  puzzles::RunBuffers bufs;
  std::shared_ptr<const tl::ir::Kernel> ir;
};

Built build(const char* id, const char* set_name) {
  Built b{puzzles::find_puzzle(id), nullptr, {}, nullptr};
  REQUIRE(b.p);
  b.set = puzzles::find_set(*b.p, set_name);
  REQUIRE(b.set);
  b.bufs = puzzles::make_buffers(*b.p, *b.set, 0);
  b.ir = tl::build_ir(*b.p->solution, puzzles::launch_args(*b.set, b.bufs));
  return b;
}

tl::gpu::CodegenOptions persistent_over(tl::Grid g, int warps = 4, int interleave = 1) {
  tl::gpu::CodegenOptions cg;
  cg.num_warps = warps;
  cg.persistent_interleave = interleave;
  cg.persistent_grid[0] = g.x;
  cg.persistent_grid[1] = g.y;
  cg.persistent_grid[2] = g.z;
  return cg;
}

using codegen_text::body_of;

// Runs the puzzle's solution on the interpreter and as a persistent kernel
// over `blocks` blocks (emulated), and compares every buffer.
void check_persistent(const char* id, const char* set_name, int64_t blocks, int warps, int interleave = 1) {
  Built b = build(id, set_name);
  const tl::Grid logical = puzzles::grid_for(*b.set);
  INFO(id << " set " << set_name << ": " << logical.count() << " programs over " << blocks << " blocks, " << warps
          << " warps, " << interleave << " programs a trip");
  puzzles::RunBuffers ib = puzzles::make_buffers(*b.p, *b.set, 1), eb = puzzles::make_buffers(*b.p, *b.set, 1);
  tl::run(*b.p->solution, logical, puzzles::launch_args(*b.set, ib));
  const std::vector<tl::Arg> args = puzzles::launch_args(*b.set, eb);
  auto ir = tl::build_ir(*b.p->solution, args);
  gpu_host::HostKernel k(*ir, tl::gpu::lower(*ir, persistent_over(logical, warps, interleave)));
  k.run({blocks, 1, 1}, args);
  auto check = [&](const tl::Buffer& want, const tl::Buffer& got) {
    tl::gpu::BufferDiff d = tl::gpu::diff_buffers(want, got, tl::gpu::tolerance_for(*ir, want.dtype()));
    INFO("buffer " << want.name() << ": " << d.str());
    CHECK(d.pass);
  };
  check(ib.output, eb.output);
  for (size_t i = 0; i < ib.extra_outputs.size(); ++i) check(ib.extra_outputs[i], eb.extra_outputs[i]);
}

}  // namespace

TEST_CASE("a persistent kernel walks the logical grid and reads program ids from it", "[gpu][codegen]") {
  Built e2 = build("e2", "canonical");
  const tl::Grid g = puzzles::grid_for(*e2.set);
  const tl::gpu::LoweredKernel plain = tl::gpu::lower(*e2.ir), walk = tl::gpu::lower(*e2.ir, persistent_over(g));
  const std::string body = body_of(walk.source);
  CHECK(has(body, "for (int64_t ts_prog = blockIdx.x; ts_prog < " + std::to_string(g.count()) + "LL; ts_prog += gridDim.x)"));
  CHECK(has(body, "(int32_t)ts_pid_x"));
  CHECK_FALSE(has(body, "(int32_t)blockIdx.x"));
  CHECK(has(body_of(plain.source), "(int32_t)blockIdx.x"));
  CHECK(walk.name == plain.name + "_persistent");
  CHECK(walk.params == plain.params);  // same arguments: the logical grid is compiled in
  CHECK_NOTHROW(tl::gpu::nvrtc_compile(walk.source, walk.name, tl::gpu::CompileOptions{}, ""));
  // A grid of three axes: each is decoded from the linear program number.
  Built mm = build("11", "canonical");
  const tl::Grid mg = puzzles::grid_for(*mm.set);
  const tl::gpu::LoweredKernel mw = tl::gpu::lower(*mm.ir, persistent_over(mg));
  CHECK(has(mw.source, "ts_pid_z = (unsigned)(ts_prog / " + std::to_string(mg.x * mg.y) + ")"));
  CHECK_NOTHROW(tl::gpu::nvrtc_compile(mw.source, mw.name, tl::gpu::CompileOptions{}, ""));
}

TEST_CASE("a persistent kernel can run two programs a trip, their instructions interleaved", "[gpu][codegen]") {
  Built e2 = build("e2", "canonical");
  const tl::Grid g = puzzles::grid_for(*e2.set);
  const tl::gpu::LoweredKernel one = tl::gpu::lower(*e2.ir, persistent_over(g, 1)),
                               two = tl::gpu::lower(*e2.ir, persistent_over(g, 1, 2));
  const std::string body = body_of(two.source);
  CHECK(two.name == one.name + "_x2");
  CHECK(has(body, "ts_prog += 2LL * gridDim.x)"));
  CHECK(has(body, "const bool ts_has_b = ts_prog + gridDim.x < " + std::to_string(g.count()) + "LL;"));
  CHECK(has(body, "(int32_t)ts_pid_x_b"));
  // Both programs' loads come before either's first reduction.
  const size_t load_b = body.find("r21_b[s] = *r20_b[s]"), first_min = body.find("fminf");
  CHECK(body.find("r21[s] = *r20[s]") < load_b);
  CHECK(load_b < first_min);
  // b's stores wait for b to be a program; a's do not.
  CHECK(has(body, "if (tid < 16 && ts_has_b) *r63_b[0] = r58_b[0];"));
  CHECK(has(body, "if (tid < 16) *r63[0] = r58[0];"));
  CHECK_FALSE(has(body_of(one.source), "ts_has_b"));
  CHECK_NOTHROW(tl::gpu::nvrtc_compile(two.source, two.name, tl::gpu::CompileOptions{}, ""));
  // What it cannot take: loops (p11), a kernel that is not persistent.
  Built mm = build("11", "canonical");
  CHECK_THROWS_WITH(tl::gpu::lower(*mm.ir, persistent_over(puzzles::grid_for(*mm.set), 1, 2)),
                    Catch::Contains("without loops or branches"));
  tl::gpu::CodegenOptions not_persistent;
  not_persistent.persistent_interleave = 2;
  CHECK_THROWS_WITH(tl::gpu::lower(*e2.ir, not_persistent), Catch::Contains("needs a persistent kernel"));
}

TEST_CASE("code-generation options out of range are refused with the reason", "[gpu][codegen]") {
  Built e2 = build("e2", "canonical");
  tl::gpu::CodegenOptions cg;
  cg.persistent_grid[0] = 4;  // y and z left 0
  CHECK_THROWS_WITH(tl::gpu::lower(*e2.ir, cg), Catch::Contains("logical grid needs every axis >= 1"));
  tl::gpu::CodegenOptions stages;
  stages.num_stages = 1;
  CHECK_THROWS_WITH(tl::gpu::lower(*e2.ir, stages), Catch::Contains("num_stages must be 0 (automatic) or 2 to 4"));
}

TEST_CASE("the pipeline's stage count follows num_stages", "[gpu][codegen]") {
  Built mm = build("11", "11b");
  auto source = [&](int stages) {
    tl::gpu::CodegenOptions cg;
    cg.num_stages = stages;
    return tl::gpu::lower(*mm.ir, cg).source;
  };
  // Iterations in flight = stages - 1: wait for all but the newest stages - 2 groups.
  CHECK(has(source(2), "ts_cp_async_wait_all();"));
  CHECK_FALSE(has(source(2), "ts_cp_async_wait_1();"));
  CHECK(has(source(3), "ts_cp_async_wait_1();"));
  const std::string four = source(4);
  CHECK(has(four, "ts_cp_async_wait_2();"));
  CHECK(has(four, ") % 4)"));  // the stage a copy lands in cycles through four
  const tl::gpu::LoweredKernel k4 = [&] {
    tl::gpu::CodegenOptions cg;
    cg.num_stages = 4;
    return tl::gpu::lower(*mm.ir, cg);
  }();
  CHECK(k4.smem_bytes > tl::gpu::lower(*mm.ir).smem_bytes);
  CHECK_NOTHROW(tl::gpu::nvrtc_compile(k4.source, k4.name, tl::gpu::CompileOptions{}, ""));
}

TEST_CASE("emulated: persistent kernels compute what one block per program computes", "[gpu][emulated]") {
  // Fewer blocks than programs, not dividing them: every block walks several
  // programs, the last ones a different number; shared memory is reused
  // between programs (E3's and the reductions' scratch, p11's pipeline).
  check_persistent("e2", "canonical", 3, 2);
  check_persistent("e3", "canonical", 3, 2);
  check_persistent("e5_fwd", "canonical", 2, 4);
  check_persistent("7", "canonical", 3, 4);
  check_persistent("11", "11b", 3, 4);
  check_persistent("e4_rows", "e4a", 5, 4);
  // Two programs a trip: odd program counts over odd block counts, so the
  // last trip of some blocks has no program b.
  check_persistent("e2", "canonical", 3, 1, 2);
  check_persistent("e2", "canonical", 3, 2, 2);  // reductions through shared memory, op by op
  check_persistent("e2", "8bit", 5, 1, 2);
  check_persistent("e3", "canonical", 3, 1, 2);
  check_persistent("e5_fwd", "canonical", 3, 1, 2);
  check_persistent("e5_bwd", "canonical", 3, 1, 2);
}

TEST_CASE("emulated: dots at two and four pipeline stages compute what the interpreter computes", "[gpu][emulated]") {
  for (const char* id : {"11", "e1_v1", "e4_fused"}) {
    const puzzles::Puzzle& p = *puzzles::find_puzzle(id);
    const puzzles::SizeSet& set = p.sets.at(1);  // the sets with tails
    for (int stages : {2, 4}) {
      INFO(id << " set " << set.name << ", " << stages << " stages");
      puzzles::RunBuffers ib = puzzles::make_buffers(p, set, 2), eb = puzzles::make_buffers(p, set, 2);
      tl::run(*p.solution, puzzles::grid_for(set), puzzles::launch_args(set, ib));
      const std::vector<tl::Arg> args = puzzles::launch_args(set, eb);
      auto ir = tl::build_ir(*p.solution, args);
      tl::gpu::CodegenOptions cg;
      cg.num_stages = stages;
      gpu_host::HostKernel k(*ir, tl::gpu::lower(*ir, cg));
      k.run(puzzles::grid_for(set), args);
      tl::gpu::BufferDiff d = tl::gpu::diff_buffers(ib.output, eb.output, tl::gpu::tolerance_for(*ir, ib.output.dtype()));
      INFO(d.str());
      CHECK(d.pass);
    }
  }
}

TEST_CASE("the autotuner's block variants are complete block sets of their case", "[gpu][bench]") {
  for (const tl::gpu::BenchCase& c : tl::gpu::anchor_cases()) {
    // The cases compared with Triton keep its blocks.
    if (!c.triton_row.empty()) CHECK(c.block_variants.empty());
    for (const puzzles::Params& b : c.block_variants) {
      INFO(c.name << ": " << b.str() << " against " << c.set.blocks.str());
      REQUIRE(b.values().size() == c.set.blocks.values().size());
      for (size_t i = 0; i < b.values().size(); ++i) CHECK(b.values()[i].first == c.set.blocks.values()[i].first);
    }
    // Those tried only with wgmma at 8 warps are among them (numbered from 1).
    for (size_t v : c.wgmma_variants) {
      INFO(c.name << ": wgmma variant " << v);
      CHECK(v >= 1);
      CHECK(v <= c.block_variants.size());
    }
  }
}

TEST_CASE("the autotuner takes the fastest variant, and among runs within 1 % the fastest to compile",
          "[gpu][bench]") {
  std::vector<size_t> asked;
  auto compile = [&](const std::vector<double>& seconds) {
    return [&asked, seconds](size_t i) {
      asked.push_back(i);
      return seconds.at(i);
    };
  };
  // A clear winner: no compile is timed.
  CHECK(tl::gpu::choose_tuned_variant({1.30, 1.00, 1.20}, compile({0.1, 0.9, 0.1})) == 1);
  CHECK(asked.empty());
  // 1.005 and 1.010 tie with 1.000 (within 1 %), 1.011 does not: the
  // fastest compile of the three tied wins, and only they are compiled.
  CHECK(tl::gpu::choose_tuned_variant({1.000, 1.011, 1.010, 1.005}, compile({0.40, 0.10, 0.30, 0.20})) == 3);
  CHECK(asked == std::vector<size_t>{0, 3, 2});
  asked.clear();
  // Ties where the fastest run also compiles fastest keep it.
  CHECK(tl::gpu::choose_tuned_variant({1.004, 1.000}, compile({0.5, 0.2})) == 1);
  CHECK(asked.size() == 2);
  asked.clear();
  // Of many tied, only the kTuneMaxTies fastest runs are compiled.
  CHECK(tl::gpu::choose_tuned_variant({1.004, 1.001, 1.000, 1.002, 1.003}, compile({0.1, 0.4, 0.5, 0.3, 0.2})) == 3);
  CHECK(asked == std::vector<size_t>{2, 1, 3});
  CHECK_THROWS(tl::gpu::choose_tuned_variant({}, compile({})));
}

TEST_CASE("the autotuner leaves out a variant whose output differs from the first variant's, and says so",
          "[gpu][bench]") {
  const tl::gpu::BenchCase c = dot_cases::p11_at(128, 128, 32);
  puzzles::RunBuffers b = puzzles::make_buffers(*c.puzzle, c.set, 0);
  const std::vector<tl::Arg> args = puzzles::launch_args(c.set, b);
  auto ir = tl::build_ir(*c.puzzle->solution, args);
  tl::run(*c.puzzle->solution, puzzles::grid_for(c.set), args);
  const tl::Buffer& first = b.output;
  // The same values, or a tf32 dot's reordered sums: they agree.
  tl::Buffer same = first, reordered = first, wrong = first;
  CHECK(tl::gpu::variant_disagreement(first, same, *ir).empty());
  for (int64_t i = 0; i < reordered.numel(); ++i) reordered.as<float>()[i] *= 1.0f + 1e-6f;
  CHECK(tl::gpu::variant_disagreement(first, reordered, *ir).empty());
  // A tile computed from the wrong k steps (an m64n256 group still in flight): left out, with how.
  for (int64_t i = 0; i < wrong.numel(); i += 7) wrong.as<float>()[i] *= 0.5f;
  const std::string why = tl::gpu::variant_disagreement(first, wrong, *ir);
  CHECK_FALSE(why.empty());
  tl::gpu::BenchResult r;
  r.bench = c;
  r.config.warps = 8;
  r.config.blocks = c.set.blocks.str();
  tl::gpu::BenchConfig left_out = r.config;
  left_out.wgmma = left_out.wgmma_in_flight = true;
  left_out.stages = 4;
  r.rejected.push_back({left_out, why});
  const std::string row = tl::gpu::bench_table_row(r);
  CHECK(has(row, "left out, its output differs from the first variant's (" + why + "): warps 8, stages 4, wgmma, B0=128"));
  const std::string json = tl::gpu::bench_json({r}, tl::gpu::Ceilings{}, tl::gpu::DeviceInfo{});
  CHECK(has(json, "\"rejected_variants\""));
  CHECK(has(json, "\"output_differs\": \"" + why + "\""));
}

namespace {

// E1 at a bench case's blocks on a small problem with tails on every axis.
tl::gpu::BenchCase e1_small(const char* name) { return dot_cases::bench_case_at(name, 70, 100, 80); }

}  // namespace

TEST_CASE("wgmma: E1's tf32 dots read their staged core matrices by descriptor", "[gpu][codegen]") {
  tl::gpu::CodegenOptions cg;
  cg.wgmma = true;
  for (auto [name, warps] : {std::pair{"e1_v1", 4}, std::pair{"e1_v1_128", 8}}) {
    const tl::gpu::BenchCase c = e1_small(name);
    puzzles::RunBuffers b = puzzles::make_buffers(*c.puzzle, c.set, 0);
    auto ir = tl::build_ir(*c.puzzle->solution, puzzles::launch_args(c.set, b));
    cg.num_warps = warps;
    INFO(name << " at " << warps << " warps");
    const tl::gpu::LoweredKernel k = tl::gpu::lower(*ir, cg);
    const std::string body = body_of(k.source);
    CHECK(has(body, "ts_wgmma_tf32_n64(r"));
    CHECK(has(body, "ts_fence_proxy_async();"));
    CHECK_FALSE(has(body, "ts_mma_tf32(&r"));
    CHECK_FALSE(has(body, "ts_ldsm_x4("));
    // BK = 32 floats: rows of 128 bytes, 128-byte swizzled, 1024-byte aligned;
    // a k8 step is 8 floats further along the row.
    CHECK(has(body, "ts_wgmma_desc_sw128(sb + 8)"));
    CHECK(has(body, "__align__(1024) unsigned char ts_smem[]"));
    // Four stages by default: a group stays in flight across iterations, in
    // the accumulator's own registers, and is waited for after the loop.
    CHECK(has(body, "ts_wgmma_wait<2>();"));  // two dots a step: both groups in flight
    CHECK(has(body, "float (&r"));
    CHECK(has(body, "ts_wgmma_wait0();"));
    CHECK(body.find("ts_wgmma_wait0();") > body.rfind("ts_wgmma_wait<2>();"));
    // Dots are paired only with TMA (test_gpu_tma.cpp).
    CHECK_FALSE(has(body, "ts_wgmma_tf32_pair_n"));
    // ptxas takes it for sm_90a (CI has no GPU to run it).
    CHECK_NOTHROW(tl::gpu::nvrtc_compile(k.source, k.name, tl::gpu::CompileOptions{}, ""));
    // Two stages leave no room for a group in flight: each is waited for at once.
    tl::gpu::CodegenOptions two = cg;
    two.num_stages = 2;
    const std::string sync = body_of(tl::gpu::lower(*ir, two).source);
    CHECK(has(sync, "ts_wgmma_wait0();"));
    CHECK_FALSE(has(sync, "ts_wgmma_wait<"));
    CHECK_FALSE(has(sync, "float (&r"));
    // Or at four stages when asked (the tuner tries both).
    tl::gpu::CodegenOptions waited = cg;
    waited.wgmma_in_flight = false;
    const std::string four = body_of(tl::gpu::lower(*ir, waited).source);
    CHECK(has(four, "ts_wgmma_wait0();"));
    CHECK_FALSE(has(four, "ts_wgmma_wait<"));
  }
  // p11's B has n along its rows (tf32 wgmma reads K-major operands only):
  // at 11b's 16 columns no warpgroup can hold C^T's rows, so mma.sync
  // stays (the transposed form: the tests below). E4's dots are bf16.
  tl::gpu::CodegenOptions four;
  four.wgmma = true;
  CHECK_FALSE(has(tl::gpu::lower(*build("11", "11b").ir, four).source, "ts_wgmma_tf32"));
  CHECK_FALSE(has(tl::gpu::lower(*build("e4_fused", "canonical").ir, four).source, "ts_wgmma_tf32"));
}

TEST_CASE("wgmma: a tf32 dot whose B has n along its rows computes C^T with B^T from registers", "[gpu][codegen]") {
  tl::gpu::CodegenOptions cg;
  cg.wgmma = true;
  cg.wgmma_in_flight = false;  // with wgmma_b_in_stage B^T goes through the stage (the next test)
  cg.num_warps = 8;
  const tl::gpu::BenchCase c = dot_cases::p11_at(128, 128, 32);
  puzzles::RunBuffers b = puzzles::make_buffers(*c.puzzle, c.set, 0);
  auto ir = tl::build_ir(*c.puzzle->solution, puzzles::launch_args(c.set, b));
  const tl::gpu::LoweredKernel k = tl::gpu::lower(*ir, cg);
  const std::string body = body_of(k.source);
  // Warpgroup g takes C^T's rows (C's columns) 64g.. from B's rows padded
  // to 136 floats; x's tile is wgmma's B: all 128 of its rows, swizzled.
  CHECK(has(k.source, "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 {%0,"));
  CHECK(has(k.source, "}, {%64, %65, %66, %67}, %68, p, 1, 1;"));
  CHECK(has(body, "(tid >> 7) * 64 + (tid >> 5 & 3) * 16 + ((tid & 31) >> 2) + (tid & 3) * 136;"));
  CHECK(has(body, "ts_wgmma_tf32_rs_n128(r"));
  CHECK(has(body, "ts_wgmma_desc_sw128(sa + 24))"));
  CHECK_FALSE(has(body, "ts_mma_tf32(&r"));
  // The A fragments are registers the next iteration rewrites: each
  // iteration's group is waited for before it ends, at any stage count.
  CHECK(has(body, "uint32_t ts_fa[4][4];"));
  CHECK(has(body, "ts_wgmma_tf32_rs_n128(r88, ts_fa[3], ts_wgmma_desc_sw128(sa + 24));"));
  CHECK_FALSE(has(body, "ts_wgmma_wait<"));
  // The next copies go out between the commit and the wait, while the
  // tensor cores work: none between the barrier and the fragment loads.
  const size_t commit = body.find("ts_wgmma_commit();"), wait = body.find("ts_wgmma_wait0();");
  REQUIRE(commit != std::string::npos);
  REQUIRE(wait != std::string::npos);
  CHECK(wait > body.find("ts_wgmma_tf32_rs_n128(r88, ts_fa[3]"));
  CHECK(body.find("ts_cp_async16(", commit) < wait);
  CHECK(body.find("ts_cp_async16(", body.find("__syncthreads();", body.find("ts_cp_async_wait_"))) > commit);
  // The epilogue stores C's rows m, m + 1 of one column: no column pairs.
  CHECK_FALSE(has(body, "ts_store_pair("));
  CHECK_NOTHROW(tl::gpu::nvrtc_compile(k.source, k.name, tl::gpu::CompileOptions{}, ""));
  // Without a whole warpgroup per 64 columns of C (4 warps, 128 columns): mma.sync.
  cg.num_warps = 4;
  CHECK_FALSE(has(tl::gpu::lower(*ir, cg).source, "ts_wgmma_tf32"));
}

TEST_CASE("wgmma: with groups in flight, C^T's B^T is written K-major into the stage and read by descriptor", "[gpu][codegen]") {
  tl::gpu::CodegenOptions cg = dot_cases::wgmma_options(8, 4, /*in_flight=*/true, /*tma=*/true);
  cg.wgmma_b_in_stage = true;
  const tl::gpu::LoweredKernel k = tl::gpu::lower(*dot_cases::case_ir(dot_cases::p11_at(128, 128, 32)), cg);
  const std::string body = body_of(k.source);
  // Warpgroup g's 64 rows of y^T (2048 floats on), a k8 step 8 floats
  // along the swizzled rows; x's tile as wgmma's B, as before.
  CHECK(has(body, "ts_wgmma_tf32_n128(r88, ts_wgmma_desc_sw128(sb + ts_wg * 2048 + 24), ts_wgmma_desc_sw128(sa + 24));"));
  CHECK_FALSE(has(body, "ts_wgmma_tf32_rs_n"));
  CHECK_FALSE(has(body, "ts_fa["));
  // y: four 16-byte reads a thread into one of two register sets, stored
  // two refills later, rotated, into y^T's swizzled rows; the TMA path has
  // no cp.async to wait for.
  CHECK(has(body, "ts_u4 ts_tw87_0[4];"));
  CHECK(has(body, "ts_u4 ts_tw87_1[4];"));
  CHECK(has(body, "ts_tw87_1[ts_j] = *reinterpret_cast<const ts_u4*>(ts_src);"));
  CHECK(has(body, "ts_rotate4(ts_w, ts_tw87_0[ts_j], ts_trot87);"));
  // Each value's word in y^T's region computed once (ts_tT87), step j's
  // k / 4 differing from step 0's by 2j: an XOR of its chunk bits.
  CHECK(has(body, "ts_td[ts_tT87[ts_e] ^ (ts_j * 8)] = ts_w[ts_e];"));
  CHECK(has(body, "ts_tT87[ts_e] = ts_n * 32 + ((((ts_tk87 >> 2) ^ ts_n) & 7) << 2) + (ts_tk87 & 3);"));
  CHECK(body.find("int ts_tT87[4];") < body.find("for (int64_t it32"));
  const size_t loop = body.find("for (int64_t it32");
  REQUIRE(loop != std::string::npos);
  const size_t mbar = body.find("ts_mbar_wait(", loop);
  REQUIRE(mbar != std::string::npos);
  CHECK(body.find("} else {", mbar) < body.find("ts_cp_async_wait_", mbar));
  // Right after the stage is published and before the dots: the set read
  // two refills ago into the next iteration's stage (the one three back,
  // its groups retired), the fence to the async proxy, then the set's next
  // reads (three iterations on). The group stays in flight, and the
  // barrier after its wait publishes the stores before the next iteration.
  const size_t pending = body.find("((ts_st32 + 1) % 4) * ", mbar);
  REQUIRE(pending != std::string::npos);
  CHECK(body.find("if (ts_twp87) {", mbar) < pending);
  CHECK(body.find("it32 + 1 * (int64_t)r31 <", mbar) < pending);
  const size_t fence = body.find("ts_fence_proxy_async();", pending), reads = body.find("it32 + 3 * (int64_t)r31 <", pending);
  CHECK(fence < reads);
  CHECK(reads < body.find("ts_wgmma_tf32_n128(", pending));
  const size_t wait = body.find("ts_wgmma_wait<1>();", pending);
  REQUIRE(wait != std::string::npos);
  CHECK(body.find("__syncthreads();", wait) < body.find("ts_tma_load_3d(", wait));
  CHECK_NOTHROW(tl::gpu::nvrtc_compile(k.source, k.name, tl::gpu::CompileOptions{}, ""));
}

TEST_CASE("emulated: wgmma as C^T = B^T A^T computes what the interpreter computes", "[gpu][emulated]") {
  dot_cases::check_transposed_forms([](const tl::ir::Kernel& ir, tl::Grid grid, const std::vector<tl::Arg>& args,
                                        const tl::gpu::LoweredKernel& k, int64_t) {
    gpu_host::HostKernel(ir, k).run(grid, args);
  });
}

TEST_CASE("emulated: wgmma dots compute what the interpreter computes", "[gpu][emulated]") {
  // Stages: the default (four: a group in flight), three, and two (each
  // group waited for at once).
  for (auto [name, warps, stages, in_flight] :
       {std::tuple{"e1_v1", 4, 0, true}, std::tuple{"e1_v1_128", 8, 0, true}, std::tuple{"e1_v1", 4, 3, true},
        std::tuple{"e1_v1", 4, 2, true}, std::tuple{"e1_v1", 4, 4, false}}) {
    const tl::gpu::BenchCase c = e1_small(name);
    INFO(name << " at " << c.set.sizes.str() << ", " << warps << " warps, stages " << stages << ", in flight " << in_flight);
    tl::gpu::CodegenOptions cg;
    cg.num_warps = warps;
    cg.num_stages = stages;
    cg.wgmma = true;
    cg.wgmma_in_flight = in_flight;
    dot_cases::check_against_interpreter(c, [&](const tl::ir::Kernel& ir, tl::Grid grid, const std::vector<tl::Arg>& args) {
      const tl::gpu::LoweredKernel k = tl::gpu::lower(ir, cg);
      REQUIRE(has(k.source, "ts_wgmma_tf32_n64(r"));
      gpu_host::HostKernel(ir, k).run(grid, args);
    });
  }
}

#endif  // TILESCOPE_HAVE_GPU
