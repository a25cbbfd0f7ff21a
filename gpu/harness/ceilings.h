// The machine's ceilings for the floor of LOWERING §10: bandwidth from a
// large device-to-device copy (bytes read plus written), arithmetic from a
// large cuBLAS SGEMM, once with TF32 tensor cores and once in plain f32.
// cuBLAS is opened with dlopen like the driver; where it cannot be loaded
// the rates fall back to ANCHORS.md's H200 numbers, and say so.
#pragma once
#include <string>

#include "driver_api.h"

namespace tl::gpu {

struct Ceilings {
  double bytes_per_s = 0;
  double tf32_flops_per_s = 0;
  double f32_flops_per_s = 0;
  std::string bandwidth_source;  // "cuMemcpyDtoD of 2 x 1024 MiB, median of 20"
  std::string math_source;       // "cuBLAS SGEMM 8192^3 (libcublas.so.13)" or the fallback
};

Ceilings measure_ceilings(CudaDriver& d);

}  // namespace tl::gpu
