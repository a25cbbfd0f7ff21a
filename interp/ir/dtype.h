// Element types of tiles and buffers, and the facts about them that every
// layer needs (width, kind, signedness, names).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tl {

enum class DType : uint8_t { i1, i8, i16, i32, i64, u8, u16, u32, u64, f16, bf16, f32, f64 };
inline constexpr int kNumDTypes = 13;

constexpr int bit_width(DType t) {
  switch (t) {
    case DType::i1: return 1;
    case DType::i8: case DType::u8: return 8;
    case DType::i16: case DType::u16: case DType::f16: case DType::bf16: return 16;
    case DType::i32: case DType::u32: case DType::f32: return 32;
    case DType::i64: case DType::u64: case DType::f64: return 64;
  }
  return 0;
}
// Bytes one element occupies in memory (i1 takes a whole byte).
constexpr int byte_size(DType t) { return t == DType::i1 ? 1 : bit_width(t) / 8; }
constexpr bool is_float(DType t) { return t == DType::f16 || t == DType::bf16 || t == DType::f32 || t == DType::f64; }
constexpr bool is_int(DType t) { return !is_float(t); }  // i1 included
constexpr bool is_signed_int(DType t) {
  return t == DType::i8 || t == DType::i16 || t == DType::i32 || t == DType::i64;
}
constexpr bool is_unsigned_int(DType t) { return is_int(t) && !is_signed_int(t); }  // i1 is unsigned
// Mantissa bits (explicit) of a float type, used by "more mantissa wins".
constexpr int mantissa_bits(DType t) {
  switch (t) {
    case DType::f16: return 10;
    case DType::bf16: return 7;
    case DType::f32: return 23;
    case DType::f64: return 52;
    default: return 0;
  }
}

std::string_view name(DType t);
std::optional<DType> parse_dtype(std::string_view s);
// The integer type of the given width and signedness (width 8/16/32/64).
DType int_type(int bits, bool is_signed);

// Short aliases so kernels can write tl::f32 etc.
inline constexpr DType i1 = DType::i1, i8 = DType::i8, i16 = DType::i16, i32 = DType::i32,
                       i64 = DType::i64, u8 = DType::u8, u16 = DType::u16, u32 = DType::u32,
                       u64 = DType::u64, f16 = DType::f16, bf16 = DType::bf16,
                       f32 = DType::f32, f64 = DType::f64;

}  // namespace tl
