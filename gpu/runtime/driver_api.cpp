#include "driver_api.h"

#include <dlfcn.h>

#include <atomic>

namespace tl::gpu {

namespace {

// Resolves `name` into `fn`; a missing symbol means a driver too old for
// this build, which the GPU path reports as "no usable driver".
template <class F>
void resolve(void* lib, F& fn, const char* name, const char* fallback = nullptr) {
  void* sym = dlsym(lib, name);
  if (!sym && fallback) sym = dlsym(lib, fallback);
  if (!sym) throw NoDriver(std::string("libcuda.so.1 has no ") + name + " (driver too old?)");
  fn = reinterpret_cast<F>(sym);
}

std::atomic<bool> g_initialized{false};

}  // namespace

bool cuda_initialized_in_this_process() { return g_initialized.load(); }

bool CudaError::sticky() const {
  // Errors after which the context cannot be used again.
  switch (code_) {
    case CUDA_ERROR_ILLEGAL_ADDRESS:
    case CUDA_ERROR_LAUNCH_FAILED:
    case CUDA_ERROR_ILLEGAL_INSTRUCTION:
    case CUDA_ERROR_MISALIGNED_ADDRESS:
    case CUDA_ERROR_INVALID_ADDRESS_SPACE:
    case CUDA_ERROR_INVALID_PC:
    case CUDA_ERROR_HARDWARE_STACK_ERROR:
    case CUDA_ERROR_ASSERT:
    case CUDA_ERROR_LAUNCH_TIMEOUT:
      return true;
    default: return false;
  }
}

std::string DeviceInfo::arch() const {
  std::string a = "sm_" + std::to_string(major) + std::to_string(minor);
  return major == 9 && minor == 0 ? a + "a" : a;
}

std::string DeviceInfo::str() const {
  return name + " (" + arch() + ", " + std::to_string(sm_count) + " SMs, " + std::to_string(l2_bytes >> 20) +
         " MB L2)";
}

CudaDriver::CudaDriver(int ordinal) {
  lib_ = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib_) {
    const char* why = dlerror();
    throw NoDriver(std::string("cannot load libcuda.so.1") + (why ? std::string(": ") + why : ""));
  }
  resolve(lib_, get_error_name, "cuGetErrorName");
  resolve(lib_, get_error_string, "cuGetErrorString");
  resolve(lib_, init, "cuInit");
  resolve(lib_, driver_get_version, "cuDriverGetVersion");
  resolve(lib_, device_get, "cuDeviceGet");
  resolve(lib_, device_get_count, "cuDeviceGetCount");
  resolve(lib_, device_get_name, "cuDeviceGetName");
  resolve(lib_, device_get_attribute, "cuDeviceGetAttribute");
  resolve(lib_, device_total_mem, "cuDeviceTotalMem_v2");
  resolve(lib_, primary_ctx_retain, "cuDevicePrimaryCtxRetain");
  resolve(lib_, primary_ctx_release, "cuDevicePrimaryCtxRelease_v2");
  resolve(lib_, ctx_set_current, "cuCtxSetCurrent");
  resolve(lib_, ctx_synchronize, "cuCtxSynchronize");
  resolve(lib_, module_load_data, "cuModuleLoadData");
  resolve(lib_, module_unload, "cuModuleUnload");
  resolve(lib_, module_get_function, "cuModuleGetFunction");
  resolve(lib_, func_set_attribute, "cuFuncSetAttribute");
  resolve(lib_, func_get_attribute, "cuFuncGetAttribute");
  resolve(lib_, launch_kernel, "cuLaunchKernel");
  resolve(lib_, mem_alloc, "cuMemAlloc_v2");
  resolve(lib_, mem_free, "cuMemFree_v2");
  resolve(lib_, memcpy_htod, "cuMemcpyHtoD_v2");
  resolve(lib_, memcpy_dtoh, "cuMemcpyDtoH_v2");
  resolve(lib_, memcpy_dtod, "cuMemcpyDtoD_v2");
  resolve(lib_, memset_d8, "cuMemsetD8_v2");
  resolve(lib_, memset_d32_async, "cuMemsetD32Async");
  resolve(lib_, stream_synchronize, "cuStreamSynchronize");
  resolve(lib_, event_create, "cuEventCreate");
  resolve(lib_, event_destroy, "cuEventDestroy_v2");
  resolve(lib_, event_record, "cuEventRecord");
  resolve(lib_, event_synchronize, "cuEventSynchronize");
  resolve(lib_, event_elapsed_time, "cuEventElapsedTime_v2", "cuEventElapsedTime");
  // Optional: a driver without it runs every kernel without TMA.
  tensor_map_encode_tiled = reinterpret_cast<decltype(tensor_map_encode_tiled)>(dlsym(lib_, "cuTensorMapEncodeTiled"));
  launch_kernel_ex = reinterpret_cast<decltype(launch_kernel_ex)>(dlsym(lib_, "cuLaunchKernelEx"));

  CUresult r = init(0);
  if (r == CUDA_ERROR_NO_DEVICE || r == CUDA_ERROR_STUB_LIBRARY || r == CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER ||
      r == CUDA_ERROR_NOT_INITIALIZED || r == CUDA_ERROR_SYSTEM_DRIVER_MISMATCH || r == CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE) {
    const char* name = nullptr;
    get_error_name(r, &name);
    throw NoDriver(std::string("cuInit: ") + (name ? name : "error") + " (" + std::to_string(static_cast<int>(r)) + ")");
  }
  check(r, "cuInit", "driver initialization");
  g_initialized = true;
  int count = 0;
  check(device_get_count(&count), "cuDeviceGetCount", "device discovery");
  if (count <= ordinal) throw NoDriver("no CUDA device " + std::to_string(ordinal) + " (" + std::to_string(count) + " found)");
  check(device_get(&dev_, ordinal), "cuDeviceGet", "device " + std::to_string(ordinal));
  char name[256] = {};
  check(device_get_name(name, sizeof name, dev_), "cuDeviceGetName", "device info");
  info_.name = name;
  auto attr = [&](CUdevice_attribute a) {
    int v = 0;
    check(device_get_attribute(&v, a, dev_), "cuDeviceGetAttribute", "device info");
    return v;
  };
  info_.major = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  info_.minor = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  info_.sm_count = attr(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  info_.l2_bytes = attr(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
  info_.max_smem_per_block = attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
  size_t total = 0;
  check(device_total_mem(&total, dev_), "cuDeviceTotalMem", "device info");
  info_.memory_bytes = static_cast<int64_t>(total);
  check(driver_get_version(&info_.driver_version), "cuDriverGetVersion", "device info");
  check(primary_ctx_retain(&ctx_, dev_), "cuDevicePrimaryCtxRetain", "device " + std::to_string(ordinal));
  retained_ = true;
  check(ctx_set_current(ctx_), "cuCtxSetCurrent", "device " + std::to_string(ordinal));
}

CudaDriver::~CudaDriver() {
  // libcuda stays loaded: unloading it under a live context is not safe.
  if (retained_) primary_ctx_release(dev_);
}

void CudaDriver::check(CUresult r, const char* call, const std::string& what) const {
  if (r == CUDA_SUCCESS) return;
  const char* name = nullptr;
  const char* text = nullptr;
  if (get_error_name) get_error_name(r, &name);
  if (get_error_string) get_error_string(r, &text);
  throw CudaError(std::string(call) + " failed for " + what + ": " + (name ? name : "CUDA error") + " (" +
                      (text ? text : "no description") + ")",
                  static_cast<int>(r));
}

}  // namespace tl::gpu
