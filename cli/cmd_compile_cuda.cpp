#include <cstdio>

#include "commands.h"
#include "compile_cuda.h"
#include "error.h"

#ifdef TILESCOPE_HAVE_GPU
#include "codegen.h"
#endif

namespace cli {

int print_cuda(const tl::ir::Kernel& k, const Args& args) {
#ifdef TILESCOPE_HAVE_GPU
  tl::gpu::CodegenOptions opt;
  opt.num_warps = static_cast<int>(args.int_value("warps", 4));
  opt.every_load = args.flag("every-load");
  opt.num_stages = static_cast<int>(args.int_value("stages", 0));
  opt.ldmatrix = !args.flag("no-ldmatrix");
  opt.row_runs = !args.flag("no-row-runs");
  opt.wgmma_register_a = args.flag("register-a");
  opt.wgmma_b_in_stage = args.flag("b-in-stage");
  opt.wgmma = args.flag("wgmma");
  opt.tma = args.flag("tma");
  opt.cluster_multicast = args.flag("cluster");
  opt.wgmma_decoupled = !args.flag("no-decoupled");
  opt.wgmma_b_tma = !args.flag("no-b-tma");
  opt.warp_specialize = args.flag("warp-specialize");
  if (opt.warp_specialize && !opt.tma) throw UsageError("--warp-specialize needs --wgmma --tma (the producer issues TMA copies)");
  opt.producer_warpgroups = producer_warpgroups(args, opt.warp_specialize);
  if (opt.cluster_multicast && !opt.tma) throw UsageError("--cluster needs --wgmma --tma (clusters share TMA copies)");
  try {
    std::fputs(tl::gpu::lower_to_cuda(k, opt).c_str(), stdout);
  } catch (const tl::gpu::CodegenError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return kExitFailed;
  }
  return kExitOk;
#else
  (void)k;
  (void)args;
  std::fprintf(stderr, "tilescope was built without the CUDA toolkit (NVRTC): --cuda is not available\n");
  return kExitFailed;
#endif
}

}  // namespace cli
