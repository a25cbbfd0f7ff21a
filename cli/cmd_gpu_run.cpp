// tilescope gpu-run: one launch of one kernel on the GPU, in this process,
// for tools that watch a process (compute-sanitizer, Nsight Compute). The
// interpreter runs the same launch first and says whether it accesses
// anything out of bounds, so a sanitizer's verdict can be set beside it.
#include <cstdio>

#include "args.h"
#include "command_line.h"
#include "commands.h"
#include "harness.h"
#include "inputs.h"
#include "puzzle_args.h"

#ifdef TILESCOPE_HAVE_GPU
#include "cubin_cache.h"
#include "device_runtime.h"
#include "error.h"
#include "gpu_compare.h"
#endif

namespace cli {

int cmd_gpu_run(const Args& args) {
  if (args.flag("help")) {
    std::printf(
        "usage: tilescope gpu-run N | broken/NAME [--set NAME] [--seed N] [--every-load]\n\n"
        "Launches one kernel once on the GPU, in this process, e.g. under\n"
        "  compute-sanitizer --tool memcheck tilescope gpu-run broken/NAME --every-load\n"
        "(without --every-load the CUDA compiler may drop a load whose value no store\n"
        "uses, and the sanitizer then sees no access there).\n"
        "The interpreter runs the same launch first and prints its out-of-bounds count.\n"
        "Exit status: 0 if the launch completed, 1 if the GPU reported an error.\n\noptions:\n%s",
        format_options(options_of("gpu-run")).c_str());
    return kExitOk;
  }
  std::vector<CheckTarget> targets = select_targets(args);
  if (targets.size() != 1) throw UsageError("gpu-run takes one kernel");
  const CheckTarget& t = targets[0];
  const puzzles::Puzzle& p = *t.puzzle;
  const std::string set_name = args.value("set").value_or(t.broken ? t.broken->set : "canonical");
  const puzzles::SizeSet* set = puzzles::find_set(p, set_name);
  if (!set) throw UsageError("puzzle " + std::to_string(p.number) + " has no size set '" + set_name + "'");
  const uint32_t seed = static_cast<uint32_t>(args.int_value("seed", 0));
  const tl::KernelDef& k = t.broken ? *t.broken->kernel : args.flag("stub") ? *p.stub : *p.solution;

  // The interpreter's verdict on the same launch.
  puzzles::RunBuffers interp = puzzles::make_buffers(p, *set, seed);
  tl::RunResult ir_run = tl::run(k, puzzles::grid_for(*set), puzzles::launch_args(*set, interp));
  std::printf("interpreter: %lld out-of-bounds load lane(s), %lld out-of-bounds store lane(s)\n",
              static_cast<long long>(ir_run.oob_loads), static_cast<long long>(ir_run.oob_stores));
#ifndef TILESCOPE_HAVE_GPU
  std::printf("[SKIP] no CUDA back end: tilescope was built without the CUDA toolkit (NVRTC)\n");
  return kExitOk;
#else
  tl::gpu::CodegenOptions cg;
  cg.num_warps = static_cast<int>(args.int_value("warps", 4));
  cg.wgmma = args.flag("wgmma");
  cg.tma = args.flag("tma");
  cg.cluster_multicast = args.flag("cluster");
  if (cg.cluster_multicast && !cg.tma) throw UsageError("--cluster needs --wgmma --tma (clusters share TMA copies)");
  cg.every_load = args.flag("every-load");
  puzzles::RunBuffers gpu = puzzles::make_buffers(p, *set, seed);
  const std::vector<tl::Arg> launch_args = puzzles::launch_args(*set, gpu);
  try {
    tl::gpu::CudaDriver d;
    tl::gpu::CompileOptions co;
    co.arch = d.device().arch();
    co.line_info = true;  // compute-sanitizer's reports name the generated source's lines
    tl::gpu::CubinCache cache;
    tl::gpu::LoweredKernel lowered = tl::gpu::lower(*ir_run.kernel, cg);
    tl::gpu::Cubin cubin = cache.get(lowered, co);
    tl::gpu::LoadedKernel loaded(d, cubin, lowered, co, &cache);
    std::printf("gpu: %s on %s, grid (%lld, %lld, %lld), %d threads, source %s\n", lowered.name.c_str(),
                d.device().str().c_str(), static_cast<long long>(puzzles::grid_for(*set).x),
                static_cast<long long>(puzzles::grid_for(*set).y), static_cast<long long>(puzzles::grid_for(*set).z),
                lowered.threads, cubin.source_path.c_str());
    std::fflush(stdout);
    bool tma_used = false, clusters_used = false;
    tl::gpu::run_on_device(d, loaded, *ir_run.kernel, puzzles::grid_for(*set), launch_args, &tma_used, &clusters_used);
    // Which copy path ran: a TMA kernel falls back to cp.async where the
    // launch cannot describe its tensors, and to single programs where the
    // grid cannot form clusters (a sanitizer run should say which it checked).
    if (!lowered.tensor_maps.empty())
      std::printf("gpu: staged tiles copied by %s\n", !tma_used       ? "cp.async (the tensors cannot be described for TMA here: the kernel's cp.async form ran)"
                                                      : clusters_used ? "TMA, in clusters of two (multicast)"
                                                                      : "TMA");
    tl::gpu::BufferDiff diff =
        tl::gpu::diff_buffers(interp.output, gpu.output, tl::gpu::tolerance_for(*ir_run.kernel, p.output.dtype));
    std::printf("gpu: launch completed; output vs interpreter: %s\n", diff.str().c_str());
    return kExitOk;
  } catch (const tl::gpu::NoDriver& e) {
    std::printf("[SKIP] no CUDA driver: %s\n", e.what());
    return kExitOk;
  } catch (const tl::gpu::CudaError& e) {
    std::printf("gpu: %s\n", e.what());
    return kExitFailed;
  }
#endif
}

}  // namespace cli
