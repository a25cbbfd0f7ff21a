#include "registry.h"

#include <charconv>

#include "examples/example_defs.h"
#include "puzzle_defs.h"

namespace puzzles {

const std::vector<Puzzle>& all_puzzles() {
  static const std::vector<Puzzle> list = [] {
    std::vector<Puzzle> v;
    v.push_back(make_add());
    v.push_back(make_add_block());
    v.push_back(make_outer_add());
    v.push_back(make_outer_add_block());
    v.push_back(make_outer_mul_relu());
    v.push_back(make_outer_mul_relu_backward());
    v.push_back(make_long_sum());
    v.push_back(make_long_softmax());
    v.push_back(make_flash_attention());
    v.push_back(make_conv2d());
    v.push_back(make_batched_matmul());
    v.push_back(make_quant_matmul());
    return v;
  }();
  return list;
}

const std::vector<Puzzle>& all_examples() {
  static const std::vector<Puzzle> list = [] {
    std::vector<Puzzle> v;
    v.push_back(make_e1_two_accumulators());
    v.push_back(make_e1_interleaved());
    v.push_back(make_e2_quant_pack());
    v.push_back(make_e3_dequant_unpack());
    v.push_back(make_e4_fused());
    v.push_back(make_e4_split_k());
    v.push_back(make_e4_rows());
    v.push_back(make_e5_relu_forward());
    v.push_back(make_e5_relu_backward());
    v.push_back(make_e6_split_k_semaphore());
    v.push_back(make_e7_last_program_reduces());
    return v;
  }();
  return list;
}

const Puzzle* find_puzzle(std::string_view key) {
  const auto& list = all_puzzles();
  for (const Puzzle& p : list)
    if (p.id == key) return &p;
  for (const Puzzle& e : all_examples())
    if (e.id == key) return &e;
  // A number, optionally written "p07" / "P7".
  std::string_view digits = key;
  if (!digits.empty() && (digits.front() == 'p' || digits.front() == 'P')) digits.remove_prefix(1);
  int number = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), number);
  if (ec != std::errc{} || end != digits.data() + digits.size() || digits.empty()) return nullptr;
  for (const Puzzle& p : list)
    if (p.number == number) return &p;
  return nullptr;
}

}  // namespace puzzles
