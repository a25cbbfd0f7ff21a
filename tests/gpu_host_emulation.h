// Force-included (g++ -include) before a generated CUDA kernel compiled as
// host C++ by gpu_host_runner.h: just enough of CUDA for the generated code
// to run on the CPU, so CI without a GPU checks what the kernels compute,
// not only that they compile. A block's CUDA threads are fibers on the one
// OS thread that runs the block (emu_run_block): each runs until it reaches
// __syncthreads, then hands over to the next, so a barrier costs a stack
// switch, not a futex wake and a trip through the OS scheduler (one
// std::thread per CUDA thread spent most of these tests' time in the
// kernel). It also makes a missing barrier show on every run, not only when
// the OS happens to interleave threads badly: each fiber runs as far as it
// can before the next one starts, so in an exchange through shared memory
// without its barrier some thread reads before the thread it reads from
// has written. Blocks run one after another (a cluster's two together);
// ts_smem holds the running block's shared memory. Products and sums round
// separately (compile with -ffp-contract=off), as the interpreter's do.
// Its parts (gpu_host_emu_*.h) are included below, one concern each.
#pragma once
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <math.h>
#include <mutex>
#include <new>
#include <sys/mman.h>
#include <type_traits>
#include <vector>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

// cuda_fp16.h defined these as attributes for nvcc; on the host they go.
#undef __global__
#undef __device__
#undef __forceinline__
#undef __launch_bounds__
#undef __shared__
#undef __align__
#undef __grid_constant__
#define __grid_constant__
#define __global__
#define __device__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __shared__
#define __align__(n)

struct EmuDim3 {
  unsigned x = 0, y = 0, z = 0;
};
inline thread_local EmuDim3 threadIdx, blockIdx, gridDim;

// The parts, in this order (each uses those before it).
#include "gpu_host_emu_threads.h"
#include "gpu_host_emu_tensor_cores.h"
#include "gpu_host_emu_tma.h"

inline float __uint_as_float(unsigned x) { return std::bit_cast<float>(x); }
inline unsigned __float_as_uint(float x) { return std::bit_cast<unsigned>(x); }
inline double __longlong_as_double(long long x) { return std::bit_cast<double>(x); }
inline float __fadd_rn(float a, float b) { return a + b; }
inline float __fmul_rn(float a, float b) { return a * b; }
inline double __dadd_rn(double a, double b) { return a + b; }
inline double __dmul_rn(double a, double b) { return a * b; }

// atomic_add: one lock for every address is slow but exact; sem and scope
// change nothing here.
#define TS_HOST_ATOMICS
inline std::mutex emu_atomic_lock;
template <int SEM, int SCOPE, class T>
T ts_atomic_add(T* p, T v) {
  std::lock_guard<std::mutex> g(emu_atomic_lock);
  T old = *p;
  if constexpr (std::is_same_v<T, __half>) *p = __float2half_rn(__half2float(old) + __half2float(v));
  else if constexpr (std::is_same_v<T, __nv_bfloat16>) *p = __float2bfloat16_rn(__bfloat162float(old) + __bfloat162float(v));
  else if constexpr (std::is_integral_v<T>) *p = static_cast<T>(static_cast<std::make_unsigned_t<T>>(old) + static_cast<std::make_unsigned_t<T>>(v));
  else *p = old + v;
  return old;
}

// An add whose old value the kernel never reads (PTX red): the same add.
template <int SEM, int SCOPE, class T>
void ts_red_add(T* p, T v) {
  ts_atomic_add<SEM, SCOPE>(p, v);
}
template <int SEM, int SCOPE>
void ts_red_add_pair(float* p, float a, float b) {
  if (reinterpret_cast<uintptr_t>(p) % 8 != 0) std::abort();  // the generated code checked
  ts_atomic_add<SEM, SCOPE>(p, a);
  ts_atomic_add<SEM, SCOPE>(p + 1, b);
}

// The other atomics, under the same lock, as the interpreter
// applies them: K is ir::AtomicKind; sem and scope change nothing here.
template <int K, int SEM, int SCOPE, class T>
T ts_atomic_rmw(T* p, T v, T c = T()) {
  std::lock_guard<std::mutex> g(emu_atomic_lock);
  using U = std::conditional_t<sizeof(T) == 2, uint16_t, std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>;
  using S = std::make_signed_t<U>;
  U cur, uv, uc;
  std::memcpy(&cur, p, sizeof(T));
  std::memcpy(&uv, &v, sizeof(T));
  std::memcpy(&uc, &c, sizeof(T));
  const T old = *p;
  const bool neg = (uv >> (sizeof(U) * 8 - 1)) & 1;
  const bool is_signed = std::is_floating_point_v<T> ? !neg : std::is_signed_v<T>;
  const bool reversed = std::is_floating_point_v<T> && neg;  // negative floats: unsigned order reversed
  U next = cur;
  if constexpr (K == 0 || K == 1) {
    const bool want_max = (K == 0) != reversed;
    const bool greater = is_signed ? static_cast<S>(uv) > static_cast<S>(cur) : uv > cur;
    const bool less = is_signed ? static_cast<S>(uv) < static_cast<S>(cur) : uv < cur;
    if (want_max ? greater : less) next = uv;
  }
  if constexpr (K == 2) next = cur & uv;
  if constexpr (K == 3) next = cur | uv;
  if constexpr (K == 4) next = cur ^ uv;
  if constexpr (K == 5) next = uv;
  if constexpr (K == 6) next = cur == uc ? uv : cur;
  std::memcpy(p, &next, sizeof(T));
  return old;
}
