// IR -> CUDA C++: one `extern "C" __global__` function per kernel
// specialization (LOWERING.md, docs/gpu.md). One program is one block of
// 32 * num_warps threads; a tile is a per-thread register array in one of
// two layouts: striped (element e held by thread e % threads in slot
// e / threads; a tile smaller than the block is replicated, thread t holds
// element t % N) or the MMA accumulator layout of tensor-core dots. 0-d
// values are one register, equal in every thread. Elementwise ops are
// local; index arithmetic is recomputed where it is needed; data that must
// change threads goes through shared memory or warp shuffles; loads that
// only feed dots in a loop are copied to shared memory by cp.async ahead
// of their iteration.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "ir.h"

namespace tl::gpu {

// Bump when the generated code changes meaning: it is part of the cubin
// cache key.
inline constexpr int kCodegenVersion = 4;

struct CodegenOptions {
  int num_warps = 4;
  // Annotate each statement with the IR instruction it comes from.
  bool comments = true;
  // Every load runs as the kernel wrote it, even one whose value no store
  // uses: the CUDA compiler may otherwise drop such a load or sink it under
  // the store's mask, and compute-sanitizer would not see an out-of-bounds
  // read the interpreter reports. For checking runs; slower.
  bool every_load = false;
  // Dots as scalar FMAs in k order instead of on tensor cores, and no
  // MMA layout or cp.async pipeline (for comparing the two).
  bool scalar_dots = false;
  // Tensor-core fragments read from shared memory by ldmatrix where the
  // operand's layout allows; off: one shared load per word.
  bool ldmatrix = true;
  // Hopper tensor cores (sm_90a only): tf32 dots of a pipelined
  // loop whose operands are both staged with k along their rows, and whose
  // result has 16 rows per warp, run wgmma.mma_async from shared memory
  // (K-major; rows of 128 bytes 128-byte swizzled, others in core
  // matrices) instead of mma.sync; so do bf16 and f16 dots, their operands
  // also M- or N-major (the transpose bits) or computed in registers and
  // written to the stage (docs/gpu.md). Off by default (docs/gpu.md,
  // "Code-generation defaults"); the bench's tuner tries it with --wgmma.
  bool wgmma = false;
  // With wgmma and three or more stages: each iteration's groups stay in
  // flight while the next iteration's copies are waited for and issued
  // (wgmma.wait_group N). Off: every group is waited for at once, and the
  // copies run stages - 1 iterations ahead. The bench's tuner tries both.
  bool wgmma_in_flight = true;
  // With groups in flight and loads other than the staged tiles (E4's small
  // loads): the iteration's copies are issued after the last dot's commit,
  // so its wgmma starts right after the barrier (those loads' reads ahead
  // stay before the dots). Off: the copies between the barrier and the
  // first dot. Which wins depends on the blocks; the bench's tuner tries both.
  bool wgmma_copies_after_dots = true;
  // With wgmma: the staged tiles that are plain rectangles of a row-major
  // 2-D tensor (pointer base + row * stride + col, masked by exactly
  // row < R and col < C, `other` zero; rows of 128 bytes) are brought in by
  // the TMA unit (cp.async.bulk.tensor, one thread per stage, completion on
  // an mbarrier; masked-off elements are its out-of-bounds zero fill)
  // instead of every thread's cp.async vectors, address and mask lanes.
  // The launcher describes each such tensor (LoweredKernel::tensor_maps);
  // where it cannot (misaligned base or stride, offsets past i32, no
  // driver entry point), the kernel runs its cp.async copies instead, so
  // results never depend on it.
  bool tma = false;
  // With TMA and a transposed wgmma dot (p11's C^T form): programs that
  // differ only in one program_id and read the same staged tile (p11's x
  // tile, for neighbours along axis 1) run as clusters of two on that axis,
  // each program's TMA unit bringing half the tile into both programs'
  // shared memory (multicast): the tile leaves L2 once for the two. The
  // launcher forms clusters where the driver can (cuLaunchKernelEx) and the
  // grid's axis is even, and tells the kernel (ts_tma_ok == 2); elsewhere
  // the kernel copies the whole tile itself, so results never depend on it.
  // Slower than TMA without clusters on p11 (docs/gpu.md, "Code-generation
  // defaults"): off, and not tried by the bench's tuner.
  bool cluster_multicast = false;
  // With TMA and wgmma groups in flight: two dots of one A operand whose B
  // tiles are staged side by side (E1 v1's left and right halves) run as
  // one wgmma of twice the width (m64n128 for two n64), halving the wgmma
  // instructions and A's reads from shared memory.
  bool wgmma_pair_dots = true;
  // A pipelined loop's other loads (E4's packed words, scales and minima)
  // go through the stages, read two iterations ahead, instead of being
  // read again from global memory at every element a broadcast spreads
  // them over (Pipeline::small_in_stage).
  bool small_loads_in_stage = true;
  // A wgmma B operand written N-major from registers is computed in runs of
  // 16 bytes along its rows (TileLayout::vec): one 16-byte store per run,
  // and one read per run of what the run's values share (E4's packed word,
  // scale and minimum). Off: the striped layout, a store and reads a value.
  bool register_operand_runs = true;
  // A tile reduced over its last axis of 32 * V elements (V = 2 to 8), and
  // the elementwise ops and broadcasts it is computed from, are held in runs
  // of V along their rows (TileLayout::vec): each warp then holds whole rows
  // and the reduction needs no shared memory between warps, and far fewer
  // shuffles (p09's [64, 128] tile at 4 warps: 16 a reduction, not 62).
  // Off: the striped layout.
  bool row_runs = true;
  // A 16-bit dot whose B is computed in the loop's registers (E4's
  // dequantized X) runs as C^T = B^T A^T with B^T held in wgmma's A
  // fragment layout (the transposed MMA layout), fed to wgmma from
  // registers: B is never written to the stage nor read back by the tensor
  // cores; A's staged tile is wgmma's B. Where every MMA tile can take the
  // transposed layout (B's N = 16 x warps). Off by default (docs/gpu.md,
  // "Code-generation defaults"): E4's iterations are then bound by their
  // instructions, and in the fragment layout a thread reads each of its
  // values' packed word, scale and minimum on its own, 4 times the reads of
  // the runs of 8.
  bool wgmma_register_a = false;
  // With wgmma groups in flight, a tf32 dot run as C^T = B^T A^T (p11's:
  // B has n along its rows) writes B^T into the stage K-major from the
  // threads' registers (two sets alternating, rotated stores on 32 banks:
  // codegen/tensor_core/codegen_transposed_stage.cpp), so wgmma reads it by
  // descriptor and its groups may stay in flight, instead of reading B^T's
  // fragments into registers and waiting for each group. Off by default
  // (docs/gpu.md, "Code-generation defaults"): p11's iterations are then
  // bound by the ~280 instructions a warp of the reads' addresses and masks,
  // the rotation and the stores, and NVRTC takes far longer.
  // The bench's tuner does not try it (`--b-in-stage` with --warps does).
  bool wgmma_b_in_stage = false;
  // A tf32 dot run as C^T with its groups waited for (p11's TMA form):
  // each warpgroup copies the rows of B^T its own fragments read (its
  // columns of B) and waits only for its own warpgroup at a named barrier,
  // and A's stage is refilled by TMA once every warp has arrived on the
  // stage's "empty" mbarrier, instead of one block barrier an iteration.
  // The warpgroups may then drift apart, one's wgmma groups running on
  // the tensor cores while the other reads its fragments and waits
  // (Pipeline::decoupled). On by default (docs/gpu.md, "Code-generation
  // defaults"). With wgmma_b_tma, B comes by TMA with A, and only the empty
  // barriers remain.
  bool wgmma_decoupled = true;
  // With tma: that dot's B (the tile its fragments are read from, p11's
  // y) comes by TMA too, in x's layout (128-byte swizzled columns, a box a
  // column), instead of by cp.async into padded rows. The loop then has no
  // cp.async and no warpgroup barrier on the TMA path, at the price of
  // 2-way bank conflicts in the fragment reads. On by default (docs/gpu.md,
  // "Code-generation defaults").
  bool wgmma_b_tma = true;
  // With TMA and wgmma groups in flight: a loop whose dot operand is
  // computed in registers (E4's dequantized X) and written into the stage
  // runs as two roles (warp specialization). A producer warpgroup, 128
  // threads after the num_warps consumer warps, reads the loads that
  // operand comes from, computes it, writes it into the stage and issues
  // the stage's TMA copies; the consumer warps only wait for a full stage,
  // issue their wgmma groups and hand the stage back on its empty
  // mbarrier. Neither waits for the other at a block barrier, and the
  // consumers' accumulators leave the producer's registers free. Where the
  // loop does not have that shape, or the producer's ops would need a
  // block barrier, the kernel is lowered without it (LoweredKernel::
  // warp_specialized says which); launches without tensor maps run the
  // whole loop in the consumers, as without it. Faster on E4 (docs/gpu.md,
  // "Code-generation defaults"). Off by default: the bench's tuner tries it
  // (wgmma variant 6), as `--warp-specialize` does.
  bool warp_specialize = false;
  // With warp_specialize: the producer's warpgroups, 1 or 2. One producer
  // warp a scheduler is latency-bound on E4's dequantization; with two,
  // each computes half the operand.
  // At 8 consumer warps the block's 512 threads would cap every thread at
  // 128 registers, below the consumers' two 128 x 128 accumulators: the
  // producers give registers back (setmaxnreg.dec) and the consumers take
  // them (setmaxnreg.inc), `__launch_bounds__(threads, 1)` telling ptxas
  // the registers at entry.
  int producer_warpgroups = 1;
  // Staged f32 operands of tf32 dots are cut to tf32 in shared memory by a
  // pass before the barrier (ts_tf32 on every element). Off, the default:
  // the tensor cores read them as they landed, and mma.sync and wgmma both
  // ignore the 13 low mantissa bits of an f32 word, which is SEMANTICS §8's
  // truncation bit for bit (the GPU test "the tensor cores read f32
  // operands as ts_tf32 truncates them" pins this down on the hardware).
  // On: for a GPU where that would not hold.
  bool tf32_cut_staged = false;
  // A persistent (grid-stride) kernel for this logical grid: a launch of
  // any number of blocks (bench: as many as are resident at once) walks
  // the programs x-fastest, block b taking b, b + gridDim.x, ...;
  // program_id and num_programs read the logical grid. All zero: one block
  // per program, as usual. For row-wise kernels with many small programs,
  // where a block's fixed cost is paid once.
  int64_t persistent_grid[3] = {0, 0, 0};
  // Programs a persistent kernel runs together in each trip of its loop, 1
  // or 2. At 2 the body is emitted twice, its instructions interleaved
  // (program a's, then program b's, one instruction at a time), so both
  // programs' loads are in flight before either computes: twice the bytes
  // in flight per warp for latency-bound row kernels (E2). Programs are
  // unordered (SEMANTICS), so b's loads may pass a's stores. When the
  // grid leaves b without a program, b repeats a's loads and stores
  // nothing. Only for straight-line bodies (no loops or branches) whose
  // sole side effects are stores, the row kernels it is for; others are
  // refused with CodegenError.
  int persistent_interleave = 1;
  // Stages of the cp.async pipelines (2 to 4; LOWERING §7); 0: three when
  // they fit beside a second block on the SM, else two.
  int num_stages = 0;
  bool persistent() const { return persistent_grid[0] > 0; }
};

// A 2-D tensor a kernel reads through the TMA unit (CodegenOptions::tma):
// element (row, col) at base + row * row_stride + col, for row < rows and
// col < cols (the load's mask), each a kernel parameter or a constant; the
// kernel copies boxes of box_rows x box_cols elements.
struct TensorMapSpec {
  struct Value {
    int param = -1;        // IR parameter index (its value times `scale`), or -1 for `constant`
    int64_t constant = 0;
    int64_t scale = 1;     // a product the kernel computes in its index type (i32: the launcher checks it fits)
    int param2 = -1;       // with `param`: a second parameter the product takes (p11's N0 * MID)
  };
  int base_param = -1;     // IR index of the pointer parameter
  DType dtype = DType::f32;
  Value cols, rows, row_stride;  // in elements
  // With `batched`, a third, outer axis (p11's batch): `batches` of them,
  // `batch_stride` elements apart; the box is one deep along it.
  bool batched = false;
  Value batches, batch_stride;
  int64_t box_cols = 0, box_rows = 0;
  bool swizzle128 = false;  // the box lands in the 128-byte swizzle (rows of 128 bytes)
};

// What the launcher needs besides the source.
struct LoweredKernel {
  std::string name;    // the __global__ function (extern "C", not mangled)
  std::string source;  // prelude + kernel, ready for NVRTC
  int threads = 128;   // block size: 32 * num_warps
  int64_t smem_bytes = 0;  // dynamic shared memory per block
  // IR parameter indices in the order of the CUDA signature: pointers and
  // runtime scalars; compile-time constants are folded into the code.
  std::vector<int> params;
  // After those parameters: one tensor map per entry (a 128-byte
  // `ts_tensor_map`, __grid_constant__), then `int ts_tma_launch`, 2 when
  // the launch formed clusters of two, else 1 (KernelArgs); none when
  // empty. `source` copies by TMA only: a launch whose maps could not be
  // encoded runs cp_async_form(*this) instead (LoadedKernel::for_args).
  std::vector<TensorMapSpec> tensor_maps;
  // The grid axis whose neighbours pair up in clusters of two sharing a
  // staged tile (CodegenOptions::cluster_multicast), or -1.
  int cluster_axis = -1;
  int wgmma_dot_pairs = 0;  // pairs of dots run as one wgmma (CodegenOptions::wgmma_pair_dots)
  // Loops with groups in flight whose copies went behind the dots
  // (CodegenOptions::wgmma_copies_after_dots).
  int copies_behind_dots = 0;
  // Loops whose C^T dot writes B^T into the stage (CodegenOptions::wgmma_b_in_stage).
  int b_in_stage = 0;
  // Loops whose warpgroups are decoupled (CodegenOptions::wgmma_decoupled).
  int decoupled = 0;
  // Loops whose C^T dot's B comes by TMA (CodegenOptions::wgmma_b_tma).
  int b_tma = 0;
  // Loops run by a producer warpgroup and consumer warps
  // (CodegenOptions::warp_specialize); `threads` counts both.
  int warp_specialized = 0;
};

// The IR uses something the back end cannot lower (names the instruction).
class CodegenError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Largest dynamic shared memory a block may ask for (Hopper: 227 KB).
inline constexpr int64_t kMaxSharedBytes = 227 * 1024;

LoweredKernel lower(const ir::Kernel& k, const CodegenOptions& opt = {});
std::string lower_to_cuda(const ir::Kernel& k, const CodegenOptions& opt = {});
// The same kernel, same signature, for launches whose tensors the TMA unit
// cannot describe: its staged tiles copied by cp.async (the source with
// TS_TMA_PATH 0). Throws std::invalid_argument for a kernel without tensor maps.
LoweredKernel cp_async_form(const LoweredKernel& k);

// The CUDA spelling of a dtype in registers (i1 is bool) and in memory (i1
// is one byte).
std::string cuda_register_type(DType d);
std::string cuda_memory_type(DType d);

}  // namespace tl::gpu
