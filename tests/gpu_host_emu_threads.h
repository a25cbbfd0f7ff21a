// Part of the CUDA emulation that gpu_host_emulation.h force-includes (see
// its header comment): a block's threads as fibers, its barriers and shared
// memory, clusters of two blocks, warp shuffles.
#pragma once

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
  int parked_at = 0;            // which: 0 __syncthreads, else a named barrier (ts_warpgroup_sync)
  unsigned cluster_phase = 0;   // the cluster barrier's phase it last arrived in
};
// One block's fibers and its barrier, or a cluster's (CodegenOptions::
// cluster_multicast: two blocks, fiber f is thread f % threads of block
// f / threads): `arrived[0]` of a block's `alive` fibers wait at its
// current __syncthreads (parked), `arrived[id]` at named barrier id. Fibers run in a fixed cycle and hand over to the
// next one not parked: with barriers alone that one has not yet reached
// the barrier the handing one waits at (it waits at the previous one,
// released, or has not started); a fiber spinning on an mbarrier (TMA) or
// the cluster barrier also hands over, and must not wake a parked one.
// ts_smem holds the shared memory of the block whose fiber runs; the other
// block's waits in `parked_smem` until one of its fibers runs again.
struct EmuBlock {
  int n = 0, threads = 0, blocks = 1, current = 0, alive_total = 0;
  int alive[2] = {0, 0};
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
  // Threads at each barrier: 0 __syncthreads, 1..15 named ones (bar.sync
  // id, count), 16.. the emulation's own.
  int arrived[2][24] = {};
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

// Releases the fibers of block `rank` parked at barrier `id` (0: __syncthreads).
inline void emu_release(EmuBlock& b, int rank, int id = 0) {
  b.arrived[rank][id] = 0;
  for (int f = rank * b.threads; f < (rank + 1) * b.threads; ++f) {
    EmuFiber& fiber = b.fibers[static_cast<size_t>(f)];
    if (fiber.parked && fiber.parked_at == id) fiber.parked = false;
  }
}

// Barrier `id` of `count` threads of the block, as bar.sync id, count:
// the last of them to arrive releases the others and goes on.
inline void emu_named_barrier(int id, int count) {
  EmuBlock& b = *emu_block;
  const int r = b.rank(b.current);
  if (++b.arrived[r][id] == count) {
    emu_release(b, r, id);
    return;
  }
  b.fibers[static_cast<size_t>(b.current)].parked = true;
  b.fibers[static_cast<size_t>(b.current)].parked_at = id;
  emu_hand_over(b, b.current);
}
// Barrier 0 of every thread still running (a finished one no longer counts).
inline void __syncthreads() { emu_named_barrier(0, emu_block->alive[emu_block->rank(emu_block->current)]); }
inline void ts_warpgroup_sync() { emu_named_barrier(1 + static_cast<int>(threadIdx.x >> 7), 128); }

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
  if (--b.alive[r] > 0 && b.arrived[r][0] == b.alive[r]) emu_release(b, r);
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
