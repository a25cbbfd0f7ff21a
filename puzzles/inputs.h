// The buffers of one run: inputs drawn from a seeded generator exactly as
// PUZZLES.md §4.1 says, and the output pre-filled with a marked NaN (§4.2).
#pragma once
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "interpreter.h"
#include "puzzle.h"

namespace puzzles {

// The NaN every output element holds before a launch; an element that still
// holds it afterwards was never written.
inline constexpr uint32_t kNeverWrittenBits = 0x7FC0DEAD;

struct RunBuffers {
  std::vector<tl::Buffer> inputs;  // in parameter order, named as the puzzle names them
  tl::Buffer output;
  std::vector<tl::Buffer> extra_outputs;  // an example's other outputs, in parameter order

  // The output, then the extra outputs.
  std::vector<tl::Buffer*> outputs();
};

// A bf16 input drawn as §4.1's f32 value, rounded to nearest even.
void fill_bf16_uniform(tl::Buffer& b, std::mt19937& gen);

// Fresh inputs for (set, seed) and a NaN-filled output. Deterministic on
// every platform: std::mt19937 seeded with `seed`, drawn in parameter order,
// each tensor row-major; value-range maps of the set applied in f32.
RunBuffers make_buffers(const Puzzle& p, const SizeSet& set, uint32_t seed);

// Launch arguments in PUZZLES.md §0.4 order: input buffers, the output
// (then an example's extra outputs), runtime sizes, compile-time sizes, blocks. They point into `b`, which
// must outlive them and not move.
std::vector<tl::Arg> launch_args(const SizeSet& set, RunBuffers& b);

// A byte-for-byte copy of each buffer, to prove later that inputs were not
// written.
std::vector<std::vector<std::byte>> snapshot(const std::vector<tl::Buffer>& buffers);
// Names of the buffers whose bytes differ from the snapshot.
std::vector<std::string> changed_buffers(const std::vector<tl::Buffer>& buffers,
                                         const std::vector<std::vector<std::byte>>& before);

}  // namespace puzzles
