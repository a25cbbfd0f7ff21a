// Casts: bitcast between equal widths (and the width error),
// fp_downcast_rounding "rtne" (default) and "rtz" for f32 -> f16/bf16 and
// f64 -> f32, and its errors.
#include <catch2/catch.hpp>
#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "build_error_fixture.h"
#include "error.h"
#include "findings.h"
#include "half.h"
#include "interpreter.h"
#include "tl.h"

namespace {

using build_error_fixture::check_error;
using build_error_fixture::g_line;
using build_error_fixture::specialize_error;
using tl::DType;

struct P {
  const tl::Ptr& x;
  const tl::Ptr& y;
};
std::function<void(const P&)> g_body;
void kernel(tl::Ptr x, tl::Ptr y) { g_body(P{x, y}); }

void launch(std::function<void(const P&)> fn, tl::Buffer& x, tl::Buffer& y) {
  g_body = std::move(fn);
  tl::KernelDef k("casts", kernel, {"x", "y"});
  tl::run(k, {}, {x, y});
}

std::optional<tl::BuildError> build_error(std::function<void(const P&)> fn, DType x = DType::f32) {
  g_body = std::move(fn);
  tl::KernelDef k("casts", kernel, {"x", "y"});
  return specialize_error(k, tl::Specialization{{x, DType::f32}, {0, 0}});
}

// Inputs that sit between two f16 (and bf16) values, both signs, plus
// values past the f16 range and specials.
const std::vector<float> kIn = {1.0f + 3.0f / 4096.0f, -(1.0f + 3.0f / 4096.0f), 0.1f, -0.1f, 70000.0f, -70000.0f,
                                3.0e38f, 1.0f / 3.0f, -2.0f / 3.0f, 1e-8f, 65519.0f, 123.456f,
                                std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                                0.0f, std::numeric_limits<float>::quiet_NaN()};

// The value nearest to v toward zero among `candidates` decoded from bits:
// the reference walks the f16 encodings directly.
uint16_t f16_rtz(float v) {
  if (std::isnan(v)) return 0x7e00;
  if (std::isinf(v)) return v > 0 ? 0x7c00 : 0xfc00;
  const uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  uint16_t best = 0;
  for (uint32_t m = 0; m < 0x7c00; ++m)  // finite magnitudes, ascending
    if (tl::half_to_float(static_cast<uint16_t>(m)) <= std::fabs(v)) best = static_cast<uint16_t>(m);
  return static_cast<uint16_t>(sign | best);
}
uint16_t bf16_rtz(float v) {
  const uint32_t b = std::bit_cast<uint32_t>(v);
  if (std::isnan(v)) return static_cast<uint16_t>((b >> 16) | 0x40);
  return static_cast<uint16_t>(b >> 16);  // truncating the low bits is rounding toward zero
}

tl::Buffer input() {
  tl::Buffer x("x", DType::f32, {16});
  for (int i = 0; i < 16; ++i) x.as<float>()[i] = kIn[i];
  return x;
}

}  // namespace

TEST_CASE("bitcast f32 <-> i32 keeps the bits") {
  tl::Buffer x = input(), y("y", DType::i32, {16});
  launch([](const P& p) { tl::store(p.y + tl::arange(0, 16), tl::load(p.x + tl::arange(0, 16)).to(tl::i32, true)); },
         x, y);
  for (int i = 0; i < 16; ++i) CHECK(static_cast<uint32_t>(y.as<int32_t>()[i]) == std::bit_cast<uint32_t>(kIn[i]));
  tl::Buffer back("back", DType::f32, {16});
  launch([](const P& p) { tl::store(p.y + tl::arange(0, 16), tl::cast(tl::load(p.x + tl::arange(0, 16)), tl::f32, true, "")); },
         y, back);
  for (int i = 0; i < 16; ++i) CHECK(std::bit_cast<uint32_t>(back.as<float>()[i]) == std::bit_cast<uint32_t>(kIn[i]));
}

TEST_CASE("bitcast f16 -> i16 and u16 keeps the bits") {
  tl::Buffer x("x", DType::f16, {4}), y("y", DType::u16, {4});
  const std::vector<double> v = {1.0, -2.5, 65504.0, 0.0};
  for (int i = 0; i < 4; ++i) x.set(i, v[i]);
  launch([](const P& p) { tl::store(p.y + tl::arange(0, 4), tl::load(p.x + tl::arange(0, 4)).to(tl::u16, true)); }, x, y);
  for (int i = 0; i < 4; ++i) CHECK(y.get_bits(i) == x.get_bits(i));
}

TEST_CASE("bitcast between different widths is a build error naming both widths") {
  check_error(build_error([](const P& p) { auto v = tl::load(p.x + 0); g_line = __LINE__; (void)v.to(tl::i64, true); }),
              {"bitcast needs types of the same width", "f32 is 32 bits", "i64 is 64"});
  check_error(build_error([](const P& p) { auto v = tl::load(p.x + 0); g_line = __LINE__; (void)tl::cast(v, tl::f16, true, ""); }),
              {"bitcast needs types of the same width"});
}

TEST_CASE("f32 -> f16 rounds to nearest even by default and toward zero with rtz") {
  tl::Buffer x = input(), ne("ne", DType::f16, {16}), z("z", DType::f16, {16});
  launch([](const P& p) { tl::store(p.y + tl::arange(0, 16), tl::cast(tl::load(p.x + tl::arange(0, 16)), tl::f16, false, "rtne")); }, x, ne);
  launch([](const P& p) { tl::store(p.y + tl::arange(0, 16), tl::cast(tl::load(p.x + tl::arange(0, 16)), tl::f16, false, "rtz")); }, x, z);
  for (int i = 0; i < 16; ++i) {
    INFO("input " << kIn[i]);
    CHECK(ne.get_bits(i) == tl::float_to_half(kIn[i]));
    if (std::isnan(kIn[i])) CHECK(std::isnan(z.get(i)));
    else CHECK(z.get_bits(i) == f16_rtz(kIn[i]));
  }
  // The two differ where rounding went up in magnitude, and rtz never overflows.
  CHECK(ne.get_bits(0) != z.get_bits(0));
  CHECK(z.get(4) == 65504.0);
  CHECK(std::isinf(ne.get(4)));
}

TEST_CASE("f32 -> bf16 with rtz truncates the low mantissa bits") {
  tl::Buffer x = input(), z("z", DType::bf16, {16});
  launch([](const P& p) { tl::store(p.y + tl::arange(0, 16), tl::cast(tl::load(p.x + tl::arange(0, 16)), tl::bf16, false, "rtz")); }, x, z);
  for (int i = 0; i < 16; ++i) {
    INFO("input " << kIn[i]);
    if (std::isnan(kIn[i])) CHECK(std::isnan(z.get(i)));
    else CHECK(z.get_bits(i) == bf16_rtz(kIn[i]));
  }
}

TEST_CASE("f64 -> f32 with rtz rounds toward zero") {
  tl::Buffer x("x", DType::f64, {4}), y("y", DType::f32, {4});
  const std::vector<double> v = {1.0 / 3.0, -1.0 / 3.0, 1e300, 0.1};
  for (int i = 0; i < 4; ++i) x.set(i, v[i]);
  launch([](const P& p) { tl::store(p.y + tl::arange(0, 4), tl::cast(tl::load(p.x + tl::arange(0, 4)), tl::f32, false, "rtz")); }, x, y);
  for (int i = 0; i < 4; ++i) {
    const float rn = static_cast<float>(v[i]);
    const float want = std::fabs(static_cast<double>(rn)) > std::fabs(v[i]) ? std::nextafter(rn, 0.0f) : rn;
    CHECK(y.as<float>()[i] == (std::isinf(rn) ? std::numeric_limits<float>::max() : want));
  }
}

TEST_CASE("fp_downcast_rounding errors: unknown mode, and a cast that does not narrow a float") {
  check_error(build_error([](const P& p) { auto v = tl::load(p.x + 0); g_line = __LINE__; (void)tl::cast(v, tl::f16, false, "rtu"); }),
              {"invalid fp_downcast_rounding 'rtu'", "'rtne' or 'rtz'"});
  check_error(build_error([](const P& p) { auto v = tl::load(p.x + 0); g_line = __LINE__; (void)tl::cast(v, tl::i32, false, "rtz"); }),
              {"fp_downcast_rounding applies to a float cast to a narrower float", "f32 to i32"});
  check_error(build_error([](const P& p) { auto v = tl::load(p.x + 0); g_line = __LINE__; (void)tl::cast(v, tl::f64, false, "rtz"); }),
              {"f32 to f64"});
}

TEST_CASE("an rtz cast past f16's range is not a float-overflow finding, the rtne one is") {
  tl::Buffer x = input(), y("y", DType::f16, {16});
  g_body = [](const P& p) { tl::store(p.y + tl::arange(0, 16), tl::cast(tl::load(p.x + tl::arange(0, 16)), tl::f16, false, "rtz")); };
  tl::KernelDef k("casts", kernel, {"x", "y"});
  CHECK(tl::run(k, {}, {x, y}).findings.empty());
  g_body = [](const P& p) { tl::store(p.y + tl::arange(0, 16), tl::load(p.x + tl::arange(0, 16)).to(tl::f16)); };
  tl::KernelDef k2("casts2", kernel, {"x", "y"});
  auto r = tl::run(k2, {}, {x, y});
  REQUIRE(r.findings.size() == 1);
  CHECK(r.findings[0].kind == tl::FindingKind::FloatCastOverflow);
}

TEST_CASE("an rtz cast shows in the IR") {
  tl::Buffer x = input(), y("y", DType::f16, {16});
  g_body = [](const P& p) { tl::store(p.y + tl::arange(0, 16), tl::cast(tl::load(p.x + tl::arange(0, 16)), tl::f16, false, "rtz")); };
  tl::KernelDef k("casts", kernel, {"x", "y"});
  const std::string ir = tl::ir::print(*tl::build_ir(k, {x, y}));
  CHECK(ir.find("cast") != std::string::npos);
  CHECK(ir.find("rounding=rtz") != std::string::npos);
}
