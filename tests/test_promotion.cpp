// Type promotion (SEMANTICS §1, §2): literals typed by value and weak
// against tiles, 0-d tensors promoting like tiles, the tile ⊕ tile table,
// where/maximum/truediv, and the combinations that are build errors.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "error.h"
#include "interpreter.h"
#include "tl.h"

namespace {

using tl::DType;
using Expr = std::function<tl::Tensor()>;

std::function<void()> g_body;
void body_kernel(tl::Ptr) { g_body(); }

// Builds a kernel whose body is `f` and returns the dtype of its value.
DType dtype_of(const Expr& f) {
  DType got = DType::i1;
  g_body = [&] { got = f().dtype(); };
  tl::KernelDef k("probe", body_kernel);
  k.specialize(tl::Specialization{{DType::f32}, {0}});
  return got;
}

bool build_fails(const Expr& f) {
  g_body = [&] { (void)f(); };
  tl::KernelDef k("probe", body_kernel);
  try {
    k.specialize(tl::Specialization{{DType::f32}, {0}});
  } catch (const tl::BuildError&) {
    return true;
  }
  return false;
}

// A 1-D tile (`tile`) or a 0-d tensor (`zero_d`) of dtype d.
tl::Tensor tile(DType d) { return tl::full({4}, 1, d); }
tl::Tensor zero_d(DType d) { return tl::full({}, 1, d); }

// Stores `f()` (any dtype, converted) into an f64 buffer of 4 elements and
// returns the values: observing a result beyond its dtype.
std::function<void(const tl::Ptr&)> g_out_body;
void out_kernel(tl::Ptr out) { g_out_body(out); }

std::vector<double> values_of(const Expr& f) {
  g_out_body = [&](const tl::Ptr& out) { tl::store(out + tl::arange(0, 4), f().to(tl::f64)); };
  tl::Buffer out("out", DType::f64, {4});
  tl::KernelDef k("values", out_kernel);
  tl::run(k, {}, {out});
  return {out.get(0), out.get(1), out.get(2), out.get(3)};
}

// A tile holding v (converted to d, per §5).
tl::Tensor tv(DType d, double v) { return tl::full({4}, v, d); }

}  // namespace

TEST_CASE("a tile beats a literal of the same or a lower kind") {
  CHECK(dtype_of([] { return tile(DType::u8) + 1; }) == DType::u8);
  CHECK(dtype_of([] { return 1 + tile(DType::u8); }) == DType::u8);
  CHECK(dtype_of([] { return tile(DType::u8) * 2; }) == DType::u8);
  CHECK(dtype_of([] { return tile(DType::u8) + true; }) == DType::u8);
  CHECK(dtype_of([] { return tile(DType::i8) - 1; }) == DType::i8);
  CHECK(dtype_of([] { return tile(DType::i64) + 1; }) == DType::i64);
  CHECK(dtype_of([] { return tile(DType::u64) + 1; }) == DType::u64);
  CHECK(dtype_of([] { return tile(DType::f16) * 2.0; }) == DType::f16);
  CHECK(dtype_of([] { return tile(DType::f16) + 1; }) == DType::f16);
  CHECK(dtype_of([] { return tile(DType::bf16) - 1; }) == DType::bf16);
  CHECK(dtype_of([] { return tile(DType::f16) + 1e-40; }) == DType::f16);  // an f64 literal is still weak
  CHECK(dtype_of([] { return tile(DType::f32) * 1e300; }) == DType::f32);
  CHECK(dtype_of([] { return tile(DType::f32) + true; }) == DType::f32);
}

TEST_CASE("a literal's type comes from its value, not its C++ type") {
  CHECK(dtype_of([] { return tile(DType::u8) + int64_t{1}; }) == DType::u8);
  CHECK(dtype_of([] { return tile(DType::u8) + 1u; }) == DType::u8);
  CHECK(dtype_of([] { return tile(DType::u32) + 3000000000; }) == DType::u32);
  CHECK(dtype_of([] { return tile(DType::i64) + 3000000000; }) == DType::i64);
  CHECK(dtype_of([] { return tl::scalar(1); }) == DType::i32);
  CHECK(dtype_of([] { return tl::scalar(int64_t{7}); }) == DType::i32);
  CHECK(dtype_of([] { return tl::scalar(3000000000); }) == DType::u32);
  CHECK(dtype_of([] { return tl::scalar(int64_t{-3000000000}); }) == DType::i64);
  CHECK(dtype_of([] { return tl::scalar(uint64_t{1} << 63); }) == DType::u64);
  CHECK(dtype_of([] { return tl::scalar(true); }) == DType::i1);
  CHECK(dtype_of([] { return tl::scalar(1.0); }) == DType::f32);
  CHECK(dtype_of([] { return tl::scalar(0.5f); }) == DType::f32);
  CHECK(dtype_of([] { return tl::scalar(0.0); }) == DType::f32);
  CHECK(dtype_of([] { return tl::scalar(std::numeric_limits<double>::infinity()); }) == DType::f32);
  CHECK(dtype_of([] { return tl::scalar(1e-40); }) == DType::f64);
  CHECK(dtype_of([] { return tl::scalar(1e300); }) == DType::f64);
}

TEST_CASE("a literal of a higher kind promotes through the table") {
  CHECK(dtype_of([] { return tile(DType::i16) + 4.0; }) == DType::f32);
  CHECK(dtype_of([] { return tile(DType::i64) + 1.0; }) == DType::f32);  // not f64
  CHECK(dtype_of([] { return tile(DType::u8) + 0.5f; }) == DType::f32);
  CHECK(dtype_of([] { return tile(DType::i64) + 1e-40; }) == DType::f64);
  CHECK(dtype_of([] { return tile(DType::i32) * 1e300; }) == DType::f64);
  CHECK(dtype_of([] { return tile(DType::i1) + 1; }) == DType::i32);
  CHECK(dtype_of([] { return tile(DType::i1) + 1.0; }) == DType::f32);
}

TEST_CASE("division and remainder of f16 and bf16 give f32") {
  CHECK(dtype_of([] { return tile(DType::f16) / 2; }) == DType::f32);
  CHECK(dtype_of([] { return tile(DType::f16) / 2.0; }) == DType::f32);
  CHECK(dtype_of([] { return tile(DType::bf16) / 2; }) == DType::f32);
  CHECK(dtype_of([] { return tile(DType::f16) % 2.0; }) == DType::f32);
  CHECK(dtype_of([] { return tile(DType::f16) / tile(DType::f16); }) == DType::f32);
  CHECK(dtype_of([] { return tile(DType::bf16) / tile(DType::bf16); }) == DType::f32);
  CHECK(dtype_of([] { return tile(DType::bf16) % tile(DType::bf16); }) == DType::f32);
  CHECK(dtype_of([] { return tile(DType::f32) / tile(DType::f16); }) == DType::f32);
  CHECK(dtype_of([] { return tile(DType::f64) / 2; }) == DType::f64);
  CHECK(dtype_of([] { return tile(DType::f64) / tile(DType::f32); }) == DType::f64);
  CHECK(dtype_of([] { return tile(DType::f16) * 2; }) == DType::f16);  // only / and % widen
}

TEST_CASE("tile with tile: floats by the first matching row") {
  CHECK(dtype_of([] { return tile(DType::f64) + tile(DType::f16); }) == DType::f64);
  CHECK(dtype_of([] { return tile(DType::i64) + tile(DType::f64); }) == DType::f64);
  CHECK(dtype_of([] { return tile(DType::f32) + tile(DType::bf16); }) == DType::f32);
  CHECK(dtype_of([] { return tile(DType::i64) * tile(DType::f32); }) == DType::f32);
  CHECK(dtype_of([] { return tile(DType::f16) + tile(DType::bf16); }) == DType::f16);
  CHECK(dtype_of([] { return tile(DType::bf16) + tile(DType::f16); }) == DType::f16);
  CHECK(dtype_of([] { return tile(DType::f16) + tile(DType::i64); }) == DType::f16);
  CHECK(dtype_of([] { return tile(DType::bf16) + tile(DType::bf16); }) == DType::bf16);
  CHECK(dtype_of([] { return tile(DType::bf16) + tile(DType::i32); }) == DType::f32);
  CHECK(dtype_of([] { return tile(DType::i8) * tile(DType::bf16); }) == DType::f32);
}

TEST_CASE("tile with tile: integers of the same signedness take the wider") {
  CHECK(dtype_of([] { return tile(DType::i8) + tile(DType::i16); }) == DType::i16);
  CHECK(dtype_of([] { return tile(DType::i64) - tile(DType::i32); }) == DType::i64);
  CHECK(dtype_of([] { return tile(DType::u8) + tile(DType::u16); }) == DType::u16);
  CHECK(dtype_of([] { return tile(DType::u64) * tile(DType::u32); }) == DType::u64);
  CHECK(dtype_of([] { return tile(DType::i1) + tile(DType::u8); }) == DType::u8);
}

TEST_CASE("tile with tile: mixed signedness takes the unsigned one if at least as wide") {
  CHECK(dtype_of([] { return tile(DType::i32) + tile(DType::u32); }) == DType::u32);
  CHECK(dtype_of([] { return tile(DType::u32) + tile(DType::i32); }) == DType::u32);
  CHECK(dtype_of([] { return tile(DType::u8) + tile(DType::i8); }) == DType::u8);
  CHECK(dtype_of([] { return tile(DType::u64) + tile(DType::i8); }) == DType::u64);
  CHECK(dtype_of([] { return tile(DType::i64) + tile(DType::u32); }) == DType::i64);
  CHECK(dtype_of([] { return tile(DType::u16) + tile(DType::i32); }) == DType::i32);
  CHECK(dtype_of([] { return tile(DType::i1) + tile(DType::i8); }) == DType::i8);
}

TEST_CASE("0-d tensors promote like tiles, not like literals") {
  CHECK(dtype_of([] { return tile(DType::i8) + tl::program_id(0); }) == DType::i32);
  CHECK(dtype_of([] { return tile(DType::u8) + tl::program_id(0); }) == DType::i32);
  CHECK(dtype_of([] { return tile(DType::u32) + tl::program_id(0); }) == DType::u32);
  CHECK(dtype_of([] { return tile(DType::f16) + zero_d(DType::f32); }) == DType::f32);  // literal 2.0 would keep f16
  CHECK(dtype_of([] { return tile(DType::i64) * zero_d(DType::f16); }) == DType::f16);
  CHECK(dtype_of([] { return zero_d(DType::i64) + tile(DType::u32); }) == DType::i64);
  CHECK(dtype_of([] { return tl::program_id(0) * 32 + tl::arange(0, 32); }) == DType::i32);
  CHECK(dtype_of([] { return tl::sum(tile(DType::i8)) + tile(DType::i16); }) == DType::i32);
}

TEST_CASE("a runtime i32 scalar promotes an i8 tile to i32") {
  static DType got = DType::i1;
  struct K {
    static void kernel(tl::Ptr out, tl::Int n) {
      auto x = tl::full({4}, 100, tl::i8) + n;
      got = x.dtype();
      tl::store(out + tl::arange(0, 4), x);
    }
  };
  tl::Buffer out("out", DType::i32, {4});
  tl::KernelDef k("i8_plus_n", &K::kernel);
  tl::run(k, {}, {out, 100});
  CHECK(got == DType::i32);
  CHECK(out.get(0) == 200);  // no i8 wrap
}

TEST_CASE("comparisons give i1 after promoting like arithmetic") {
  CHECK(dtype_of([] { return tile(DType::f16) < 2.5; }) == DType::i1);
  CHECK(dtype_of([] { return tile(DType::i32) == tile(DType::u32); }) == DType::i1);
  CHECK(dtype_of([] { return tl::program_id(0) >= 0; }) == DType::i1);
}

TEST_CASE("where, maximum, minimum and fma promote their value operands") {
  CHECK(dtype_of([] { return tl::where(tile(DType::i32) > 0, tile(DType::f16), 0.0); }) == DType::f16);
  CHECK(dtype_of([] { return tl::where(tile(DType::i32) > 0, tile(DType::i32), 0.5); }) == DType::f32);
  CHECK(dtype_of([] { return tl::where(tile(DType::i32) > 0, tile(DType::u8), 1); }) == DType::u8);
  CHECK(dtype_of([] { return tl::where(tile(DType::i32) > 0, tile(DType::i8), tile(DType::i16)); }) == DType::i16);
  CHECK(dtype_of([] { return tl::maximum(tile(DType::i8), tile(DType::i32)); }) == DType::i32);
  // maximum/minimum make a literal a 0-d tensor of its own type (Triton's
  // to_tensor), so it promotes like a tile: recorded with Triton 3.6
  // (tests/fidelity lit_maximum_*).
  CHECK(dtype_of([] { return tl::maximum(tile(DType::i8), 2); }) == DType::i32);
  CHECK(dtype_of([] { return tl::maximum(tile(DType::u16), 2); }) == DType::i32);
  CHECK(dtype_of([] { return tl::maximum(tile(DType::bf16), 2); }) == DType::f32);
  CHECK(dtype_of([] { return tl::maximum(tile(DType::f16), 2); }) == DType::f16);
  CHECK(dtype_of([] { return tl::minimum(tile(DType::f16), 1.0); }) == DType::f32);
  CHECK(dtype_of([] { return tl::minimum(tile(DType::i64), 1); }) == DType::i64);
  CHECK(dtype_of([] { return tl::fma(tile(DType::f16), tile(DType::f16), tile(DType::f32)); }) == DType::f32);
}

TEST_CASE("truediv goes to f32 for integers, else the float with more mantissa") {
  CHECK(dtype_of([] { return tl::truediv(tile(DType::i32), tile(DType::i32)); }) == DType::f32);
  CHECK(dtype_of([] { return tl::truediv(tile(DType::i64), tile(DType::i64)); }) == DType::f32);
  CHECK(dtype_of([] { return tl::truediv(tile(DType::u8), 2); }) == DType::f32);
  CHECK(dtype_of([] { return tl::truediv(tile(DType::f64), tile(DType::i32)); }) == DType::f64);
  CHECK(dtype_of([] { return tl::truediv(tile(DType::f16), tile(DType::i32)); }) == DType::f32);
  CHECK(dtype_of([] { return tile(DType::i32) / 2; }) == DType::i32);  // integer `/` stays integer
  CHECK(dtype_of([] { return tile(DType::i64) / tile(DType::i32); }) == DType::i64);
  CHECK(dtype_of([] { return tile(DType::u8) / 1; }) == DType::u8);
  CHECK(dtype_of([] { return tile(DType::i32) / 2.0; }) == DType::f32);
}

TEST_CASE("promoted values: mixed signedness wraps in the promoted type") {
  // i32 -5 + u32 3 in u32: 2^32 - 2.
  CHECK(values_of([] { return tv(DType::i32, -5) + tv(DType::u32, 3); })[0] == 4294967294.0);
  // i64 -5 + u32 3 in i64: -2.
  CHECK(values_of([] { return tv(DType::i64, -5) + tv(DType::u32, 3); })[0] == -2.0);
  // u8 255 + 1 stays u8 and wraps.
  CHECK(values_of([] { return tv(DType::u8, 255) + 1; })[0] == 0.0);
  // i1 true + 1 is i32 2.
  CHECK(values_of([] { return (tl::arange(0, 4) >= 0) + 1; })[0] == 2.0);
  // i8 100 + i32 0-d 100 is 200, not wrapped.
  CHECK(values_of([] { return tv(DType::i8, 100) + zero_d(DType::i32) * 100; })[0] == 200.0);
  // i16 1 + 0.5 is f32 1.5.
  CHECK(values_of([] { return tv(DType::i16, 1) + 0.5; })[0] == 1.5);
}

TEST_CASE("promoted values: f16 + bf16 rounds in f16, bf16 + i32 computes in f32") {
  // 1 + 2^-11 ties to 1.0 in f16; in f32 it would be exact.
  CHECK(values_of([] { return tv(DType::f16, 1.0) + tv(DType::bf16, std::ldexp(1.0, -11)); })[0] == 1.0);
  // 256 + 1 is 257 in f32 (bf16 would give 256).
  CHECK(values_of([] { return tv(DType::bf16, 256) + tl::full({4}, 1, tl::i32); })[0] == 257.0);
  // f16 * 2.0 stays f16: 40000 * 2 overflows to inf.
  CHECK(std::isinf(values_of([] { return tv(DType::f16, 40000) * 2.0; })[0]));
  // f16 / 2 is f32: 1 / 3 has f32 precision.
  CHECK(values_of([] { return tv(DType::f16, 1) / 3; })[0] == static_cast<double>(1.0f / 3.0f));
}

TEST_CASE("an integer literal must fit the promoted type") {
  CHECK(build_fails([] { return tile(DType::u8) + 300; }));
  CHECK(build_fails([] { return tile(DType::u8) + (-1); }));
  CHECK(build_fails([] { return tile(DType::u32) - (-1); }));
  CHECK(build_fails([] { return tile(DType::i8) + 128; }));
  CHECK(build_fails([] { return tile(DType::i32) + 2147483648; }));
  CHECK(build_fails([] { return tile(DType::i16) * 40000; }));
  CHECK_FALSE(build_fails([] { return tile(DType::u8) + 255; }));
  CHECK_FALSE(build_fails([] { return tile(DType::i8) + (-128); }));
  CHECK_FALSE(build_fails([] { return tile(DType::i32) + (-2147483647 - 1); }));
}

TEST_CASE("integer division or remainder of mixed signedness is an error") {
  CHECK(build_fails([] { return tile(DType::i32) / tile(DType::u32); }));
  CHECK(build_fails([] { return tile(DType::u32) % tile(DType::i32); }));
  CHECK(build_fails([] { return tile(DType::i64) / tile(DType::u8); }));
  CHECK_FALSE(build_fails([] { return tile(DType::i32) + tile(DType::u32); }));
  CHECK_FALSE(build_fails([] { return tile(DType::u32) / tile(DType::u8); }));
}
