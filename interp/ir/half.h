// IEEE half (f16) and bfloat16 as 16-bit storage types with exact,
// round-to-nearest-even conversions from and to float. Arithmetic on them
// is done in float and rounded back, which is exact for one + - * / sqrt.
#pragma once
#include <bit>
#include <cstdint>
#include <cmath>
#include <cstring>

namespace tl {

struct Half {
  uint16_t bits = 0;
};
struct BFloat {
  uint16_t bits = 0;
};

inline float half_to_float(uint16_t h) {
  uint32_t sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1f, man = h & 0x3ffu;
  uint32_t f;
  if (exp == 0x1f) {
    f = sign | 0x7f800000u | (man << 13);
  } else if (exp == 0) {
    if (man == 0) {
      f = sign;
    } else {  // subnormal: value = man * 2^-24
      float v = static_cast<float>(man) * 5.9604644775390625e-8f;
      return sign ? -v : v;
    }
  } else {
    f = sign | ((exp + 112) << 23) | (man << 13);
  }
  return std::bit_cast<float>(f);
}

inline uint16_t float_to_half(float v) {
  uint32_t x = std::bit_cast<uint32_t>(v);
  uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  uint32_t ax = x & 0x7fffffffu;
  if (ax >= 0x7f800000u) return sign | (ax > 0x7f800000u ? 0x7e00 : 0x7c00);  // NaN / inf
  if (ax >= 0x477ff000u) return sign | 0x7c00;  // rounds to >= 65520 -> inf
  if (ax < 0x38800000u) {                      // below 2^-14: subnormal or zero
    float a = std::bit_cast<float>(ax);
    // Scale so the subnormal unit (2^-24) becomes 1, then round to even.
    float s = a * 16777216.0f;
    uint32_t r = static_cast<uint32_t>(s);
    float frac = s - static_cast<float>(r);
    if (frac > 0.5f || (frac == 0.5f && (r & 1u))) ++r;
    return sign | static_cast<uint16_t>(r);
  }
  uint32_t mant = ax & 0x7fffffu, exp = (ax >> 23) - 112;
  uint32_t h = (exp << 10) | (mant >> 13);
  uint32_t rest = mant & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;
  return sign | static_cast<uint16_t>(h);
}

inline float bf16_to_float(uint16_t b) { return std::bit_cast<float>(static_cast<uint32_t>(b) << 16); }

inline uint16_t float_to_bf16(float v) {
  uint32_t x = std::bit_cast<uint32_t>(v);
  if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((x >> 16) | 0x40);  // quiet NaN
  uint32_t lsb = (x >> 16) & 1u;
  x += 0x7fffu + lsb;
  return static_cast<uint16_t>(x >> 16);
}

// f64 -> f16/bf16 must not round twice through f32 in the halfway cases that
// matter; going through float is exact enough except in rare ties, which we
// avoid by rounding to odd on the way down.
inline float double_to_float_odd(double d) {
  float f = static_cast<float>(d);
  if (static_cast<double>(f) != d && f == f) {
    uint32_t b = std::bit_cast<uint32_t>(f);
    // Truncate toward zero first, then force the sticky bit.
    if (std::abs(static_cast<double>(f)) > std::abs(d)) b -= 1;
    b |= 1u;
    f = std::bit_cast<float>(b);
  }
  return f;
}

}  // namespace tl
