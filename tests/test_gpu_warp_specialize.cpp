// Warp specialization (CodegenOptions::warp_specialize): E4's
// loop as a producer warpgroup, which dequantizes X into the stage and
// issues dY's TMA copies, and consumer warps, which only wait for a full
// stage, run their wgmma groups and hand the stage back. The generated
// code's order of waits, stores and arrivals (CI has no GPU), and what it
// computes in the host emulation against the interpreter; test_gpu_run.cpp
// runs the same forms on the GPU.
#ifdef TILESCOPE_HAVE_GPU
#include <catch2/catch.hpp>

#include <string>

#include "codegen.h"
#include "codegen_text.h"
#include "dot_cases.h"
#include "gpu_host_runner.h"
#include "nvrtc_compiler.h"
#include "wgmma16_cases.h"

using codegen_text::body_of;
using codegen_text::has;
using wgmma16_cases::e4_rows_at;
using wgmma16_cases::e4_specialized_at;

namespace {

// The text between `from` and the first `to` after it ("" if either is missing).
std::string between(const std::string& s, const std::string& from, const std::string& to) {
  const size_t a = s.find(from);
  if (a == std::string::npos) return "";
  const size_t b = s.find(to, a + from.size());
  return b == std::string::npos ? "" : s.substr(a, b - a);
}

size_t count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("warp specialization: E4's producer waits for its small loads, writes X, fences it and arrives, and the consumers wait, run wgmma, hand the stage back and refill it",
          "[gpu][codegen]") {
  const auto ir = dot_cases::case_ir(e4_rows_at(128, 128, 32, 2, 3));
  const tl::gpu::LoweredKernel k = tl::gpu::lower(*ir, e4_specialized_at(128, 4, 1));
  REQUIRE(k.warp_specialized == 1);
  CHECK(k.threads == 256 + 128);
  CHECK(has(k.source, "__launch_bounds__(384)"));
  const std::string body = body_of(k.source);
  // Full barriers: 128 producer arrivals and the copies' arming one; empty
  // barriers: the 8 consumer warps; small-loads barriers: the producer's 128.
  const std::string setup = body.substr(0, body.find("if (tid >= 256) {"));
  CHECK(count(setup, ", 129);") == 4);
  CHECK(count(setup, "106528) + (0), 8);") == 1);
  CHECK(count(setup, "106560) + (3), 128);") == 1);
  const std::string producer = between(body, "if (tid >= 256) {", "return;");
  REQUIRE_FALSE(producer.empty());
  CHECK(has(producer, "const int tid = threadIdx.x - 256;"));
  // Nothing makes a producer warp wait for another but the data it reads:
  // no block or warpgroup barrier; the copies are the consumers'.
  CHECK_FALSE(has(producer, "__syncthreads"));
  CHECK_FALSE(has(producer, "ts_warpgroup_sync"));
  CHECK_FALSE(has(producer, "ts_wgmma"));
  CHECK_FALSE(has(producer, "ts_tma_load"));
  const std::string loop = producer.substr(producer.find("for (int64_t it"));
  // This stage's small loads waited for before X is computed from them; X
  // stored once the consumers handed the stage back, fenced for the async
  // proxy, then the arrival that fills the stage; then the small loads of
  // the iteration two on into their stage, and their arrival.
  const size_t small_wait = loop.find("ts_mbar_wait(reinterpret_cast<uint64_t*>(ts_smem + ts_pipe + 106560) + (ts_st66)"),
               dequant = loop.find("ts_u23_mask_to_f32("),
               empty_wait = loop.find("ts_mbar_wait(reinterpret_cast<uint64_t*>(ts_smem + ts_pipe + 106528) + (ts_st66)"),
               store = loop.find("ts_st_shared16(ts_x"), fence = loop.find("ts_fence_proxy_async();"),
               arrive = loop.find("ts_mbar_arrive(reinterpret_cast<uint64_t*>(ts_smem + ts_pipe + 106496) + (ts_st66));"),
               small_write = loop.find("((ts_st66 + 2) % 4) * 26624 + 24576)"),
               small_arrive = loop.find("ts_mbar_arrive(reinterpret_cast<uint64_t*>(ts_smem + ts_pipe + 106560) + ((ts_st66 + 2) % 4));");
  REQUIRE(small_wait != std::string::npos);
  REQUIRE(small_arrive != std::string::npos);
  CHECK(small_wait < dequant);
  CHECK(dequant < empty_wait);
  CHECK(empty_wait < store);
  CHECK(store < fence);
  CHECK(fence < arrive);
  CHECK(arrive < small_write);
  CHECK(small_write < small_arrive);
  CHECK(has(loop, "if (ts_j >= 4) {"));
  // The consumers: no X, no block barrier inside the loop; the full
  // stage's wait (suspended until the producer fills it) before the first wgmma, the previous stage handed back by
  // each warp after the wait that retires its groups, then refilled by
  // thread 0 once every warp did (its wait on the empty barrier).
  const std::string consumer = between(body, "return;", "} else {");
  const std::string cloop = between(consumer, "for (int64_t it", "ts_wgmma_wait0();");
  REQUIRE_FALSE(cloop.empty());
  CHECK_FALSE(has(cloop, "ts_st_shared16"));
  CHECK_FALSE(has(cloop, "__syncthreads"));
  const size_t full = cloop.find("ts_mbar_wait_sleep("), first_dot = cloop.find("ts_wgmma_bf16_n128_tt("),
               wait = cloop.find("ts_wgmma_wait<2>();"), release = cloop.find("ts_mbar_arrive("),
               refill_wait = cloop.find("ts_mbar_wait(reinterpret_cast<uint64_t*>(ts_smem + ts_pipe + 106528) + (ts_s)"),
               refill = cloop.find("ts_tma_load_2d(");
  REQUIRE(full != std::string::npos);
  REQUIRE(refill != std::string::npos);
  CHECK(full < first_dot);
  CHECK(first_dot < wait);
  CHECK(wait < release);
  CHECK(release < refill_wait);
  CHECK(refill_wait < refill);
  CHECK(has(cloop, "if (it66 != (int64_t)r21 && (tid & 31) == 0) {"));
  CHECK(has(cloop, "const int64_t ts_next = it66 + 3 * (int64_t)r65;"));
  CHECK_NOTHROW(tl::gpu::nvrtc_compile(k.source, k.name, tl::gpu::CompileOptions{}, ""));
  CHECK_NOTHROW(tl::gpu::nvrtc_compile(tl::gpu::cp_async_form(k).source, k.name, tl::gpu::CompileOptions{}, ""));
}

TEST_CASE("warp specialization with two producer warpgroups: the producers give registers back before their loop, the consumers take them before theirs, and every producer thread arrives",
          "[gpu][codegen]") {
  const auto ir = dot_cases::case_ir(e4_rows_at(128, 128, 64, 2, 3));
  const tl::gpu::LoweredKernel k = tl::gpu::lower(*ir, e4_specialized_at(128, 3, 2));
  REQUIRE(k.warp_specialized == 1);
  CHECK(k.threads == 256 + 256);
  // One block an SM: ptxas starts every thread at 65536 / 512 = 128
  // registers, which setmaxnreg moves from.
  CHECK(has(k.source, "__launch_bounds__(512, 1)"));
  const std::string body = body_of(k.source);
  const std::string setup = body.substr(0, body.find("if (tid >= 256) {"));
  CHECK(count(setup, ", 257);") == 3);  // 256 producer arrivals and the copies' arming one
  CHECK(count(setup, ", 256);") == 3);  // the small loads': every producer thread
  const std::string producer = between(body, "if (tid >= 256) {", "return;");
  REQUIRE_FALSE(producer.empty());
  // 72 a producer thread, so 65536 - 256 * 72 over 256 consumer threads is 184.
  CHECK(producer.find("ts_setmaxnreg_dec<72>();") < producer.find("if (ts_tma_ok)"));
  CHECK(has(producer, "TS_ASSUME(tid >= 0 && tid < 256);"));
  const std::string consumer = body.substr(body.find("return;"));
  CHECK(consumer.find("ts_setmaxnreg_inc<184>();") < consumer.find("if (ts_tma_ok)"));
  CHECK_FALSE(has(consumer.substr(consumer.find("if (ts_tma_ok)")), "ts_setmaxnreg"));
  CHECK_NOTHROW(tl::gpu::nvrtc_compile(k.source, k.name, tl::gpu::CompileOptions{}, ""));
  CHECK_NOTHROW(tl::gpu::nvrtc_compile(tl::gpu::cp_async_form(k).source, k.name, tl::gpu::CompileOptions{}, ""));
  tl::gpu::CodegenOptions three = e4_specialized_at(128, 3, 3);
  CHECK_THROWS_AS(tl::gpu::lower(*ir, three), tl::gpu::CodegenError);
  // A wgmma of N 256 holds 128 accumulator registers in one instruction,
  // which ptxas checks against the 128 at entry: one producer warpgroup.
  const auto wide = dot_cases::case_ir(e4_rows_at(128, 256, 32, 1, 3));
  const tl::gpu::LoweredKernel kw = tl::gpu::lower(*wide, e4_specialized_at(128, 3, 2));
  REQUIRE(kw.warp_specialized == 1);
  CHECK(kw.threads == 256 + 128);
  CHECK_FALSE(has(kw.source, "ts_setmaxnreg_inc<"));
  CHECK_NOTHROW(tl::gpu::nvrtc_compile(kw.source, kw.name, tl::gpu::CompileOptions{}, ""));
}

TEST_CASE("warp specialization: loops without a computed operand, or without TMA, are lowered as before", "[gpu][codegen]") {
  // p11's operands are both loaded; E4 without TMA has no producer to
  // issue copies; E4 with its groups waited for at once has none in flight.
  tl::gpu::CodegenOptions p11 = dot_cases::wgmma_options(8, 4, true);
  p11.tma = p11.warp_specialize = true;
  const tl::gpu::LoweredKernel k11 = tl::gpu::lower(*dot_cases::case_ir(dot_cases::p11_at(64, 128, 32)), p11);
  CHECK(k11.warp_specialized == 0);
  CHECK(k11.threads == 256);
  const auto e4 = dot_cases::case_ir(e4_rows_at(128, 128, 32, 2, 3));
  tl::gpu::CodegenOptions no_tma = e4_specialized_at(128, 4, 1);
  no_tma.tma = false;
  CHECK(tl::gpu::lower(*e4, no_tma).warp_specialized == 0);
  tl::gpu::CodegenOptions waited = e4_specialized_at(128, 4, 1);
  waited.wgmma_in_flight = false;
  const tl::gpu::LoweredKernel kw = tl::gpu::lower(*e4, waited);
  CHECK(kw.warp_specialized == 0);
  CHECK(kw.threads == 256);
}

TEST_CASE("emulated: E4 warp-specialized computes what the interpreter computes", "[gpu][emulated]") {
  for (auto [bm, bn, bk, rows, stages, cout, producers] : wgmma16_cases::e4_specialized_forms) {
    const tl::gpu::BenchCase c = e4_rows_at(bm, bn, bk, rows, 3, 300, cout);
    INFO("e4_rows at " << c.set.sizes.str() << " | " << c.set.blocks.str() << ", stages " << stages << ", "
                       << producers << " producer warpgroups");
    dot_cases::check_against_interpreter(c, [&](const tl::ir::Kernel& ir, tl::Grid grid, const std::vector<tl::Arg>& args) {
      const tl::gpu::LoweredKernel k = tl::gpu::lower(ir, e4_specialized_at(bm, stages, producers));
      REQUIRE(k.warp_specialized == 1);
      REQUIRE(k.threads == bm / 16 * 32 + 128 * producers);
      gpu_host::HostKernel h(ir, k);
      h.run(grid, args);
      CHECK(h.tma_used() == (cout * 2 % 16 == 0));
    });
  }
}

#endif  // TILESCOPE_HAVE_GPU
