#include "ceilings.h"

#include <dlfcn.h>

#include <algorithm>
#include <vector>

#include "device_runtime.h"

namespace tl::gpu {

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double copy_bandwidth(CudaDriver& d, std::string& how) {
  size_t bytes = size_t{1} << 30;
  while (bytes > (size_t{64} << 20) && static_cast<int64_t>(4 * bytes) > d.device().memory_bytes) bytes /= 2;
  DeviceMemory a(d, bytes, "bandwidth source"), b(d, bytes, "bandwidth target");
  d.check(d.memset_d8(a.ptr(), 1, bytes), "cuMemsetD8", "bandwidth source");
  EventTimer t(d);
  std::vector<double> ms;
  for (int i = 0; i < 23; ++i) {
    t.start();
    d.check(d.memcpy_dtod(b.ptr(), a.ptr(), bytes), "cuMemcpyDtoD", "bandwidth measurement");
    t.stop();
    double e = t.elapsed_ms();
    if (i >= 3) ms.push_back(e);  // the first copies warm up
  }
  how = "cuMemcpyDtoD of " + std::to_string(bytes >> 20) + " MiB, median of 20";
  return 2.0 * static_cast<double>(bytes) / (median(ms) * 1e-3);
}

// The few cuBLAS entry points used, declared here (values from
// cublas_api.h) so that nothing links or includes cuBLAS.
using cublasHandle = void*;
using CreateFn = int (*)(cublasHandle*);
using DestroyFn = int (*)(cublasHandle);
using SetMathModeFn = int (*)(cublasHandle, int);
using SgemmFn = int (*)(cublasHandle, int, int, int, int, int, const float*, const float*, int, const float*, int,
                        const float*, float*, int);
constexpr int kOpN = 0, kDefaultMath = 0, kPedanticMath = 2, kTf32TensorOpMath = 3;

// Both rates from one SGEMM size; 0 and a reason when cuBLAS is missing.
bool sgemm_rates(CudaDriver& d, double& tf32, double& f32, std::string& how) {
  // The toolkit's directory too: it is often not on the loader's path.
  const char* names[] = {"libcublas.so.13", "libcublas.so.12", "libcublas.so", "/usr/local/cuda/lib64/libcublas.so.13",
                         "/usr/local/cuda/lib64/libcublas.so"};
  void* lib = nullptr;
  const char* found = nullptr;
  for (const char* n : names)
    if ((lib = dlopen(n, RTLD_NOW | RTLD_LOCAL))) {
      found = n;
      break;
    }
  if (!lib) {
    how = "cuBLAS not found";
    return false;
  }
  auto create = reinterpret_cast<CreateFn>(dlsym(lib, "cublasCreate_v2"));
  auto destroy = reinterpret_cast<DestroyFn>(dlsym(lib, "cublasDestroy_v2"));
  auto set_math = reinterpret_cast<SetMathModeFn>(dlsym(lib, "cublasSetMathMode"));
  auto sgemm = reinterpret_cast<SgemmFn>(dlsym(lib, "cublasSgemm_v2"));
  cublasHandle h = nullptr;
  if (!create || !destroy || !set_math || !sgemm || create(&h) != 0) {
    how = std::string(found) + " could not be used";
    return false;
  }
  const int n = 8192;
  const size_t bytes = size_t{4} * n * n;
  DeviceMemory a(d, bytes, "SGEMM A"), b(d, bytes, "SGEMM B"), c(d, bytes, "SGEMM C");
  // Small nonzero values (0x3c3c3c3c is about 0.0115): never time zeros.
  for (DeviceMemory* m : {&a, &b}) d.check(d.memset_d8(m->ptr(), 0x3c, bytes), "cuMemsetD8", "SGEMM operands");
  const float one = 1, zero = 0;
  EventTimer t(d);
  auto rate = [&](int mode) {
    set_math(h, mode);
    std::vector<double> ms;
    for (int i = 0; i < 8; ++i) {
      t.start();
      int st = sgemm(h, kOpN, kOpN, n, n, n, &one, reinterpret_cast<const float*>(a.ptr()), n,
                     reinterpret_cast<const float*>(b.ptr()), n, &zero, reinterpret_cast<float*>(c.ptr()), n);
      t.stop();
      double e = t.elapsed_ms();
      if (st != 0) return 0.0;
      if (i >= 2) ms.push_back(e);
    }
    return 2.0 * n * n * static_cast<double>(n) / (median(ms) * 1e-3);
  };
  tf32 = rate(kTf32TensorOpMath);
  f32 = rate(kPedanticMath);
  if (f32 == 0) f32 = rate(kDefaultMath);
  destroy(h);
  how = "cuBLAS SGEMM " + std::to_string(n) + "^3 (" + found + "), median of 6, TF32 tensor-op and pedantic f32 math";
  return tf32 > 0 && f32 > 0;
}

}  // namespace

Ceilings measure_ceilings(CudaDriver& d) {
  Ceilings c;
  c.bytes_per_s = copy_bandwidth(d, c.bandwidth_source);
  std::string how;
  if (!sgemm_rates(d, c.tf32_flops_per_s, c.f32_flops_per_s, how)) {
    // The H200's dense tf32 and plain f32 rates (docs/anchors.md), when
    // this device cannot be measured.
    c.tf32_flops_per_s = 495e12;
    c.f32_flops_per_s = 51e12;
    how += "; rates from ANCHORS.md (H200), not measured here";
  }
  c.math_source = how;
  return c;
}

}  // namespace tl::gpu
