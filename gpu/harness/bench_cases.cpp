#include "bench_cases.h"

#include <map>
#include <tuple>
#include <stdexcept>

#include "harness.h"
#include "registry.h"

namespace tl::gpu {

namespace {

// The puzzle's canonical set with some values replaced; the order of the
// sizes and blocks (the kernel's parameter order) is kept.
puzzles::SizeSet scaled(const puzzles::Puzzle& p, const std::map<std::string, int64_t>& values) {
  puzzles::SizeSet s = p.sets.at(0);
  s.name = "at-scale";
  s.value_maps.clear();
  for (puzzles::Params* group : {&s.sizes, &s.constants, &s.blocks}) {
    puzzles::Params out;
    for (const auto& [n, v] : group->values()) out.add(n, values.count(n) ? values.at(n) : v);
    *group = out;
  }
  return s;
}

BenchCase make(const std::string& key, const std::string& what, std::map<std::string, int64_t> values,
               double anchor_ms) {
  const puzzles::Puzzle* p = puzzles::find_puzzle(key);
  if (!p) throw std::logic_error("no puzzle " + key);
  BenchCase c;
  c.name = key;
  c.what = what;
  c.puzzle = p;
  c.set = scaled(*p, values);
  c.anchor_ms = anchor_ms;
  return c;
}

// An example at one of its own benchmark-size sets (EXAMPLES.md sizes).
BenchCase example(const std::string& name, const std::string& id, const std::string& set, const std::string& what,
                  double anchor_ms, const std::string& triton_row) {
  const puzzles::Puzzle* p = puzzles::find_puzzle(id);
  const puzzles::SizeSet* s = p ? puzzles::find_set(*p, set) : nullptr;
  if (!s) throw std::logic_error("no example " + id + " with set " + set);
  BenchCase c;
  c.name = name;
  c.what = what;
  c.puzzle = p;
  c.set = *s;
  c.anchor_ms = anchor_ms;
  c.triton_row = triton_row;
  return c;
}

// E1: A, both halves of B and D, each once; 2 M K (2N) flops in tf32.
BenchCase split_activation(BenchCase c) {
  const double m = c.set["M"], n = c.set["N"], k = c.set["K"];
  c.bytes = 4 * (m * k + 2 * n * k + m * n);
  c.flops = 2 * m * k * 2 * n;
  c.math = BenchCase::Math::Tf32;
  return c;
}

// E2/E3: the bf16 rows, their packed words, and a bf16 scale and minimum per row.
BenchCase packed_rows(BenchCase c) {
  const double rows = c.set["R"], group = c.set["GROUP"], words = group / (32 / c.set["BITS"]);
  c.bytes = rows * (2 * group + 4 * words + 2 * 2);
  return c;
}

// E4: dY, the packed activation with its scales and minima, and dW (f32) once; bf16 dot.
BenchCase weight_grad(BenchCase c) {
  const double k = c.set["K"], cout = c.set["COUT"], cin = c.set["CIN"], group = c.set["GROUP"];
  const double packed_rows = k * cin / group, words = group / (32 / c.set["BITS"]);
  c.bytes = 2 * k * cout + packed_rows * (4 * words + 2 * 2) + 4 * cout * cin;
  c.flops = 2 * k * cout * cin;
  c.math = BenchCase::Math::Bf16;
  return c;
}

// E5: a bf16 row in, a bf16 row out, and 1 bit per value.
BenchCase relu_bitmask(BenchCase c) {
  const double values = c.set["R"] * c.set["COLS"];
  c.bytes = 2 * 2 * values + values / 8;
  return c;
}

void add_examples(std::vector<BenchCase>& cases) {
  cases.push_back(split_activation(example("e1_v1", "e1_v1", "bench", "E1 split activation 1024x2048x2048, tf32, 64x64x32",
                                           0.0747, "E1 splitact 1024x2048x2048 tf32 64x64x32")));
  cases.push_back(split_activation(example("e1_v1_128", "e1_v1", "bench_128",
                                           "E1 split activation 1024x2048x2048, tf32, 128x64x32", 0.0551,
                                           "E1 splitact 1024x2048x2048 tf32 128x64x32")));
  cases.push_back(split_activation(
      example("e1_v2", "e1_v2", "bench", "E1 v2 interleaved accumulator 1024x2048x2048, tf32, 64x64x32", 0, "")));
  cases.push_back(packed_rows(example("e2", "e2", "bench", "E2 quantize+pack 302592 x 256 bf16, 2-bit", 0.209,
                                      "E2 quant_pack 302592x256 bf16 2-bit")));
  cases.push_back(packed_rows(example("e3", "e3", "bench", "E3 unpack+dequantize 302592 x 256, 2-bit", 0.187,
                                      "E3 dequant_unpack 302592x256 2-bit")));
  cases.push_back(weight_grad(example("e4_fused", "e4_fused", "bench",
                                      "E4 dW from packed x, fused, K = 8192, 768 x 768, 64x64x32", 0, "")));
  cases.push_back(weight_grad(example("e4_fused_k100864", "e4_fused", "bench_k100864",
                                      "E4 dW from packed x, fused, K = 100864, 768 x 768, 64x64x32", 0, "")));
  cases.push_back(weight_grad(example("e4_splitk", "e4_splitk", "bench",
                                      "E4 dW from packed x, split-K 8 + atomic_add, K = 8192 (dW not re-zeroed)", 0, "")));
  cases.push_back(weight_grad(example("e4_splitk_k100864", "e4_splitk", "bench_k100864",
                                      "E4 dW from packed x, split-K 16 + atomic_add, K = 100864 (dW not re-zeroed)", 0,
                                      "")));
  // Each X tile dequantized once (a program owns all 768 rows of
  // dW as 3 x 256); the tuner also tries other K splits and row blocks.
  for (const auto& [name, set, what] :
       {std::tuple{"e4_rows", "bench", "E4 dW from packed x, X dequantized once, K = 8192, split-K 11 + atomic_add"},
        std::tuple{"e4_rows_k100864", "bench_k100864",
                   "E4 dW from packed x, X dequantized once, K = 100864, split-K 11 + atomic_add"}}) {
    BenchCase c = weight_grad(example(name, "e4_rows", set, what, 0, ""));
    for (auto [bm, rows, split] : {std::tuple{256, 3, 5}, std::tuple{256, 3, 22}, std::tuple{128, 6, 11}})
      c.block_variants.push_back({{"BM", bm}, {"BN", 32}, {"BK", 32}, {"ROW_BLOCKS", rows}, {"SPLIT_K", split}});
    // 16-bit wgmma (8 warps: 128 rows of dW a dot): over a whole group of
    // X's columns, dequantized into the stage a thread a column; or over
    // half a group for two row blocks (each X value feeds 256 rows of dW:
    // the faster at K = 100864); or a quarter (98 registers: two programs an
    // SM; the faster at K = 8192). BK 64 at BN 128 x 2 (variant 7): for the
    // warp-specialized form (CodegenOptions::warp_specialize), whose
    // producer pays its waits, fence and small loads' addresses once an
    // iteration: twice the values for them. The blocks left out, each
    // slower, are in docs/gpu.md ("Block variants the tuner
    // leaves out").
    for (auto [bn, rows, bk] : {std::tuple{256, 1, 32}, std::tuple{128, 2, 32}, std::tuple{64, 2, 32}, std::tuple{128, 2, 64}}) {
      c.block_variants.push_back({{"BM", 128}, {"BN", bn}, {"BK", bk}, {"ROW_BLOCKS", rows}, {"SPLIT_K", 7}});
      c.wgmma_variants.insert(c.block_variants.size());
    }
    cases.push_back(c);
  }
  cases.push_back(relu_bitmask(example("e5_fwd", "e5_fwd", "bench", "E5 ReLU forward + 1-bit mask, 302592 x 256 bf16", 0, "")));
  cases.push_back(relu_bitmask(example("e5_bwd", "e5_bwd", "bench", "E5 ReLU backward from 1-bit mask, 302592 x 256 bf16", 0, "")));
}

}  // namespace

std::vector<BenchCase> anchor_cases() {
  std::vector<BenchCase> cases;
  const double f = 4;  // bytes per f32

  BenchCase c = make("p02", "add +10, N0 = 2^27, B0 = 1024", {{"N0", int64_t{1} << 27}, {"B0", 1024}}, 0.257);
  c.bytes = 2 * f * c.set["N0"];
  cases.push_back(c);

  c = make("p04", "outer add 16384 x 16384, blocks 128 x 32", {{"N0", 16384}, {"N1", 16384}, {"B0", 128}, {"B1", 32}},
           0.236);
  c.bytes = f * (c.set["N0"] + c.set["N1"] + c.set["N0"] * c.set["N1"]);
  cases.push_back(c);

  c = make("p07", "long sum 16384 x 4096, B0 = 1, B1 = 1024", {{"N0", 16384}, {"T", 4096}, {"B0", 1}, {"B1", 1024}},
           0.0716);
  c.bytes = f * (c.set["N0"] * c.set["T"] + c.set["N0"]);
  cases.push_back(c);

  c = make("p08", "softmax 16384 x 4096, B0 = 1, B1 = 1024", {{"N0", 16384}, {"T", 4096}, {"B0", 1}, {"B1", 1024}},
           0.183);
  c.bytes = 2 * f * c.set["N0"] * c.set["T"];  // read once, write once (a 2-pass kernel reads twice)
  cases.push_back(c);

  c = make("p09", "scalar attention, N0 = T = 32768, B0 = 64, B1 = 128",
           {{"N0", 32768}, {"T", 32768}, {"B0", 64}, {"B1", 128}}, 3.57);
  c.bytes = f * 2 * (c.set["N0"] + c.set["T"]);
  c.flops = 6.0 * c.set["N0"] * c.set["T"];  // per (i, j): score, max, exp2 argument, weight, two sums
  c.math = BenchCase::Math::F32;
  cases.push_back(c);

  c = make("p10", "conv2d 4096 x 32 x 32, 4 x 4 kernel, B0 = 16",
           {{"N0", 4096}, {"H", 32}, {"W", 32}, {"KH", 4}, {"KW", 4}, {"B0", 16}}, 0.261);
  c.bytes = f * (2.0 * c.set["N0"] * c.set["H"] * c.set["W"] + c.set["KH"] * c.set["KW"]);
  c.flops = 2.0 * c.set["N0"] * c.set["H"] * c.set["W"] * c.set["KH"] * c.set["KW"];
  c.math = BenchCase::Math::F32;
  cases.push_back(c);

  c = make("p11", "matmul 1 x 4096^3, tf32 dot, blocks 128 x 128 x 32 (B2 = 1)",
           {{"N0", 4096}, {"N1", 4096}, {"N2", 1}, {"MID", 4096}, {"B0", 128}, {"B1", 128}, {"B2", 1}, {"B_MID", 32}},
           54.1);
  const double n = 4096;
  c.bytes = f * 3 * n * n;
  c.flops = 2 * n * n * n;
  c.math = BenchCase::Math::Tf32;
  // Triton's row at these blocks falls off its fast path, so the target is
  // a rate (300 TFLOP/s), and the tuner may pick other blocks: 256 x 128,
  // which it picks. The blocks left out, each slower, are in docs/gpu.md
  // ("Block variants the tuner leaves out").
  for (auto [b0, b1, bk] : {std::tuple{256, 128, 32}})
    c.block_variants.push_back({{"B0", b0}, {"B1", b1}, {"B2", 1}, {"B_MID", bk}});
  cases.push_back(c);
  add_examples(cases);
  return cases;
}

}  // namespace tl::gpu
