// tl:: random numbers: randint4x, randint and rand against a reference
// Philox4x32-10 written here from its definition (Salmon et al., SC 2011),
// checked first on Random123's known-answer vectors; rand's uint -> float
// mapping as Triton's (bits as i32, x < 0 folded to -x - 1, times
// 4.6566127342e-10 in f32). Bit for bit.
#include <catch2/catch.hpp>
#include <array>
#include <cstdint>
#include <functional>

#include "interpreter.h"
#include "tl.h"

namespace {

using U4 = std::array<uint32_t, 4>;

U4 philox_ref(uint64_t seed, U4 c, int rounds = 10) {
  uint32_t k0 = static_cast<uint32_t>(seed), k1 = static_cast<uint32_t>(seed >> 32);
  for (int r = 0; r < rounds; ++r) {
    const uint64_t pa = uint64_t{0xD2511F53u} * c[0], pb = uint64_t{0xCD9E8D57u} * c[2];
    c = {static_cast<uint32_t>(pb >> 32) ^ c[1] ^ k0, static_cast<uint32_t>(pb),
         static_cast<uint32_t>(pa >> 32) ^ c[3] ^ k1, static_cast<uint32_t>(pa)};
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  return c;
}

float uniform_ref(uint32_t u) {
  int64_t x = static_cast<int32_t>(u);
  if (x < 0) x = -x - 1;
  return static_cast<float>(x) * 4.6566127342e-10f;
}

std::function<void(tl::Ptr, tl::Ptr, tl::Int)> g_body;
void kernel(tl::Ptr out, tl::Ptr uni, tl::Int seed) { g_body(out, uni, seed); }

}  // namespace

TEST_CASE("random: the reference Philox4x32-10 gives Random123's known answers", "[random]") {
  CHECK(philox_ref(0, {0, 0, 0, 0}) == U4{0x6627E8D5u, 0xE169C58Du, 0xBC57AC4Cu, 0x9B00DBD8u});
  CHECK(philox_ref(~uint64_t{0}, {~0u, ~0u, ~0u, ~0u}) == U4{0x408F276Du, 0x41C83B0Eu, 0xA20BC7C6u, 0x6D5451FDu});
}

TEST_CASE("random: randint4x, randint and rand match the reference bit for bit", "[random]") {
  constexpr int B = 64, P = 2;
  g_body = [](tl::Ptr out, tl::Ptr uni, tl::Int seed) {
    auto offs = tl::program_id(0) * B + tl::arange(0, B);
    tl::Tensor4 r = tl::randint4x(seed, offs);
    for (int k = 0; k < 4; ++k) tl::store(out + offs + k * P * B, r[k]);
    tl::store(out + offs + 4 * P * B, tl::randint(seed, offs));
    tl::store(uni + offs, tl::rand(seed, offs));
  };
  for (int32_t seed : {0, 42, -7}) {
    tl::Buffer out("out", tl::DType::u32, {5 * P * B}), uni("uni", tl::DType::f32, {P * B});
    tl::KernelDef k("random", kernel, {"out", "uni", "seed"});
    tl::RunResult res = tl::run(k, {P}, {out, uni, int64_t{seed}}, tl::RunOptions{});
    REQUIRE(res.findings.empty());
    for (int i = 0; i < P * B; ++i) {
      const U4 want = philox_ref(static_cast<uint64_t>(static_cast<int64_t>(seed)), {static_cast<uint32_t>(i), 0, 0, 0});
      for (int j = 0; j < 4; ++j) CHECK(static_cast<uint32_t>(out.get(j * P * B + i)) == want[j]);
      CHECK(static_cast<uint32_t>(out.get(4 * P * B + i)) == want[0]);
      CHECK(static_cast<float>(uni.get(i)) == uniform_ref(want[0]));
    }
  }
}
