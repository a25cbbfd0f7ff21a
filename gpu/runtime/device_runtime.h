// Running generated kernels on a device: device memory, loading a cubin,
// packing launch arguments, launching, timing with events, and one
// complete launch over host buffers (upload, launch, synchronize,
// download) as the interpreter's tl::run takes them.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "codegen.h"
#include "cubin_cache.h"
#include "driver_api.h"
#include "interpreter.h"

namespace tl::gpu {

// One device allocation, freed when it goes.
class DeviceMemory {
 public:
  DeviceMemory(CudaDriver& d, size_t bytes, const std::string& what);
  ~DeviceMemory();
  DeviceMemory(DeviceMemory&& o) noexcept;
  DeviceMemory& operator=(DeviceMemory&&) = delete;
  DeviceMemory(const DeviceMemory&) = delete;

  CUdeviceptr ptr() const { return ptr_; }
  size_t bytes() const { return bytes_; }
  void upload(const void* src, size_t n);
  void download(void* dst, size_t n) const;

 private:
  CudaDriver* d_;
  CUdeviceptr ptr_ = 0;
  size_t bytes_ = 0;
  std::string what_;
};

class KernelArgs;

// A cubin's module and its kernel function, unloaded when it goes.
class LoadedKernel {
 public:
  // `options` and `cache` compile the kernel's cp.async form (cp_async_form)
  // if a launch ever needs it: the options should be the cubin's own (its
  // architecture, -lineinfo for compute-sanitizer).
  LoadedKernel(CudaDriver& d, const Cubin& cubin, const LoweredKernel& k, const CompileOptions& options = {},
               CubinCache* cache = nullptr);
  ~LoadedKernel();
  LoadedKernel(const LoadedKernel&) = delete;
  LoadedKernel& operator=(const LoadedKernel&) = delete;

  CUfunction function() const { return fn_; }
  const LoweredKernel& lowered() const { return k_; }
  int registers() const { return registers_; }      // per thread
  int spill_bytes() const { return local_bytes_; }  // local memory per thread (spills, arrays)
  // The kernel a launch with `args` runs: this one, or, where its tensor
  // maps could not be encoded, its cp.async form, compiled and loaded at
  // the first such launch (same signature: the same arguments serve).
  const LoadedKernel& for_args(const KernelArgs& args) const;
  // Whether the cp.async form was loaded (a launch needed it).
  bool cp_async_form_loaded() const { return cp_async_ != nullptr; }

 private:
  CudaDriver* d_;
  LoweredKernel k_;
  CompileOptions options_;
  CubinCache* cache_ = nullptr;
  CUmodule module_ = nullptr;
  CUfunction fn_ = nullptr;
  int registers_ = 0, local_bytes_ = 0;
  mutable std::unique_ptr<LoadedKernel> cp_async_;
};

// One tensor map of a launch (LoweredKernel::tensor_maps) with its values
// resolved from the launch's arguments.
struct TensorMapRequest {
  CUdeviceptr base = 0;
  DType dtype = DType::f32;
  int64_t cols = 0, rows = 0, row_stride = 0;  // elements
  int64_t box_cols = 0, box_rows = 0;
  bool swizzle128 = false;
  // A batched tensor (TensorMapSpec::batched): 3-D, one batch a box.
  bool batched = false;
  int64_t batches = 1, batch_stride = 0;
};
// Why the TMA unit's copies of this tensor would not be the kernel's
// masked loads, or could not be made, or "" when they can: the base and
// the row stride must be 16-byte aligned, the tensor non-empty with rows
// that do not overlap, and every element offset the mask admits must fit
// in i32 (the kernel computes it in i32, wrapping, which the TMA unit
// would not).
std::string tensor_map_unusable(const TensorMapRequest& r);
// Writes one 128-byte descriptor to `map`; false when it cannot (the
// kernel then copies without TMA).
using TensorMapEncoder = std::function<bool(const TensorMapRequest&, void* map)>;
// cuTensorMapEncodeTiled, where this driver has it.
TensorMapEncoder driver_tensor_map_encoder(CudaDriver& d);

// The values of a kernel's CUDA parameters, in signature order, each of
// exactly that parameter's type (CUdeviceptr for pointers).
class KernelArgs {
 public:
  // `device_of` gives each host buffer's device copy. Tensor maps are
  // encoded by `encode`; without one, or where a tensor is unusable, the
  // launch runs the kernel's cp.async form (LoadedKernel::for_args), and
  // `ts_tma_launch` is 0.
  KernelArgs(const ir::Kernel& ir, const LoweredKernel& k, const std::vector<Arg>& args,
             const std::function<CUdeviceptr(Buffer*)>& device_of, const TensorMapEncoder& encode = {});
  // Movable (the values stay where they are), not copyable (a copy's
  // pointers would point at the original's values).
  KernelArgs(KernelArgs&&) noexcept = default;
  KernelArgs& operator=(KernelArgs&&) noexcept = default;
  KernelArgs(const KernelArgs&) = delete;
  KernelArgs& operator=(const KernelArgs&) = delete;
  void** pointers() { return ptrs_.data(); }
  // Whether the kernel's tensor maps were all encoded, and why not.
  bool tma_ok() const { return tma_ok_; }
  // With tensor maps: tells the kernel whether it runs in clusters of two
  // (ts_tma_launch 2; LoweredKernel::cluster_axis), which launch() decides.
  void set_clusters(bool on);
  bool clusters() const { return clusters_; }
  const std::string& tma_why_not() const { return tma_why_not_; }

 private:
  struct alignas(64) MapBytes {
    unsigned char bytes[128];
  };
  std::vector<uint64_t> values_;  // 8 bytes each, enough for any parameter
  std::vector<MapBytes> maps_;
  bool tma_ok_ = false, clusters_ = false;
  std::string tma_why_not_;
  std::vector<void*> ptrs_;
};

// Whether launch() runs kernel k over `grid` in clusters of two: k shares
// tiles in them (LoweredKernel::cluster_axis), its tensor maps were encoded,
// and the grid's axis is even (a cluster never lacks its second program).
bool clusters_fit(const LoweredKernel& k, Grid grid, const KernelArgs& args);
// Launches on `stream` (0: the legacy default stream); no synchronization.
// Throws CudaError naming the kernel, or std::invalid_argument for a grid
// the device cannot launch.
void launch(CudaDriver& d, const LoadedKernel& k, Grid grid, KernelArgs& args, CUstream stream = nullptr);
// Waits for the device; a fault of an earlier launch surfaces here.
void synchronize(CudaDriver& d, const std::string& kernel);

// CUDA events around work on the default stream.
class EventTimer {
 public:
  explicit EventTimer(CudaDriver& d);
  ~EventTimer();
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;
  void start();
  void stop();
  float elapsed_ms();  // waits for the stop event

 private:
  CudaDriver* d_;
  CUevent start_ = nullptr, stop_ = nullptr;
};

// One launch of a generated kernel over host buffers, as tl::run takes
// them: every buffer argument is copied to the device, the kernel runs on
// `grid`, and every buffer is copied back into the host buffer it came
// from. Throws CudaError (a faulting kernel: the context is then lost).
// `tma_used`, when given, says whether the kernel's tensor maps were all
// encoded (KernelArgs::tma_ok); `clusters_used` whether it ran in clusters.
void run_on_device(CudaDriver& d, const LoadedKernel& k, const ir::Kernel& ir, Grid grid, const std::vector<Arg>& args,
                   bool* tma_used = nullptr, bool* clusters_used = nullptr);

}  // namespace tl::gpu
