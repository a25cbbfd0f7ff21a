#include "inputs.h"

#include <bit>
#include <cstring>
#include <random>
#include <stdexcept>

#include "half.h"

namespace puzzles {

namespace {

// Uniform in [-0.5, 0.5) from one 32-bit draw: the top 24 bits times 2^-24,
// exact in f32. No std:: distribution: their output differs between
// standard libraries, and the inputs must not.
float f32_from_draw(uint32_t r) { return static_cast<float>(r >> 8) * 0x1p-24f - 0.5f; }

void fill_tensor(tl::Buffer& b, std::mt19937& gen) {
  const int64_t n = b.numel();
  if (b.dtype() == tl::DType::bf16) {
    fill_bf16_uniform(b, gen);
  } else if (b.dtype() == tl::DType::f32) {
    float* v = b.as<float>();
    for (int64_t i = 0; i < n; ++i) v[i] = f32_from_draw(static_cast<uint32_t>(gen()));
  } else if (b.dtype() == tl::DType::i32) {
    // Packed data: the raw draw, so every nibble takes all 16 values and
    // about half of the words are negative.
    int32_t* v = b.as<int32_t>();
    for (int64_t i = 0; i < n; ++i) v[i] = std::bit_cast<int32_t>(static_cast<uint32_t>(gen()));
  } else {
    throw std::logic_error("puzzle input " + b.name() + " has a dtype the generator does not know");
  }
}

void apply_value_map(tl::Buffer& b, const ValueMap& m) {
  float* v = b.as<float>();
  // Two f32 roundings (multiply, then add), as "computed in f32" says.
  for (int64_t i = 0; i < b.numel(); ++i) {
    const float scaled = m.scale * v[i];
    v[i] = scaled + m.shift;
  }
}

tl::Buffer make_output(const TensorDecl& t, const SizeSet& set) {
  tl::Buffer b(t.name, t.dtype, t.shape(set));  // zero-filled
  if (t.zero_init) return b;
  b.fill_bits(kNeverWrittenBits);
  b.mark_unwritten();  // the sanitizer flags reads of what no program wrote
  return b;
}

}  // namespace

void fill_bf16_uniform(tl::Buffer& b, std::mt19937& gen) {
  uint16_t* v = b.as<uint16_t>();
  for (int64_t i = 0; i < b.numel(); ++i) v[i] = tl::float_to_bf16(f32_from_draw(static_cast<uint32_t>(gen())));
}

std::vector<tl::Buffer*> RunBuffers::outputs() {
  std::vector<tl::Buffer*> all{&output};
  for (tl::Buffer& b : extra_outputs) all.push_back(&b);
  return all;
}

RunBuffers make_buffers(const Puzzle& p, const SizeSet& set, uint32_t seed) {
  RunBuffers r;
  std::mt19937 gen(seed);
  r.inputs.reserve(p.inputs.size());
  for (const TensorDecl& t : p.inputs) {
    r.inputs.emplace_back(t.name, t.dtype, t.shape(set));
    if (t.fill)
      t.fill(r.inputs.back(), gen);
    else
      fill_tensor(r.inputs.back(), gen);
  }
  for (const ValueMap& m : set.value_maps)
    for (tl::Buffer& b : r.inputs)
      if (b.name() == m.input) apply_value_map(b, m);
  r.output = make_output(p.output, set);
  for (const TensorDecl& t : p.extra_outputs) r.extra_outputs.push_back(make_output(t, set));
  return r;
}

std::vector<tl::Arg> launch_args(const SizeSet& set, RunBuffers& b) {
  std::vector<tl::Arg> args;
  for (tl::Buffer& in : b.inputs) args.emplace_back(in);
  for (tl::Buffer* out : b.outputs()) args.emplace_back(*out);
  for (const Params* group : {&set.sizes, &set.constants, &set.blocks})
    for (const auto& [name, value] : group->values()) args.emplace_back(value);
  return args;
}

std::vector<std::vector<std::byte>> snapshot(const std::vector<tl::Buffer>& buffers) {
  std::vector<std::vector<std::byte>> copies;
  for (const tl::Buffer& b : buffers) copies.emplace_back(b.data(), b.data() + b.size_bytes());
  return copies;
}

std::vector<std::string> changed_buffers(const std::vector<tl::Buffer>& buffers,
                                         const std::vector<std::vector<std::byte>>& before) {
  std::vector<std::string> changed;
  for (size_t i = 0; i < buffers.size() && i < before.size(); ++i) {
    const tl::Buffer& b = buffers[i];
    if (b.size_bytes() != before[i].size() || std::memcmp(b.data(), before[i].data(), before[i].size()) != 0)
      changed.push_back(b.name());
  }
  return changed;
}

}  // namespace puzzles
