#include "gpu_bench.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>

#include "compare.h"
#include "device_runtime.h"
#include "gpu_compare.h"
#include "harness.h"
#include "inputs.h"

namespace tl::gpu {

namespace {

double percentile(const std::vector<double>& sorted, double q) {
  size_t i = static_cast<size_t>(q * static_cast<double>(sorted.size() - 1) + 0.5);
  return sorted[std::min(i, sorted.size() - 1)];
}

// Blocks of `threads` threads, `regs` registers each and `smem` bytes of
// shared memory that one SM holds at once (sm_80/sm_90 limits: 2048
// threads, 64 K registers allocated per warp in units of 256, 228 KB of
// shared memory with 1 KB reserved per block; a persistent launch of more
// than fit only adds a second wave).
int resident_blocks(int threads, int regs, int64_t smem) {
  const int warps = threads / 32;
  const int regs_per_warp = (std::max(regs, 1) * 32 + 255) / 256 * 256;
  int n = std::min(32, 2048 / threads);
  n = std::min(n, 65536 / (regs_per_warp * warps));
  if (smem > 0) n = std::min<int64_t>(n, 228 * 1024 / (smem + 1024));
  return std::max(n, 1);
}

// A tuner variant whose generated kernel another variant already timed
// (wgmma asked for where no dot fits it, say): skipped.
struct SameKernelAsBefore {};

// The options a case is generated with: a persistent launch walks the
// set's logical grid.
CodegenOptions codegen_for(CodegenOptions cg, const puzzles::SizeSet& set) {
  if (cg.persistent()) {
    const Grid logical = puzzles::grid_for(set);
    cg.persistent_grid[0] = logical.x, cg.persistent_grid[1] = logical.y, cg.persistent_grid[2] = logical.z;
  }
  return cg;
}

BenchConfig config_of(const CodegenOptions& cg, const puzzles::SizeSet& set) {
  BenchConfig config;
  config.warps = cg.num_warps;
  config.stages = cg.num_stages;
  config.persistent = cg.persistent();
  config.interleave = cg.persistent_interleave;
  config.wgmma = cg.wgmma;
  config.wgmma_in_flight = cg.wgmma_in_flight;
  config.blocks = set.blocks.str();
  return config;
}

// Compile time: from IR through NVRTC with the cache bypassed, the median
// of three (one compile alone varies up to 2x on the same host). Each of
// the three compiles a kernel of its own name: NVRTC may answer a repeat of
// a source it has just compiled in a fraction of the time, which no user's
// new kernel gets.
double median_nvrtc_seconds(const ir::Kernel& ir, const CodegenOptions& cg, const CompileOptions& compile) {
  using clock = std::chrono::steady_clock;
  static int serial = 0;
  // Unique to this process too: a cache below NVRTC may answer for sources
  // an earlier process compiled under the same names.
  static const std::string nonce = std::to_string(std::chrono::system_clock::now().time_since_epoch().count());
  double times[3];
  for (double& t : times) {
    const auto t0 = clock::now();
    LoweredKernel fresh = lower(ir, cg);
    const std::string renamed = fresh.name + "_nvrtc_timing_" + nonce + "_" + std::to_string(serial++);
    for (size_t at = 0; (at = fresh.source.find(fresh.name, at)) != std::string::npos; at += renamed.size())
      fresh.source.replace(at, fresh.name.size(), renamed);
    fresh.name = renamed;
    (void)compile_cubin(fresh, compile, nullptr);
    t = std::chrono::duration<double>(clock::now() - t0).count();
  }
  std::sort(std::begin(times), std::end(times));
  return times[1];
}

// What the tuner made once and hands to each variant's run_case.
struct VariantInputs {
  // Random inputs, never zeros (seconds of generation at E4's sizes). Only
  // read: the check run's output goes to check_output, so the prepared
  // output keeps its never-written fill for the next variant (a copy of
  // every buffer per variant was seconds of the tuner's time at p02's 1 GB).
  puzzles::RunBuffers* buffers = nullptr;
  Buffer* check_output = nullptr;      // where the check run's output goes (the tuner compares variants)
  const ir::Kernel* ir = nullptr;      // built from `buffers`
  const LoweredKernel* lowered = nullptr;  // this variant's, from ir
  std::set<size_t>* timed_sources = nullptr;  // kernels timed already (SameKernelAsBefore)
};

void run_case(CudaDriver& d, const Ceilings& ceil, const BenchOptions& opt, BenchResult& r,
              const VariantInputs* tuned = nullptr) {
  const BenchCase& c = r.bench;
  const puzzles::Puzzle& p = *c.puzzle;
  puzzles::RunBuffers made;
  if (!tuned) made = puzzles::make_buffers(p, c.set, 0);
  puzzles::RunBuffers& host = tuned ? *tuned->buffers : made;
  std::vector<Arg> args = puzzles::launch_args(c.set, host);
  std::shared_ptr<const ir::Kernel> built;
  if (!tuned) built = tl::build_ir(*p.solution, args);
  const ir::Kernel& ir = tuned ? *tuned->ir : *built;
  const Grid logical = puzzles::grid_for(c.set);
  const CodegenOptions cg = codegen_for(opt.codegen, c.set);
  LoweredKernel made_lowered;
  if (!tuned) made_lowered = lower(ir, cg);
  const LoweredKernel& lowered = tuned ? *tuned->lowered : made_lowered;
  if (tuned && !tuned->timed_sources->insert(std::hash<std::string>{}(lowered.source + c.set.blocks.str())).second)
    throw SameKernelAsBefore{};
  Cubin cubin = compile_cubin(lowered, opt.compile, opt.cache);
  r.cuda_kernel = lowered.name;
  r.compile_s = cubin.compile_seconds;
  r.warps = cg.num_warps;
  r.config = config_of(cg, c.set);
  // NVRTC's time with the cache bypassed, and once from IR to cubin with
  // the cache warm.
  if (opt.measure_compile) {
    r.nvrtc_s = median_nvrtc_seconds(ir, cg, opt.compile);
    if (opt.cache && opt.cache->enabled()) {
      const auto t0 = std::chrono::steady_clock::now();
      (void)compile_cubin(lower(ir, cg), opt.compile, opt.cache);
      r.cache_hit_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
  }
  r.smem_bytes = lowered.smem_bytes;
  LoadedKernel k(d, cubin, lowered, opt.compile, opt.cache);
  r.registers = k.registers();
  r.spill_bytes = k.spill_bytes();
  // A persistent kernel is launched with as many blocks as are resident at
  // once (never more than there are programs); each walks its share.
  Grid grid = logical;
  if (cg.persistent())
    grid = {std::min<int64_t>(logical.count(),
                              int64_t{d.device().sm_count} * resident_blocks(lowered.threads, r.registers, lowered.smem_bytes)),
            1, 1};
  r.config.launch_blocks = grid.count();

  // Inputs that fit in L2 twice over are rotated among copies, or the
  // timing would measure the cache.
  size_t input_bytes = 0;
  for (const Buffer& b : host.inputs) input_bytes += b.size_bytes();
  const size_t l2 = static_cast<size_t>(d.device().l2_bytes);
  r.copies = input_bytes >= 2 * l2 || opt.flush_l2
                 ? 1
                 : static_cast<int>(std::min<size_t>(512, (2 * l2 + input_bytes - 1) / std::max<size_t>(input_bytes, 1)));
  std::vector<std::vector<DeviceMemory>> inputs(static_cast<size_t>(r.copies));
  for (int i = 0; i < r.copies; ++i)
    for (const Buffer& b : host.inputs) {
      inputs[i].emplace_back(d, b.size_bytes(), "input " + b.name() + " of " + lowered.name);
      if (i == 0) inputs[i].back().upload(b.data(), b.size_bytes());
      else d.check(d.memcpy_dtod(inputs[i].back().ptr(), inputs[0][inputs[i].size() - 1].ptr(), b.size_bytes()),
                   "cuMemcpyDtoD", "input copies of " + lowered.name);
    }
  DeviceMemory output(d, host.output.size_bytes(), "output of " + lowered.name);
  // An example's other outputs (E2's S and Mn): written by every launch, not rotated.
  std::vector<DeviceMemory> extra_outputs;
  for (const Buffer& b : host.extra_outputs) extra_outputs.emplace_back(d, b.size_bytes(), "output " + b.name() + " of " + lowered.name);
  std::vector<KernelArgs> kargs;
  for (int i = 0; i < r.copies; ++i)
    kargs.emplace_back(ir, lowered, args, [&](Buffer* b) {
      if (b == &host.output) return output.ptr();
      for (size_t j = 0; j < host.extra_outputs.size(); ++j)
        if (b == &host.extra_outputs[j]) return extra_outputs[j].ptr();
      for (size_t j = 0; j < host.inputs.size(); ++j)
        if (b == &host.inputs[j]) return inputs[i][j].ptr();
      throw std::logic_error("unknown buffer");
    }, driver_tensor_map_encoder(d));

  // The check run: the output starts as the harness's NaN fill.
  output.upload(host.output.data(), host.output.size_bytes());
  for (size_t j = 0; j < extra_outputs.size(); ++j)
    extra_outputs[j].upload(host.extra_outputs[j].data(), host.extra_outputs[j].size_bytes());
  r.config.tma = !lowered.tensor_maps.empty() && kargs[0].tma_ok();
  r.config.dot_pairs = lowered.wgmma_dot_pairs;
  r.config.copies_behind_dots = lowered.copies_behind_dots > 0;
  r.config.b_in_stage = lowered.b_in_stage > 0;
  r.config.decoupled = lowered.decoupled > 0 && r.config.tma;
  r.config.b_tma = lowered.b_tma > 0 && r.config.tma;
  r.config.warp_specialized = lowered.warp_specialized > 0 && r.config.tma;
  r.config.producer_warpgroups = r.config.warp_specialized ? opt.codegen.producer_warpgroups : 0;
  launch(d, k, grid, kargs[0]);
  r.config.clusters = kargs[0].clusters();
  synchronize(d, lowered.name);
  Buffer& result = tuned ? *tuned->check_output : host.output;
  if (result.size_bytes() != host.output.size_bytes()) throw std::logic_error("run_case: check output of another size");
  output.download(result.data(), result.size_bytes());
  std::vector<Buffer> extra_results = host.extra_outputs;  // small (E2's scales and minima)
  for (size_t j = 0; j < extra_outputs.size(); ++j)
    extra_outputs[j].download(extra_results[j].data(), extra_results[j].size_bytes());
  if (result.dtype() == DType::f32) {
    const uint32_t* bits = result.as<uint32_t>();
    for (int64_t i = 0; i < result.numel(); ++i) {
      r.never_written += bits[i] == puzzles::kNeverWrittenBits;
      float v;
      std::memcpy(&v, &bits[i], 4);
      r.non_finite += !std::isfinite(v);
    }
  }
  if (opt.verify) {
    r.spec_err = puzzles::compare_output(p, c.set, result, puzzles::reference_output(p, c.set, host), 0).err;
    r.verified = true;
  }

  for (int i = 0; i < opt.warmup; ++i) launch(d, k, grid, kargs[static_cast<size_t>(i % r.copies)]);
  synchronize(d, lowered.name);
  // Every run is queued before any is waited for, each between its own pair
  // of events: the queue stays ahead of the GPU, so a run's start event
  // fires as the previous run ends and the interval holds the kernel, not
  // the host's launch latency (timed from an idle GPU, one launch at a time,
  // every run would include microseconds of it).
  // Triton's do_bench likewise queues each run behind its cache flush.
  std::vector<std::unique_ptr<EventTimer>> timers;
  for (int i = 0; i < opt.runs; ++i) timers.push_back(std::make_unique<EventTimer>(d));
  std::optional<DeviceMemory> flush;
  if (opt.flush_l2) flush.emplace(d, 2 * l2, "the L2 flush buffer");
  for (int i = 0; i < opt.runs; ++i) {
    if (flush) d.check(d.memset_d32_async(flush->ptr(), static_cast<unsigned>(i), flush->bytes() / 4, nullptr), "cuMemsetD32Async", "the L2 flush");
    timers[static_cast<size_t>(i)]->start();
    launch(d, k, grid, kargs[static_cast<size_t>(i % r.copies)]);
    timers[static_cast<size_t>(i)]->stop();
  }
  std::vector<double> ms;
  for (auto& t : timers) ms.push_back(t->elapsed_ms());
  std::sort(ms.begin(), ms.end());
  r.runs = opt.runs;
  r.flushed_l2 = opt.flush_l2;
  r.median_ms = percentile(ms, 0.5);
  r.min_ms = ms.front();
  r.p90_ms = percentile(ms, 0.9);
  r.max_ms = ms.back();
  const double s = r.median_ms * 1e-3;
  r.gb_per_s = c.bytes / s * 1e-9;
  r.tflop_per_s = c.flops / s * 1e-12;
  // bf16 is not measured: dense bf16 tensor-core math runs at twice tf32's rate on sm_80/sm_90.
  double rate = c.math == BenchCase::Math::Tf32   ? ceil.tf32_flops_per_s
                : c.math == BenchCase::Math::Bf16 ? 2 * ceil.tf32_flops_per_s
                                                  : ceil.f32_flops_per_s;
  double floor_s = c.bytes / ceil.bytes_per_s;
  if (c.math != BenchCase::Math::None && rate > 0) floor_s = std::max(floor_s, c.flops / rate);
  r.floor_ms = floor_s * 1e3;
  r.percent_of_floor = 100.0 * floor_s / s;
}

}  // namespace

size_t choose_tuned_variant(const std::vector<double>& run_ms, const std::function<double(size_t)>& compile_seconds) {
  if (run_ms.empty()) throw std::invalid_argument("choose_tuned_variant: no variants");
  const size_t fastest = static_cast<size_t>(std::min_element(run_ms.begin(), run_ms.end()) - run_ms.begin());
  std::vector<size_t> ties;
  for (size_t i = 0; i < run_ms.size(); ++i)
    if (run_ms[i] <= run_ms[fastest] * (1 + kTuneTieFraction)) ties.push_back(i);
  if (ties.size() < 2) return fastest;
  // The fastest few of them: each costs three compiles.
  std::stable_sort(ties.begin(), ties.end(), [&](size_t a, size_t b) { return run_ms[a] < run_ms[b]; });
  if (ties.size() > kTuneMaxTies) ties.resize(kTuneMaxTies);
  size_t chosen = fastest;
  double fastest_compile = -1;
  for (size_t i : ties) {
    const double s = compile_seconds(i);
    if (fastest_compile < 0 || s < fastest_compile) fastest_compile = s, chosen = i;
  }
  return chosen;
}

namespace {

// The configurations the tuner times for one block set: `persistent`
// adds grid-stride launches, `dots` the stage counts and (with
// opt.tune_wgmma) the wgmma forms; a `wgmma_only` block set runs those only,
// at 8 warps.
std::vector<BenchOptions> tuner_options(const BenchOptions& opt, bool persistent_too, bool dots, bool wgmma_only,
                                        const std::vector<int>& warps, const std::vector<int>& stages) {
  // 0: one block per program; 1: persistent; 2: persistent, two programs
  // interleaved a trip (refused by the code generator where the body has
  // loops or branches, or side effects other than stores).
  std::vector<BenchOptions> options;
  for (int persistent : persistent_too ? std::vector<int>{0, 1, 2} : std::vector<int>{0})
    // wgmma: 1 groups left in flight, 2 each waited for at once; 3 and 4
    // the same with TMA copies (where no tile qualifies, the kernel is 1's
    // or 2's again and is skipped); 5 as 1 with the next copies before the
    // dots (CodegenOptions::wgmma_copies_after_dots off: which order wins
    // depends on E4's blocks; elsewhere the kernel is 1's and is skipped);
    // 6 as 3 warp-specialized (a producer warpgroup: CodegenOptions::
    // warp_specialize; where the loop has no operand computed in registers,
    // the kernel is 3's and is skipped); 7 as 6 with two producer
    // warpgroups (CodegenOptions::producer_warpgroups: each computes half
    // the operand).
    // Not clusters (`--cluster`): slower than single programs on p11
    // (docs/gpu.md, "Code-generation defaults").
    for (int wg : !dots || !opt.tune_wgmma ? std::vector<int>{0}
                  : wgmma_only             ? std::vector<int>{1, 2, 3, 4, 5, 6, 7}
                                           : std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7})
      for (int s : stages)
        for (int w : wgmma_only ? std::vector<int>{8} : warps) {
          BenchOptions o = opt;
          o.codegen.wgmma = wg > 0;
          o.codegen.wgmma_in_flight = wg == 1 || wg == 3 || wg == 5 || wg >= 6;
          o.codegen.wgmma_copies_after_dots = wg != 5;
          o.codegen.tma = wg >= 3;
          o.codegen.warp_specialize = wg >= 6;
          o.codegen.producer_warpgroups = wg == 7 ? 2 : 1;
          o.measure_compile = false;
          // Enough runs to rank the variants; the winner runs again in full.
          o.runs = std::min(opt.runs, 30);
          o.codegen.num_warps = w;
          o.codegen.num_stages = s;
          o.codegen.persistent_grid[0] = persistent ? 1 : 0;  // run_case fills in the logical grid
          o.codegen.persistent_interleave = persistent == 2 ? 2 : 1;
          options.push_back(o);
        }
  return options;
}

// The autotuner: every variant timed the same way (without the extra NVRTC
// timing), the fastest kept; the winner is then run once more in full so
// its compile times are recorded too. A variant the code generator refuses
// (too much shared memory for its stages, say) is skipped. Variants within
// kTuneTieFraction of the fastest run time are a tie, which the fastest
// NVRTC compile among them wins (choose_tuned_variant).

void tune_case(CudaDriver& d, const Ceilings& ceil, const BenchOptions& opt, const BenchCase& c, BenchResult& r) {
  // Memory-bound cases also try 1 and 2 warps (more, smaller programs per
  // SM; at one warp a row's reductions need no shared memory or barrier).
  std::vector<int> warps = opt.tune_warps;
  if (c.math == BenchCase::Math::None)
    for (int w : {2, 1})
      if (std::find(warps.begin(), warps.end(), w) == warps.end()) warps.insert(warps.begin(), w);
  const bool dots = c.math != BenchCase::Math::None;
  const std::vector<int> stages = dots ? std::vector<int>{0, 2, 3, 4} : std::vector<int>{0};
  std::vector<puzzles::Params> blocks = {c.set.blocks};
  blocks.insert(blocks.end(), c.block_variants.begin(), c.block_variants.end());
  std::set<size_t> timed_sources;
  struct Variant {
    BenchOptions opt;
    puzzles::Params blocks;
    double ms;
    BenchConfig config;                     // as timed (launch_blocks included)
    std::shared_ptr<const ir::Kernel> ir;  // of its block set, for a tie's compile timing
  };
  std::vector<Variant> variants;
  std::optional<Buffer> first_output;  // of the first variant that ran
  for (size_t bi = 0; bi < blocks.size(); ++bi) {
    const puzzles::Params& b = blocks[bi];
    const bool wgmma_only = c.wgmma_variants.count(bi) > 0;  // blocks[0] is the set's own
    if (wgmma_only && !opt.tune_wgmma) continue;
    BenchCase bc = c;
    bc.set.blocks = b;
    puzzles::RunBuffers prepared = puzzles::make_buffers(*bc.puzzle, bc.set, 0);
    const auto ir = tl::build_ir(*bc.puzzle->solution, puzzles::launch_args(bc.set, prepared));
    // Persistent launches pay off only where programs far outnumber what the
    // SMs hold at once.
    const bool many = puzzles::grid_for(bc.set).count() >= 8 * int64_t{d.device().sm_count};
    const std::vector<BenchOptions> options = tuner_options(opt, many && !dots, dots, wgmma_only, warps, stages);
    // Each variant lowered once; one the code generator refuses (too much
    // shared memory for its stages, say) is skipped.
    std::vector<std::optional<LoweredKernel>> lowered(options.size());
    for (size_t i = 0; i < options.size(); ++i) {
      try {
        lowered[i] = lower(*ir, codegen_for(options[i].codegen, bc.set));
      } catch (const CodegenError&) {
      }
    }
    // NVRTC took most of a tuned bench's minutes, one variant after the
    // other; compiled here on every core first, the timing below finds
    // each variant's cubin in the cache (the timed runs stay one at a time).
    if (opt.cache && opt.cache->enabled()) {
      std::vector<CompileJob> jobs;
      std::set<size_t> sources;
      for (const std::optional<LoweredKernel>& k : lowered)
        if (k && sources.insert(std::hash<std::string>{}(k->source)).second) jobs.push_back({*k, opt.compile});
      compile_in_parallel(jobs, *opt.cache);
    }
    Buffer output = prepared.output;  // each variant's check run lands here, in turn
    for (size_t i = 0; i < options.size(); ++i) {
      if (!lowered[i]) continue;
      const BenchOptions& o = options[i];
      BenchResult v;
      v.bench = bc;
      const VariantInputs inputs{&prepared, &output, ir.get(), &*lowered[i], &timed_sources};
      try {
        run_case(d, ceil, o, v, &inputs);
      } catch (const CodegenError&) {
        continue;
      } catch (const SameKernelAsBefore&) {
        continue;
      }
      // Every variant computes from the same inputs: one whose output
      // differs from the first's (the plain configuration) is wrong
      // somewhere and never wins on speed.
      if (!first_output) {
        first_output = output;
      } else if (std::string why = variant_disagreement(*first_output, output, *ir); !why.empty()) {
        r.rejected.push_back({v.config, why});
        continue;
      }
      r.tried.push_back({v.config, v.median_ms});
      variants.push_back({o, b, v.median_ms, v.config, ir});
    }
  }
  if (variants.empty()) throw CodegenError("no configuration of " + c.name + " could be generated");
  std::vector<double> run_ms;
  for (const Variant& v : variants) run_ms.push_back(v.ms);
  std::vector<std::pair<BenchConfig, double>> tie_compiles;
  const Variant* chosen = &variants[choose_tuned_variant(run_ms, [&](size_t i) {
    const Variant& v = variants[i];
    puzzles::SizeSet set = c.set;
    set.blocks = v.blocks;
    const double s = median_nvrtc_seconds(*v.ir, codegen_for(v.opt.codegen, set), opt.compile);
    tie_compiles.push_back({v.config, s});
    return s;
  })];
  BenchOptions best_opt = chosen->opt;
  const puzzles::Params best_blocks = chosen->blocks;
  auto all = std::move(r.tried);
  auto rejected = std::move(r.rejected);
  r = BenchResult{};
  r.bench = c;
  r.bench.set.blocks = best_blocks;
  best_opt.measure_compile = opt.measure_compile;
  run_case(d, ceil, best_opt, r);
  r.tried = std::move(all);
  r.tie_compiles = std::move(tie_compiles);
  r.rejected = std::move(rejected);
}

}  // namespace

std::string BenchConfig::str() const {
  std::string s = "warps " + std::to_string(warps) + ", stages " + (stages ? std::to_string(stages) : "auto");
  if (persistent) s += ", persistent over " + std::to_string(launch_blocks) + " blocks";
  if (interleave > 1) s += ", " + std::to_string(interleave) + " programs a trip";
  if (wgmma) s += wgmma_in_flight ? ", wgmma" : ", wgmma (groups waited for at once)";
  if (tma) s += ", TMA";
  if (clusters) s += ", clusters of 2";
  if (dot_pairs) s += ", " + std::to_string(dot_pairs) + (dot_pairs == 1 ? " pair" : " pairs") + " of dots as one wgmma";
  if (copies_behind_dots) s += ", copies behind the dots";
  if (b_in_stage) s += ", B^T written into the stage";
  if (decoupled) s += ", warpgroups decoupled";
  if (b_tma) s += ", B by TMA";
  if (warp_specialized) s += producer_warpgroups > 1 ? ", warp-specialized (two producer warpgroups)" : ", warp-specialized";
  if (!blocks.empty()) s += ", " + blocks;
  return s;
}

std::vector<BenchResult> run_benchmarks(CudaDriver& d, const Ceilings& ceil, const BenchOptions& opt,
                                        const std::function<void(const BenchResult&)>& progress) {
  std::vector<BenchResult> out;
  bool lost = false;
  for (const BenchCase& c : anchor_cases()) {
    if (!opt.cases.empty() && std::find(opt.cases.begin(), opt.cases.end(), c.name) == opt.cases.end()) continue;
    BenchResult r;
    r.bench = c;
    if (lost) {
      r.error = "not run: the CUDA context was lost at an earlier fault";
    } else {
      try {
        if (opt.tune_warps.empty()) {
          if (opt.block_variant > 0) {
            if (static_cast<size_t>(opt.block_variant) > c.block_variants.size())
              throw std::invalid_argument("--variant " + std::to_string(opt.block_variant) + ": case " + c.name +
                                          " has block variants 1 to " + std::to_string(c.block_variants.size()));
            r.bench.set.blocks = c.block_variants[static_cast<size_t>(opt.block_variant - 1)];
          }
          run_case(d, ceil, opt, r);
        } else {
          tune_case(d, ceil, opt, c, r);
        }
      } catch (const CudaError& e) {
        r.error = e.what();
        lost = e.sticky();
      } catch (const std::exception& e) {
        r.error = e.what();
      }
    }
    if (progress) progress(r);
    out.push_back(std::move(r));
  }
  return out;
}

std::string variant_disagreement(const Buffer& first, const Buffer& output, const ir::Kernel& k) {
  // The same bits agree at any tolerance: a memory-bound case's variants
  // mostly do, and the elementwise diff took seconds at p02's 512 MB.
  if (first.dtype() == output.dtype() && first.shape() == output.shape() &&
      std::memcmp(first.data(), output.data(), first.size_bytes()) == 0)
    return "";
  const BufferDiff diff = diff_buffers(first, output, tolerance_for(k, first.dtype()));
  return diff.pass ? "" : diff.str();
}

std::string bench_table_header() {
  char line[256];
  std::snprintf(line, sizeof line, "%-17s %-58s %10s %10s %9s %9s %8s %9s %6s %5s %7s %5s %8s %8s\n", "case", "what",
                "median ms", "p90 ms", "GB/s", "TFLOP/s", "floor %", "Triton ms", "regs", "spill", "copies", "warps",
                "nvrtc s", "cache ms");
  return line;
}

std::string bench_table_row(const BenchResult& r) {
  char line[512];
  if (!r.error.empty()) {
    std::snprintf(line, sizeof line, "%-17s %-58s ERROR: %s\n", r.bench.name.c_str(), r.bench.what.c_str(), r.error.c_str());
    return line;
  }
  std::snprintf(line, sizeof line, "%-17s %-58s %10.4g %10.4g %9.4g %9.3g %7.1f%% %9.4g %6d %5d %7d %5d %8.3f %8.2f%s\n",
                r.bench.name.c_str(), r.bench.what.c_str(), r.median_ms, r.p90_ms, r.gb_per_s, r.tflop_per_s,
                r.percent_of_floor, r.bench.anchor_ms, r.registers, r.spill_bytes, r.copies, r.warps, r.nvrtc_s,
                r.cache_hit_s * 1e3,
                r.never_written ? "  (output not fully written!)" : r.non_finite ? "  (non-finite outputs!)" : "");
  // The configuration the number was measured with, on the line below it.
  std::string row = line + std::string(18, ' ') + "config: " + r.config.str() + "\n";
  if (!r.tie_compiles.empty()) {
    row += std::string(18, ' ') + "ran within 1 % of each other, the fastest to compile chosen:";
    char t[64];
    for (const auto& [config, seconds] : r.tie_compiles) {
      std::snprintf(t, sizeof t, " %.3f s", seconds);
      row += "\n" + std::string(20, ' ') + config.str() + ":" + t;
    }
    row += "\n";
  }
  for (const auto& [config, why] : r.rejected)
    row += std::string(18, ' ') + "left out, its output differs from the first variant's (" + why + "): " + config.str() + "\n";
  return row;
}

std::string bench_json(const std::vector<BenchResult>& results, const Ceilings& ceil, const DeviceInfo& dev) {
  nlohmann::json j;
  j["device"] = {{"name", dev.name}, {"arch", dev.arch()}, {"sms", dev.sm_count}, {"l2_bytes", dev.l2_bytes}};
  j["ceilings"] = {{"bytes_per_s", ceil.bytes_per_s},
                   {"tf32_flops_per_s", ceil.tf32_flops_per_s},
                   {"f32_flops_per_s", ceil.f32_flops_per_s},
                   {"bandwidth_source", ceil.bandwidth_source},
                   {"math_source", ceil.math_source}};
  j["cases"] = nlohmann::json::array();
  for (const BenchResult& r : results) {
    nlohmann::json c = {{"case", r.bench.name},     {"what", r.bench.what},         {"sizes", r.bench.set.sizes.str()},
                        {"blocks", r.bench.set.blocks.str()}, {"bytes", r.bench.bytes}, {"flops", r.bench.flops},
                        {"anchor_ms", r.bench.anchor_ms}, {"triton_row", r.bench.triton_row}};
    if (!r.error.empty()) {
      c["error"] = r.error;
    } else {
      c.update({{"kernel", r.cuda_kernel},       {"registers", r.registers},   {"spill_bytes", r.spill_bytes},
                {"smem_bytes", r.smem_bytes},      {"compile_s", r.compile_s},   {"copies", r.copies},
                {"flushed_l2", r.flushed_l2},
                {"runs", r.runs},                  {"median_ms", r.median_ms},   {"min_ms", r.min_ms},
                {"p90_ms", r.p90_ms},              {"max_ms", r.max_ms},         {"gb_per_s", r.gb_per_s},
                {"tflop_per_s", r.tflop_per_s},    {"floor_ms", r.floor_ms},     {"percent_of_floor", r.percent_of_floor},
                {"never_written", r.never_written}, {"non_finite", r.non_finite}, {"warps", r.warps},
                {"nvrtc_s", r.nvrtc_s},            {"cache_hit_s", r.cache_hit_s}});
      auto config = [](const BenchConfig& b) {
        return nlohmann::json{{"warps", b.warps},           {"stages", b.stages},
                              {"persistent", b.persistent}, {"interleave", b.interleave}, {"launch_blocks", b.launch_blocks}, {"wgmma", b.wgmma}, {"wgmma_in_flight", b.wgmma_in_flight}, {"tma", b.tma}, {"clusters", b.clusters}, {"dot_pairs", b.dot_pairs}, {"copies_behind_dots", b.copies_behind_dots}, {"b_in_stage", b.b_in_stage}, {"decoupled", b.decoupled}, {"b_tma", b.b_tma}, {"warp_specialized", b.warp_specialized}, {"producer_warpgroups", b.producer_warpgroups},
                              {"blocks", b.blocks}};
      };
      c["config"] = config(r.config);
      // (configuration, number) pairs as configurations with the number under `key`.
      auto configs = [&](const std::vector<std::pair<BenchConfig, double>>& list, const char* key) {
        nlohmann::json a = nlohmann::json::array();
        for (const auto& [b, value] : list) {
          nlohmann::json t = config(b);
          t[key] = value;
          a.push_back(t);
        }
        return a;
      };
      c["tried"] = configs(r.tried, "median_ms");
      c["ties_by_compile_time"] = configs(r.tie_compiles, "nvrtc_s");
      c["rejected_variants"] = nlohmann::json::array();
      for (const auto& [b, why] : r.rejected) {
        nlohmann::json t = config(b);
        t["output_differs"] = why;
        c["rejected_variants"].push_back(t);
      }
      if (r.verified) c["spec_err"] = r.spec_err;
    }
    j["cases"].push_back(c);
  }
  return j.dump(2);
}

}  // namespace tl::gpu
