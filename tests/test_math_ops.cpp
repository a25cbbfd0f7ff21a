// The math functions against plain C++ references: clamp (with and
// without propagate_nan), erf, log1p, expm1, rint, round, pow, div_rn,
// fdiv, umulhi, NaN/inf checks written as comparisons, and the dtype
// errors Triton gives.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <functional>
#include <iostream>
#include <sstream>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "build_error_fixture.h"
#include "error.h"
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
  const tl::Ptr& z;
};
std::function<void(const P&)> g_body;
void kernel(tl::Ptr x, tl::Ptr y, tl::Ptr z) { g_body(P{x, y, z}); }

tl::RunResult launch(std::function<void(const P&)> fn, tl::Buffer& x, tl::Buffer& y, tl::Buffer& z) {
  g_body = std::move(fn);
  tl::KernelDef k("math", kernel, {"x", "y", "z"});
  return tl::run(k, {}, {x, y, z});
}

std::optional<tl::BuildError> build_error(std::function<void(const P&)> fn, DType x = DType::f32) {
  g_body = std::move(fn);
  tl::KernelDef k("math", kernel, {"x", "y", "z"});
  return specialize_error(k, tl::Specialization{{x, DType::f32, DType::f32}, {0, 0, 0}});
}

const float kNaN = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();
const std::vector<float> kIn = {-3.5f, -1.0f, -0.5f, -1e-7f, 0.0f, 0.25f, 0.5f, 1.5f,
                                2.5f,  3.0f,  7.75f, 1e-30f, -2.5f, 40.0f, -0.0f, 5.5f};

tl::Buffer f32_input(const char* name, const std::vector<float>& v) {
  tl::Buffer b(name, DType::f32, {static_cast<int64_t>(v.size())});
  for (size_t i = 0; i < v.size(); ++i) b.as<float>()[i] = v[i];
  return b;
}

// y[i] = f(x[i]) over 16 lanes, compared with ref bit for bit (NaN = NaN).
void check_unary(const std::function<tl::Tensor(const tl::Tensor&)>& f, float (*ref)(float), const char* what) {
  tl::Buffer x = f32_input("x", kIn), y("y", DType::f32, {16}), z("z", DType::f32, {1});
  static std::function<tl::Tensor(const tl::Tensor&)> g_f;
  g_f = f;
  launch([](const P& p) { tl::store(p.y + tl::arange(0, 16), g_f(tl::load(p.x + tl::arange(0, 16)))); }, x, y, z);
  for (int i = 0; i < 16; ++i) {
    INFO(what << "(" << kIn[i] << ")");
    const float want = ref(kIn[i]), got = y.as<float>()[i];
    if (std::isnan(want)) CHECK(std::isnan(got));
    else CHECK(got == want);
  }
}

}  // namespace

TEST_CASE("erf matches std::erf in f32") {
  check_unary([](const tl::Tensor& x) { return tl::erf(x); }, [](float v) { return std::erf(v); }, "erf");
}

TEST_CASE("log1p and expm1 match the C library in f32") {
  check_unary([](const tl::Tensor& x) { return tl::log1p(x); }, [](float v) { return std::log1p(v); }, "log1p");
  check_unary([](const tl::Tensor& x) { return tl::expm1(x); }, [](float v) { return std::expm1(v); }, "expm1");
}

TEST_CASE("rint rounds ties to even, round ties away from zero, floor and ceil as before") {
  check_unary([](const tl::Tensor& x) { return tl::rint(x); }, [](float v) { return std::nearbyint(v); }, "rint");
  check_unary([](const tl::Tensor& x) { return tl::round(x); }, [](float v) { return std::round(v); }, "round");
  check_unary([](const tl::Tensor& x) { return tl::floor(x); }, [](float v) { return std::floor(v); }, "floor");
  check_unary([](const tl::Tensor& x) { return tl::ceil(x); }, [](float v) { return std::ceil(v); }, "ceil");
  // Spot values, so the two roundings are seen to differ.
  tl::Buffer x = f32_input("x", {0.5f, 1.5f, 2.5f, -2.5f}), y("y", DType::f32, {8}), z("z", DType::f32, {1});
  launch(
      [](const P& p) {
        auto v = tl::load(p.x + tl::arange(0, 4));
        tl::store(p.y + tl::arange(0, 4), tl::rint(v));
        tl::store(p.y + 4 + tl::arange(0, 4), tl::round(v));
      },
      x, y, z);
  const std::vector<double> want = {0, 2, 2, -2, 1, 2, 3, -3};
  for (int i = 0; i < 8; ++i) CHECK(y.get(i) == want[i]);
}

TEST_CASE("pow of two f32 tiles and of a tile and a literal matches std::pow") {
  tl::Buffer x = f32_input("x", {2.0f, 0.5f, 9.0f, -2.0f}), y = f32_input("y", {10.0f, -3.0f, 0.5f, 3.0f}),
             z("z", DType::f32, {8});
  launch(
      [](const P& p) {
        auto i = tl::arange(0, 4);
        tl::store(p.z + i, tl::pow(tl::load(p.x + i), tl::load(p.y + i)));
        tl::store(p.z + 4 + i, tl::pow(tl::load(p.x + i), 2.0f));
      },
      x, y, z);
  const std::vector<float> a = {2.0f, 0.5f, 9.0f, -2.0f}, b = {10.0f, -3.0f, 0.5f, 3.0f};
  for (int i = 0; i < 4; ++i) {
    CHECK(z.as<float>()[i] == std::pow(a[i], b[i]));
    CHECK(z.as<float>()[4 + i] == std::pow(a[i], 2.0f));
  }
}

TEST_CASE("clamp bounds every lane, NaN is dropped by default and kept with propagate_nan") {
  tl::Buffer x = f32_input("x", {-5.0f, 0.5f, 9.0f, kNaN}), y("y", DType::f32, {8}), z("z", DType::f32, {1});
  launch(
      [](const P& p) {
        auto v = tl::load(p.x + tl::arange(0, 4));
        tl::store(p.y + tl::arange(0, 4), tl::clamp(v, -1.0f, 2.0f));
        tl::store(p.y + 4 + tl::arange(0, 4), tl::clamp(v, -1.0f, 2.0f, true));
      },
      x, y, z);
  CHECK(y.get(0) == -1.0);
  CHECK(y.get(1) == 0.5);
  CHECK(y.get(2) == 2.0);
  CHECK(y.get(3) == -1.0);  // fmin(fmax(NaN, -1), 2): the NaN is dropped at the first step
  CHECK(y.get(4) == -1.0);
  CHECK(std::isnan(y.get(7)));
}

TEST_CASE("clamp of an integer tile is a build error, as in Triton") {
  check_error(build_error([](const P&) { g_line = __LINE__; (void)tl::clamp(tl::arange(0, 4), 0, 2); }),
              {"clamp supports floating-point tiles only", "i32"});
}

TEST_CASE("div_rn and fdiv divide like IEEE division, div_rn wants f32") {
  tl::Buffer x = f32_input("x", {1.0f, 10.0f, -7.0f, 0.0f}), y = f32_input("y", {3.0f, 4.0f, 0.1f, 0.0f}),
             z("z", DType::f32, {8});
  launch(
      [](const P& p) {
        auto i = tl::arange(0, 4);
        tl::store(p.z + i, tl::div_rn(tl::load(p.x + i), tl::load(p.y + i)));
        tl::store(p.z + 4 + i, tl::fdiv(tl::load(p.x + i), tl::load(p.y + i)));
      },
      x, y, z);
  const std::vector<float> a = {1.0f, 10.0f, -7.0f}, b = {3.0f, 4.0f, 0.1f};
  for (int i = 0; i < 3; ++i) {
    CHECK(z.as<float>()[i] == a[i] / b[i]);
    CHECK(z.as<float>()[4 + i] == a[i] / b[i]);
  }
  CHECK(std::isnan(z.get(3)));
  check_error(build_error([](const P& p) { g_line = __LINE__; (void)tl::div_rn(tl::load(p.x + 0), 2.0f); }, DType::f64),
              {"div_rn needs f32 operands", "f64"});
  check_error(build_error([](const P&) { g_line = __LINE__; (void)tl::fdiv(tl::arange(0, 4), 2); }),
              {"both operands of fdiv must be floats"});
}

TEST_CASE("sqrt_rn is the correctly rounded square root, it wants f32, as div_rn") {
  // kIn holds negatives (NaN then), -0.0, 1e-30 and 40.
  check_unary([](const tl::Tensor& x) { return tl::sqrt_rn(x); }, [](float v) { return std::sqrt(v); }, "sqrt_rn");
  check_error(build_error([](const P& p) { g_line = __LINE__; (void)tl::sqrt_rn(tl::load(p.x + 0)); }, DType::f16),
              {"sqrt_rn needs an f32 tile", "f16", ".to(tl::f32)"});
  check_error(build_error([](const P& p) { g_line = __LINE__; (void)tl::sqrt_rn(tl::load(p.x + 0)); }, DType::f64),
              {"sqrt_rn needs an f32 tile", "f64"});
}

TEST_CASE("umulhi gives the high half of the unsigned product for i32, u32 and i64") {
  for (DType d : {DType::i32, DType::u32, DType::i64}) {
    tl::Buffer x("x", d, {4}), y("y", d, {4}), z("z", d, {4});
    const std::vector<uint64_t> a = {0xffffffffu, 0x12345678u, 3u, 0x80000000u};
    const std::vector<uint64_t> b = {0xffffffffu, 0x9abcdef0u, 5u, 2u};
    const bool wide = d == DType::i64;
    for (int i = 0; i < 4; ++i) {
      x.set_bits(i, wide ? a[i] * 0x100000001ull : a[i]);
      y.set_bits(i, wide ? b[i] << 31 : b[i]);
    }
    launch([](const P& p) {
      auto i = tl::arange(0, 4);
      tl::store(p.z + i, tl::umulhi(tl::load(p.x + i), tl::load(p.y + i)));
    }, x, y, z);
    for (int i = 0; i < 4; ++i) {
      INFO(tl::name(d) << " lane " << i);
      const uint64_t xa = x.get_bits(i), yb = y.get_bits(i);
      const uint64_t want = wide ? static_cast<uint64_t>((static_cast<unsigned __int128>(xa) * yb) >> 64)
                                 : (xa * yb) >> 32;
      CHECK(z.get_bits(i) == want);
    }
  }
  check_error(build_error([](const P& p) { g_line = __LINE__; (void)tl::umulhi(tl::load(p.x + 0), 3.0f); }),
              {"umulhi needs i32, u32, i64 or u64 operands", "f32"});
}

TEST_CASE("the new math functions refuse f16 and integer tiles, naming the fix") {
  check_error(build_error([](const P& p) { g_line = __LINE__; (void)tl::erf(tl::load(p.x + 0)); }, DType::f16),
              {"erf needs an f32 or f64 tile", "f16", ".to(tl::f32)"});
  check_error(build_error([](const P&) { g_line = __LINE__; (void)tl::log1p(tl::arange(0, 4)); }),
              {"log1p needs an f32 or f64 tile"});
  check_error(build_error([](const P&) { g_line = __LINE__; (void)tl::pow(tl::arange(0, 4), 2); }),
              {"pow needs f32 or f64 operands", "i32"});
}

TEST_CASE("isnan and isinf written as comparisons: x != x and x == inf") {
  tl::Buffer x = f32_input("x", {1.0f, kNaN, kInf, -kInf}), y("y", DType::i32, {12}), z("z", DType::f32, {1});
  launch(
      [](const P& p) {
        auto i = tl::arange(0, 4);
        auto v = tl::load(p.x + i);
        tl::store(p.y + i, (v != v).to(tl::i32));
        tl::store(p.y + 4 + i, (v == INFINITY).to(tl::i32));
        tl::store(p.y + 8 + i, (tl::abs(v) == INFINITY).to(tl::i32));
      },
      x, y, z);
  const std::vector<int> want = {0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 1, 1};
  for (int i = 0; i < 12; ++i) CHECK(y.get(i) == want[i]);
}

TEST_CASE("compiler hints are accepted as no-ops and check their value count") {
  tl::Buffer x = f32_input("x", {1, 2, 3, 4}), y("y", DType::f32, {4}), z("z", DType::f32, {1});
  launch(
      [](const P& p) {
        auto i = tl::max_contiguous(tl::multiple_of(tl::arange(0, 4), {4}), {4});
        i = tl::max_constancy(i, {1});
        tl::assume(i.to(tl::i32) >= 0);
        tl::debug_barrier();
        tl::store(p.y + i, tl::load(p.x + i) * 2.0f);
      },
      x, y, z);
  for (int i = 0; i < 4; ++i) CHECK(y.get(i) == 2.0 * (i + 1));
  check_error(build_error([](const P&) { g_line = __LINE__; (void)tl::max_contiguous(tl::arange(0, 4), {4, 4}); }),
              {"max_contiguous needs one value per dimension", "got 2"});
}

TEST_CASE("static_print prints the type while the kernel builds") {
  g_body = [](const P& p) { tl::static_print("offs:", tl::arange(0, 4)); tl::store(p.y + 0, 1.0f); };
  tl::KernelDef k("math_print", kernel, {"x", "y", "z"});
  std::ostringstream captured;
  std::streambuf* old = std::cout.rdbuf(captured.rdbuf());
  k.specialize(tl::Specialization{{DType::f32, DType::f32, DType::f32}, {0, 0, 0}});
  std::cout.rdbuf(old);
  CHECK(captured.str() == "offs: i32[4]\n");
}
