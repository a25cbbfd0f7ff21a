#include "bench_cases.h"

#include <map>
#include <stdexcept>

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
  cases.push_back(c);
  return cases;
}

}  // namespace tl::gpu
