// Force-included (g++ -include) before a generated CUDA kernel compiled as
// host C++ by gpu_host_runner.h: just enough of CUDA for the generated code
// to run on the CPU, one std::thread per CUDA thread and a std::barrier per
// block, so CI without a GPU checks what the kernels compute, not only that
// they compile. Blocks run one after another; shared memory is one global
// buffer. Products and sums round separately (compile with
// -ffp-contract=off), as the interpreter's do.
#pragma once
#include <atomic>
#include <barrier>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <math.h>
#include <mutex>
#include <type_traits>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

// cuda_fp16.h defined these as attributes for nvcc; on the host they go.
#undef __global__
#undef __device__
#undef __forceinline__
#undef __launch_bounds__
#undef __shared__
#undef __align__
#define __global__
#define __device__
#define __forceinline__ inline
#define __launch_bounds__(n)
#define __shared__
#define __align__(n)

struct EmuDim3 {
  unsigned x = 0, y = 0, z = 0;
};

// What the runner sets per thread before calling the kernel.
struct EmuBlock {
  std::barrier<>* barrier = nullptr;
  std::atomic<int> any{0};  // for __syncthreads_or
};
inline thread_local EmuDim3 threadIdx, blockIdx, gridDim;
inline thread_local EmuBlock* emu_block = nullptr;

// The block's dynamic shared memory (blocks run one at a time).
alignas(16) unsigned char ts_smem[232448];

inline void __syncthreads() { emu_block->barrier->arrive_and_wait(); }
inline int __syncthreads_or(int p) {
  __syncthreads();
  if (p) emu_block->any = 1;
  __syncthreads();
  int r = emu_block->any;
  __syncthreads();
  if (threadIdx.x == 0) emu_block->any = 0;
  __syncthreads();
  return r;
}

inline float __uint_as_float(unsigned x) { return std::bit_cast<float>(x); }
inline unsigned __float_as_uint(float x) { return std::bit_cast<unsigned>(x); }
inline double __longlong_as_double(long long x) { return std::bit_cast<double>(x); }
inline float __fadd_rn(float a, float b) { return a + b; }
inline float __fmul_rn(float a, float b) { return a * b; }
inline double __dadd_rn(double a, double b) { return a + b; }
inline double __dmul_rn(double a, double b) { return a * b; }

// atomic_add: one lock for every address is slow but exact.
#define TS_HOST_ATOMICS
inline std::mutex emu_atomic_lock;
template <class T>
T ts_atomic_add(T* p, T v) {
  std::lock_guard<std::mutex> g(emu_atomic_lock);
  T old = *p;
  if constexpr (std::is_same_v<T, __half>) *p = __float2half_rn(__half2float(old) + __half2float(v));
  else if constexpr (std::is_same_v<T, __nv_bfloat16>) *p = __float2bfloat16_rn(__bfloat162float(old) + __bfloat162float(v));
  else if constexpr (std::is_integral_v<T>) *p = static_cast<T>(static_cast<std::make_unsigned_t<T>>(old) + static_cast<std::make_unsigned_t<T>>(v));
  else *p = old + v;
  return old;
}
