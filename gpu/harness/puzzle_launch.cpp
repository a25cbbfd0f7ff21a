#include "puzzle_launch.h"

#include <cstring>

#include "child_process.h"
#include "cubin_cache.h"
#include "device_runtime.h"
#include "harness.h"
#include "inputs.h"
#include "wire.h"

namespace tl::gpu {

GpuLaunchValues run_puzzle_launch_on_gpu(const puzzles::Puzzle& p, const tl::KernelDef& kernel,
                                         const puzzles::SizeSet& set, uint32_t seed, const CodegenOptions& codegen) {
  GpuLaunchValues out;
  puzzles::RunBuffers bufs = puzzles::make_buffers(p, set, seed);
  const std::vector<Arg> args = puzzles::launch_args(set, bufs);
  std::shared_ptr<const ir::Kernel> ir;
  try {
    ir = tl::build_ir(kernel, args);
    out.tolerance = tolerance_for(*ir, p.output.dtype);
  } catch (const std::exception& e) {
    out.error = e.what();
    return out;
  }
  std::vector<Buffer*> all;
  for (Buffer& b : bufs.inputs) all.push_back(&b);
  all.push_back(&bufs.output);

  // The child sends the device's name, then every buffer's bytes in order.
  ChildOutcome child = run_in_child([&] {
    CudaDriver d;
    const std::string device = d.device().str();
    CompileOptions co;
    co.arch = d.device().arch();
    CubinCache cache;
    LoweredKernel lowered = lower(*ir, codegen);
    LoadedKernel k(d, cache.get(lowered, co), lowered, co, &cache);
    run_on_device(d, k, *ir, puzzles::grid_for(set), args);
    std::string answer;
    wire::put(answer, device);
    for (const Buffer* b : all) wire::put(answer, std::string(reinterpret_cast<const char*>(b->data()), b->size_bytes()));
    return answer;
  });
  if (!child.completed) {
    out.error = child.failure;
    return out;
  }
  wire::Reader rd(child.payload);
  std::vector<std::string> bytes(all.size());
  bool complete = rd.str(out.device);
  for (size_t i = 0; i < all.size() && complete; ++i) complete = rd.str(bytes[i]) && bytes[i].size() == all[i]->size_bytes();
  if (!complete) {
    out.error = "the GPU process sent a malformed answer";
    return out;
  }
  for (size_t i = 0; i < all.size(); ++i) {
    Buffer* b = all[i];
    std::memcpy(b->data(), bytes[i].data(), b->size_bytes());
    BufferValues v;
    v.name = b->name();
    v.values.resize(static_cast<size_t>(b->extent()));
    for (int64_t e = 0; e < b->extent(); ++e) v.values[static_cast<size_t>(e)] = b->get(e);
    out.buffers.push_back(std::move(v));
  }
  out.ok = true;
  return out;
}

}  // namespace tl::gpu
