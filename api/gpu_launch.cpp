#include "gpu_launch.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <string>

#ifdef TILESCOPE_HAVE_GPU
#include "child_process.h"
#include "cubin_cache.h"
#include "device_runtime.h"
#include "driver_api.h"
#include "gpu_compare.h"
#include "wire.h"
#endif

namespace tilescope::detail {

Snapshot snapshot_buffers(const std::vector<Arg>& args) {
  Snapshot s;
  for (const Arg& a : args) {
    std::vector<std::byte> bytes;
    if (a.kind() == Arg::Kind::Buffer) bytes.assign(a.buffer()->data(), a.buffer()->data() + a.buffer()->size_bytes());
    s.bytes.push_back(std::move(bytes));
  }
  return s;
}

#ifndef TILESCOPE_HAVE_GPU

GpuReport run_and_compare_on_gpu(const Kernel&, Grid, const std::vector<Arg>&, const Snapshot&, const Options&) {
  GpuReport r;
  r.error = "not available: this tilescope was built without the GPU backend (it needs the CUDA toolkit's NVRTC)";
  return r;
}

#else

namespace {

// The child's answer: the device's name, every buffer argument's bytes
// after the launch (in argument order), then the timed runs.
struct Reply {
  std::string device;
  std::vector<std::string> buffers;
  std::vector<double> times_ms;
};

std::string encode(const Reply& r) {
  std::string out;
  tl::gpu::wire::put(out, r.device);
  tl::gpu::wire::put(out, static_cast<uint64_t>(r.buffers.size()));
  for (const std::string& b : r.buffers) tl::gpu::wire::put(out, b);
  tl::gpu::wire::put(out, std::string(reinterpret_cast<const char*>(r.times_ms.data()), r.times_ms.size() * sizeof(double)));
  return out;
}

bool decode(const std::string& in, Reply& r) {
  tl::gpu::wire::Reader rd(in);
  uint64_t count = 0;
  std::string times;
  if (!rd.str(r.device) || !rd.u64(count) || count > in.size()) return false;
  r.buffers.resize(count);
  for (std::string& b : r.buffers)
    if (!rd.str(b)) return false;
  if (!rd.str(times) || times.size() % sizeof(double)) return false;
  r.times_ms.resize(times.size() / sizeof(double));
  std::memcpy(r.times_ms.data(), times.data(), times.size());
  return true;
}

// Launches `runs` more times on fresh device copies and times each launch.
std::vector<double> time_launches(tl::gpu::CudaDriver& d, const tl::gpu::LoadedKernel& k, const tl::ir::Kernel& ir,
                                  Grid grid, const std::vector<Arg>& args, int runs) {
  std::map<Buffer*, tl::gpu::DeviceMemory> dev;
  for (const Arg& a : args) {
    if (a.kind() != Arg::Kind::Buffer || dev.count(a.buffer())) continue;
    Buffer* b = a.buffer();
    auto [it, _] = dev.emplace(b, tl::gpu::DeviceMemory(d, b->size_bytes(), "buffer " + b->name()));
    it->second.upload(b->data(), b->size_bytes());
  }
  tl::gpu::KernelArgs kargs(ir, k.lowered(), args, [&](Buffer* b) { return dev.at(b).ptr(); },
                            tl::gpu::driver_tensor_map_encoder(d));
  for (int i = 0; i < 3; ++i) tl::gpu::launch(d, k, grid, kargs);  // warm-up
  tl::gpu::synchronize(d, k.lowered().name);
  std::vector<double> times;
  tl::gpu::EventTimer timer(d);
  for (int i = 0; i < runs; ++i) {
    timer.start();
    tl::gpu::launch(d, k, grid, kargs);
    timer.stop();
    times.push_back(timer.elapsed_ms());
  }
  return times;
}

}  // namespace

GpuReport run_and_compare_on_gpu(const Kernel& kernel, Grid grid, const std::vector<Arg>& args,
                                 const Snapshot& before, const Options& options) {
  GpuReport report;
  std::shared_ptr<const tl::ir::Kernel> ir;
  try {
    ir = tl::build_ir(kernel.def(), args);  // cached: the interpreter built it
  } catch (const std::exception& e) {
    report.error = e.what();
    return report;
  }
  const tl::gpu::ChildOutcome child = tl::gpu::run_in_child([&] {
    // In the child: put the inputs back, then run on the device.
    for (size_t i = 0; i < args.size(); ++i)
      if (args[i].kind() == Arg::Kind::Buffer)
        std::memcpy(args[i].buffer()->data(), before.bytes[i].data(), before.bytes[i].size());
    tl::gpu::CudaDriver d;
    Reply reply;
    reply.device = d.device().str();
    tl::gpu::CompileOptions co;
    co.arch = d.device().arch();
    tl::gpu::CubinCache cache;
    const tl::gpu::LoweredKernel lowered = tl::gpu::lower(*ir);
    tl::gpu::LoadedKernel k(d, cache.get(lowered, co), lowered, co, &cache);
    tl::gpu::run_on_device(d, k, *ir, grid, args);
    for (const Arg& a : args)
      reply.buffers.push_back(a.kind() == Arg::Kind::Buffer
                                  ? std::string(reinterpret_cast<const char*>(a.buffer()->data()), a.buffer()->size_bytes())
                                  : std::string());
    if (options.gpu_time) reply.times_ms = time_launches(d, k, *ir, grid, args, options.gpu_timing_runs);
    return encode(reply);
  });
  Reply reply;
  if (!child.completed) {
    report.error = child.failure;
    return report;
  }
  if (!decode(child.payload, reply) || reply.buffers.size() != args.size()) {
    report.error = "the GPU process sent a malformed reply";
    return report;
  }
  report.ran = true;
  report.device = reply.device;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].kind() != Arg::Kind::Buffer) continue;
    const auto* p = reinterpret_cast<const std::byte*>(reply.buffers[i].data());
    report.outputs.push_back({args[i].buffer()->name(), std::vector<std::byte>(p, p + reply.buffers[i].size())});
  }
  report.times_ms = reply.times_ms;
  if (!report.times_ms.empty()) {
    std::vector<double> sorted = report.times_ms;
    std::sort(sorted.begin(), sorted.end());
    report.median_ms = sorted[sorted.size() / 2];
  }
  if (!options.gpu_compare) return report;
  report.matches = true;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].kind() != Arg::Kind::Buffer) continue;
    const Buffer& interp = *args[i].buffer();
    // The GPU's values, laid out as the interpreter's buffer.
    std::string bytes = reply.buffers[i];
    const Buffer gpu = Buffer::wrap(interp.name(), interp.dtype(), bytes.data(), interp.shape(), interp.strides());
    const tl::gpu::Tolerance tol = tl::gpu::tolerance_for(*ir, interp.dtype());
    const tl::gpu::BufferDiff diff = tl::gpu::diff_buffers(interp, gpu, tol);
    report.buffers.push_back({interp.name(), diff.pass, diff.str() + " (tolerance " + tol.str() + ")"});
    report.matches = report.matches && diff.pass;
  }
  return report;
}

#endif

}  // namespace tilescope::detail
