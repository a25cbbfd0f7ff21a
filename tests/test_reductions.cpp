// Reductions (SEMANTICS §7): sum/max/min/argmax/argmin with an axis,
// keep_dims or no axis; the result dtype rules (small integer sums widen,
// f16 sums stay f16, max/min widen small inputs); NaN dropped by max/min;
// argmax/argmin ties to the smallest index.
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
using Shape = tl::Shape;
using Fn = std::function<tl::Tensor(const tl::Tensor&)>;

const double kNaN = std::numeric_limits<double>::quiet_NaN();

std::function<void(const tl::Ptr&, const tl::Ptr&)> g_body;
void body(tl::Ptr in, tl::Ptr out) { g_body(in, out); }

// Row-major offsets of a tile of shape s (rank 1, 2 or 3).
tl::Tensor offsets(const Shape& s) {
  if (s.size() == 1) return tl::arange(0, s[0]);
  if (s.size() == 2) return tl::arange(0, s[0]).col() * static_cast<int>(s[1]) + tl::arange(0, s[1]).row();
  return tl::expand_dims(tl::arange(0, s[0]), std::vector<int>{1, 2}) * static_cast<int>(s[1] * s[2]) +
         tl::expand_dims(tl::arange(0, s[1]), std::vector<int>{0, 2}) * static_cast<int>(s[2]) +
         tl::expand_dims(tl::arange(0, s[2]), std::vector<int>{0, 1});
}

struct Out {
  DType dtype;
  Shape shape;
  std::vector<double> v;  // row-major
};

// Loads a tile of `shape` from a buffer of dtype `d` holding `vals`, applies
// f, and returns the result (stored into an f64 buffer).
Out reduce(DType d, const std::vector<double>& vals, const Shape& shape, const Fn& f) {
  tl::Buffer in("in", d, {static_cast<int64_t>(vals.size())}), out("out", DType::f64, {4096});
  for (size_t i = 0; i < vals.size(); ++i) in.set(static_cast<int64_t>(i), vals[i]);
  out.fill(-12345);
  Out o;
  g_body = [&](const tl::Ptr& pin, const tl::Ptr& pout) {
    tl::Tensor r = f(tl::load(pin + offsets(shape)));
    o.dtype = r.dtype();
    o.shape = r.shape();
    if (r.rank() == 0) tl::store(pout, r);
    else tl::store(pout + offsets(r.shape()), r);
  };
  tl::KernelDef k("reduce", body);
  tl::run(k, {}, {in, out});
  for (int64_t i = 0; i < tl::ir::numel(o.shape); ++i) o.v.push_back(out.get(i));
  return o;
}

// 0, 1, ..., n-1 (a [4, 8] tile of them holds 8 * i + j).
std::vector<double> iota(int n) {
  std::vector<double> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) v[i] = i;
  return v;
}

DType dtype_of(DType d, const Fn& f) { return reduce(d, iota(8), {8}, f).dtype; }

std::string build_error(const Fn& f) {
  try {
    reduce(DType::f32, iota(8), {8}, f);
  } catch (const tl::BuildError& e) {
    return e.message();
  }
  return "";
}

}  // namespace

TEST_CASE("sum over an axis drops it, keep_dims keeps it as size 1") {
  auto s0 = reduce(DType::f32, iota(32), {4, 8}, [](auto& x) { return tl::sum(x, 0); });
  REQUIRE(s0.shape == Shape{8});
  for (int j = 0; j < 8; ++j) CHECK(s0.v[j] == 48 + 4 * j);
  auto s1 = reduce(DType::f32, iota(32), {4, 8}, [](auto& x) { return tl::sum(x, 1); });
  REQUIRE(s1.shape == Shape{4});
  for (int i = 0; i < 4; ++i) CHECK(s1.v[i] == 64 * i + 28);
  auto k0 = reduce(DType::f32, iota(32), {4, 8}, [](auto& x) { return tl::sum(x, 0, true); });
  CHECK(k0.shape == Shape{1, 8});
  CHECK(k0.v == s0.v);
  auto k1 = reduce(DType::f32, iota(32), {4, 8}, [](auto& x) { return tl::sum(x, 1, true); });
  CHECK(k1.shape == Shape{4, 1});
  CHECK(k1.v == s1.v);
  auto neg = reduce(DType::f32, iota(32), {4, 8}, [](auto& x) { return tl::sum(x, -1); });
  CHECK(neg.shape == Shape{4});
  CHECK(neg.v == s1.v);
}

TEST_CASE("a reduction without an axis gives a 0-d tensor") {
  auto s = reduce(DType::f32, iota(32), {4, 8}, [](auto& x) { return tl::sum(x); });
  CHECK(s.shape == Shape{});
  REQUIRE(s.v.size() == 1);
  CHECK(s.v[0] == 496);
  auto m = reduce(DType::i32, iota(32), {4, 8}, [](auto& x) { return tl::max(x); });
  CHECK(m.shape == Shape{});
  CHECK(m.v[0] == 31);
  auto n = reduce(DType::i32, iota(32), {4, 8}, [](auto& x) { return tl::min(x - 5); });
  CHECK(n.v[0] == -5);
  auto k = reduce(DType::f32, iota(32), {4, 8}, [](auto& x) { return tl::sum(x, {}, true); });
  CHECK(k.shape == Shape{1, 1});
  CHECK(k.v[0] == 496);
}

TEST_CASE("reductions over each axis of a 3-D tile") {
  // [2, 4, 8] holding 32 i + 8 j + k.
  auto s1 = reduce(DType::i32, iota(64), {2, 4, 8}, [](auto& x) { return tl::sum(x, 1); });
  REQUIRE(s1.shape == Shape{2, 8});
  for (int i = 0; i < 2; ++i)
    for (int k = 0; k < 8; ++k) CHECK(s1.v[i * 8 + k] == 128 * i + 48 + 4 * k);
  auto m0 = reduce(DType::i32, iota(64), {2, 4, 8}, [](auto& x) { return tl::max(x, 0, true); });
  REQUIRE(m0.shape == Shape{1, 4, 8});
  for (int j = 0; j < 32; ++j) CHECK(m0.v[j] == 32 + j);
  auto a2 = reduce(DType::i32, iota(64), {2, 4, 8}, [](auto& x) { return tl::argmin(x * -1, 2); });
  REQUIRE(a2.shape == Shape{2, 4});
  for (double v : a2.v) CHECK(v == 7);
  auto a1 = reduce(DType::f32, iota(64), {2, 4, 8}, [](auto& x) { return tl::argmax(x % 3, 1); });
  // x % 3 along j for fixed (i, k): (32 i + k + 8 j) % 3; 8 j % 3 cycles 0, 2, 1, 0.
  for (int i = 0; i < 2; ++i)
    for (int k = 0; k < 8; ++k) {
      int best = 0;
      for (int j = 1; j < 4; ++j)
        if ((32 * i + 8 * j + k) % 3 > (32 * i + 8 * best + k) % 3) best = j;
      CHECK(a1.v[i * 8 + k] == best);
    }
}

TEST_CASE("max and min along an axis") {
  std::vector<double> v{3, -1, 8, 2, -7, 4, 0, 9};  // [2, 4]
  auto mx0 = reduce(DType::i32, v, {2, 4}, [](auto& x) { return tl::max(x, 0); });
  CHECK(mx0.v == std::vector<double>{3, 4, 8, 9});
  auto mn1 = reduce(DType::i32, v, {2, 4}, [](auto& x) { return tl::min(x, 1); });
  CHECK(mn1.v == std::vector<double>{-1, -7});
  auto mx1 = reduce(DType::f32, v, {2, 4}, [](auto& x) { return tl::max(x, 1, true); });
  CHECK(mx1.shape == Shape{2, 1});
  CHECK(mx1.v == std::vector<double>{8, 9});
}

TEST_CASE("sum of integers under 32 bits widens to i32, or u32 if unsigned") {
  CHECK(dtype_of(DType::i8, [](auto& x) { return tl::sum(x); }) == DType::i32);
  CHECK(dtype_of(DType::i16, [](auto& x) { return tl::sum(x, 0); }) == DType::i32);
  CHECK(dtype_of(DType::u8, [](auto& x) { return tl::sum(x); }) == DType::u32);
  CHECK(dtype_of(DType::u16, [](auto& x) { return tl::sum(x); }) == DType::u32);
  CHECK(dtype_of(DType::i32, [](auto& x) { return tl::sum(x > 3); }) == DType::u32);  // i1
  CHECK(dtype_of(DType::i32, [](auto& x) { return tl::sum(x); }) == DType::i32);
  CHECK(dtype_of(DType::u32, [](auto& x) { return tl::sum(x); }) == DType::u32);
  CHECK(dtype_of(DType::i64, [](auto& x) { return tl::sum(x); }) == DType::i64);
  // The widened sum is exact: 16 * 100 does not wrap in i8.
  auto s = reduce(DType::i8, std::vector<double>(16, 100), {16}, [](auto& x) { return tl::sum(x); });
  CHECK(s.v[0] == 1600);
  auto u = reduce(DType::u8, std::vector<double>(16, 200), {16}, [](auto& x) { return tl::sum(x); });
  CHECK(u.v[0] == 3200);
  auto neg = reduce(DType::i8, std::vector<double>(16, -100), {16}, [](auto& x) { return tl::sum(x); });
  CHECK(neg.v[0] == -1600);
  auto cnt = reduce(DType::i32, iota(8), {8}, [](auto& x) { return tl::sum(x > 4); });
  CHECK(cnt.v[0] == 3);
}

TEST_CASE("integer sums match exactly and wrap in their type") {
  auto s = reduce(DType::i32, {1073741824, 1073741824, 1073741824, 1073741824}, {4}, [](auto& x) { return tl::sum(x); });
  CHECK(s.v[0] == 0);
  auto t = reduce(DType::i32, {2147483647, 1, 5, -5}, {4}, [](auto& x) { return tl::sum(x); });
  CHECK(t.v[0] == -2147483648.0);
}

TEST_CASE("an f16 sum keeps f16 and adds in f16, dtype= or .to(f32) first widens it") {
  static DType d1, d2, d3;
  tl::Buffer unused("in", DType::f32, {1}), out("out", DType::f32, {4});
  g_body = [&](const tl::Ptr&, const tl::Ptr& pout) {
    auto ones = tl::full({4096}, 1, tl::f16);
    auto a = tl::sum(ones);
    auto b = tl::sum(ones, {}, false, tl::f32);
    auto c = tl::sum(ones.to(tl::f32));
    d1 = a.dtype();
    d2 = b.dtype();
    d3 = c.dtype();
    tl::store(pout + 0, a);
    tl::store(pout + 1, b);
    tl::store(pout + 2, c);
    tl::store(pout + 3, tl::sum(tl::full({512}, 1, tl::bf16)));
  };
  tl::KernelDef k("f16sum", body);
  tl::run(k, {}, {unused, out});
  CHECK(d1 == DType::f16);
  CHECK(d2 == DType::f32);
  CHECK(d3 == DType::f32);
  CHECK(out.get(0) == 2048);  // 2048 + 1 rounds back to 2048 in f16
  CHECK(out.get(1) == 4096);
  CHECK(out.get(2) == 4096);
  CHECK(out.get(3) == 256);   // bf16: 256 + 1 rounds back to 256
  CHECK(dtype_of(DType::bf16, [](auto& x) { return tl::sum(x); }) == DType::bf16);
}

TEST_CASE("max and min widen inputs under 32 bits: f16/bf16 to f32, integers to i32") {
  CHECK(dtype_of(DType::f16, [](auto& x) { return tl::max(x); }) == DType::f32);
  CHECK(dtype_of(DType::bf16, [](auto& x) { return tl::min(x, 0); }) == DType::f32);
  CHECK(dtype_of(DType::i8, [](auto& x) { return tl::max(x); }) == DType::i32);
  CHECK(dtype_of(DType::u8, [](auto& x) { return tl::max(x); }) == DType::i32);
  CHECK(dtype_of(DType::u16, [](auto& x) { return tl::min(x); }) == DType::i32);
  CHECK(dtype_of(DType::i16, [](auto& x) { return tl::min(x); }) == DType::i32);
  CHECK(dtype_of(DType::i32, [](auto& x) { return tl::max(x); }) == DType::i32);
  CHECK(dtype_of(DType::u32, [](auto& x) { return tl::max(x); }) == DType::u32);
  CHECK(dtype_of(DType::f64, [](auto& x) { return tl::max(x); }) == DType::f64);
  CHECK(dtype_of(DType::f32, [](auto& x) { return tl::min(x); }) == DType::f32);
  // u8 200 stays 200 (not -56) after widening.
  auto u = reduce(DType::u8, {200, 3, 17, 0}, {4}, [](auto& x) { return tl::max(x); });
  CHECK(u.v[0] == 200);
}

TEST_CASE("max and min drop NaN like the GPU") {
  std::vector<double> v{kNaN, 1, 5, kNaN};
  auto mx = reduce(DType::f32, v, {4}, [](auto& x) { return tl::max(x); });
  CHECK(mx.v[0] == 5);
  auto mn = reduce(DType::f32, v, {4}, [](auto& x) { return tl::min(x); });
  CHECK(mn.v[0] == 1);
  auto ax = reduce(DType::f32, {kNaN, 2, kNaN, kNaN}, {2, 2}, [](auto& x) { return tl::max(x, 1); });
  CHECK(ax.v[0] == 2);
  CHECK(std::isnan(ax.v[1]));  // all NaN stays NaN
  auto h = reduce(DType::f16, {kNaN, -3, kNaN, -4}, {4}, [](auto& x) { return tl::min(x); });
  CHECK(h.v[0] == -4);
}

TEST_CASE("elementwise maximum and minimum drop NaN too") {
  auto m = reduce(DType::f32, {kNaN, 1, 3, kNaN}, {4}, [](auto& x) {
    return tl::maximum(x, 2.0f) + tl::minimum(x, 2.0f) * 10;
  });
  CHECK(m.v[0] == 2 + 20);
  CHECK(m.v[1] == 2 + 10);
  CHECK(m.v[2] == 3 + 20);
}

TEST_CASE("argmax and argmin give i32 indices and break ties toward the smallest index") {
  std::vector<double> v{3, 7, 7, 1, 7, -2, 1, -2};
  CHECK(dtype_of(DType::f16, [](auto& x) { return tl::argmax(x, 0); }) == DType::i32);
  CHECK(dtype_of(DType::i8, [](auto& x) { return tl::argmin(x, 0); }) == DType::i32);
  auto a = reduce(DType::f32, v, {8}, [](auto& x) { return tl::argmax(x, 0); });
  CHECK(a.shape == Shape{});
  CHECK(a.v[0] == 1);
  auto b = reduce(DType::f32, v, {8}, [](auto& x) { return tl::argmin(x, 0); });
  CHECK(b.v[0] == 5);
  auto c = reduce(DType::i32, std::vector<double>(8, 4), {8}, [](auto& x) { return tl::argmax(x, 0); });
  CHECK(c.v[0] == 0);
  auto d = reduce(DType::u8, std::vector<double>(8, 4), {8}, [](auto& x) { return tl::argmin(x, 0); });
  CHECK(d.v[0] == 0);
}

TEST_CASE("argmax and argmin along an axis of a 2-D tile, with keep_dims") {
  // [2, 4]: rows {5, 9, 9, 1} and {2, 2, 0, 0}
  std::vector<double> v{5, 9, 9, 1, 2, 2, 0, 0};
  auto r = reduce(DType::i32, v, {2, 4}, [](auto& x) { return tl::argmax(x, 1); });
  CHECK(r.shape == Shape{2});
  CHECK(r.v == std::vector<double>{1, 0});
  auto q = reduce(DType::i32, v, {2, 4}, [](auto& x) { return tl::argmin(x, 1, true); });
  CHECK(q.shape == Shape{2, 1});
  CHECK(q.v == std::vector<double>{3, 2});
  // Columns of {5, 9, 0, 1} over {5, 2, 0, 3}: ties in columns 0 and 2 go to row 0.
  auto c = reduce(DType::i32, {5, 9, 0, 1, 5, 2, 0, 3}, {2, 4}, [](auto& x) { return tl::argmax(x, 0); });
  CHECK(c.v == std::vector<double>{0, 0, 0, 1});
  auto e = reduce(DType::i32, {1, 1, 1, 1, 1, 1, 1, 1}, {2, 4}, [](auto& x) { return tl::argmin(x, 0); });
  CHECK(e.v == std::vector<double>{0, 0, 0, 0});
}

TEST_CASE("reducing along an axis out of range is a build error") {
  CHECK(build_error([](auto& x) { return tl::sum(x, 1); }).find("axis") != std::string::npos);
  CHECK_FALSE(build_error([](auto& x) { return tl::max(x, -2); }).empty());
  CHECK_FALSE(build_error([](auto& x) { return tl::sum(tl::sum(x), 0); }).empty());
  CHECK(build_error([](auto& x) { return tl::sum(x, -1); }).empty());
}

TEST_CASE("max and min of zeros of both signs: -0.0 is below +0.0, as on the GPU") {
  const double nz = -0.0;
  auto mx = reduce(DType::f32, {nz, 0.0, nz, nz}, {4}, [](auto& x) { return tl::max(x); });
  CHECK_FALSE(std::signbit(mx.v[0]));
  auto mn = reduce(DType::f32, {0.0, nz, 0.0, 0.0}, {4}, [](auto& x) { return tl::min(x); });
  CHECK(std::signbit(mn.v[0]));
  auto rows = reduce(DType::f64, {nz, 0.0, 0.0, nz}, {2, 2}, [](auto& x) { return tl::max(x, 0); });
  CHECK_FALSE(std::signbit(rows.v[0]));
  CHECK_FALSE(std::signbit(rows.v[1]));
  auto all_neg = reduce(DType::f32, {nz, nz}, {2}, [](auto& x) { return tl::max(x); });
  CHECK(std::signbit(all_neg.v[0]));
}
