// Scans and combine-function reductions: cumsum, cumprod,
// associative_scan (one tile or a tuple), tl::reduce and xor_sum, each
// compared with a plain C++ loop; their dtype rules, their build errors,
// and undefined lanes reaching a scan.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <vector>

#include "findings.h"
#include "scan_fixture.h"

using namespace scan_fixture;
using tl::DType;

namespace {

std::vector<double> wave(int n, double scale = 1.0) {
  std::vector<double> v;
  for (int i = 0; i < n; ++i) v.push_back(scale * (std::fmod(i * 0.6180339887, 1.0) - 0.5));
  return v;
}

// The running f32 sum, one rounding per add, left to right.
std::vector<double> f32_cumsum(const std::vector<double>& x, bool reverse) {
  std::vector<double> out(x.size());
  float acc = 0;
  for (size_t s = 0; s < x.size(); ++s) {
    size_t i = reverse ? x.size() - 1 - s : s;
    acc = s == 0 ? static_cast<float>(x[i]) : acc + static_cast<float>(x[i]);
    out[i] = acc;
  }
  return out;
}

}  // namespace

TEST_CASE("cumsum of f32 adds left to right, as a C++ loop does") {
  auto x = buffer("x", DType::f32, wave(64, 3.0));
  auto y = zeros("y", DType::f32, 64), z = zeros("z", DType::f32, 1);
  run([](const P& p) {
    auto i = tl::arange(0, 64);
    tl::store(p.y + i, tl::cumsum(tl::load(p.x + i)));
  }, x, y, z);
  CHECK(values(y) == f32_cumsum(values(x), false));
}

TEST_CASE("a reverse cumsum adds from the end") {
  auto x = buffer("x", DType::f32, wave(32, 5.0));
  auto y = zeros("y", DType::f32, 32), z = zeros("z", DType::f32, 1);
  run([](const P& p) {
    auto i = tl::arange(0, 32);
    tl::store(p.y + i, tl::cumsum(tl::load(p.x + i), 0, true));
  }, x, y, z);
  CHECK(values(y) == f32_cumsum(values(x), true));
}

TEST_CASE("cumsum along each axis of a 2-D tile") {
  std::vector<double> v;
  for (int i = 0; i < 32; ++i) v.push_back(i % 7 - 3);
  auto x = buffer("x", DType::i32, v);
  auto y = zeros("y", DType::i32, 32), z = zeros("z", DType::i32, 32);
  run([](const P& p) {
    auto r = tl::arange(0, 4).col(), c = tl::arange(0, 8).row();
    auto t = tl::load(p.x + r * 8 + c);
    tl::store(p.y + r * 8 + c, tl::cumsum(t, 0));
    tl::store(p.z + r * 8 + c, tl::cumsum(t, -1));
  }, x, y, z);
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 8; ++c) {
      double down = 0, across = 0;
      for (int k = 0; k <= r; ++k) down += v[k * 8 + c];
      for (int k = 0; k <= c; ++k) across += v[r * 8 + k];
      CHECK(y.get(r * 8 + c) == down);
      CHECK(z.get(r * 8 + c) == across);
    }
}

TEST_CASE("cumsum of i8 widens to i32 like sum, with dtype=i8 it wraps") {
  auto x = buffer("x", DType::i8, std::vector<double>(16, 100));
  auto y = zeros("y", DType::i32, 16), z = zeros("z", DType::i8, 16);
  DType widened = DType::i1;
  run([&](const P& p) {
    auto i = tl::arange(0, 16);
    auto t = tl::load(p.x + i);
    auto s = tl::cumsum(t);
    widened = s.dtype();
    tl::store(p.y + i, s);
    tl::store(p.z + i, tl::cumsum(t, 0, false, DType::i8));
  }, x, y, z);
  CHECK(widened == DType::i32);
  int8_t wrap = 0;
  for (int i = 0; i < 16; ++i) {
    CHECK(y.get(i) == 100.0 * (i + 1));
    wrap = static_cast<int8_t>(static_cast<uint8_t>(wrap) + 100u);
    CHECK(z.get(i) == wrap);
  }
}

TEST_CASE("cumsum of u16 widens to u32 and of i1 to u32 (i1 is unsigned)") {
  DType a = DType::i1, b = DType::i1;
  auto ir = ir_of([&](const P& p) {
    auto i = tl::arange(0, 16);
    a = tl::cumsum(tl::load(p.x + i)).dtype();
    b = tl::cumsum(tl::load(p.y + i) > 0).dtype();
  }, {DType::u16, DType::f32, DType::f32});
  CHECK(a == DType::u32);
  CHECK(b == DType::u32);
  CHECK(tl::ir::verify(*ir).empty());
}

TEST_CASE("cumprod of i32 wraps like a C++ product in unsigned arithmetic") {
  std::vector<double> v;
  for (int i = 0; i < 16; ++i) v.push_back(i % 5 + 3);
  auto x = buffer("x", DType::i32, v);
  auto y = zeros("y", DType::i32, 16), z = zeros("z", DType::i32, 1);
  run([](const P& p) {
    auto i = tl::arange(0, 16);
    tl::store(p.y + i, tl::cumprod(tl::load(p.x + i)));
  }, x, y, z);
  uint32_t acc = 1;
  for (int i = 0; i < 16; ++i) {
    acc *= static_cast<uint32_t>(v[i]);
    CHECK(y.get(i) == static_cast<int32_t>(acc));
  }
}

TEST_CASE("associative_scan with a user combine function: a running maximum, both directions") {
  auto x = buffer("x", DType::f32, wave(32, 10.0));
  auto y = zeros("y", DType::f32, 32), z = zeros("z", DType::f32, 32);
  run([](const P& p) {
    auto i = tl::arange(0, 32);
    auto t = tl::load(p.x + i);
    auto mx = [](const tl::Tensor& a, const tl::Tensor& b) { return tl::where(a > b, a, b); };
    tl::store(p.y + i, tl::associative_scan(t, 0, mx));
    tl::store(p.z + i, tl::associative_scan(t, 0, mx, true));
  }, x, y, z);
  std::vector<double> v = values(x);
  for (int i = 0; i < 32; ++i) {
    double f = v[0], b = v[31];
    for (int k = 1; k <= i; ++k) f = std::max(f, v[k]);
    for (int k = 30; k >= i; --k) b = std::max(b, v[k]);
    CHECK(y.get(i) == f);
    CHECK(z.get(i) == b);
  }
}

TEST_CASE("associative_scan of a tuple: running (max, index of max), first index on ties") {
  std::vector<double> v = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 9, 7, 9, 3, 2};
  auto x = buffer("x", DType::i32, v);
  auto y = zeros("y", DType::i32, 16), z = zeros("z", DType::i32, 16);
  run([](const P& p) {
    auto i = tl::arange(0, 16);
    auto out = tl::associative_scan({tl::load(p.x + i), i}, 0,
                                    [](const std::vector<tl::Tensor>& a, const std::vector<tl::Tensor>& b) {
                                      auto take = b[0] > a[0];
                                      return std::vector<tl::Tensor>{tl::where(take, b[0], a[0]),
                                                                     tl::where(take, b[1], a[1])};
                                    });
    tl::store(p.y + i, out[0]);
    tl::store(p.z + i, out[1]);
  }, x, y, z);
  double best = v[0];
  int at = 0;
  for (int i = 0; i < 16; ++i) {
    if (v[i] > best) best = v[i], at = i;
    CHECK(y.get(i) == best);
    CHECK(z.get(i) == at);
  }
}

TEST_CASE("tl::reduce folds left to right, keep_dims and no axis") {
  std::vector<double> v;
  for (int i = 0; i < 32; ++i) v.push_back((i % 3) + 1);
  auto x = buffer("x", DType::i32, v);
  auto y = zeros("y", DType::i32, 8), z = zeros("z", DType::i32, 1);
  tl::Shape kept;
  run([&](const P& p) {
    auto r = tl::arange(0, 4).col(), c = tl::arange(0, 8).row();
    auto t = tl::load(p.x + r * 8 + c);
    auto mul = [](const tl::Tensor& a, const tl::Tensor& b) { return a * b; };
    auto down = tl::reduce(t, 0, mul, true);
    kept = down.shape();
    tl::store(p.y + c, down);
    tl::store(p.z, tl::reduce(t, std::nullopt, [](const tl::Tensor& a, const tl::Tensor& b) { return a - b; }));
  }, x, y, z);
  CHECK(kept == tl::Shape{1, 8});
  for (int c = 0; c < 8; ++c) {
    double prod = 1;
    for (int r = 0; r < 4; ++r) prod *= v[r * 8 + c];
    CHECK(y.get(c) == prod);
  }
  double left = v[0];  // ((x0 - x1) - x2) - ...: the fold order shows
  for (int i = 1; i < 32; ++i) left -= v[i];
  CHECK(z.get(0) == left);
}

TEST_CASE("tl::reduce of a tuple gives one result per operand") {
  std::vector<double> v = {2, 7, 1, 8, 2, 8, 1, 8, 2, 8, 4, 5, 9, 0, 4, 5};
  auto x = buffer("x", DType::f32, v);
  auto y = zeros("y", DType::f32, 1), z = zeros("z", DType::i32, 1);
  run([](const P& p) {
    auto i = tl::arange(0, 16);
    auto out = tl::reduce({tl::load(p.x + i), i}, 0,
                          [](const std::vector<tl::Tensor>& a, const std::vector<tl::Tensor>& b) {
                            auto take = b[0] < a[0];
                            return std::vector<tl::Tensor>{tl::where(take, b[0], a[0]), tl::where(take, b[1], a[1])};
                          });
    tl::store(p.y, out[0]);
    tl::store(p.z, out[1]);
  }, x, y, z);
  CHECK(y.get(0) == 0);
  CHECK(z.get(0) == 13);
}

TEST_CASE("xor_sum of integers, per axis and over everything") {
  std::vector<double> v;
  for (int i = 0; i < 32; ++i) v.push_back((i * 37 + 11) % 256 - 128);
  auto x = buffer("x", DType::i8, v);
  auto y = zeros("y", DType::i8, 4), z = zeros("z", DType::i8, 1);
  DType d = DType::i1;
  run([&](const P& p) {
    auto r = tl::arange(0, 4).col(), c = tl::arange(0, 8).row();
    auto t = tl::load(p.x + r * 8 + c);
    auto rows = tl::xor_sum(t, 1);
    d = rows.dtype();
    tl::store(p.y + tl::arange(0, 4), rows);
    tl::store(p.z, tl::xor_sum(t));
  }, x, y, z);
  CHECK(d == DType::i8);
  int8_t all = 0;
  for (int r = 0; r < 4; ++r) {
    int8_t acc = 0;
    for (int c = 0; c < 8; ++c) acc = static_cast<int8_t>(acc ^ static_cast<int8_t>(v[r * 8 + c]));
    CHECK(y.get(r) == acc);
    all = static_cast<int8_t>(all ^ acc);
  }
  CHECK(z.get(0) == all);
}

TEST_CASE("xor_sum of floats is a build error") {
  auto e = build_error([](const P& p) {
    g_line = __LINE__; tl::xor_sum(tl::load(p.x + tl::arange(0, 16)));
  });
  REQUIRE(e);
  CHECK(e->message().find("xor_sum only supported for integers") != std::string::npos);
  CHECK(static_cast<int>(e->loc().line) == g_line);
}

TEST_CASE("a scan axis out of range is a build error at the kernel line") {
  auto e = build_error([](const P& p) {
    auto t = tl::load(p.x + tl::arange(0, 16));
    g_line = __LINE__; tl::cumsum(t, 1);
  });
  REQUIRE(e);
  INFO(e->what());
  CHECK(e->message().find("cumsum: axis 1 is out of range for a tile f32[16]") != std::string::npos);
  CHECK(static_cast<int>(e->loc().line) == g_line);
  CHECK(e->loc().file.find("test_scans.cpp") != std::string::npos);
  CHECK(std::string(e->what()).find("error:") != std::string::npos);
}

TEST_CASE("a scan of a 0-d tensor is a build error") {
  auto e = build_error([](const P& p) {
    g_line = __LINE__; tl::cumprod(tl::load(p.x));
  });
  REQUIRE(e);
  CHECK(e->message().find("along an axis of a 0-d tensor") != std::string::npos);
  CHECK(static_cast<int>(e->loc().line) == g_line);
}

TEST_CASE("a combine function that changes the dtype is a build error") {
  auto e = build_error([](const P& p) {
    auto t = tl::load(p.x + tl::arange(0, 16));
    g_line = __LINE__; tl::associative_scan(t, 0, [](const tl::Tensor& a, const tl::Tensor& b) { return (a + b).to(DType::f64); });
  });
  REQUIRE(e);
  CHECK(e->message().find("returned f64 for operand 0, expected f32") != std::string::npos);
}

TEST_CASE("a combine function may not use tiles from outside it, nor load") {
  auto outside = build_error([](const P& p) {
    auto t = tl::load(p.x + tl::arange(0, 16));
    auto s = tl::load(p.y);
    tl::associative_scan(t, 0, [&](const tl::Tensor& a, const tl::Tensor& b) { return a + b * s; });
  });
  REQUIRE(outside);
  CHECK(outside->message().find("uses a tile from outside it") != std::string::npos);
  auto load = build_error([](const P& p) {
    auto t = tl::load(p.x + tl::arange(0, 16));
    tl::reduce(t, 0, [&](const tl::Tensor& a, const tl::Tensor&) { return a + tl::load(p.y); });
  });
  REQUIRE(load);
  CHECK(load->message().find("`load` inside a combine function") != std::string::npos);
}

TEST_CASE("the IR prints a scan with its combine block and verifies") {
  auto ir = ir_of([](const P& p) {
    auto i = tl::arange(0, 16);
    tl::store(p.y + i, tl::cumsum(tl::load(p.x + i), 0, true));
  }, {DType::f32, DType::f32, DType::f32});
  std::string text = tl::ir::print(*ir);
  INFO(text);
  CHECK(text.find("scan axis=0 reverse") != std::string::npos);
  CHECK(text.find("combine(") != std::string::npos);
  CHECK(text.find("yield") != std::string::npos);
  CHECK(tl::ir::verify(*ir).empty());
}

TEST_CASE("masked-off lanes without `other` reaching a cumsum are a finding at the cumsum's line and lane") {
  auto x = buffer("x", DType::f32, wave(16));
  auto y = zeros("y", DType::f32, 32), z = zeros("z", DType::f32, 1);
  int line = 0;
  auto r = run([&](const P& p) {
    auto i = tl::arange(0, 16);
    auto t = tl::load(p.x + i, i < 12);
    line = __LINE__; auto c = tl::cumsum(t);
    tl::store(p.y + tl::program_id(0) * 16 + i, c, i < 12);
  }, x, y, z, tl::Grid{2});
  const tl::Finding* f = nullptr;
  for (const tl::Finding& g : r.findings)
    if (g.kind == tl::FindingKind::UndefinedValueUsed) f = &g;
  REQUIRE(f);
  CHECK(static_cast<int>(r.locations.at(f->loc).line) == line);
  CHECK(f->lanes == 8);  // lanes 12..15 in each of the two programs
  CHECK(f->programs == 2);
  REQUIRE(!f->examples.empty());
  CHECK(f->examples[0].lane == 12);
  CHECK(f->examples[0].pid == std::array<int64_t, 3>{0, 0, 0});
}

TEST_CASE("a reverse cumsum carries undefined lanes to every earlier output") {
  auto x = buffer("x", DType::f32, wave(16));
  auto y = zeros("y", DType::f32, 16), z = zeros("z", DType::f32, 1);
  auto r = run([](const P& p) {
    auto i = tl::arange(0, 16);
    auto c = tl::cumsum(tl::load(p.x + i, i < 12), 0, true);
    tl::store(p.y + i, c, i < 4);  // lanes 0..3 depend on the undefined lanes 12..15
  }, x, y, z);
  int stored = 0;
  for (const tl::Finding& g : r.findings)
    if (g.kind == tl::FindingKind::UndefinedValueUsed && g.buffer >= 0) stored += static_cast<int>(g.lanes);
  CHECK(stored == 4);
}
