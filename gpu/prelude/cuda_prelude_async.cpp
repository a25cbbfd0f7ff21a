// The prelude's second part (cuda_prelude.cpp puts it between its own
// two): mma.sync and ldmatrix, cp.async, wgmma's descriptors and fences,
// mbarriers, TMA boxes and clusters. The host emulation of the generated
// code brings its own versions of these (TS_HOST_MMA).
#include "cuda_prelude.h"

namespace tl::gpu::detail {

const char* cuda_prelude_async() {
  return R"CUDA(// One warp-wide tensor-core step, D = A (16x8, tf32) * B (8x8, tf32) + D
// in f32. Lane = 4 * g + q holds A at rows g, g + 8 and columns q, q + 4;
// B at rows q, q + 4 and column g; D at rows g, g + 8 and columns 2q, 2q + 1.
// The 16-bit steps (A 16x16, B 16x8) hold the same places in 32-bit words,
// each word two neighbours along k: A at rows g, g + 8 and columns
// 2q, 2q + 1 (a0, a1) and 2q + 8, 2q + 9 (a2, a3); B at rows 2q, 2q + 1 and
// 2q + 8, 2q + 9 of column g. Not volatile: the compiler may schedule the
// steps among the fragment loads. (Tests that run generated kernels on the
// CPU define TS_HOST_MMA and bring their own.)
#ifndef TS_HOST_MMA
TS_INLINE void ts_mma_tf32(float* d, const uint32_t* a, const uint32_t* b) {
  asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
TS_INLINE void ts_mma_bf16(float* d, const uint32_t* a, const uint32_t* b) {
  asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
TS_INLINE void ts_mma_f16(float* d, const uint32_t* a, const uint32_t* b) {
  asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
#endif

// A TMA descriptor as the driver encodes it (CUtensorMap: 128 bytes,
// 64-byte aligned), passed by value as a __grid_constant__ parameter.
struct __align__(64) ts_tensor_map {
  unsigned long long words[16];
};
// A kernel with tensor maps is compiled for one copy path: the TMA unit's
// (TS_TMA_PATH 1, the default), or, for launches whose tensors the TMA unit
// cannot describe, cp.async's (the launcher compiles that form, which
// defines TS_TMA_PATH 0, at the first such launch). Its copy-path flag is a
// constant and NVVM drops the other path's code: carried as a run-time
// branch, it was a fifth to a half of NVRTC's time on E1's and p11's
// kernels.
#ifndef TS_TMA_PATH
#define TS_TMA_PATH 1
#endif
// Dot operands staged by cp.async (LOWERING §7): 16 bytes from global to
// shared memory without passing through registers; src_bytes = 0 reads
// nothing and fills zeros (a masked-off vector). Groups are committed once
// per iteration and waited for before the barrier that publishes them.
#ifndef TS_HOST_MMA
TS_INLINE void ts_cp_async16(void* dst, const void* src, int src_bytes) {
  const unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(d), "l"(src), "r"(src_bytes) : "memory");
}
TS_INLINE void ts_cp_async_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
TS_INLINE void ts_cp_async_wait_all() { asm volatile("cp.async.wait_all;" ::: "memory"); }
// All but the newest group have landed (three stages: one still in flight).
TS_INLINE void ts_cp_async_wait_1() { asm volatile("cp.async.wait_group 1;" ::: "memory"); }
TS_INLINE void ts_cp_async_wait_2() { asm volatile("cp.async.wait_group 2;" ::: "memory"); }
// wgmma (sm_90a, CodegenOptions::wgmma): the shared-memory matrix
// descriptor of a K-major operand without swizzle: start address, LBO (bytes
// between core matrices along k) and SBO (between 8-row groups), each / 16.
TS_INLINE uint64_t ts_wgmma_desc(const void* p, unsigned lbo, unsigned sbo) {
  const uint64_t a = static_cast<uint64_t>(__cvta_generic_to_shared(p));
  return ((a & 0x3ffff) >> 4) | (static_cast<uint64_t>(lbo >> 4) << 16) | (static_cast<uint64_t>(sbo >> 4) << 32);
}
// The same for rows of 128 bytes in the 128-byte swizzle (mode 1 in bits
// 62-63): 8-row groups 1024 bytes apart (SBO); LBO is not read for K-major
// swizzled operands (1 by convention). The start may sit 32 or 64 bytes into
// a 1024-byte aligned atom (a k8 step): the XOR uses address bits 4-9.
TS_INLINE uint64_t ts_wgmma_desc_sw128(const void* p) {
  const uint64_t a = static_cast<uint64_t>(__cvta_generic_to_shared(p));
  return ((a & 0x3ffff) >> 4) | (uint64_t{1} << 16) | (uint64_t{1024 >> 4} << 32) | (uint64_t{1} << 62);
}
// An M- or N-major 16-bit operand in 128-byte swizzled columns of 64
// values (staged_offset): 8-row groups (k) 1024 bytes apart (SBO), columns
// LBO apart.
TS_INLINE uint64_t ts_wgmma_desc_sw128_mn(const void* p, unsigned lbo) {
  const uint64_t a = static_cast<uint64_t>(__cvta_generic_to_shared(p));
  return ((a & 0x3ffff) >> 4) | (static_cast<uint64_t>(lbo >> 4) << 16) | (uint64_t{1024 >> 4} << 32) | (uint64_t{1} << 62);
}
TS_INLINE void ts_wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
TS_INLINE void ts_wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }
TS_INLINE void ts_wgmma_wait0() { asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory"); }
// All but the newest N groups are done.
template <int N> TS_INLINE void ts_wgmma_wait() { asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory"); }
TS_INLINE void ts_fence_proxy_async() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }
// TMA (CodegenOptions::tma): stage barriers in shared memory, armed by one
// thread with the bytes its boxes bring (arrive.expect_tx), completed by the
// TMA unit as they land; every thread then waits for the phase's parity.
TS_INLINE unsigned ts_smem_addr(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }
TS_INLINE void ts_mbar_init(uint64_t* bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(ts_smem_addr(bar)), "r"(count) : "memory");
}
// The barriers' initialization made visible to the TMA unit (async proxy).
TS_INLINE void ts_mbar_fence_init() { asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); }
TS_INLINE void ts_mbar_inval(uint64_t* bar) {
  asm volatile("mbarrier.inval.shared::cta.b64 [%0];" ::"r"(ts_smem_addr(bar)) : "memory");
}
TS_INLINE void ts_mbar_expect_tx(uint64_t* bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(ts_smem_addr(bar)), "r"(bytes) : "memory");
}
TS_INLINE void ts_mbar_wait(uint64_t* bar, unsigned parity) {
  const unsigned a = ts_smem_addr(bar);
  unsigned done = 0;
  do {
    asm volatile("{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}"
                 : "=r"(done) : "r"(a), "r"(parity) : "memory");
  } while (!done);
}
// The same for a thread that may wait long (a warp-specialized kernel's
// consumers, waiting for the producer): suspended until the phase completes
// (or the hint's 10 ms pass) rather than retrying at the system's own short
// limit. Spinning, they retried ~10 times an iteration, issue slots the
// producer warp of their scheduler lost. Not every wait so: the plain E4
// form ran slower that way.
TS_INLINE void ts_mbar_wait_sleep(uint64_t* bar, unsigned parity) {
  const unsigned a = ts_smem_addr(bar);
  unsigned done = 0;
  do {
    asm volatile("{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2, %3;\nselp.u32 %0, 1, 0, p;\n}"
                 : "=r"(done) : "r"(a), "r"(parity), "r"(10000000u) : "memory");
  } while (!done);
}
// This warpgroup's registers a thread from here on (a multiple of 8, 24 to
// 256): fewer for a producer warpgroup, more for the consumers, which wait
// until the producers gave theirs back (CodegenOptions::producer_warpgroups).
template <int N> TS_INLINE void ts_setmaxnreg_dec() { asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(N)); }
template <int N> TS_INLINE void ts_setmaxnreg_inc() { asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(N)); }
// One arrival (release: this thread's reads of the stage come first).
TS_INLINE void ts_mbar_arrive(uint64_t* bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(ts_smem_addr(bar)) : "memory");
}
// The barrier of this thread's warpgroup alone (named barrier 1 + its
// index; __syncthreads is barrier 0): CodegenOptions::wgmma_decoupled. The
// id in a register makes ptxas reserve all 16 of an SM's barriers for the
// block, which costs nothing where one block fills an SM (p11's 200 KB).
TS_INLINE void ts_warpgroup_sync() { asm volatile("bar.sync %0, 128;" ::"r"(1 + (threadIdx.x >> 7)) : "memory"); }
// Box (c0 along the rows, c1 down them) of the tensor `map` describes, into
// shared memory at dst (1024-byte aligned for the 128-byte swizzle).
TS_INLINE void ts_tma_load_2d(void* dst, const ts_tensor_map* map, int c0, int c1, uint64_t* bar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(
          ts_smem_addr(dst)),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(c0), "r"(c1), "r"(ts_smem_addr(bar))
      : "memory");
}
// A 3-D box (c2: the outer axis, one deep) into shared memory at dst.
TS_INLINE void ts_tma_load_3d(void* dst, const ts_tensor_map* map, int c0, int c1, int c2, uint64_t* bar) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];" ::"r"(
          ts_smem_addr(dst)),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(c0), "r"(c1), "r"(c2), "r"(ts_smem_addr(bar))
      : "memory");
}
// Clusters (CodegenOptions::cluster_multicast): the box lands at the same
// offset in the shared memory of every program of the cluster `mask`
// names, and completes bytes on the barrier at bar's offset in each.
TS_INLINE void ts_tma_load_2d_mc(void* dst, const ts_tensor_map* map, int c0, int c1, uint64_t* bar, unsigned short mask) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1, {%2, "
      "%3}], [%4], %5;" ::"r"(ts_smem_addr(dst)),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(c0), "r"(c1), "r"(ts_smem_addr(bar)), "h"(mask)
      : "memory");
}
TS_INLINE void ts_tma_load_3d_mc(void* dst, const ts_tensor_map* map, int c0, int c1, int c2, uint64_t* bar,
                                 unsigned short mask) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1, {%2, "
      "%3, %4}], [%5], %6;" ::"r"(ts_smem_addr(dst)),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(c0), "r"(c1), "r"(c2), "r"(ts_smem_addr(bar)), "h"(mask)
      : "memory");
}
TS_INLINE unsigned ts_cluster_rank() {
  unsigned r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}
// The cluster barrier, split: every thread of both programs arrives (its
// reads of shared memory ordered before) and later waits for all arrivals.
TS_INLINE void ts_cluster_arrive() { asm volatile("barrier.cluster.arrive.release;" ::: "memory"); }
TS_INLINE void ts_cluster_wait() { asm volatile("barrier.cluster.wait.acquire;" ::: "memory"); }
// An arrival on the barrier at bar's offset in the shared memory of the
// cluster's program `rank`; the waiter waits with ts_mbar_wait. The arrival
// says that this program's wgmma groups on a stage are retired (their
// reads done: wgmma.wait_group, then the program's barrier); the waiter
// then refills the stage through the async proxy. The default semantics
// (release and acquire at CTA scope) order that. Cluster scope would cost
// p11 about 1,400 cycles an iteration on warp 0's path to its next wgmma,
// probably because such a release orders every earlier memory operation of
// the thread, its own cp.async copies in flight among them (a wider scope
// than the wait needs).
TS_INLINE void ts_mbar_arrive_cluster(uint64_t* bar, unsigned rank) {
  asm volatile("{\n.reg .b32 a;\nmapa.shared::cluster.u32 a, %0, %1;\nmbarrier.arrive.shared::cluster.b64 _, [a];\n}" ::"r"(
                   ts_smem_addr(bar)),
               "r"(rank)
               : "memory");
}
TS_INLINE void ts_fence_operand(float& x) { asm volatile("" : "+f"(x)::"memory"); }
// Fragments by ldmatrix: lane l names row l % 8 of 8 x 8 matrix
// l / 8 (16 bytes, 16-byte aligned); word j of the result is lane
// (g = l / 4, q = l % 4)'s part of matrix j: row g, bytes 4q..4q+3, or with
// .trans the 16-bit elements (2q, g) and (2q + 1, g). One instruction for
// four (or two) fragment words instead of a shared load each. "memory":
// never moved across the barrier that publishes the data.
TS_INLINE void ts_ldsm_x4(uint32_t* r, const void* p) {
  const unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(p));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(a) : "memory");
}
TS_INLINE void ts_ldsm_x4_trans(uint32_t* r, const void* p) {
  const unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(p));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(a) : "memory");
}
TS_INLINE void ts_ldsm_x2(uint32_t* r, const void* p) {
  const unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(p));
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(a) : "memory");
}
TS_INLINE void ts_ldsm_x2_trans(uint32_t* r, const void* p) {
  const unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(p));
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(a) : "memory");
}
#endif
)CUDA";
}

}  // namespace tl::gpu::detail
