// What one puzzle is: its statement, tensors, size sets, kernels and the
// reference spec (PUZZLES.md §2–§3). Each p??_*.cpp file builds one Puzzle;
// the harness only ever sees this description, never a puzzle's internals.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "buffer.h"
#include "interpreter.h"
#include "kernel.h"

namespace puzzles {

// Named integers in kernel parameter order, e.g. {{"N0", 200}, {"T", 7}}.
class Params {
 public:
  Params() = default;
  Params(std::initializer_list<std::pair<std::string, int64_t>> values) : values_(values) {}

  const std::vector<std::pair<std::string, int64_t>>& values() const { return values_; }
  void add(std::string name, int64_t value) { values_.emplace_back(std::move(name), value); }
  bool has(std::string_view name) const;
  // The value named `name`; throws std::out_of_range naming it when absent,
  // which only a mistake in a puzzle definition can cause.
  int64_t operator[](std::string_view name) const;
  std::string str() const;  // "N0=200, T=7"

 private:
  std::vector<std::pair<std::string, int64_t>> values_;
};

// A value-range set replaces an input x by scale·x + shift, computed in f32
// (PUZZLES.md §4.1), before the launch; the reference sees the mapped values.
struct ValueMap {
  std::string input;
  float scale = 1.0f;
  float shift = 0.0f;
};

// One row of a size table: canonical or an extra set of PUZZLES.md §3.
struct SizeSet {
  std::string name;      // "canonical", "2a", ...
  Params sizes;          // runtime sizes (tl::Int), in parameter order
  Params constants;      // compile-time sizes that are not blocks (KH, KW)
  Params blocks;         // compile-time block sizes, in parameter order
  std::string stresses;  // what the set is meant to expose
  std::vector<ValueMap> value_maps;
  // The grid, when the §0.3 rule (N0/B0, N1/B1, N2/B2) does not apply: the
  // examples name their sizes as their workloads do (M, N, K, BM, ...).
  std::function<std::array<int64_t, 3>(const SizeSet&)> grid = nullptr;
  // A benchmark-size set: too big for the interpreter in CI, so `check`
  // runs it only when asked for by name; `check --gpu` and `bench` use it.
  bool large = false;

  // Any size, constant or block by name.
  int64_t operator[](std::string_view name) const;
};

// An input or output tensor: name, element type, and shape for a size set.
struct TensorDecl {
  std::string name;
  tl::DType dtype = tl::DType::f32;
  std::function<std::vector<int64_t>(const SizeSet&)> shape;
  // Inputs: how to draw the values when §4.1's default (f32/bf16 uniform in
  // [-0.5, 0.5), i32 raw draws) does not fit, e.g. a positive scale.
  std::function<void(tl::Buffer&, std::mt19937&)> fill = nullptr;
  // Outputs: start at zero instead of the never-written NaN (a kernel that
  // accumulates with atomic_add into a zeroed buffer).
  bool zero_init = false;
  // Extra outputs: their own threshold; negative means the puzzle's.
  double tolerance = -1;
};

// The reference of every extra output, in the order of Puzzle::extra_outputs.
using ExtraReferenceFn =
    std::function<std::vector<std::vector<double>>(const SizeSet&, const std::vector<tl::Buffer>& inputs)>;

// The reference output of one run in f64, row-major over the output shape,
// computed from the exact input values (PUZZLES.md §4.3).
using ReferenceFn = std::function<std::vector<double>(const SizeSet&, const std::vector<tl::Buffer>& inputs)>;

struct Puzzle {
  int number = 0;
  std::string id;         // "add_block"
  std::string title;      // "Constant Add Block"
  std::string statement;  // learner-facing text: statement, math, parameters
  double tolerance = 0;   // threshold on the normwise relative error
  std::vector<TensorDecl> inputs;
  TensorDecl output;
  // For each output dimension, the grid axis whose programs tile it, or -1;
  // with the blocks B0/B1/B2 this gives each element's owner program.
  std::vector<int> output_axes;
  std::vector<SizeSet> sets;  // sets[0] is the canonical set
  const tl::KernelDef* solution = nullptr;
  const tl::KernelDef* stub = nullptr;
  ReferenceFn reference;

  // Examples (EXAMPLES.md) reuse this description; they differ in that
  // they have no number, no learner stub (stub == solution), may write
  // several outputs, and may name their own grid and owner rule.
  bool example = false;
  std::vector<TensorDecl> extra_outputs;  // written too; parameters right after `output`
  ExtraReferenceFn extra_reference;
  // The owner of an element of any output by its index; null: output_axes.
  std::function<std::array<int64_t, 3>(const SizeSet&, const std::vector<int64_t>& index)> owner;

  // "puzzle 7" or "example e1_v2", for reports.
  std::string label() const;
};

// The grid by the rule of PUZZLES.md §0.3: (cdiv(N0,B0), cdiv(N1,B1),
// cdiv(N2,B2)), where a size/block pair the set lacks contributes 1.
tl::Grid grid_for(const SizeSet& set);

// The program expected to write the output element at `index` (§0.3).
std::array<int64_t, 3> owner_of(const Puzzle& p, const SizeSet& set, const std::vector<int64_t>& index);

// A shape given by size names, e.g. dims({"N1", "N0"}) for [N1, N0].
std::function<std::vector<int64_t>(const SizeSet&)> dims(std::vector<std::string> names);

// Row-major helpers shared by the reference specs.
int64_t numel(const std::vector<int64_t>& shape);
std::vector<int64_t> unravel(int64_t flat, const std::vector<int64_t>& shape);

}  // namespace puzzles
