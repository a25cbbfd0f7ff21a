// What the generated CUDA computes, checked without a GPU: each kernel is
// compiled as host C++ and run with each CUDA thread as a fiber
// (gpu_host_runner.h), then compared with the interpreter. This covers the
// layout, shared-memory, reduction, dot, masking and SEMANTICS logic of the
// code generator; what only a device shows (fused multiply-adds, libdevice
// rounding, PTX atomics, real concurrency) is left to the GPU tests.
#ifdef TILESCOPE_HAVE_GPU
#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <set>
#include <string>

#include "bench_cases.h"
#include "dot_cases.h"
#include "gpu_cases.h"
#include "gpu_compare.h"
#include "gpu_host_runner.h"
#include "harness.h"
#include "inputs.h"
#include "registry.h"

namespace {

// Runs `kernel` on the interpreter and emulated, on two copies of the same
// buffers, and checks every buffer.
void compare(const tl::KernelDef& kernel, tl::Grid grid, std::vector<tl::Buffer> ib, std::vector<tl::Buffer> eb,
             const std::function<std::vector<tl::Arg>(std::vector<tl::Buffer>&)>& bind, int warps,
             bool every_load = false, bool wgmma = false) {
  tl::run(kernel, grid, bind(ib));
  const std::vector<tl::Arg> args = bind(eb);
  auto ir = tl::build_ir(kernel, args);
  tl::gpu::CodegenOptions cg;
  cg.num_warps = warps;
  cg.every_load = every_load;
  cg.wgmma = wgmma;
  gpu_host::HostKernel k(*ir, tl::gpu::lower(*ir, cg));
  k.run(grid, args);
  for (size_t i = 0; i < ib.size(); ++i) {
    tl::gpu::Tolerance tol = tl::gpu::tolerance_for(*ir, ib[i].dtype());
    tl::gpu::BufferDiff d = tl::gpu::diff_buffers(ib[i], eb[i], tol);
    INFO("buffer " << ib[i].name() << ": " << d.str());
    CHECK(d.pass);
  }
}

std::vector<tl::Buffer> as_list(puzzles::RunBuffers b) {
  std::vector<tl::Buffer> out = std::move(b.inputs);
  out.push_back(std::move(b.output));
  for (tl::Buffer& extra : b.extra_outputs) out.push_back(std::move(extra));
  return out;
}

// The puzzle's launch arguments for buffers laid out by as_list().
std::function<std::vector<tl::Arg>(std::vector<tl::Buffer>&)> puzzle_args(const puzzles::SizeSet& set) {
  return [&set](std::vector<tl::Buffer>& b) {
    std::vector<tl::Arg> a(b.begin(), b.end());
    for (const puzzles::Params* group : {&set.sizes, &set.constants, &set.blocks})
      for (const auto& [name, value] : group->values()) a.emplace_back(value);
    return a;
  };
}

}  // namespace

TEST_CASE("emulated: the semantics cases compute what the interpreter computes", "[gpu][emulated]") {
  for (int warps : {1, 4}) {
    for (const gpu_cases::Case& c : gpu_cases::all_cases()) {
      INFO("case " << c.name << ", " << warps << " warps");
      compare(*c.kernel, c.grid, c.buffers(), c.buffers(), c.args, warps);
    }
  }
}

TEST_CASE("emulated: code that keeps every load computes the same", "[gpu][emulated]") {
  for (const gpu_cases::Case& c : gpu_cases::all_cases()) {
    INFO("case " << c.name << ", every load kept");
    compare(*c.kernel, c.grid, c.buffers(), c.buffers(), c.args, 4, true);
  }
}

TEST_CASE("emulated: every puzzle solution matches the interpreter on its first two size sets", "[gpu][emulated]") {
  for (const puzzles::Puzzle& p : puzzles::all_puzzles()) {
    for (size_t s = 0; s < 2 && s < p.sets.size(); ++s) {
      const puzzles::SizeSet& set = p.sets[s];
      INFO("puzzle " << p.number << ", set " << set.name);
      compare(*p.solution, puzzles::grid_for(set), as_list(puzzles::make_buffers(p, set, 1)),
              as_list(puzzles::make_buffers(p, set, 1)), puzzle_args(set), 4);
    }
  }
}

TEST_CASE("emulated: every example kernel matches the interpreter on its first two size sets", "[gpu][emulated]") {
  for (const puzzles::Puzzle& p : puzzles::all_examples()) {
    // The emulation runs blocks one after another: a block that waits for
    // a later one (e6_splitk_sem) would spin forever.
    if (p.id == "e6_splitk_sem") continue;
    for (size_t s = 0; s < 2 && s < p.sets.size(); ++s) {
      const puzzles::SizeSet& set = p.sets[s];
      INFO("example " << p.id << ", set " << set.name);
      compare(*p.solution, puzzles::grid_for(set), as_list(puzzles::make_buffers(p, set, 1)),
              as_list(puzzles::make_buffers(p, set, 1)), puzzle_args(set), 4);
    }
  }
}

TEST_CASE("emulated: the benchmark block sizes work on small problems", "[gpu][emulated]") {
  // ANCHORS.md's blocks (128 x 128 x 32 dots, 64 x 128 tiles, 1024-wide
  // rows) and the examples' benchmark blocks on sizes that leave tails on
  // every axis.
  const std::map<std::string, std::map<std::string, int64_t>> small = {
      {"p02", {{"N0", 5000}}},
      {"p04", {{"N0", 300}, {"N1", 70}}},
      {"p07", {{"N0", 3}, {"T", 3000}}},
      {"p08", {{"N0", 2}, {"T", 2100}}},
      {"p09", {{"N0", 130}, {"T", 300}}},
      {"p10", {{"N0", 20}, {"H", 7}, {"W", 9}}},
      {"p11", {{"N0", 130}, {"N1", 150}, {"MID", 70}}},
      {"e1_v1", {{"M", 70}, {"N", 100}, {"K", 80}}},
      {"e1_v1_128", {{"M", 70}, {"N", 100}, {"K", 80}}},
      {"e1_v2", {{"M", 70}, {"N", 100}, {"K", 80}}},
      {"e2", {{"R", 3}}},
      {"e3", {{"R", 3}}},
      {"e4_fused", {{"K", 70}, {"COUT", 100}, {"CIN", 256}}},
      {"e4_fused_k100864", {{"K", 70}, {"COUT", 100}, {"CIN", 256}}},
      {"e4_splitk", {{"K", 300}, {"COUT", 100}, {"CIN", 256}}},
      {"e4_splitk_k100864", {{"K", 600}, {"COUT", 100}, {"CIN", 256}}},
      {"e4_rows", {{"K", 70}, {"COUT", 100}, {"CIN", 256}}},
      {"e4_rows_k100864", {{"K", 70}, {"COUT", 100}, {"CIN", 256}}},
      {"e5_fwd", {{"R", 20}}},
      {"e5_bwd", {{"R", 20}}}};
  // A case with the kernel, blocks and small sizes of one already run (the
  // K = 100864 twins) would only repeat it.
  std::set<std::string> done;
  for (tl::gpu::BenchCase c : tl::gpu::anchor_cases()) {
    puzzles::Params sizes;
    for (const auto& [n, v] : c.set.sizes.values()) sizes.add(n, small.at(c.name).count(n) ? small.at(c.name).at(n) : v);
    c.set.sizes = sizes;
    if (!done.insert(c.puzzle->id + " " + c.set.sizes.str() + " " + c.set.blocks.str()).second) continue;
    INFO("bench case " << c.name << " at " << c.set.sizes.str() << " | " << c.set.blocks.str());
    compare(*c.puzzle->solution, puzzles::grid_for(c.set), as_list(puzzles::make_buffers(*c.puzzle, c.set, 0)),
            as_list(puzzles::make_buffers(*c.puzzle, c.set, 0)), puzzle_args(c.set), 4);
    // The dot cases also at 8 warps (bench --gpu tunes over 4 and 8): other
    // warp tiles, other copy rounds.
    if (c.name == "p11" || c.name == "e1_v1_128" || c.name == "e4_fused")
      compare(*c.puzzle->solution, puzzles::grid_for(c.set), as_list(puzzles::make_buffers(*c.puzzle, c.set, 0)),
              as_list(puzzles::make_buffers(*c.puzzle, c.set, 0)), puzzle_args(c.set), 8);
    // The other blocks the bench's autotuner may pick, those
    // sized for wgmma as the tuner tries them: with it, at 8 warps.
    for (size_t i = 0; i < c.block_variants.size(); ++i) {
      tl::gpu::BenchCase v = c;
      v.set.blocks = c.block_variants[i];
      const bool wgmma = c.wgmma_variants.count(i + 1) > 0;
      INFO("block variant " << v.set.blocks.str() << (wgmma ? ", wgmma at 8 warps" : ""));
      compare(*v.puzzle->solution, puzzles::grid_for(v.set), as_list(puzzles::make_buffers(*v.puzzle, v.set, 0)),
              as_list(puzzles::make_buffers(*v.puzzle, v.set, 0)), puzzle_args(v.set), wgmma ? 8 : 4, false, wgmma);
    }
  }
}

// A staged tile's 16-byte vectors go out as one cp.async when every lane
// is on, as zeros when none is, else element by element; the code tests a
// vector's end lanes only where the mask's true lanes along the copy's
// axis are known to be a prefix, suffix or interval (codegen_pipeline.cpp).
// Each mask here puts some vectors in each of the three cases; the window
// puts lanes on strictly between a vector's two ends, which the end lanes
// alone would call empty.
TEST_CASE("emulated: staged vectors are copied whole, zeroed or element by element as their masks say",
          "[gpu][emulated]") {
  using dot_cases::tile_dot;
  static const tl::KernelDef prefix("prefix_mask", +[](tl::Ptr A, tl::Ptr Bt, tl::Ptr C, tl::Int M, tl::Int N, tl::Int K) {
    tile_dot(A, Bt, C, M, N, K, [](auto rows, auto ks, tl::Int M, tl::Int K) { return (rows < M).col() & (ks < K - 5).row(); });
  });
  static const tl::KernelDef suffix("suffix_mask", +[](tl::Ptr A, tl::Ptr Bt, tl::Ptr C, tl::Int M, tl::Int N, tl::Int K) {
    tile_dot(A, Bt, C, M, N, K, [](auto rows, auto ks, tl::Int M, tl::Int) { return (rows < M).col() & (ks >= 13).row(); });
  });
  static const tl::KernelDef window("window_mask", +[](tl::Ptr A, tl::Ptr Bt, tl::Ptr C, tl::Int M, tl::Int N, tl::Int K) {
    tile_dot(A, Bt, C, M, N, K, [](auto rows, auto ks, tl::Int M, tl::Int) {
      return (rows < M).col() & ((ks >= 13) & (ks < 15)).row();
    });
  });
  static const tl::KernelDef rows_only("rows_mask", +[](tl::Ptr A, tl::Ptr Bt, tl::Ptr C, tl::Int M, tl::Int N, tl::Int K) {
    tile_dot(A, Bt, C, M, N, K, [](auto rows, auto, tl::Int M, tl::Int) { return tl::broadcast_to((rows < M).col(), {64, 32}); });
  });
  static const tl::KernelDef every_third("every_third_mask", +[](tl::Ptr A, tl::Ptr Bt, tl::Ptr C, tl::Int M, tl::Int N, tl::Int K) {
    tile_dot(A, Bt, C, M, N, K, [](auto rows, auto ks, tl::Int M, tl::Int) { return (rows < M).col() & (ks % 3 != 0).row(); });
  });
  // k + 2 as i8 wraps from 127 to -128 inside the vector of k = 124..127: its
  // lanes are off, off, on, on, which no end-lane test reads right. A cast to
  // a narrower type is not a unit step, so every lane is tested.
  static const tl::KernelDef wrapped("wrapped_mask", +[](tl::Ptr A, tl::Ptr Bt, tl::Ptr C, tl::Int M, tl::Int N, tl::Int K) {
    tile_dot(A, Bt, C, M, N, K, [](auto rows, auto ks, tl::Int M, tl::Int) {
      return (rows < M).col() & ((ks + 2).to(tl::i8) < 100).row();
    });
  });
  // The vector test each one gets: A's [64, 32] f32 tile has 4 lanes a vector.
  const std::vector<std::pair<const tl::KernelDef*, std::string>> cases = {
      {&prefix, "ts_all = ts_m0 && ts_m3, ts_none = !(ts_m0);"},
      {&suffix, "ts_all = ts_m0 && ts_m3, ts_none = !(ts_m3);"},
      {&window, "ts_all = ts_m0 && ts_m3, ts_none = false;"},
      {&rows_only, "ts_all = ts_m0, ts_none = !(ts_m0);"},
      {&every_third, "ts_all = ts_m0 && ts_m1 && ts_m2 && ts_m3, ts_none = !(ts_m0 || ts_m1 || ts_m2 || ts_m3);"},
      {&wrapped, "ts_all = ts_m0 && ts_m1 && ts_m2 && ts_m3, ts_none = !(ts_m0 || ts_m1 || ts_m2 || ts_m3);"}};
  // K a multiple of BK: only the masks keep the reads inside A.
  const int64_t M = 70, N = 64, K = 160;
  std::mt19937 gen(11);
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  auto filled = [&](const char* name, std::vector<int64_t> shape) {
    tl::Buffer b(name, tl::DType::f32, shape);
    for (int64_t i = 0; i < b.numel(); ++i) b.as<float>()[i] = value(gen);
    return b;
  };
  const std::vector<tl::Buffer> inputs = {filled("A", {M, K}), filled("Bt", {N, K}), filled("C", {M, N})};
  auto bind = [&](std::vector<tl::Buffer>& b) {
    return std::vector<tl::Arg>{b[0], b[1], b[2], tl::Arg(M), tl::Arg(N), tl::Arg(K)};
  };
  const tl::Grid grid{(M + 63) / 64, N / 64, 1};
  for (const auto& [kernel, vector_test] : cases) {
    INFO("kernel " << kernel->name());
    std::vector<tl::Buffer> b = inputs;
    tl::gpu::CodegenOptions cg;
    CHECK(tl::gpu::lower(*tl::build_ir(*kernel, bind(b)), cg).source.find(vector_test) != std::string::npos);
    compare(*kernel, grid, inputs, inputs, bind, 4);
  }
}

// The rules every comparison above (and the GPU's) applies.
TEST_CASE("interpreter-vs-GPU tolerances follow what the kernel computes", "[gpu][compare]") {
  tl::Buffer a("a", tl::DType::f32, {4}), b("b", tl::DType::f32, {4});
  for (int i = 0; i < 4; ++i) {
    a.set(i, 1.0 + i);
    b.set(i, 1.0 + i);
  }
  tl::gpu::Tolerance elementwise{tl::gpu::Tolerance::Kind::Elementwise, 1e-6};
  CHECK(tl::gpu::diff_buffers(a, b, elementwise).pass);
  b.set(2, 3.0001);
  CHECK_FALSE(tl::gpu::diff_buffers(a, b, elementwise).pass);
  CHECK(tl::gpu::diff_buffers(a, b, {tl::gpu::Tolerance::Kind::Tf32Dot, 1e-3}).pass);
  a.set(1, std::nan(""));
  CHECK_FALSE(tl::gpu::diff_buffers(a, b, {tl::gpu::Tolerance::Kind::Tf32Dot, 1e-3}).pass);  // NaN on one side only
  b.set(1, std::nan(""));
  CHECK(tl::gpu::diff_buffers(a, b, {tl::gpu::Tolerance::Kind::Tf32Dot, 1e-3}).pass);
  b.set_bits(1, puzzles::kNeverWrittenBits);  // the harness's fill is not a computed NaN
  CHECK_FALSE(tl::gpu::diff_buffers(a, b, {tl::gpu::Tolerance::Kind::Tf32Dot, 1e-3}).pass);

  // With the interpreter's written map: a NaN it computed (here carrying
  // the fill's payload, as x86 arithmetic keeps it) matches the GPU's
  // canonical NaN; where it never wrote, only the untouched fill matches.
  a.mark_unwritten();
  a.set_bits(1, puzzles::kNeverWrittenBits);
  b.set(1, std::nan(""));
  a.written_map() = {1, 1, 1, 1};
  CHECK(tl::gpu::diff_buffers(a, b, {tl::gpu::Tolerance::Kind::Tf32Dot, 1e-3}).pass);
  a.written_map()[1] = 0;
  CHECK_FALSE(tl::gpu::diff_buffers(a, b, {tl::gpu::Tolerance::Kind::Tf32Dot, 1e-3}).pass);
  b.set_bits(1, puzzles::kNeverWrittenBits);
  CHECK(tl::gpu::diff_buffers(a, b, {tl::gpu::Tolerance::Kind::Tf32Dot, 1e-3}).pass);

  const puzzles::Puzzle* p7 = puzzles::find_puzzle("7");
  const puzzles::Puzzle* p2 = puzzles::find_puzzle("2");
  const puzzles::Puzzle* p11 = puzzles::find_puzzle("11");
  auto tol = [](const puzzles::Puzzle* p) {
    puzzles::RunBuffers b = puzzles::make_buffers(*p, p->sets[0], 0);
    return tl::gpu::tolerance_for(*tl::build_ir(*p->solution, puzzles::launch_args(p->sets[0], b)), tl::DType::f32);
  };
  CHECK(tol(p2).relative == 1e-6);
  CHECK(tol(p7).relative == 1e-5);
  CHECK(tol(p11).relative == 1e-3);
}

#endif  // TILESCOPE_HAVE_GPU
