// The text every generated CUDA source starts with: fixed-width integer
// types (NVRTC has no standard library), f16/bf16, and one small device
// function per behaviour that SEMANTICS.md defines beyond C++ (wrapping
// integer arithmetic, division by zero, wide shifts, saturating casts, tf32
// truncation, acq_rel atomics).
#pragma once
#include <string>

namespace tl::gpu {

const std::string& cuda_prelude();

namespace detail {
// Its tensor-core and asynchronous-copy helpers (cuda_prelude_async.cpp).
const char* cuda_prelude_async();
}  // namespace detail

}  // namespace tl::gpu
