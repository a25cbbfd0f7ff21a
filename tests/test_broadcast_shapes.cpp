// Making and reshaping tiles (SEMANTICS §6, §9): right-aligned broadcasting,
// expand_dims/col/row, reshape (row-major), trans/permute, broadcast_to, and
// how load/store operands broadcast against the pointer tile.
#include <catch2/catch.hpp>
#include <functional>
#include <string>
#include <vector>

#include "error.h"
#include "interpreter.h"
#include "tl.h"

namespace {

using tl::DType;
using Shape = tl::Shape;

struct P {
  const tl::Ptr& a;
  const tl::Ptr& b;
};
std::function<void(const P&)> g_body;
void body2(tl::Ptr a, tl::Ptr b) { g_body(P{a, b}); }

// Runs `body` as one program over buffers a (input) and b (output).
tl::RunResult launch(std::function<void(const P&)> body, tl::Buffer& a, tl::Buffer& b) {
  g_body = std::move(body);
  tl::KernelDef k("shapes", body2);
  return tl::run(k, {}, {a, b});
}

// The BuildError a body raises (message empty when the build succeeds).
std::string build_error(std::function<void(const P&)> body) {
  g_body = std::move(body);
  tl::KernelDef k("shapes", body2);
  try {
    k.specialize(tl::Specialization{{DType::f32, DType::f32}, {0, 0}});
  } catch (const tl::BuildError& e) {
    return e.message();
  }
  return "";
}

Shape shape_of(std::function<tl::Tensor()> f) {
  Shape s;
  REQUIRE(build_error([&](const P&) { s = f().shape(); }).empty());
  return s;
}

// Row-major element offsets of a tile of shape s, built per axis.
tl::Tensor offsets(const Shape& s) {
  const int r = static_cast<int>(s.size());
  tl::Tensor off = tl::zeros(Shape(r, 1), tl::i32);
  int64_t stride = 1;
  for (int ax = r - 1; ax >= 0; --ax) {
    std::vector<int> others;
    for (int i = 0; i < r; ++i)
      if (i != ax) others.push_back(i);
    tl::Tensor idx = tl::arange(0, s[ax]);
    if (!others.empty()) idx = tl::expand_dims(idx, others);
    off = off + idx * static_cast<int>(stride);
    stride *= s[ax];
  }
  return off;
}

// Stores tile x row-major into p.
void store_tile(const tl::Ptr& p, const tl::Tensor& x) { tl::store(p + offsets(x.shape()), x); }

// Runs f (which may load from `in`, holding 0, 1, 2, ...) and returns the
// stored tile's values and shape.
struct Tile {
  Shape shape;
  std::vector<double> v;
};
Tile eval(std::function<tl::Tensor(const tl::Ptr& in)> f, int64_t n_in = 64) {
  tl::Buffer in("in", DType::f32, {n_in}), out("out", DType::f32, {4096});
  for (int64_t i = 0; i < n_in; ++i) in.set(i, static_cast<double>(i));
  out.fill(-999);
  Shape s;
  launch(
      [&](const P& p) {
        tl::Tensor x = f(p.a).to(tl::f32);
        s = x.shape();
        store_tile(p.b, x);
      },
      in, out);
  Tile t{s, {}};
  for (int64_t i = 0; i < tl::ir::numel(s); ++i) t.v.push_back(out.get(i));
  return t;
}

}  // namespace

TEST_CASE("a 1-D tile broadcasts as a row against a column: [B0] with [B1, 1] gives [B1, B0]") {
  auto t = eval([](const tl::Ptr&) { return tl::arange(0, 4) + tl::arange(0, 2).col() * 10; });
  REQUIRE(t.shape == Shape{2, 4});
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 4; ++j) CHECK(t.v[i * 4 + j] == 10 * i + j);
}

TEST_CASE("shapes are right-aligned and size-1 axes stretch") {
  CHECK(shape_of([] { return tl::zeros({2, 1, 8}) + tl::zeros({4, 1}); }) == Shape{2, 4, 8});
  CHECK(shape_of([] { return tl::zeros({1, 4}) * tl::zeros({8, 1}); }) == Shape{8, 4});
  CHECK(shape_of([] { return tl::zeros({4, 8}) + tl::zeros({8}); }) == Shape{4, 8});
  CHECK(shape_of([] { return tl::zeros({1}) + tl::zeros({16}); }) == Shape{16});
}

TEST_CASE("literals and 0-d tensors splat over any tile") {
  auto t = eval([](const tl::Ptr& in) { return tl::zeros({2, 4}) + tl::load(in + 3) + tl::program_id(0) + 1; });
  REQUIRE(t.shape == Shape{2, 4});
  for (double v : t.v) CHECK(v == 4.0);
  CHECK(shape_of([] { return tl::program_id(0) + 1; }) == Shape{});
}

TEST_CASE("incompatible shapes are a build error naming both") {
  auto m = build_error([](const P&) { (void)(tl::arange(0, 4) + tl::arange(0, 8)); });
  CHECK(m.find("[4]") != std::string::npos);
  CHECK(m.find("[8]") != std::string::npos);
  auto m2 = build_error([](const P&) { (void)(tl::zeros({2, 4}) * tl::zeros({4, 2})); });
  CHECK(m2.find("[2, 4]") != std::string::npos);
  CHECK(m2.find("[4, 2]") != std::string::npos);
  CHECK_FALSE(build_error([](const P&) { (void)tl::where(tl::zeros({4}) > 0, tl::zeros({8}), 0.0f); }).empty());
}

TEST_CASE("expand_dims inserts a size-1 axis at the result's index") {
  CHECK(shape_of([] { return tl::expand_dims(tl::arange(0, 4), 0); }) == Shape{1, 4});
  CHECK(shape_of([] { return tl::expand_dims(tl::arange(0, 4), 1); }) == Shape{4, 1});
  CHECK(shape_of([] { return tl::expand_dims(tl::arange(0, 4), -1); }) == Shape{4, 1});
  CHECK(shape_of([] { return tl::expand_dims(tl::arange(0, 4), -2); }) == Shape{1, 4});
  CHECK(shape_of([] { return tl::zeros({2, 4}).expand_dims(1); }) == Shape{2, 1, 4});
  CHECK(shape_of([] { return tl::zeros({2, 4}).expand_dims(-1); }) == Shape{2, 4, 1});
  CHECK(shape_of([] { return tl::expand_dims(tl::arange(0, 4), std::vector<int>{0, 2}); }) == Shape{1, 4, 1});
  CHECK(shape_of([] { return tl::expand_dims(tl::zeros({2, 4}), std::vector<int>{0, -1}); }) == Shape{1, 2, 4, 1});
  CHECK(shape_of([] { return tl::arange(0, 8).col(); }) == Shape{8, 1});
  CHECK(shape_of([] { return tl::arange(0, 8).row(); }) == Shape{1, 8});
  CHECK_FALSE(build_error([](const P&) { (void)tl::expand_dims(tl::arange(0, 4), 2); }).empty());
  CHECK_FALSE(build_error([](const P&) { (void)tl::zeros({2, 2}).col(); }).empty());
}

TEST_CASE("expand_dims keeps the values in order") {
  auto t = eval([](const tl::Ptr& in) { return tl::load(in + tl::arange(0, 8)).expand_dims(0).expand_dims(2); });
  REQUIRE(t.shape == Shape{1, 8, 1});
  for (int i = 0; i < 8; ++i) CHECK(t.v[i] == i);
}

TEST_CASE("col and row build an outer product") {
  auto t = eval([](const tl::Ptr& in) {
    return tl::load(in + tl::arange(0, 4)).col() * 100 + tl::load(in + tl::arange(0, 8)).row();
  });
  REQUIRE(t.shape == Shape{4, 8});
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 8; ++j) CHECK(t.v[i * 8 + j] == 100 * i + j);
}

TEST_CASE("reshape keeps the count and row-major order") {
  auto t = eval([](const tl::Ptr& in) { return tl::load(in + tl::arange(0, 8)).reshape({2, 4}); });
  REQUIRE(t.shape == Shape{2, 4});
  for (int i = 0; i < 8; ++i) CHECK(t.v[i] == i);
  auto u = eval([](const tl::Ptr& in) { return tl::reshape(tl::load(in + tl::arange(0, 16)).reshape({4, 4}), {2, 2, 4}); });
  REQUIRE(u.shape == Shape{2, 2, 4});
  for (int i = 0; i < 16; ++i) CHECK(u.v[i] == i);
  // Reshaping a transposed tile reads it in its new (row-major) order.
  auto w = eval([](const tl::Ptr& in) { return tl::load(in + offsets({2, 4})).trans().reshape({8}); });
  std::vector<double> want{0, 4, 1, 5, 2, 6, 3, 7};
  REQUIRE(w.shape == Shape{8});
  CHECK(w.v == want);
}

TEST_CASE("reshape to another element count or a non-power-of-two shape is an error") {
  auto m = build_error([](const P&) { (void)tl::arange(0, 8).reshape({4, 4}); });
  CHECK(m.find("[8]") != std::string::npos);
  CHECK(m.find("[4, 4]") != std::string::npos);
  CHECK(build_error([](const P&) { (void)tl::arange(0, 8).reshape({8}); }).empty());
  CHECK_FALSE(build_error([](const P&) { (void)tl::zeros({12}); }).empty());
  CHECK_FALSE(build_error([](const P&) { (void)tl::full({4, 3}, 1.0f, tl::f32); }).empty());
}

TEST_CASE("trans swaps the axes of a 2-D tile") {
  auto t = eval([](const tl::Ptr& in) { return tl::trans(tl::load(in + offsets({2, 8}))); });
  REQUIRE(t.shape == Shape{8, 2});
  for (int j = 0; j < 8; ++j)
    for (int i = 0; i < 2; ++i) CHECK(t.v[j * 2 + i] == i * 8 + j);
  CHECK_FALSE(build_error([](const P&) { (void)tl::trans(tl::zeros({2, 2, 2})); }).empty());
  CHECK_FALSE(build_error([](const P&) { (void)tl::trans(tl::arange(0, 4)); }).empty());
}

TEST_CASE("permute reorders any axes: result axis i is input axis dims[i]") {
  auto t = eval([](const tl::Ptr& in) { return tl::load(in + offsets({2, 4, 8})).permute({2, 0, 1}); });
  REQUIRE(t.shape == Shape{8, 2, 4});
  for (int k = 0; k < 8; ++k)
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 4; ++j) CHECK(t.v[(k * 2 + i) * 4 + j] == (i * 4 + j) * 8 + k);
  auto id = eval([](const tl::Ptr& in) { return tl::permute(tl::load(in + offsets({4, 8})), {0, 1}); });
  for (int i = 0; i < 32; ++i) CHECK(id.v[i] == i);
  CHECK_FALSE(build_error([](const P&) { (void)tl::zeros({2, 4}).permute({0, 0}); }).empty());
  CHECK_FALSE(build_error([](const P&) { (void)tl::zeros({2, 4}).permute({0}); }).empty());
}

TEST_CASE("broadcast_to stretches size-1 and missing leading axes") {
  auto t = eval([](const tl::Ptr& in) { return tl::load(in + tl::arange(0, 4)).broadcast_to({2, 4}); });
  REQUIRE(t.shape == Shape{2, 4});
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 4; ++j) CHECK(t.v[i * 4 + j] == j);
  auto c = eval([](const tl::Ptr& in) { return tl::broadcast_to(tl::load(in + tl::arange(0, 2)).col(), {2, 4}); });
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 4; ++j) CHECK(c.v[i * 4 + j] == i);
  CHECK_FALSE(build_error([](const P&) { (void)tl::broadcast_to(tl::arange(0, 4), {2, 8}); }).empty());
}

TEST_CASE("where broadcasts the condition and both sides together") {
  auto t = eval([](const tl::Ptr&) {
    return tl::where(tl::arange(0, 4).col() < 2, tl::arange(0, 4), tl::arange(0, 4).col() * -1);
  });
  REQUIRE(t.shape == Shape{4, 4});
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) CHECK(t.v[i * 4 + j] == (i < 2 ? j : -i));
}

TEST_CASE("a load's pointer tile stretches to the mask's shape") {
  // ptr [4] with mask [2, 4]: the row of pointers repeats.
  auto t = eval([](const tl::Ptr& in) {
    auto m = (tl::arange(0, 2).col() + tl::arange(0, 4).row()) < 4;
    return tl::load(in + tl::arange(0, 4), m, -1.0f);
  });
  REQUIRE(t.shape == Shape{2, 4});
  std::vector<double> want{0, 1, 2, 3, 0, 1, 2, -1};
  CHECK(t.v == want);
}

TEST_CASE("a [1, N] pointer tile stretches to a [M, N] mask") {
  // SEMANTICS §9: ptr, mask and other broadcast together; the pointer may stretch.
  auto t = eval([](const tl::Ptr& in) {
    auto m = (tl::arange(0, 2).col() + tl::arange(0, 4).row()) < 4;
    return tl::load(in + tl::arange(0, 4).row(), m, -1.0f);
  });
  REQUIRE(t.shape == Shape{2, 4});
  std::vector<double> want{0, 1, 2, 3, 0, 1, 2, -1};
  CHECK(t.v == want);
}

TEST_CASE("a load's `other` broadcasts to the pointer tile") {
  auto t = eval([](const tl::Ptr& in) {
    auto r = tl::arange(0, 2).col(), c = tl::arange(0, 4).row();
    return tl::load(in + r * 4 + c, c < 2, (r * 100).to(tl::f32));
  });
  REQUIRE(t.shape == Shape{2, 4});
  std::vector<double> want{0, 1, 0, 0, 4, 5, 100, 100};
  CHECK(t.v == want);
}

TEST_CASE("store broadcasts value and mask to the pointer tile, never widening it") {
  tl::Buffer in("in", DType::f32, {1}), out("out", DType::f32, {8});
  out.fill(-1);
  launch(
      [](const P& p) {
        auto r = tl::arange(0, 2).col(), c = tl::arange(0, 4).row();
        tl::store(p.b + r * 4 + c, r * 10 + 5, c != 2);  // value [2, 1], mask [1, 4]
      },
      in, out);
  std::vector<double> want{5, 5, -1, 5, 15, 15, -1, 15};
  for (int i = 0; i < 8; ++i) CHECK(out.get(i) == want[i]);
  auto m = build_error([](const P& p) { tl::store(p.b + tl::arange(0, 4), tl::zeros({2, 4})); });
  CHECK(m.find("[2, 4]") != std::string::npos);
  CHECK(m.find("[4]") != std::string::npos);
  CHECK_FALSE(build_error([](const P& p) {
                tl::store(p.b + tl::arange(0, 4), 1.0f, tl::arange(0, 2).col() < tl::arange(0, 4));
              }).empty());
}

TEST_CASE("tiles are limited to 2^20 elements") {
  CHECK(build_error([](const P&) { (void)tl::zeros({1024, 1024}); }).empty());
  auto m = build_error([](const P&) { (void)tl::zeros({2048, 1024}); });
  CHECK(m.find("2097152") != std::string::npos);
  CHECK_FALSE(build_error([](const P&) { (void)(tl::arange(0, 2048).col() + tl::arange(0, 1024)); }).empty());
}
