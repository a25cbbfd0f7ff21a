// The CUDA driver API, opened at run time with dlopen("libcuda.so.1") and
// never linked (LOWERING §9): a binary linked to the toolkit's stub would
// not even start where no driver is installed. One CudaDriver holds the
// resolved entry points, device 0 and its primary context, made current.
// Every call goes through check(), which names the call, the CUDA error and
// the kernel or operation it was for.
#pragma once
#include <cuda.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace tl::gpu {

// No usable driver or device here: the GPU path is skipped with this reason.
class NoDriver : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A driver call failed. After an illegal address the context is unusable;
// `sticky()` says so, and GPU work in this process must stop.
class CudaError : public std::runtime_error {
 public:
  CudaError(const std::string& what, int code) : std::runtime_error(what), code_(code) {}
  int code() const { return code_; }
  bool sticky() const;

 private:
  int code_;
};

struct DeviceInfo {
  std::string name;
  int major = 0, minor = 0;
  int sm_count = 0;
  int64_t l2_bytes = 0;
  int64_t memory_bytes = 0;
  int64_t max_smem_per_block = 0;  // opt-in maximum for dynamic shared memory
  int driver_version = 0;          // 13000 for CUDA 13.0
  std::string arch() const;        // what NVRTC compiles for: "sm_90a"
  std::string str() const;         // "NVIDIA H100 80GB HBM3 (sm_90a, 132 SMs)"
};

// True once a CudaDriver in this process has initialized the driver. A
// process that has not must keep it that way if it will fork GPU work: a
// child forked after cuInit cannot use CUDA (cuInit there fails with
// CUDA_ERROR_NOT_INITIALIZED). NVRTC calls cuInit too, so nvrtc_compile
// consults this (nvrtc_compiler.h).
bool cuda_initialized_in_this_process();

class CudaDriver {
 public:
  // Loads libcuda, initializes it and makes device `ordinal`'s primary
  // context current. Throws NoDriver when there is no driver or device,
  // CudaError when a call fails otherwise.
  explicit CudaDriver(int ordinal = 0);
  ~CudaDriver();
  CudaDriver(const CudaDriver&) = delete;
  CudaDriver& operator=(const CudaDriver&) = delete;

  const DeviceInfo& device() const { return info_; }
  // Throws CudaError "<call> failed for <what>: CUDA_ERROR_X (text)".
  void check(CUresult r, const char* call, const std::string& what) const;

  // Entry points, named after the calls without their "cu" prefix and
  // version suffix (cuda.h's macros would rename the real names).
  CUresult (*init)(unsigned) = nullptr;
  CUresult (*driver_get_version)(int*) = nullptr;
  CUresult (*device_get)(CUdevice*, int) = nullptr;
  CUresult (*device_get_count)(int*) = nullptr;
  CUresult (*device_get_name)(char*, int, CUdevice) = nullptr;
  CUresult (*device_get_attribute)(int*, CUdevice_attribute, CUdevice) = nullptr;
  CUresult (*device_total_mem)(size_t*, CUdevice) = nullptr;
  CUresult (*primary_ctx_retain)(CUcontext*, CUdevice) = nullptr;
  CUresult (*primary_ctx_release)(CUdevice) = nullptr;
  CUresult (*ctx_set_current)(CUcontext) = nullptr;
  CUresult (*ctx_synchronize)() = nullptr;
  CUresult (*module_load_data)(CUmodule*, const void*) = nullptr;
  CUresult (*module_unload)(CUmodule) = nullptr;
  CUresult (*module_get_function)(CUfunction*, CUmodule, const char*) = nullptr;
  CUresult (*func_set_attribute)(CUfunction, CUfunction_attribute, int) = nullptr;
  CUresult (*func_get_attribute)(int*, CUfunction_attribute, CUfunction) = nullptr;
  CUresult (*launch_kernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                            CUstream, void**, void**) = nullptr;
  CUresult (*mem_alloc)(CUdeviceptr*, size_t) = nullptr;
  CUresult (*mem_free)(CUdeviceptr) = nullptr;
  CUresult (*memcpy_htod)(CUdeviceptr, const void*, size_t) = nullptr;
  CUresult (*memcpy_dtoh)(void*, CUdeviceptr, size_t) = nullptr;
  CUresult (*memcpy_dtod)(CUdeviceptr, CUdeviceptr, size_t) = nullptr;
  CUresult (*memset_d8)(CUdeviceptr, unsigned char, size_t) = nullptr;
  CUresult (*memset_d32_async)(CUdeviceptr, unsigned, size_t, CUstream) = nullptr;
  CUresult (*stream_synchronize)(CUstream) = nullptr;
  CUresult (*event_create)(CUevent*, unsigned) = nullptr;
  CUresult (*event_destroy)(CUevent) = nullptr;
  CUresult (*event_record)(CUevent, CUstream) = nullptr;
  CUresult (*event_synchronize)(CUevent) = nullptr;
  CUresult (*event_elapsed_time)(float*, CUevent, CUevent) = nullptr;
  CUresult (*get_error_name)(CUresult, const char**) = nullptr;
  CUresult (*get_error_string)(CUresult, const char**) = nullptr;
  // Optional (null where the driver predates TMA): kernels then copy without it.
  CUresult (*tensor_map_encode_tiled)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*,
                                      const cuuint64_t*, const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave,
                                      CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill) = nullptr;
  // Optional (null before CUDA 12): kernels then launch without clusters.
  CUresult (*launch_kernel_ex)(const CUlaunchConfig*, CUfunction, void**, void**) = nullptr;

 private:
  void* lib_ = nullptr;
  CUdevice dev_ = 0;
  CUcontext ctx_ = nullptr;
  bool retained_ = false;
  DeviceInfo info_;
};

}  // namespace tl::gpu
