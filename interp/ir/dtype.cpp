#include "dtype.h"

namespace tl {

namespace {
constexpr std::string_view kNames[kNumDTypes] = {"i1",  "i8",  "i16", "i32",  "i64", "u8", "u16",
                                                  "u32", "u64", "f16", "bf16", "f32", "f64"};
}

std::string_view name(DType t) { return kNames[static_cast<int>(t)]; }

std::optional<DType> parse_dtype(std::string_view s) {
  for (int i = 0; i < kNumDTypes; ++i)
    if (kNames[i] == s) return static_cast<DType>(i);
  return std::nullopt;
}

DType int_type(int bits, bool is_signed) {
  switch (bits) {
    case 8: return is_signed ? DType::i8 : DType::u8;
    case 16: return is_signed ? DType::i16 : DType::u16;
    case 32: return is_signed ? DType::i32 : DType::u32;
    default: return is_signed ? DType::i64 : DType::u64;
  }
}

}  // namespace tl
