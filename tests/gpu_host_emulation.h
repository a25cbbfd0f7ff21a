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
// has written. Blocks run one after another; shared memory is one global
// buffer. Products and sums round separately (compile with
// -ffp-contract=off), as the interpreter's do.
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
#define __launch_bounds__(n)
#define __shared__
#define __align__(n)

struct EmuDim3 {
  unsigned x = 0, y = 0, z = 0;
};
inline thread_local EmuDim3 threadIdx, blockIdx, gridDim;

// --- Fibers -----------------------------------------------------------------
// A fiber's saved state. On x86-64 a hand-written switch saves the six
// callee-saved registers and the SSE/x87 control words on the fiber's own
// stack (no system call: glibc's swapcontext also sets the signal mask, and
// AddressSanitizer's interceptor of it clears the shadow of the whole
// stack at every switch). Elsewhere the portable ucontext calls.
#if defined(__x86_64__)
#define TS_EMU_ASM_SWITCH 1
extern "C" void emu_switch(void** save_sp, void* next_sp);
asm(".text\n"
    ".p2align 4\n"
    ".hidden emu_switch\n"
    ".globl emu_switch\n"
    ".type emu_switch, @function\n"
    "emu_switch:\n"
    "  pushq %rbp\n  pushq %rbx\n  pushq %r12\n  pushq %r13\n  pushq %r14\n  pushq %r15\n"
    "  subq $8, %rsp\n  stmxcsr (%rsp)\n  fnstcw 4(%rsp)\n"
    "  movq %rsp, (%rdi)\n"
    "  movq %rsi, %rsp\n"
    "  ldmxcsr (%rsp)\n  fldcw 4(%rsp)\n  addq $8, %rsp\n"
    "  popq %r15\n  popq %r14\n  popq %r13\n  popq %r12\n  popq %rbx\n  popq %rbp\n"
    "  ret\n"
    ".size emu_switch, .-emu_switch\n");
struct EmuContext {
  void* sp = nullptr;
};
inline void emu_context_switch(EmuContext& from, EmuContext& to) { emu_switch(&from.sp, to.sp); }
// A new fiber's stack as emu_switch leaves a suspended one, so that its
// `ret` enters `entry` with the stack aligned as after a call.
inline void emu_context_make(EmuContext& c, unsigned char* stack, size_t size, void (*entry)()) {
  auto* top = reinterpret_cast<uint64_t*>(reinterpret_cast<uintptr_t>(stack + size) & ~uintptr_t{15});
  uint32_t controls[2] = {0, 0};
  asm volatile("stmxcsr %0\n\tfnstcw %1" : "=m"(controls[0]), "=m"(controls[1]));
  top[-1] = 0;                                    // entry's return address: it never returns
  top[-2] = reinterpret_cast<uint64_t>(entry);    // where emu_switch's ret goes
  for (int r = 3; r <= 8; ++r) top[-r] = 0;       // rbp, rbx, r12 ... r15
  std::memcpy(&top[-9], controls, sizeof controls);  // mxcsr, x87 control word
  c.sp = &top[-9];
}
#else
#include <ucontext.h>
struct EmuContext {
  ucontext_t uc;
};
inline void emu_context_switch(EmuContext& from, EmuContext& to) { swapcontext(&from.uc, &to.uc); }
inline void emu_context_make(EmuContext& c, unsigned char* stack, size_t size, void (*entry)()) {
  getcontext(&c.uc);
  c.uc.uc_stack.ss_sp = stack;
  c.uc.uc_stack.ss_size = size;
  c.uc.uc_link = nullptr;
  makecontext(&c.uc, entry, 0);
}
#endif

// Fiber stacks, kept for the library's lifetime and reused by every block:
// 512 KiB each (a generated kernel's frame is a few KiB), reserved, not
// committed, with a guard page below so an overflow faults at once.
constexpr size_t kEmuStackBytes = size_t{512} << 10;
struct EmuStacks {
  std::vector<unsigned char*> stacks;
  unsigned char* get(size_t i) {
    while (stacks.size() <= i) {
      void* p = mmap(nullptr, kEmuStackBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                     -1, 0);
      if (p == MAP_FAILED) {
        std::fprintf(stderr, "emulation: no memory for a fiber stack\n");
        std::abort();
      }
      mprotect(p, 4096, PROT_NONE);
      stacks.push_back(static_cast<unsigned char*>(p));
    }
    return stacks[i];
  }
  ~EmuStacks() {
    for (unsigned char* p : stacks) munmap(p, kEmuStackBytes);
  }
};
inline EmuStacks emu_stacks;

struct EmuFiber {
  EmuContext ctx;
  bool done = false;
  bool parked = false;          // waits at a barrier not yet released
  unsigned cluster_phase = 0;   // the cluster barrier's phase it last arrived in
};
// One block's fibers and its barrier, or a cluster's (CodegenOptions::
// cluster_multicast: two blocks, fiber f is thread f % threads of block
// f / threads): `arrived` of a block's `alive` fibers wait at its current
// __syncthreads (parked). Fibers run in a fixed cycle and hand over to the
// next one not parked: with barriers alone that one has not yet reached
// the barrier the handing one waits at (it waits at the previous one,
// released, or has not started); a fiber spinning on an mbarrier (TMA) or
// the cluster barrier also hands over, and must not wake a parked one.
// ts_smem holds the shared memory of the block whose fiber runs; the other
// block's waits in `parked_smem` until one of its fibers runs again.
struct EmuBlock {
  int n = 0, threads = 0, blocks = 1, current = 0, alive_total = 0;
  int alive[2] = {0, 0}, arrived[2] = {0, 0};
  std::vector<EmuFiber> fibers;
  EmuContext runner;  // the OS thread's own stack, back to when all are done
  void (*body)(void**) = nullptr;
  void** args = nullptr;
  int any[2] = {0, 0};  // for __syncthreads_or
  EmuDim3 ids[2];       // each block's blockIdx
  int resident = 0;     // the block whose shared memory ts_smem holds
  size_t smem_bytes = 0;
  std::vector<unsigned char> parked_smem[2];
  int cluster_arrived = 0;
  unsigned cluster_phase = 0;
  int rank(int fiber) const { return fiber / threads; }
};
inline thread_local EmuBlock* emu_block = nullptr;

// The block's dynamic shared memory (one block at a time holds it).
alignas(16) unsigned char ts_smem[232448];

// Fiber f's thread and block, its block's shared memory in ts_smem.
inline void emu_enter(EmuBlock& b, int f) {
  const int r = b.rank(f);
  threadIdx = {static_cast<unsigned>(f % b.threads), 0, 0};
  blockIdx = b.ids[r];
  if (r == b.resident) return;
  std::memcpy(b.parked_smem[b.resident].data(), ts_smem, b.smem_bytes);
  std::memcpy(ts_smem, b.parked_smem[r].data(), b.smem_bytes);
  b.resident = r;
}
// Block `rank`'s shared memory wherever it is now (multicast copies land
// in both blocks').
inline unsigned char* emu_smem_of(int rank) {
  EmuBlock& b = *emu_block;
  return rank == b.resident ? ts_smem : b.parked_smem[rank].data();
}
// This fiber's index in the block (cluster): the slot of the arrays below
// through which a warp's lanes exchange values.
inline unsigned emu_slot() { return static_cast<unsigned>(emu_block->current); }

// Hands the OS thread from fiber `from` to the next one in the cycle that
// has not finished and is not parked, or back to the runner when every
// fiber has finished. None left that can run: a deadlock on the GPU too.
inline void emu_hand_over(EmuBlock& b, int from) {
  for (int step = 1; step <= b.n; ++step) {
    const int next = (from + step) % b.n;
    if (b.fibers[next].done || b.fibers[next].parked) continue;
    if (next == from) return;  // the only one that can run: it goes on
    b.current = next;
    emu_enter(b, next);
    emu_context_switch(b.fibers[from].ctx, b.fibers[next].ctx);
    b.current = from;  // resumed; whoever switched here made our block resident
    emu_enter(b, from);
    return;
  }
  if (b.alive_total > 0) {
    std::fprintf(stderr, "emulation: every thread of the block waits (a barrier or an mbarrier that never completes)\n");
    std::abort();
  }
  emu_context_switch(b.fibers[from].ctx, b.runner);  // every fiber has finished
}

inline void emu_release(EmuBlock& b, int rank) {
  b.arrived[rank] = 0;
  for (int f = rank * b.threads; f < (rank + 1) * b.threads; ++f) b.fibers[static_cast<size_t>(f)].parked = false;
}

inline void __syncthreads() {
  EmuBlock& b = *emu_block;
  const int r = b.rank(b.current);
  if (++b.arrived[r] == b.alive[r]) {  // the last to arrive releases the others and goes on
    emu_release(b, r);
    return;
  }
  b.fibers[static_cast<size_t>(b.current)].parked = true;
  emu_hand_over(b, b.current);
}

// The cluster barrier (barrier.cluster.arrive / wait): a phase completes
// when every fiber of the cluster not finished has arrived in it.
inline void emu_cluster_complete(EmuBlock& b) {
  b.cluster_arrived = 0;
  ++b.cluster_phase;
}
inline void ts_cluster_arrive() {
  EmuBlock& b = *emu_block;
  b.fibers[static_cast<size_t>(b.current)].cluster_phase = b.cluster_phase;
  if (++b.cluster_arrived == b.alive_total) emu_cluster_complete(b);
}
inline void ts_cluster_wait() {
  EmuBlock& b = *emu_block;
  for (long spins = 0; b.cluster_phase == b.fibers[static_cast<size_t>(b.current)].cluster_phase; ++spins) {
    if (spins > 1000000) {
      std::fprintf(stderr, "emulation: a cluster barrier wait never completes\n");
      std::abort();
    }
    emu_hand_over(b, b.current);
  }
}
inline unsigned ts_cluster_rank() { return static_cast<unsigned>(emu_block->rank(emu_block->current)); }

inline void emu_fiber_entry() {
  EmuBlock& b = *emu_block;
  const int me = b.current, r = b.rank(me);
  b.body(b.args);
  b.fibers[me].done = true;
  // A finished thread no longer counts at barriers: if the others all wait, they go on.
  --b.alive_total;
  if (--b.alive[r] > 0 && b.arrived[r] == b.alive[r]) emu_release(b, r);
  if (b.alive_total > 0 && b.cluster_arrived == b.alive_total) emu_cluster_complete(b);
  emu_hand_over(b, me);
  std::abort();  // unreachable: a finished fiber is never resumed
}

// Runs one block of `n` threads: `body(args)` once per thread, as fibers;
// with cluster_axis 0, 1 or 2, a cluster of two: the block at
// block_and_grid's ids and the next one along that axis, their first
// smem_bytes of shared memory each their own.
inline void emu_run_block(void (*body)(void**), void** args, const unsigned* block_and_grid, int n, int cluster_axis = -1,
                          size_t smem_bytes = 0) {
  EmuBlock b;
  b.threads = n;
  b.blocks = cluster_axis >= 0 ? 2 : 1;
  b.n = b.alive_total = n * b.blocks;
  b.fibers.resize(static_cast<size_t>(b.n));
  b.body = body;
  b.args = args;
  for (int r = 0; r < b.blocks; ++r) {
    b.alive[r] = n;
    b.ids[r] = {block_and_grid[0] + (cluster_axis == 0 ? r : 0), block_and_grid[1] + (cluster_axis == 1 ? r : 0),
                block_and_grid[2] + (cluster_axis == 2 ? r : 0)};
    if (b.blocks > 1) b.parked_smem[r].assign(smem_bytes, 0);
  }
  b.smem_bytes = smem_bytes;
  gridDim = {block_and_grid[3], block_and_grid[4], block_and_grid[5]};
  for (int t = 0; t < b.n; ++t)  // above each stack's guard page
    emu_context_make(b.fibers[static_cast<size_t>(t)].ctx, emu_stacks.get(static_cast<size_t>(t)) + 4096,
                     kEmuStackBytes - 4096, emu_fiber_entry);
  emu_block = &b;
  b.current = 0;
  emu_enter(b, 0);
  emu_context_switch(b.runner, b.fibers[0].ctx);
  emu_block = nullptr;
}

inline int __syncthreads_or(int p) {
  int& any = emu_block->any[emu_block->rank(emu_block->current)];
  __syncthreads();
  if (p) any = 1;
  __syncthreads();
  int r = any;
  __syncthreads();
  if (threadIdx.x == 0) any = 0;
  __syncthreads();
  return r;
}

// A warp shuffle: every thread of the block calls it together (the
// generated code only shuffles outside thread-dependent branches), so a
// block-wide exchange through this array with barriers around it serves.
inline uint64_t emu_shfl_slots[2048];
template <class T>
T __shfl_xor_sync(unsigned, T v, int offset) {
  static_assert(sizeof(T) <= 8);
  uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof(T));
  const unsigned t = emu_slot();
  emu_shfl_slots[t] = bits;
  __syncthreads();
  bits = emu_shfl_slots[(t & ~31u) | ((t & 31u) ^ static_cast<unsigned>(offset))];
  __syncthreads();
  std::memcpy(&v, &bits, sizeof(T));
  return v;
}

// The tensor-core steps, with the fragment layouts the prelude's comment
// gives: every lane posts its fragments, then computes its four outputs
// from all 32 lanes' (products of tf32, f16 and bf16 values are exact in
// f32; the sums go in k order).
#define TS_HOST_MMA
struct EmuMmaLane {
  uint32_t a[4], b[2];
};
inline EmuMmaLane emu_mma_slots[2048];
// `value(word, half)` turns one 32-bit fragment word into the value at
// position `half` (0 or 1) of it; `kstep` is 8 (tf32) or 16 (f16, bf16).
template <class Value>
void emu_mma(float* d, const uint32_t* a, const uint32_t* b, unsigned kstep, Value value) {
  const unsigned t = emu_slot(), warp = t & ~31u, lane = t & 31u;
  for (int i = 0; i < 4; ++i) emu_mma_slots[t].a[i] = a[i];
  for (int i = 0; i < 2; ++i) emu_mma_slots[t].b[i] = b[i];
  __syncthreads();
  // Word w of lane 4g + q covers k = q + 4 * (w >= 2) for tf32, and
  // k = 2q + (0, 1) + 8 * (w >= 2) for the 16-bit types.
  auto A = [&](unsigned row, unsigned k) {  // A[row][k], row < 16
    const unsigned hi = kstep == 8 ? k / 4 : k / 8, q = kstep == 8 ? k % 4 : (k % 8) / 2;
    return value(emu_mma_slots[warp + (row % 8) * 4 + q].a[(row >= 8 ? 1 : 0) + 2 * hi], kstep == 8 ? 0 : k % 2);
  };
  auto B = [&](unsigned k, unsigned col) {  // B[k][col], col < 8
    const unsigned hi = kstep == 8 ? k / 4 : k / 8, q = kstep == 8 ? k % 4 : (k % 8) / 2;
    return value(emu_mma_slots[warp + col * 4 + q].b[hi], kstep == 8 ? 0 : k % 2);
  };
  const unsigned g = lane / 4, q = lane % 4;
  for (int i = 0; i < 4; ++i) {
    const unsigned row = g + (i >= 2 ? 8 : 0), col = 2 * q + (i & 1);
    float acc = d[i];
    for (unsigned k = 0; k < kstep; ++k) acc += A(row, k) * B(k, col);
    d[i] = acc;
  }
  __syncthreads();
}
// The tensor cores read an f32 word as tf32 by ignoring its 13 low bits.
inline float emu_tf32_word(uint32_t w) { return std::bit_cast<float>(w & 0xffffe000u); }
inline void ts_mma_tf32(float* d, const uint32_t* a, const uint32_t* b) {
  emu_mma(d, a, b, 8, [](uint32_t w, unsigned) { return emu_tf32_word(w); });
}
inline void ts_mma_bf16(float* d, const uint32_t* a, const uint32_t* b) {
  emu_mma(d, a, b, 16, [](uint32_t w, unsigned h) { return std::bit_cast<float>((h ? w >> 16 : w & 0xffffu) << 16); });
}
inline void ts_mma_f16(float* d, const uint32_t* a, const uint32_t* b) {
  emu_mma(d, a, b, 16, [](uint32_t w, unsigned h) {
    return __half2float(std::bit_cast<__half>(static_cast<uint16_t>(h ? w >> 16 : w & 0xffffu)));
  });
}

// cp.async on the CPU: the copy happens at once; commit and wait have
// nothing left to order.
inline void ts_cp_async16(void* dst, const void* src, int src_bytes) {
  std::memcpy(dst, src, static_cast<size_t>(src_bytes));
  std::memset(static_cast<unsigned char*>(dst) + src_bytes, 0, static_cast<size_t>(16 - src_bytes));
}
inline void ts_cp_async_commit() {}
inline void ts_cp_async_wait_all() {}
inline void ts_cp_async_wait_1() {}
inline void ts_cp_async_wait_2() {}

// wgmma (CodegenOptions::wgmma): descriptors hold offsets into ts_smem; each
// thread computes its accumulators (warp w of the warpgroup: rows 16w + g
// and + 8, columns 8j + 2q and + 1) from the core matrices the descriptors
// name, sums in k order. The operands were published by a barrier before.
inline uint64_t ts_wgmma_desc(const void* p, unsigned lbo, unsigned sbo) {
  const uint64_t a = static_cast<uint64_t>(static_cast<const unsigned char*>(p) - ts_smem);
  return ((a & 0x3ffff) >> 4) | (static_cast<uint64_t>(lbo >> 4) << 16) | (static_cast<uint64_t>(sbo >> 4) << 32);
}
inline uint64_t ts_wgmma_desc_sw128(const void* p) {
  const uint64_t a = static_cast<uint64_t>(static_cast<const unsigned char*>(p) - ts_smem);
  return ((a & 0x3ffff) >> 4) | (uint64_t{1} << 16) | (uint64_t{1024 >> 4} << 32) | (uint64_t{1} << 62);
}
inline void ts_wgmma_fence() {}
inline void ts_wgmma_commit() {}
inline void ts_wgmma_wait0() {}
template <int N> void ts_wgmma_wait() {}
inline void ts_fence_proxy_async() {}
// TMA (CodegenOptions::tma): a tensor map as the test runner encodes it
// (gpu_host_runner.h: base, cols, rows, row stride in bytes, box cols and
// rows, element bytes, 128-byte swizzle), a box copied at once when issued,
// and mbarriers as one arrival count and a byte count per phase.
struct EmuMbarrier {
  uint8_t count, pending, parity, unused;
  int32_t tx;
};
static_assert(sizeof(EmuMbarrier) == 8);
inline EmuMbarrier emu_mbar_read(const uint64_t* bar) {
  EmuMbarrier m;
  std::memcpy(&m, bar, 8);
  return m;
}
// `arrivals` arrive and the byte count moves by `tx` (+ expected, - landed);
// with no arrival and no byte left pending the phase completes.
inline void emu_mbar_update(uint64_t* bar, int arrivals, int32_t tx) {
  EmuMbarrier m = emu_mbar_read(bar);
  m.pending = static_cast<uint8_t>(m.pending - arrivals);
  m.tx += tx;
  if (m.pending == 0 && m.tx == 0) {
    m.parity ^= 1;
    m.pending = m.count;
  }
  std::memcpy(bar, &m, 8);
}
inline void ts_mbar_init(uint64_t* bar, unsigned count) {
  EmuMbarrier m{};
  m.count = m.pending = static_cast<uint8_t>(count);
  std::memcpy(bar, &m, 8);
}
inline void ts_mbar_fence_init() {}
inline void ts_mbar_inval(uint64_t* bar) { std::memset(bar, 0, 8); }
inline void ts_mbar_expect_tx(uint64_t* bar, unsigned bytes) { emu_mbar_update(bar, 1, static_cast<int32_t>(bytes)); }
// Phase `parity` has completed once the barrier's parity moved past it;
// until then the thread hands over to the others (one of them arms it).
inline void ts_mbar_wait(uint64_t* bar, unsigned parity) {
  for (long spins = 0;; ++spins) {
    if (emu_mbar_read(bar).parity != (parity & 1u)) return;
    if (spins > 1000000) {
      std::fprintf(stderr, "emulation: an mbarrier wait never completes\n");
      std::abort();
    }
    emu_hand_over(*emu_block, emu_block->current);
  }
}
// One box of the tensor `map` describes (words: base, cols, rows, row
// stride in bytes, box cols and rows, element bytes, 128-byte swizzle,
// batches, batch stride in bytes: 0 for a 2-D map) at ts_smem offset
// `start` of `smem`, its bytes completing on the barrier at offset `bar`.
inline void emu_tma_box(unsigned char* smem, int64_t start, const void* map, int c0, int c1, int c2, int64_t bar) {
  const unsigned long long* w = static_cast<const unsigned long long*>(map);
  const unsigned char* base = reinterpret_cast<const unsigned char*>(w[0]);
  const int64_t cols = static_cast<int64_t>(w[1]), rows = static_cast<int64_t>(w[2]), stride = static_cast<int64_t>(w[3]);
  const int64_t box_cols = static_cast<int64_t>(w[4]), box_rows = static_cast<int64_t>(w[5]);
  const int64_t elem = static_cast<int64_t>(w[6]);
  const bool swizzle = w[7] != 0;
  const int64_t batches = w[9] ? static_cast<int64_t>(w[8]) : 1, batch_stride = static_cast<int64_t>(w[9]);
  const bool batch_in = c2 >= 0 && c2 < batches;
  for (int64_t r = 0; r < box_rows; ++r)
    for (int64_t c = 0; c < box_cols; ++c) {
      int64_t at = start + (r * box_cols + c) * elem;
      if (swizzle) at ^= ((at >> 7) & 7) << 4;
      const int64_t x = int64_t{c0} + c, y = int64_t{c1} + r;
      if (batch_in && x >= 0 && x < cols && y >= 0 && y < rows)
        std::memcpy(smem + at, base + c2 * batch_stride + y * stride + x * elem, static_cast<size_t>(elem));
      else
        std::memset(smem + at, 0, static_cast<size_t>(elem));
    }
  emu_mbar_update(reinterpret_cast<uint64_t*>(smem + bar), 0, -static_cast<int32_t>(box_cols * box_rows * elem));
}
inline void ts_tma_load_2d(void* dst, const void* map, int c0, int c1, uint64_t* bar) {
  emu_tma_box(ts_smem, static_cast<unsigned char*>(dst) - ts_smem, map, c0, c1, 0,
              reinterpret_cast<unsigned char*>(bar) - ts_smem);
}
inline void ts_tma_load_3d(void* dst, const void* map, int c0, int c1, int c2, uint64_t* bar) {
  emu_tma_box(ts_smem, static_cast<unsigned char*>(dst) - ts_smem, map, c0, c1, c2,
              reinterpret_cast<unsigned char*>(bar) - ts_smem);
}
// An arrival on the barrier at bar's offset in block `rank`'s shared memory.
inline void ts_mbar_arrive_cluster(uint64_t* bar, unsigned rank) {
  const int64_t at = reinterpret_cast<unsigned char*>(bar) - ts_smem;
  emu_mbar_update(reinterpret_cast<uint64_t*>(emu_smem_of(static_cast<int>(rank)) + at), 1, 0);
}
inline void ts_mbar_wait_cluster(uint64_t* bar, unsigned parity) { ts_mbar_wait(bar, parity); }
// Multicast: the same box at the same offsets in every block of the mask.
inline void ts_tma_load_3d_mc(void* dst, const void* map, int c0, int c1, int c2, uint64_t* bar, unsigned short mask) {
  const int64_t at = static_cast<unsigned char*>(dst) - ts_smem, b = reinterpret_cast<unsigned char*>(bar) - ts_smem;
  for (int r = 0; r < emu_block->blocks; ++r)
    if (mask >> r & 1) emu_tma_box(emu_smem_of(r), at, map, c0, c1, c2, b);
}
inline void ts_tma_load_2d_mc(void* dst, const void* map, int c0, int c1, uint64_t* bar, unsigned short mask) {
  ts_tma_load_3d_mc(dst, map, c0, c1, 0, bar, mask);
}
inline void ts_fence_operand(float&) {}
// Element (row, k) of a K-major tf32 operand. Without swizzle: core
// matrices of 8 rows x 16 bytes, LBO apart along k, SBO between 8-row
// groups. 128-byte swizzle (mode 1): rows 128 bytes apart, 8-row groups SBO
// apart, and the 16-byte chunk index (address bits 4-6) XORed with the row
// within its 1024-byte atom (bits 7-9), as the hardware does.
inline float emu_desc_tf32(uint64_t desc, unsigned row, unsigned k) {
  const uint64_t start = (desc & 0x3fff) << 4, lbo = ((desc >> 16) & 0x3fff) << 4, sbo = ((desc >> 32) & 0x3fff) << 4;
  uint64_t at = start + row / 8 * sbo + k / 4 * lbo + row % 8 * 16 + k % 4 * 4;
  if ((desc >> 62) == 1) {
    at = start + row / 8 * sbo + row % 8 * 128 + k * 4;
    at ^= ((at >> 7) & 7) << 4;
  } else if ((desc >> 62) != 0) {
    std::fprintf(stderr, "wgmma emulation: swizzle mode %u not modelled\n", static_cast<unsigned>(desc >> 62));
    std::abort();
  }
  uint32_t w;
  std::memcpy(&w, ts_smem + at, 4);
  return emu_tf32_word(w);
}
inline void emu_wgmma_tf32(float* d, uint64_t da, uint64_t db, int n) {
  const unsigned t = threadIdx.x, w = (t / 32) % 4, lane = t % 32, g = lane / 4, q = lane % 4;
  for (int j = 0; j < n / 8; ++j)
    for (int c = 0; c < 4; ++c) {
      const unsigned row = 16 * w + g + (c >= 2 ? 8 : 0), col = 8 * j + 2 * q + (c & 1);
      float acc = d[4 * j + c];
      for (unsigned k = 0; k < 8; ++k) acc += emu_desc_tf32(da, row, k) * emu_desc_tf32(db, col, k);
      d[4 * j + c] = acc;
    }
}
// A from registers: every thread posts its four words (a0..a3 at rows
// g, g + 8, g, g + 8 and columns q, q, q + 4, q + 4 of its warp's 16 rows),
// then reads the rows its accumulator needs from the threads of its
// warpgroup; called by every thread of the block together.
inline uint32_t emu_wgmma_a[2048][4];
inline void emu_wgmma_tf32_rs(float* d, const uint32_t* a, uint64_t db, int n) {
  const unsigned t = emu_slot(), group = t / 128 * 128, w = (t / 32) % 4, lane = t % 32, g = lane / 4, q = lane % 4;
  for (int i = 0; i < 4; ++i) emu_wgmma_a[t][i] = a[i];
  __syncthreads();
  auto a_at = [&](unsigned row, unsigned k) {
    const unsigned holder = group + 32 * (row / 16) + 4 * (row % 8) + k % 4, word = (row % 16) / 8 + 2 * (k / 4);
    return emu_tf32_word(emu_wgmma_a[holder][word]);
  };
  for (int j = 0; j < n / 8; ++j)
    for (int c = 0; c < 4; ++c) {
      const unsigned row = 16 * w + g + (c >= 2 ? 8 : 0), col = 8 * j + 2 * q + (c & 1);
      float acc = d[4 * j + c];
      for (unsigned k = 0; k < 8; ++k) acc += a_at(row, k) * emu_desc_tf32(db, col, k);
      d[4 * j + c] = acc;
    }
  __syncthreads();
}

// ldmatrix: every lane posts its row address, then takes its words from
// the rows of the 8 x 8 matrices of its warp (the prelude's comment gives
// the layout); like the MMAs, called by every thread of the block together.
inline const void* emu_ldsm_rows[2048];
template <int N, bool Trans>
void emu_ldsm(uint32_t* r, const void* p) {
  const unsigned t = emu_slot(), warp = t & ~31u, lane = t & 31u, g = lane / 4, q = lane % 4;
  emu_ldsm_rows[t] = p;
  __syncthreads();
  for (int j = 0; j < N; ++j) {
    if (!Trans) {
      std::memcpy(&r[j], static_cast<const unsigned char*>(emu_ldsm_rows[warp + 8 * j + g]) + 4 * q, 4);
    } else {
      uint16_t lo, hi;
      std::memcpy(&lo, static_cast<const unsigned char*>(emu_ldsm_rows[warp + 8 * j + 2 * q]) + 2 * g, 2);
      std::memcpy(&hi, static_cast<const unsigned char*>(emu_ldsm_rows[warp + 8 * j + 2 * q + 1]) + 2 * g, 2);
      r[j] = static_cast<uint32_t>(lo) | static_cast<uint32_t>(hi) << 16;
    }
  }
  __syncthreads();
}
inline void ts_ldsm_x4(uint32_t* r, const void* p) { emu_ldsm<4, false>(r, p); }
inline void ts_ldsm_x4_trans(uint32_t* r, const void* p) { emu_ldsm<4, true>(r, p); }
inline void ts_ldsm_x2(uint32_t* r, const void* p) { emu_ldsm<2, false>(r, p); }
inline void ts_ldsm_x2_trans(uint32_t* r, const void* p) { emu_ldsm<2, true>(r, p); }

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

// The other atomics (issue 15), under the same lock, as the interpreter
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
