// `tilescope bench --gpu`: the reference solutions at the sizes of
// ANCHORS.md, timed with CUDA events after warm-up (median of >= 100 runs,
// inputs rotated among enough copies to exceed L2 when they would fit in
// it), against the floor set by the machine's measured ceilings.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "bench_cases.h"
#include "ceilings.h"
#include "codegen.h"
#include "cubin_cache.h"
#include "driver_api.h"
#include "nvrtc_compiler.h"

namespace tl::gpu {

struct BenchOptions {
  int runs = 100;
  int warmup = 10;
  std::vector<std::string> cases;  // "p02", ...; empty: all
  CodegenOptions codegen;
  CompileOptions compile;
  CubinCache* cache = nullptr;
  bool verify = false;  // also compare with the reference spec (slow at these sizes)
  // Warps per program to try for each case; the fastest is reported.
  // Non-empty also turns on the rest of the autotuner:
  // each case's block variants (BenchCase::block_variants; the cases
  // compared with Triton keep ANCHORS.md's blocks, so that comparison stays
  // like for like), pipeline stages 2 and 4 beside the automatic choice for
  // dot cases, and a persistent grid-stride launch for memory-bound cases
  // with many programs. Empty: codegen.num_warps, stages and launch as given.
  // Variants are ranked by the median of min(runs, 30) launches on inputs
  // made once per case; the winner is then run again with all `runs`.
  // Variants within 1 % of the fastest count as a tie, which the fastest
  // NVRTC compile among them wins (choose_tuned_variant).
  std::vector<int> tune_warps;
  // The autotuner also tries CodegenOptions::wgmma for dot cases.
  bool tune_wgmma = false;
  // Time the NVRTC compile with the cache bypassed (once more per variant).
  bool measure_compile = true;
  // Before each timed run, overwrite a buffer of twice the L2 cache (as
  // Triton's do_bench zeroes 256 MB before each of its runs), instead of
  // rotating the inputs among copies: every run starts from the same cache
  // state as the Triton column's runs do.
  bool flush_l2 = false;
  // Without the tuner: each case's block_variants[block_variant - 1]
  // instead of its own blocks (0: its own); a case with fewer is an error.
  int block_variant = 0;
};

// One configuration the tuner tried: what the timing was taken with.
struct BenchConfig {
  int warps = 4;
  int stages = 0;               // 0: the code generator's choice
  bool persistent = false;      // grid-stride launch over the logical grid
  int interleave = 1;           // programs a persistent loop trip runs together (CodegenOptions::persistent_interleave)
  bool wgmma = false;           // CodegenOptions::wgmma
  bool wgmma_in_flight = true;  // CodegenOptions::wgmma_in_flight (matters at 3 or 4 stages)
  bool tma = false;             // the staged tiles came by TMA (CodegenOptions::tma, and the launch could describe them)
  bool clusters = false;        // in clusters of two sharing a tile by TMA multicast (CodegenOptions::cluster_multicast)
  int dot_pairs = 0;            // pairs of dots run as one wgmma (CodegenOptions::wgmma_pair_dots)
  bool copies_behind_dots = false;  // a loop's copies after its groups' issue (CodegenOptions::wgmma_copies_after_dots)
  bool b_in_stage = false;      // a C^T dot's B^T written into the stage (CodegenOptions::wgmma_b_in_stage)
  bool decoupled = false;       // its warpgroups decoupled (CodegenOptions::wgmma_decoupled; the TMA path ran)
  bool b_tma = false;           // a C^T dot's B by TMA (CodegenOptions::wgmma_b_tma; the TMA path ran)
  bool warp_specialized = false;  // a producer warpgroup (CodegenOptions::warp_specialize; the TMA path ran)
  int producer_warpgroups = 0;    // with warp_specialized: 1 or 2 (CodegenOptions::producer_warpgroups)
  int64_t launch_blocks = 0;    // blocks launched (the logical grid's count unless persistent)
  std::string blocks;           // the block sizes, "BM=64, BN=64, ..."
  std::string str() const;      // "warps 8, stages auto, BM=64, ..." (one line)
};

struct BenchResult {
  BenchCase bench;
  std::string error;  // why it did not run ("" when it did)
  std::string cuda_kernel;
  int registers = 0, spill_bytes = 0;
  int64_t smem_bytes = 0;
  double compile_s = 0;     // this run's compile (0 when the cubin came from the cache)
  double nvrtc_s = 0;       // IR to cubin through NVRTC, cache bypassed (median of 3)
  double cache_hit_s = 0;   // IR to cubin with the cubin cache warm (code generation, hash, read)
  int warps = 0;            // warps per program of the reported timing
  BenchConfig config;       // everything the reported timing was taken with
  std::vector<std::pair<BenchConfig, double>> tried;  // (configuration, median ms) of every variant timed
  // Where several variants ran within 1 % of the fastest: (configuration,
  // NVRTC s) of each; the fastest to compile is the one reported.
  std::vector<std::pair<BenchConfig, double>> tie_compiles;
  // Variants left out because their output differed from the first
  // variant's (the plain configuration), with how (BufferDiff::str): a
  // wrong kernel never wins on speed. Checked on every variant's first run,
  // from the same inputs.
  std::vector<std::pair<BenchConfig, std::string>> rejected;
  int copies = 1;  // input copies rotated through
  bool flushed_l2 = false;  // BenchOptions::flush_l2: L2 overwritten before each timed run
  int runs = 0;
  double median_ms = 0, min_ms = 0, p90_ms = 0, max_ms = 0;
  double gb_per_s = 0, tflop_per_s = 0;
  double floor_ms = 0, percent_of_floor = 0;
  int64_t never_written = 0, non_finite = 0;  // in the output of the check run
  bool verified = false;
  double spec_err = 0;  // vs the reference, when verified
};

// The tuner's choice among variants whose medians were `run_ms`: the
// fastest, unless others ran within kTuneTieFraction of it (the run-to-run
// spread of a median is about that); then, among the kTuneMaxTies fastest
// of those, the one whose compile_seconds(i) is smallest (asked only of
// them), as a user iterating on a kernel pays its compile every time (p09
// at 8 warps ran within 1 % of 4 warps and compiled in half the time).
// Returns the chosen index.
inline constexpr double kTuneTieFraction = 0.01;
inline constexpr size_t kTuneMaxTies = 3;
size_t choose_tuned_variant(const std::vector<double>& run_ms, const std::function<double(size_t)>& compile_seconds);

// How a variant's output differs from the first variant's, at the
// interpreter-vs-GPU tolerance of kernel `k`; "" when they agree.
std::string variant_disagreement(const Buffer& first, const Buffer& output, const ir::Kernel& k);

// Runs the cases one after another; `progress` sees each result as it is
// done. A case that fails records its error; a lost context stops the rest.
std::vector<BenchResult> run_benchmarks(CudaDriver& d, const Ceilings& ceil, const BenchOptions& opt,
                                        const std::function<void(const BenchResult&)>& progress = {});

std::string bench_json(const std::vector<BenchResult>& results, const Ceilings& ceil, const DeviceInfo& dev);
// The header line of a table row, then one row (for printing as results come).
std::string bench_table_header();
std::string bench_table_row(const BenchResult& r);

}  // namespace tl::gpu
