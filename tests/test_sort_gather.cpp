// Sort, flip, join/split, interleave, gather and histogram, each
// compared with plain C++: NaN and ties in sort, every axis of flip and
// gather, gather indices out of range (an IndexOutOfRange finding, never a
// read outside the tile), histogram masks, and the build errors.
#include <catch2/catch.hpp>
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "findings.h"
#include "scan_fixture.h"

using namespace scan_fixture;
using tl::DType;

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::vector<double> mixed(int n) {
  std::vector<double> v;
  for (int i = 0; i < n; ++i) v.push_back(std::fmod(i * 7.0 + 3.0, 11.0) - 5.0);  // ties included
  return v;
}
}  // namespace

TEST_CASE("sort orders each row of a 2-D tile, ascending and descending") {
  auto v = mixed(64);
  auto x = buffer("x", DType::f32, v);
  auto y = zeros("y", DType::f32, 64), z = zeros("z", DType::f32, 64);
  run([](const P& p) {
    auto r = tl::arange(0, 4).col(), c = tl::arange(0, 16).row();
    auto t = tl::load(p.x + r * 16 + c);
    tl::store(p.y + r * 16 + c, tl::sort(t));
    tl::store(p.z + r * 16 + c, tl::sort(t, 1, true));
  }, x, y, z);
  for (int r = 0; r < 4; ++r) {
    std::vector<double> row(v.begin() + r * 16, v.begin() + r * 16 + 16);
    std::sort(row.begin(), row.end());
    for (int c = 0; c < 16; ++c) {
      CHECK(y.get(r * 16 + c) == row[c]);
      CHECK(z.get(r * 16 + c) == row[15 - c]);
    }
  }
}

TEST_CASE("sort puts NaN above every number, and is stable for equal values (-0.0 before 0.0 as given)") {
  std::vector<double> v = {3, kNaN, -1, 0.0, -0.0, 2, kNaN, -5};
  auto x = buffer("x", DType::f32, v);
  auto y = zeros("y", DType::f32, 8), z = zeros("z", DType::f32, 8);
  run([](const P& p) {
    auto i = tl::arange(0, 8);
    auto t = tl::load(p.x + i);
    tl::store(p.y + i, tl::sort(t));
    tl::store(p.z + i, tl::sort(t, std::nullopt, true));
  }, x, y, z);
  std::vector<double> up = values(y), down = values(z);
  CHECK(up[0] == -5);
  CHECK(up[1] == -1);
  CHECK(up[2] == 0.0);
  CHECK(!std::signbit(up[2]));  // 0.0 came first in the input
  CHECK(std::signbit(up[3]));
  CHECK(up[4] == 2);
  CHECK(up[5] == 3);
  CHECK(std::isnan(up[6]));
  CHECK(std::isnan(up[7]));
  CHECK(std::isnan(down[0]));
  CHECK(std::isnan(down[1]));
  CHECK(down[2] == 3);
  CHECK(!std::signbit(down[4]));
  CHECK(std::signbit(down[5]));
  CHECK(down[7] == -5);
}

TEST_CASE("sort of integers, u8 included (no sign games)") {
  std::vector<double> v;
  for (int i = 0; i < 32; ++i) v.push_back((i * 97 + 13) % 256);
  auto x = buffer("x", DType::u8, v);
  auto y = zeros("y", DType::u8, 32), z = zeros("z", DType::u8, 1);
  run([](const P& p) {
    auto i = tl::arange(0, 32);
    tl::store(p.y + i, tl::sort(tl::load(p.x + i)));
  }, x, y, z);
  std::sort(v.begin(), v.end());
  CHECK(values(y) == v);
}

TEST_CASE("sort along any dim but the last is a build error") {
  auto e = build_error([](const P& p) {
    auto t = tl::load(p.x + tl::arange(0, 4).col() * 8 + tl::arange(0, 8).row());
    g_line = __LINE__; tl::sort(t, 0);
  });
  REQUIRE(e);
  INFO(e->what());
  CHECK(e->message().find("only the last dim can be sorted") != std::string::npos);
  CHECK(static_cast<int>(e->loc().line) == g_line);
  auto range = build_error([](const P& p) {
    auto t = tl::load(p.x + tl::arange(0, 8));
    g_line = __LINE__; tl::flip(t, 3);
  });
  REQUIRE(range);
  CHECK(range->message().find("flip: dim 3 is out of range for a tile f32[8]") != std::string::npos);
  CHECK(static_cast<int>(range->loc().line) == g_line);
}

TEST_CASE("flip reverses the given dim, the last by default") {
  std::vector<double> v;
  for (int i = 0; i < 32; ++i) v.push_back(i);
  auto x = buffer("x", DType::i32, v);
  auto y = zeros("y", DType::i32, 32), z = zeros("z", DType::i32, 32);
  run([](const P& p) {
    auto r = tl::arange(0, 4).col(), c = tl::arange(0, 8).row();
    auto t = tl::load(p.x + r * 8 + c);
    tl::store(p.y + r * 8 + c, tl::flip(t, 0));
    tl::store(p.z + r * 8 + c, tl::flip(t));
  }, x, y, z);
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 8; ++c) {
      CHECK(y.get(r * 8 + c) == v[(3 - r) * 8 + c]);
      CHECK(z.get(r * 8 + c) == v[r * 8 + (7 - c)]);
    }
}

TEST_CASE("join adds a minor dim of 2, split takes it apart again") {
  auto x = buffer("x", DType::f32, mixed(16));
  auto y = buffer("y", DType::f32, mixed(20));
  auto z = zeros("z", DType::f32, 64);
  tl::Shape joined;
  run([&](const P& p) {
    auto i = tl::arange(0, 16);
    auto a = tl::load(p.x + i), b = tl::load(p.y + i + 4);
    auto j = tl::join(a, b);
    joined = j.shape();
    tl::store(p.z + i.col() * 2 + tl::arange(0, 2).row(), j);
    auto [lo, hi] = tl::split(j);
    tl::store(p.z + 32 + i, hi - lo);
  }, x, y, z);
  CHECK(joined == tl::Shape{16, 2});
  for (int i = 0; i < 16; ++i) {
    CHECK(z.get(2 * i) == x.get(i));
    CHECK(z.get(2 * i + 1) == y.get(i + 4));
    CHECK(z.get(32 + i) == static_cast<float>(y.get(i + 4) - x.get(i)));
  }
}

TEST_CASE("join broadcasts its operands, split needs a last dim of 2") {
  tl::Shape s;
  ir_of([&](const P& p) {
    s = tl::join(tl::load(p.x + tl::arange(0, 8)), tl::load(p.y)).shape();
  }, {DType::f32, DType::f32, DType::f32});
  CHECK(s == tl::Shape{8, 2});
  auto e = build_error([](const P& p) {
    auto t = tl::load(p.x + tl::arange(0, 8));
    g_line = __LINE__; tl::split(t);
  });
  REQUIRE(e);
  CHECK(e->message().find("split needs a tile whose last dimension is 2, got f32[8]") != std::string::npos);
  CHECK(static_cast<int>(e->loc().line) == g_line);
  auto d = build_error([](const P& p) { tl::join(tl::load(p.x + tl::arange(0, 8)), tl::arange(0, 8)); });
  REQUIRE(d);
  CHECK(d->message().find("must have one dtype") != std::string::npos);
}

TEST_CASE("interleave puts a and b side by side along the last dim") {
  auto x = buffer("x", DType::i16, mixed(8));
  auto y = buffer("y", DType::i16, {10, 20, 30, 40, 50, 60, 70, 80});
  auto z = zeros("z", DType::i16, 16);
  run([](const P& p) {
    auto i = tl::arange(0, 8);
    tl::store(p.z + tl::arange(0, 16), tl::interleave(tl::load(p.x + i), tl::load(p.y + i)));
  }, x, y, z);
  for (int i = 0; i < 8; ++i) {
    CHECK(z.get(2 * i) == x.get(i));
    CHECK(z.get(2 * i + 1) == y.get(i));
  }
}

TEST_CASE("gather along each axis matches indexing in C++") {
  std::vector<double> v;
  for (int i = 0; i < 32; ++i) v.push_back(i * 1.5);
  auto x = buffer("x", DType::f32, v);
  auto y = zeros("y", DType::f32, 32), z = zeros("z", DType::f32, 32);
  run([](const P& p) {
    auto r = tl::arange(0, 4).col(), c = tl::arange(0, 8).row();
    auto t = tl::load(p.x + r * 8 + c);
    tl::store(p.y + r * 8 + c, tl::gather(t, (r * 3 + c) % 8, 1));
    tl::store(p.z + r * 8 + c, tl::gather(t, (c + r) % 4, 0));
  }, x, y, z);
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 8; ++c) {
      CHECK(y.get(r * 8 + c) == v[r * 8 + (r * 3 + c) % 8]);
      CHECK(z.get(r * 8 + c) == v[((c + r) % 4) * 8 + c]);
    }
}

TEST_CASE("gather with fewer index rows than the source gives the index's shape") {
  std::vector<double> v;
  for (int i = 0; i < 32; ++i) v.push_back(i);
  auto x = buffer("x", DType::i32, v);
  auto y = zeros("y", DType::i32, 16), z = zeros("z", DType::i32, 1);
  run([](const P& p) {
    auto t = tl::load(p.x + tl::arange(0, 4).col() * 8 + tl::arange(0, 8).row());
    auto idx = tl::full({2, 8}, 3, DType::i64) - tl::arange(0, 2).col();
    tl::store(p.y + tl::arange(0, 2).col() * 8 + tl::arange(0, 8).row(), tl::gather(t, idx, 0));
  }, x, y, z);
  for (int k = 0; k < 2; ++k)
    for (int c = 0; c < 8; ++c) CHECK(y.get(k * 8 + c) == v[(3 - k) * 8 + c]);
}

TEST_CASE("a gather index outside the source is an IndexOutOfRange finding at its lane, and reads nothing") {
  std::vector<double> v;
  for (int i = 0; i < 16; ++i) v.push_back(100 + i);
  auto x = buffer("x", DType::f32, v);
  auto y = zeros("y", DType::f32, 16), z = zeros("z", DType::f32, 1);
  int line = 0;
  auto r = run([&](const P& p) {
    auto i = tl::arange(0, 16);
    auto t = tl::load(p.x + i);
    line = __LINE__; auto g = tl::gather(t, 16 - i, 0);  // lane 0 asks for element 16
    tl::store(p.y + i, g);
  }, x, y, z);
  const tl::Finding* f = nullptr;
  for (const tl::Finding& g : r.findings)
    if (g.kind == tl::FindingKind::IndexOutOfRange) f = &g;
  REQUIRE(f);
  CHECK(f->lanes == 1);
  CHECK(static_cast<int>(r.locations.at(f->loc).line) == line);
  REQUIRE(f->examples.size() == 1);
  CHECK(f->examples[0].lane == 0);
  CHECK(f->examples[0].detail == "index 16 is outside [0, 16) along axis 0");
  CHECK(y.get(0) == 0);
  for (int i = 1; i < 16; ++i) CHECK(y.get(i) == v[16 - i]);
  std::string text = tl::format_finding(*f, tl::context_of(r));
  INFO(text);
  CHECK(text.find("gather index out of range in program (0, 0, 0), lane [0]") != std::string::npos);
  CHECK(std::string(tl::finding_kind_name(f->kind)) == "index out of range");
}

TEST_CASE("negative gather indices are findings too") {
  auto x = buffer("x", DType::i32, mixed(8));
  auto y = zeros("y", DType::i32, 8), z = zeros("z", DType::i32, 1);
  auto r = run([](const P& p) {
    auto i = tl::arange(0, 8);
    tl::store(p.y + i, tl::gather(tl::load(p.x + i), i - 2, 0));
  }, x, y, z);
  REQUIRE(r.findings.size() == 1);
  CHECK(r.findings[0].kind == tl::FindingKind::IndexOutOfRange);
  CHECK(r.findings[0].lanes == 2);
}

TEST_CASE("gather's index must match the source off the axis and be integers") {
  auto e = build_error([](const P& p) {
    auto t = tl::load(p.x + tl::arange(0, 4).col() * 8 + tl::arange(0, 8).row());
    g_line = __LINE__; tl::gather(t, tl::zeros({4, 4}, DType::i32), 0);
  });
  REQUIRE(e);
  INFO(e->what());
  CHECK(e->message().find("differ on dim 1") != std::string::npos);
  CHECK(static_cast<int>(e->loc().line) == g_line);
  auto f = build_error([](const P& p) {
    auto t = tl::load(p.x + tl::arange(0, 8));
    tl::gather(t, tl::load(p.y + tl::arange(0, 8)), 0);
  });
  REQUIRE(f);
  CHECK(f->message().find("gather's index must be an integer tile") != std::string::npos);
}

TEST_CASE("histogram counts values 0 up to num_bins - 1, skips others and masked-off lanes") {
  std::vector<double> v = {0, 1, 1, 3, 7, 8, -1, 3, 3, 2, 0, 5, 9, 100, 4, 3};
  auto x = buffer("x", DType::i32, v);
  auto y = zeros("y", DType::i32, 8), z = zeros("z", DType::i32, 8);
  run([](const P& p) {
    auto i = tl::arange(0, 16);
    auto t = tl::load(p.x + i);
    tl::store(p.y + tl::arange(0, 8), tl::histogram(t, 8));
    tl::store(p.z + tl::arange(0, 8), tl::histogram(t, 8, i < 8));
  }, x, y, z);
  for (int b = 0; b < 8; ++b) {
    int all = 0, first = 0;
    for (int i = 0; i < 16; ++i) {
      all += v[i] == b;
      first += i < 8 && v[i] == b;
    }
    CHECK(y.get(b) == all);
    CHECK(z.get(b) == first);
  }
}

TEST_CASE("histogram's num_bins must be a power of two, floats are rejected") {
  auto e = build_error([](const P& p) {
    g_line = __LINE__; tl::histogram(tl::load(p.x + tl::arange(0, 8)), 6);
  }, {DType::i32, DType::f32, DType::f32});
  REQUIRE(e);
  CHECK(e->message().find("num_bins = 6 must be a power of two") != std::string::npos);
  CHECK(static_cast<int>(e->loc().line) == g_line);
  auto f = build_error([](const P& p) { tl::histogram(tl::load(p.x + tl::arange(0, 8)), 8); });
  REQUIRE(f);
  CHECK(f->message().find("histogram only supports integer input") != std::string::npos);
}

TEST_CASE("masked-off lanes without `other` reaching a sort are a finding at the sort") {
  auto x = buffer("x", DType::f32, mixed(16));
  auto y = zeros("y", DType::f32, 16), z = zeros("z", DType::f32, 1);
  int line = 0;
  auto r = run([&](const P& p) {
    auto i = tl::arange(0, 16);
    auto t = tl::load(p.x + i, i < 10);
    line = __LINE__; auto s = tl::sort(t);
    tl::store(p.y + i, s, i < 10);
  }, x, y, z);
  bool at_sort = false, at_store = false;
  for (const tl::Finding& g : r.findings) {
    if (g.kind != tl::FindingKind::UndefinedValueUsed) continue;
    if (g.buffer < 0) {
      at_sort = static_cast<int>(r.locations.at(g.loc).line) == line && g.lanes == 6;
      REQUIRE(!g.examples.empty());
      CHECK(g.examples[0].lane == 10);
    } else {
      at_store = true;  // after a sort any lane may hold an undefined value
    }
  }
  CHECK(at_sort);
  CHECK(at_store);
}

TEST_CASE("flip, join, split and gather carry taint lane by lane") {
  auto x = buffer("x", DType::f32, mixed(16));
  auto y = zeros("y", DType::f32, 16), z = zeros("z", DType::f32, 1);
  auto r = run([](const P& p) {
    auto i = tl::arange(0, 16);
    auto t = tl::load(p.x + i, i < 15);           // lane 15 undefined
    auto f = tl::flip(t);                         // now lane 0
    auto [a, b] = tl::split(tl::join(f, f));
    tl::store(p.y + i, tl::gather(a + b, i, 0), i > 0);  // lane 0 masked: nothing undefined stored
  }, x, y, z);
  for (const tl::Finding& g : r.findings) CHECK(g.kind != tl::FindingKind::UndefinedValueUsed);
}

TEST_CASE("an IndexOutOfRange finding survives the trace JSON, with its detail") {
  auto x = buffer("x", DType::i32, mixed(8));
  auto y = zeros("y", DType::i32, 8), z = zeros("z", DType::i32, 1);
  g_body = [](const P& p) {
    auto i = tl::arange(0, 8);
    tl::store(p.y + i, tl::gather(tl::load(p.x + i), i + 1, 0));
  };
  tl::KernelDef k("k", kernel, {"x", "y", "z"});
  tl::RunOptions opt;
  opt.trace = tl::TraceMode::Full;
  tl::RunResult r = tl::run(k, {}, {x, y, z}, opt);
  REQUIRE(r.trace);
  const std::string text = tl::trace_to_json(*r.trace);
  CHECK(text.find("\"index_out_of_range\"") != std::string::npos);
  tl::Trace back = tl::trace_from_json(text);
  REQUIRE(back.findings.size() == 1);
  CHECK(back.findings[0].kind == tl::FindingKind::IndexOutOfRange);
  REQUIRE(back.findings[0].examples.size() == 1);
  CHECK(back.findings[0].examples[0].lane == 7);
  CHECK(back.findings[0].examples[0].detail == "index 8 is outside [0, 8) along axis 0");
}
