// What the example definitions share: size sets with their own grid rule,
// owners by row blocks, the packed format of E2-E4, and bf16 helpers for the
// references.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "half.h"
#include "puzzle.h"

namespace puzzles::examples {

inline int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

using GridRule = std::function<std::array<int64_t, 3>(const SizeSet&)>;

// A size set whose grid is `grid`; `large` marks a benchmark-size set.
inline SizeSet make_set(std::string name, Params sizes, Params constants, Params blocks, std::string stresses,
                        GridRule grid, bool large = false) {
  SizeSet s{std::move(name), std::move(sizes), std::move(constants), std::move(blocks), std::move(stresses), {}};
  s.grid = std::move(grid);
  s.large = large;
  return s;
}

// The packed format of E2-E4 (EXAMPLES.md E2): values of BITS bits, VPW per
// 32-bit word, lowest bits first; GROUP values per row share a scale and a
// minimum.
struct PackFormat {
  int64_t group = 256, bits = 2;
  int64_t vpw() const { return 32 / bits; }
  int64_t words() const { return group / vpw(); }
  int64_t qmax() const { return (int64_t{1} << bits) - 1; }
  // Value j (0 <= j < VPW) of a packed word, as the exact integer 0..QMAX.
  int64_t code(int32_t word, int64_t j) const { return (static_cast<uint32_t>(word) >> (j * bits)) & qmax(); }
};
inline PackFormat pack_format(const SizeSet& s) { return {s["GROUP"], s["BITS"]}; }

// The fields every example sets alike; the caller adds buffers and sets.
inline Puzzle example_puzzle(std::string id, std::string title, const char* statement, double tolerance) {
  Puzzle p;
  p.example = true;
  p.id = std::move(id);
  p.title = std::move(title);
  p.statement = statement;
  p.tolerance = tolerance;
  return p;
}

// body(lo, hi) over [0, n), cut into one contiguous part per hardware
// thread. For the benchmark-size references (billions of f64 products, the
// longest part of their tests): each output is still computed by one thread
// in the same order, so the bits do not depend on the split.
inline void parallel_ranges(int64_t n, const std::function<void(int64_t, int64_t)>& body) {
  const int64_t parts = std::min<int64_t>(std::clamp<int64_t>(std::thread::hardware_concurrency(), 1, 64), n);
  if (parts <= 1) {
    body(0, n);
    return;
  }
  std::vector<std::thread> threads;
  for (int64_t p = 1; p < parts; ++p) threads.emplace_back(body, n * p / parts, n * (p + 1) / parts);
  body(0, n / parts);
  for (std::thread& t : threads) t.join();
}

// A bf16 element of an input buffer, widened exactly.
inline double bf16_at(const tl::Buffer& b, int64_t i) { return tl::bf16_to_float(b.as<uint16_t>()[i]); }
// The value a bf16 store of the f32 value `v` keeps.
inline double to_bf16(float v) { return tl::bf16_to_float(tl::float_to_bf16(v)); }

// A per-group scale: positive, bf16, in about [0.01, 0.11).
inline void fill_positive_scale(tl::Buffer& b, std::mt19937& gen) {
  uint16_t* v = b.as<uint16_t>();
  for (int64_t i = 0; i < b.numel(); ++i)
    v[i] = tl::float_to_bf16(0.01f + 0.1f * static_cast<float>(static_cast<uint32_t>(gen()) >> 8) * 0x1p-24f);
}

}  // namespace puzzles::examples

namespace puzzles {
// E2's and E3's size sets (e2_quant_pack.cpp): the same rows and bit widths.
std::vector<SizeSet> packed_row_sets();
}  // namespace puzzles
