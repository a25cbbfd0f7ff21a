// Triton's random numbers: philox, randint4x, randint, rand, rand4x, randn,
// randn4x, uint_to_uniform_float, pair_uniform_to_normal.
//
// Counter-based Philox (Salmon et al., "Parallel random numbers: as easy as
// 1, 2, 3", SC 2011): Philox4x32 for 32-bit counters, Philox4x64 for 64-bit
// ones, keyed by the seed, with the round and key constants, the counter
// layout (offset, 0, 0, 0) and the uint -> float conversion of Triton's
// random module. Built from the semantic layer's integer ops (umulhi, *, ^,
// +, casts), so both back ends compute exactly these bits, and every op
// carries the caller's location. randn goes through log, sqrt, cos and sin
// (Box-Muller): it matches Triton within those functions' ulp bounds.
#include "builder.h"

namespace tl {
using detail::Builder;
using detail::loc_of;

namespace {

struct PhiloxConstants {
  uint64_t mul_a, mul_b, key_a, key_b;
};
constexpr PhiloxConstants kPhilox32{0xD2511F53u, 0xCD9E8D57u, 0x9E3779B9u, 0xBB67AE85u};
constexpr PhiloxConstants kPhilox64{0xD2E7470EE14C6C93ull, 0xCA5A826395121157ull, 0x9E3779B97F4A7C15ull,
                                    0xBB67AE8584CAA73Bull};

int counter_bits(Builder& b, const Tensor& t, const SrcLoc& loc, const char* what) {
  const ir::Type ty = b.type(t.reg());
  const DType d = ty.dtype;
  if (ty.is_ptr || !(d == DType::i32 || d == DType::u32 || d == DType::i64 || d == DType::u64))
    b.fail(loc, std::string(what) + " must be 32- or 64-bit integers, got " + ty.str());
  return bit_width(d);
}

Tensor4 rounds(Tensor4 c, Tensor k0, Tensor k1, int n_rounds, const PhiloxConstants& k) {
  for (int r = 0; r < n_rounds; ++r) {
    Tensor old0 = c[0], old2 = c[2];
    c[0] = umulhi(k.mul_b, old2) ^ c[1] ^ k0;
    c[2] = umulhi(k.mul_a, old0) ^ c[3] ^ k1;
    c[1] = k.mul_b * old2;
    c[3] = k.mul_a * old0;
    k0 = k0 + k.key_a;
    k1 = k1 + k.key_b;
  }
  return c;
}

void check_rounds(Builder& b, int n_rounds, const SrcLoc& loc) {
  if (n_rounds < 0) b.fail(loc, "n_rounds must be >= 0, got " + std::to_string(n_rounds));
}

}  // namespace

Tensor4 philox(const Operand& seed, const Operand& c0, const Operand& c1, const Operand& c2, const Operand& c3,
               int n_rounds, std::source_location l) {
  const SrcLoc loc = loc_of(l);
  detail::LocOverride here(loc);
  Builder& b = Builder::current(loc);
  check_rounds(b, n_rounds, loc);
  Tensor s = scalar(seed);
  const ir::Type st = b.type(s.reg());
  if (st.is_ptr || is_float(st.dtype)) b.fail(loc, "the seed must be an integer, got " + st.str());
  // As Triton: the seed widened to 64 bits (sign-extended when signed), its bits as uint64.
  s = is_signed_int(st.dtype) ? s.to(DType::i64).to(DType::u64, true) : s.to(DType::u64);
  Tensor4 c{scalar(c0), scalar(c1), scalar(c2), scalar(c3)};
  const int bits = counter_bits(b, c[0], loc, "philox's counters");
  for (const Tensor& t : c)
    if (counter_bits(b, t, loc, "philox's counters") != bits)
      b.fail(loc, "philox's four counters must have one width, got " + b.type(c[0].reg()).str() + " and " +
                      b.type(t.reg()).str());
  const DType u = bits == 32 ? DType::u32 : DType::u64;
  for (Tensor& t : c) t = t.to(u, true);
  if (bits == 32)
    return rounds(c, (s & 0xFFFFFFFFu).to(u), ((s >> 32) & 0xFFFFFFFFu).to(u), n_rounds, kPhilox32);
  return rounds(c, s, scalar(0).to(u), n_rounds, kPhilox64);
}

Tensor4 randint4x(const Operand& seed, const Operand& offset, int n_rounds, std::source_location l) {
  const SrcLoc loc = loc_of(l);
  detail::LocOverride here(loc);
  Tensor off = scalar(offset);
  counter_bits(Builder::current(loc), off, loc, "the offsets");
  Tensor zero = off * 0;
  return philox(seed, off, zero, zero, zero, n_rounds);
}

Tensor randint(const Operand& seed, const Operand& offset, int n_rounds, std::source_location l) {
  return randint4x(seed, offset, n_rounds, l)[0];
}

Tensor uint_to_uniform_float(const Tensor& x, std::source_location l) {
  const SrcLoc loc = loc_of(l);
  detail::LocOverride here(loc);
  const int bits = counter_bits(Builder::current(loc), x, loc, "uint_to_uniform_float's input");
  // The bits as a signed integer, folded onto [0, 2^(bits-1)) by -x - 1, times
  // the largest scale with (2^(bits-1) - 1) * scale < 1 in float rounding.
  Tensor s = x.to(bits == 32 ? DType::i32 : DType::i64, true);
  s = where(s < 0, -s - 1, s);
  return bits == 32 ? s * 4.6566127342e-10 : s * 1.0842020432385337e-19;
}

Tensor rand(const Operand& seed, const Operand& offset, int n_rounds, std::source_location l) {
  return uint_to_uniform_float(randint(seed, offset, n_rounds, l), l);
}

Tensor4 rand4x(const Operand& seed, const Operand& offset, int n_rounds, std::source_location l) {
  Tensor4 i = randint4x(seed, offset, n_rounds, l);
  return {uint_to_uniform_float(i[0], l), uint_to_uniform_float(i[1], l), uint_to_uniform_float(i[2], l),
          uint_to_uniform_float(i[3], l)};
}

std::array<Tensor, 2> pair_uniform_to_normal(const Tensor& u1, const Tensor& u2, std::source_location l) {
  detail::LocOverride here(loc_of(l));
  Tensor a = maximum(1.0e-7, u1);
  Tensor th = 6.283185307179586 * u2;
  Tensor r = sqrt(-2.0 * log(a));
  return {r * cos(th), r * sin(th)};
}

Tensor randn(const Operand& seed, const Operand& offset, int n_rounds, std::source_location l) {
  Tensor4 i = randint4x(seed, offset, n_rounds, l);
  return pair_uniform_to_normal(uint_to_uniform_float(i[0], l), uint_to_uniform_float(i[1], l), l)[0];
}

Tensor4 randn4x(const Operand& seed, const Operand& offset, int n_rounds, std::source_location l) {
  Tensor4 u = rand4x(seed, offset, n_rounds, l);
  auto [n1, n2] = pair_uniform_to_normal(u[0], u[1], l);
  auto [n3, n4] = pair_uniform_to_normal(u[2], u[3], l);
  return {n1, n2, n3, n4};
}

}  // namespace tl
