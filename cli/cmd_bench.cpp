// tilescope bench --gpu: the reference solutions at ANCHORS.md's sizes on
// the GPU, with time, GB/s, TFLOP/s and the fraction of the hardware floor.
#include <cstdio>

#include "args.h"
#include "command_line.h"
#include "commands.h"

#ifdef TILESCOPE_HAVE_GPU
#include "cubin_cache.h"
#include "gpu_bench.h"
#endif

namespace cli {

#ifdef TILESCOPE_HAVE_GPU
namespace {

// The bench's options from the command line (UsageError for a bad mix).
tl::gpu::BenchOptions bench_options(const Args& args) {
  tl::gpu::BenchOptions opt;
  opt.runs = static_cast<int>(args.int_value("runs", 100));
  opt.warmup = static_cast<int>(args.int_value("warmup", 10));
  if (opt.runs < 100) throw UsageError("--runs must be at least 100 (the median of fewer runs is too noisy)");
  if (opt.warmup < 1) throw UsageError("--warmup must be at least 1");
  // Without --warps, every case is timed at 4 and 8 warps and the faster kept.
  if (args.value("warps")) opt.codegen.num_warps = static_cast<int>(args.int_value("warps", 4));
  else opt.tune_warps = {4, 8};
  if (args.value("stages")) {
    if (!opt.tune_warps.empty()) throw UsageError("--stages needs --warps (the autotuner tries 2, 3 and 4 stages itself)");
    opt.codegen.num_stages = static_cast<int>(args.int_value("stages", 0));
    if (opt.codegen.num_stages < 2 || opt.codegen.num_stages > 4) throw UsageError("--stages must be 2, 3 or 4");
  }
  opt.verify = args.flag("verify");
  opt.flush_l2 = args.flag("flush-l2");
  opt.codegen.ldmatrix = !args.flag("no-ldmatrix");
  opt.tune_wgmma = args.flag("wgmma");
  opt.codegen.tf32_cut_staged = args.flag("tf32-cut");
  opt.codegen.wgmma_pair_dots = !args.flag("no-dot-pairs");
  opt.codegen.small_loads_in_stage = !args.flag("no-small-in-stage");
  opt.codegen.register_operand_runs = !args.flag("no-operand-runs");
  opt.codegen.row_runs = !args.flag("no-row-runs");
  opt.codegen.wgmma_register_a = args.flag("register-a");
  if (opt.tune_warps.empty()) opt.codegen.wgmma = opt.tune_wgmma;
  if (args.flag("tma")) {
    if (!opt.tune_warps.empty() || !opt.tune_wgmma) throw UsageError("--tma needs --warps and --wgmma (the autotuner tries TMA itself)");
    opt.codegen.tma = true;
  }
  if (args.flag("copies-first")) {
    if (!opt.tune_warps.empty() || !opt.tune_wgmma)
      throw UsageError("--copies-first needs --warps and --wgmma (to compare with the default order)");
    opt.codegen.wgmma_copies_after_dots = false;
  }
  if (args.flag("b-in-stage")) {
    if (!opt.tune_warps.empty() || !opt.tune_wgmma)
      throw UsageError("--b-in-stage needs --warps and --wgmma (the autotuner does not try it: slower so far)");
    opt.codegen.wgmma_b_in_stage = true;
  }
  opt.codegen.wgmma_decoupled = !args.flag("no-decoupled");
  opt.codegen.wgmma_b_tma = !args.flag("no-b-tma");
  if (args.flag("groups-waited")) {
    if (!opt.tune_warps.empty() || !opt.tune_wgmma)
      throw UsageError("--groups-waited needs --warps and --wgmma (the autotuner tries both forms itself)");
    opt.codegen.wgmma_in_flight = false;
  }
  if (args.value("variant")) {
    if (!opt.tune_warps.empty()) throw UsageError("--variant needs --warps (the autotuner tries every variant itself)");
    opt.block_variant = static_cast<int>(args.int_value("variant", 0));
    if (opt.block_variant < 1) throw UsageError("--variant must be 1 or more");
  }
  if (args.flag("warp-specialize")) {
    if (!opt.codegen.tma) throw UsageError("--warp-specialize needs --warps, --wgmma and --tma (the producer issues TMA copies)");
    opt.codegen.warp_specialize = true;
  }
  opt.codegen.producer_warpgroups = producer_warpgroups(args, opt.codegen.warp_specialize);
  if (args.flag("cluster")) {
    if (!opt.codegen.tma) throw UsageError("--cluster needs --warps, --wgmma and --tma (the autotuner tries clusters itself)");
    opt.codegen.cluster_multicast = true;
  }
  if (auto cases = args.value("case")) {
    std::string all = *cases + ",";
    for (size_t at = 0, comma; (comma = all.find(',', at)) != std::string::npos; at = comma + 1)
      if (comma > at) opt.cases.push_back(all.substr(at, comma - at));
    for (const std::string& c : opt.cases) {
      bool known = false;
      for (const tl::gpu::BenchCase& b : tl::gpu::anchor_cases()) known |= b.name == c;
      if (!known) {
        std::string names;
        for (const tl::gpu::BenchCase& b : tl::gpu::anchor_cases()) names += (names.empty() ? "" : ", ") + b.name;
        throw UsageError("no bench case '" + c + "' (" + names + ")");
      }
    }
  }
  return opt;
}

// Measures the ceilings, runs the cases and prints or writes the results.
int run_bench(const Args& args, tl::gpu::BenchOptions& opt) {
  const bool json = args.flag("json");
  try {
    tl::gpu::CudaDriver d;
    opt.compile.arch = d.device().arch();
    opt.compile.line_info = args.flag("line-info");
    if (!json) std::printf("device: %s\nmeasuring ceilings...\n", d.device().str().c_str());
    std::fflush(stdout);
    tl::gpu::Ceilings ceil = tl::gpu::measure_ceilings(d);
    if (!json)
      std::printf("bandwidth %.3g TB/s (%s)\ntf32 %.3g TFLOP/s, f32 %.3g TFLOP/s (%s)\n%s", ceil.bytes_per_s * 1e-12,
                  ceil.bandwidth_source.c_str(), ceil.tf32_flops_per_s * 1e-12, ceil.f32_flops_per_s * 1e-12,
                  ceil.math_source.c_str(), tl::gpu::bench_table_header().c_str());
    auto results = tl::gpu::run_benchmarks(d, ceil, opt, [&](const tl::gpu::BenchResult& r) {
      if (json) return;
      std::fputs(tl::gpu::bench_table_row(r).c_str(), stdout);
      std::fflush(stdout);
    });
    if (auto file = args.value("json-out")) {
      std::FILE* f = std::fopen(file->c_str(), "w");
      if (!f) throw UsageError("cannot write " + *file);
      std::fprintf(f, "%s\n", tl::gpu::bench_json(results, ceil, d.device()).c_str());
      std::fclose(f);
    }
    if (json) {
      std::printf("%s\n", tl::gpu::bench_json(results, ceil, d.device()).c_str());
    } else {
      std::printf("floor %% = max(bytes / bandwidth, flops / rate) / median time; Triton ms: ANCHORS.md (H200)\n");
      std::printf("%s\n", opt.flush_l2 ? "timing: L2 overwritten before each run (as Triton's do_bench), inputs not rotated"
                                        : "timing: runs back to back, inputs rotated among copies where they fit in L2");
      for (const tl::gpu::BenchResult& r : results)
        if (r.verified) std::printf("%s: output vs reference err %.3g\n", r.bench.name.c_str(), r.spec_err);
    }
    bool failed = false;
    for (const tl::gpu::BenchResult& r : results) failed |= !r.error.empty() || r.never_written > 0;
    return failed ? kExitFailed : kExitOk;
  } catch (const tl::gpu::NoDriver& e) {
    std::printf("[SKIP] no CUDA driver: %s\n", e.what());
    return kExitOk;
  }
}

}  // namespace
#endif

int cmd_bench(const Args& args) {
  if (args.flag("help")) {
    std::printf(
        "usage: tilescope bench --gpu [--case p02,p11] [--runs N] [--json]\n\n"
        "Runs the reference solutions at the sizes of ANCHORS.md on the GPU: CUDA-event timing\n"
        "after warm-up, median of the runs, inputs rotated among copies when they fit in L2.\n"
        "Prints time, GB/s, TFLOP/s and the percent of the floor max(bytes / bandwidth,\n"
        "flops / rate), with bandwidth and rates measured here (a device-to-device copy and\n"
        "cuBLAS SGEMM). Without a CUDA driver it prints one [SKIP] line and exits 0.\n\n"
        "options:\n%s",
        format_options(options_of("bench")).c_str());
    return kExitOk;
  }
  if (!args.flag("gpu"))
    throw UsageError("bench needs --gpu (the interpreter's benchmark is the tilescope_interp_bench program)");
#ifndef TILESCOPE_HAVE_GPU
  std::printf("[SKIP] no CUDA back end: tilescope was built without the CUDA toolkit (NVRTC)\n");
  return kExitOk;
#else
  tl::gpu::BenchOptions opt = bench_options(args);
  tl::gpu::CubinCache cache("", !args.flag("no-cache"));
  opt.cache = &cache;
  return run_bench(args, opt);
#endif
}

}  // namespace cli
