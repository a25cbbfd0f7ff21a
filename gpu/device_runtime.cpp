#include "device_runtime.h"

#include <cstring>
#include <map>
#include <stdexcept>

#include "eval.h"

namespace tl::gpu {

// ---- DeviceMemory -------------------------------------------------------------

DeviceMemory::DeviceMemory(CudaDriver& d, size_t bytes, const std::string& what) : d_(&d), bytes_(bytes), what_(what) {
  // Zero-sized buffers still get an address, so every pointer is valid.
  d.check(d.mem_alloc(&ptr_, bytes ? bytes : 16), "cuMemAlloc", what + " (" + std::to_string(bytes) + " bytes)");
}

DeviceMemory::~DeviceMemory() {
  if (ptr_) d_->mem_free(ptr_);  // errors here (a lost context) cannot be acted on
}

DeviceMemory::DeviceMemory(DeviceMemory&& o) noexcept : d_(o.d_), ptr_(o.ptr_), bytes_(o.bytes_), what_(std::move(o.what_)) {
  o.ptr_ = 0;
}

void DeviceMemory::upload(const void* src, size_t n) {
  if (n) d_->check(d_->memcpy_htod(ptr_, src, n), "cuMemcpyHtoD", what_);
}

void DeviceMemory::download(void* dst, size_t n) const {
  if (n) d_->check(d_->memcpy_dtoh(dst, ptr_, n), "cuMemcpyDtoH", what_);
}

// ---- LoadedKernel -------------------------------------------------------------

LoadedKernel::LoadedKernel(CudaDriver& d, const Cubin& cubin, const LoweredKernel& k) : d_(&d), k_(k) {
  d.check(d.module_load_data(&module_, cubin.image.data()), "cuModuleLoadData", "kernel " + k.name);
  d.check(d.module_get_function(&fn_, module_, k.name.c_str()), "cuModuleGetFunction", "kernel " + k.name);
  if (k.smem_bytes > 48 * 1024) {
    // Above 48 KB a block must opt in to its dynamic shared memory.
    if (k.smem_bytes > d.device().max_smem_per_block)
      throw std::invalid_argument("kernel " + k.name + " needs " + std::to_string(k.smem_bytes) +
                                  " bytes of shared memory; the device allows " +
                                  std::to_string(d.device().max_smem_per_block));
    d.check(d.func_set_attribute(fn_, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, static_cast<int>(k.smem_bytes)),
            "cuFuncSetAttribute", "kernel " + k.name);
  }
  d.check(d.func_get_attribute(&registers_, CU_FUNC_ATTRIBUTE_NUM_REGS, fn_), "cuFuncGetAttribute", "kernel " + k.name);
  d.check(d.func_get_attribute(&local_bytes_, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, fn_), "cuFuncGetAttribute",
          "kernel " + k.name);
}

LoadedKernel::~LoadedKernel() {
  if (module_) d_->module_unload(module_);
}

// ---- Arguments and launches ---------------------------------------------------------

KernelArgs::KernelArgs(const ir::Kernel& ir, const LoweredKernel& k, const std::vector<Arg>& args,
                       const std::function<CUdeviceptr(Buffer*)>& device_of) {
  values_.assign(k.params.size(), 0);
  for (size_t i = 0; i < k.params.size(); ++i) {
    const int pi = k.params[i];
    const ir::Param& p = ir.params[pi];
    if (pi >= static_cast<int>(args.size()))
      throw std::invalid_argument("kernel " + k.name + " takes more arguments than the launch gives");
    const Arg& a = args[pi];
    if (p.kind == ir::ParamKind::Pointer) {
      if (a.kind() != Arg::Kind::Buffer) throw std::invalid_argument("kernel " + k.name + ": argument " + std::to_string(pi) + " must be a buffer");
      CUdeviceptr ptr = device_of(a.buffer());
      std::memcpy(&values_[i], &ptr, sizeof ptr);
    } else if (is_float(p.dtype)) {
      // The interpreter's conversion of a launch scalar to the parameter's type.
      double v = a.kind() == Arg::Kind::Float ? a.float_value() : static_cast<double>(a.int_value());
      eval::from_double_into(p.dtype, &values_[i], 0, v);
    } else {
      eval::constant(p.dtype, a.int_value(), 0, &values_[i]);
    }
  }
  for (uint64_t& v : values_) ptrs_.push_back(&v);
}

void launch(CudaDriver& d, const LoadedKernel& k, Grid grid, KernelArgs& args, CUstream stream) {
  const LoweredKernel& lk = k.lowered();
  if (grid.x < 1 || grid.y < 1 || grid.z < 1 || grid.x >= (int64_t{1} << 31) || grid.y > 65535 || grid.z > 65535)
    throw std::invalid_argument("kernel " + lk.name + ": grid (" + std::to_string(grid.x) + ", " +
                                std::to_string(grid.y) + ", " + std::to_string(grid.z) +
                                ") cannot be launched (x < 2^31, y and z <= 65535, all >= 1)");
  d.check(d.launch_kernel(k.function(), static_cast<unsigned>(grid.x), static_cast<unsigned>(grid.y),
                          static_cast<unsigned>(grid.z), static_cast<unsigned>(lk.threads), 1, 1,
                          static_cast<unsigned>(lk.smem_bytes), stream, args.pointers(), nullptr),
          "cuLaunchKernel", "kernel " + lk.name);
}

void synchronize(CudaDriver& d, const std::string& kernel) {
  d.check(d.ctx_synchronize(), "cuCtxSynchronize", "kernel " + kernel);
}

// ---- EventTimer ---------------------------------------------------------------------

EventTimer::EventTimer(CudaDriver& d) : d_(&d) {
  d.check(d.event_create(&start_, CU_EVENT_DEFAULT), "cuEventCreate", "timing");
  d.check(d.event_create(&stop_, CU_EVENT_DEFAULT), "cuEventCreate", "timing");
}

EventTimer::~EventTimer() {
  if (start_) d_->event_destroy(start_);
  if (stop_) d_->event_destroy(stop_);
}

void EventTimer::start() { d_->check(d_->event_record(start_, nullptr), "cuEventRecord", "timing"); }
void EventTimer::stop() { d_->check(d_->event_record(stop_, nullptr), "cuEventRecord", "timing"); }

float EventTimer::elapsed_ms() {
  d_->check(d_->event_synchronize(stop_), "cuEventSynchronize", "timing");
  float ms = 0;
  d_->check(d_->event_elapsed_time(&ms, start_, stop_), "cuEventElapsedTime", "timing");
  return ms;
}

// ---- One launch over host buffers ------------------------------------------------------

void run_on_device(CudaDriver& d, const LoadedKernel& k, const ir::Kernel& ir, Grid grid, const std::vector<Arg>& args) {
  // One device copy per distinct host buffer: a buffer passed twice aliases
  // on the device as it does in the interpreter.
  std::map<Buffer*, DeviceMemory> dev;
  for (const Arg& a : args) {
    if (a.kind() != Arg::Kind::Buffer || dev.count(a.buffer())) continue;
    Buffer* b = a.buffer();
    auto [it, _] = dev.emplace(b, DeviceMemory(d, b->size_bytes(), "buffer " + b->name() + " of kernel " + k.lowered().name));
    it->second.upload(b->data(), b->size_bytes());
  }
  KernelArgs kargs(ir, k.lowered(), args, [&](Buffer* b) { return dev.at(b).ptr(); });
  launch(d, k, grid, kargs);
  synchronize(d, k.lowered().name);
  for (auto& [b, mem] : dev) mem.download(b->data(), b->size_bytes());
}

}  // namespace tl::gpu
