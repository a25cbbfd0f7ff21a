#include "puzzle_launch.h"

#include <cstring>

#include "child_process.h"
#include "cubin_cache.h"
#include "device_runtime.h"
#include "harness.h"
#include "inputs.h"

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
  ChildOutcome child = run_in_child_streaming([&](const std::function<void(const std::string&)>& send) {
    CudaDriver d;
    const std::string device = d.device().str();
    CompileOptions co;
    co.arch = d.device().arch();
    CubinCache cache;
    LoweredKernel lowered = lower(*ir, codegen);
    LoadedKernel k(d, cache.get(lowered, co), lowered);
    run_on_device(d, k, *ir, puzzles::grid_for(set), args);
    send(device);
    for (const Buffer* b : all) send(std::string(reinterpret_cast<const char*>(b->data()), b->size_bytes()));
  });
  if (!child.completed) {
    out.error = child.failure;
    return out;
  }
  // Pieces arrive concatenated: the device name is what precedes the buffers.
  size_t bytes = 0;
  for (const Buffer* b : all) bytes += b->size_bytes();
  if (child.payload.size() < bytes) {
    out.error = "the GPU process sent too little";
    return out;
  }
  out.device = child.payload.substr(0, child.payload.size() - bytes);
  size_t at = out.device.size();
  for (Buffer* b : all) {
    std::memcpy(b->data(), child.payload.data() + at, b->size_bytes());
    at += b->size_bytes();
    BufferValues v;
    v.name = b->name();
    v.values.resize(static_cast<size_t>(b->extent()));
    for (int64_t i = 0; i < b->extent(); ++i) v.values[static_cast<size_t>(i)] = b->get(i);
    out.buffers.push_back(std::move(v));
  }
  out.ok = true;
  return out;
}

}  // namespace tl::gpu
