#include <algorithm>
#include <cstdio>

#include "check_gpu.h"
#include "commands.h"

#ifdef TILESCOPE_HAVE_GPU
#include "cubin_cache.h"
#include "error.h"
#include "gpu_check.h"
#include "inputs.h"
#include "nvrtc_compiler.h"

#include <nlohmann/json.hpp>
#endif

namespace cli {

#ifndef TILESCOPE_HAVE_GPU

int check_gpu(const std::vector<CheckTarget>&, const puzzles::CheckOptions&, const Args&) {
  std::printf("[SKIP] no CUDA back end: tilescope was built without the CUDA toolkit (NVRTC)\n");
  return kExitOk;
}

#else

namespace {

std::string json_string(const std::string& s) { return nlohmann::json(s).dump(); }

// Without a device the kernels are still lowered and compiled, so a
// code-generation error shows on any machine with the toolkit.
int compile_only(const std::vector<CheckTarget>& targets, const puzzles::CheckOptions& opt, bool stub,
                 const tl::gpu::CodegenOptions& cg, tl::gpu::CubinCache* cache, const std::string& why, bool json) {
  int compiled = 0, failed = 0;
  nlohmann::json failures = nlohmann::json::array();
  tl::gpu::CompileOptions co;
  for (const CheckTarget& t : targets) {
    const tl::KernelDef& k = t.broken ? *t.broken->kernel : stub ? *t.puzzle->stub : *t.puzzle->solution;
    for (const puzzles::SizeSet& set : t.puzzle->sets) {
      if (!opt.sets.empty() && std::find(opt.sets.begin(), opt.sets.end(), set.name) == opt.sets.end()) continue;
      if (t.broken && set.name != t.broken->set) continue;
      puzzles::RunBuffers b = puzzles::make_buffers(*t.puzzle, set, 0);
      try {
        auto ir = tl::build_ir(k, puzzles::launch_args(set, b));
        tl::gpu::compile_cubin(tl::gpu::lower(*ir, cg), co, cache);
        ++compiled;
      } catch (const tl::BuildError&) {
        // The interpreter's check reports build errors.
      } catch (const std::exception& e) {
        ++failed;
        if (json) failures.push_back(k.name() + " (set " + set.name + "): " + e.what());
        else std::printf("%2d %s (set %s): %s\n", t.puzzle->number, k.name().c_str(), set.name.c_str(), e.what());
      }
    }
  }
  if (json) {
    nlohmann::json j = {{"device", nullptr}, {"skipped", why}, {"compiled", compiled}, {"arch", co.arch},
                        {"compile_failures", failures}};
    std::printf("%s\n", j.dump().c_str());
  }
  else
    std::printf("compiled %d kernel specialization%s with NVRTC for %s (not run)%s\n", compiled,
                compiled == 1 ? "" : "s", co.arch.c_str(), failed ? "; some did not compile" : "");
  return failed ? kExitFailed : kExitOk;
}

}  // namespace

int check_gpu(const std::vector<CheckTarget>& targets, const puzzles::CheckOptions& opt, const Args& args) {
  tl::gpu::CodegenOptions cg;
  cg.num_warps = static_cast<int>(args.int_value("warps", 4));
  cg.wgmma = args.flag("wgmma");
  cg.num_stages = static_cast<int>(args.int_value("stages", 0));
  cg.wgmma_in_flight = !args.flag("wgmma-wait");
  cg.tma = args.flag("tma");
  cg.wgmma_pair_dots = !args.flag("no-dot-pairs");
  if (cg.tma && !cg.wgmma) throw UsageError("--tma needs --wgmma (TMA feeds the wgmma pipelines)");
  cg.cluster_multicast = args.flag("cluster");
  if (cg.cluster_multicast && !cg.tma) throw UsageError("--cluster needs --wgmma --tma (clusters share TMA copies)");
  cg.tf32_cut_staged = args.flag("tf32-cut");
  if (cg.num_stages != 0 && (cg.num_stages < 2 || cg.num_stages > 4)) throw UsageError("--stages must be 2, 3 or 4");
  if (cg.num_warps < 1 || cg.num_warps > 32 || (cg.num_warps & (cg.num_warps - 1)))
    throw UsageError("--warps must be a power of two from 1 to 32");
  // --no-cache still writes each source to the cache directory, so an
  // NVRTC error can name the file.
  tl::gpu::CubinCache cache("", !args.flag("no-cache"));

  const bool json = args.flag("json");
  tl::gpu::DeviceProbe probe = tl::gpu::probe_device();
  if (!probe.ok) {
    if (!json) std::printf("[SKIP] no CUDA driver: %s\n", probe.reason.c_str());
    return compile_only(targets, opt, args.flag("stub"), cg, &cache, "no CUDA driver: " + probe.reason, json);
  }
  tl::gpu::GpuCheckOptions gopt;
  gopt.seeds = opt.seeds;
  gopt.sets = opt.sets;
  gopt.codegen = cg;
  gopt.compile.arch = probe.info.arch();
  gopt.compile.line_info = args.flag("line-info");
  gopt.cache = &cache;
  if (json) {
    std::printf("{\"device\": %s, \"arch\": %s, \"warps\": %d, \"kernels\": [", json_string(probe.info.str()).c_str(),
                json_string(gopt.compile.arch).c_str(), cg.num_warps);
  } else {
    std::printf("GPU: %s; NVRTC %s for %s, %d warps per program\n", probe.info.str().c_str(),
                tl::gpu::nvrtc_version().c_str(), gopt.compile.arch.c_str(), cg.num_warps);
    std::printf("The access check was not performed on the GPU: bounds are checked by the interpreter's run.\n\n");
  }
  int matched = 0, met = 0;
  bool first = true;
  for (const CheckTarget& t : targets) {
    tl::gpu::GpuCheckOptions topt = gopt;
    if (t.broken) {
      if (!args.value("set")) topt.sets = {t.broken->set};
      if (!args.value("seeds")) topt.seeds = {0};
      if (!json) std::printf("broken/%s: %s\n", t.broken->name.c_str(), t.broken->title.c_str());
    }
    const tl::KernelDef& k = t.broken ? *t.broken->kernel : args.flag("stub") ? *t.puzzle->stub : *t.puzzle->solution;
    tl::gpu::GpuPuzzleReport r = tl::gpu::check_on_gpu(*t.puzzle, k, topt);
    if (json) std::printf("%s\n%s", first ? "" : ",", tl::gpu::gpu_report_json(r).c_str());
    else std::fputs(tl::gpu::format_gpu_report(r).c_str(), stdout);
    first = false;
    std::fflush(stdout);
    matched += r.all_match;
    met += r.all_spec_pass;
  }
  if (json)
    std::printf("\n], \"matched\": %d, \"met_threshold\": %d, \"kernels_checked\": %zu}\n", matched, met, targets.size());
  else
    std::printf("%d of %zu kernels match the interpreter on the GPU; %d of %zu meet their puzzle's threshold there\n",
                matched, targets.size(), met, targets.size());
  return matched == static_cast<int>(targets.size()) && met == static_cast<int>(targets.size()) ? kExitOk
                                                                                               : kExitFailed;
}

#endif

}  // namespace cli
