// Control flow: tl::range builds one IR loop whatever the trip count,
// loop-carried tiles (acc += ..., acc = acc * a + b), copies that keep an
// old value, nested loops, tl::if_ on runtime scalars, negative steps and
// zero-trip loops.
#include <catch2/catch.hpp>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "error.h"
#include "interpreter.h"
#include "ir.h"
#include "tl.h"

namespace {

using tl::DType;

struct P {
  const tl::Ptr& x;
  const tl::Ptr& out;
  const tl::Int& n;
};
std::function<void(const P&)> g_body;
void kernel(tl::Ptr x, tl::Ptr out, tl::Int n) { g_body(P{x, out, n}); }

// Runs fn once with x = 0, 1, 2, ... (f32, 64 elements) and an i64 output of 8.
struct Run {
  tl::Buffer out{"out", DType::i64, {8}};
  tl::RunResult r;
  double at(int i) const { return out.get(i); }
};
Run launch(std::function<void(const P&)> fn, int64_t n = 0) {
  tl::Buffer x("x", DType::f32, {64});
  for (int i = 0; i < 64; ++i) x.set(i, i);
  Run run;
  g_body = std::move(fn);
  tl::KernelDef k("loops", kernel);
  run.r = tl::run(k, {}, {x, run.out, n});
  return run;
}

void long_sum(tl::Ptr out, tl::Const T) {
  auto acc = tl::zeros({1}, tl::i64);
  for (auto i : tl::range(0, T)) acc += i;
  tl::store(out + tl::arange(0, 1), acc);
}

size_t count_in(const std::string& text, const std::string& word) {
  size_t n = 0;
  for (size_t p = text.find(word); p != std::string::npos; p = text.find(word, p + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("a 100,000-iteration loop builds IR of constant size and computes the right sum") {
  tl::KernelDef k("long_sum", long_sum);
  tl::Buffer small("out", DType::i64, {1}), big("out", DType::i64, {1});
  auto r10 = tl::run(k, {}, {small, 10});
  auto r100k = tl::run(k, {}, {big, 100000});
  REQUIRE(r10.kernel != r100k.kernel);  // two specializations, each built once
  CHECK(tl::ir::instruction_count(r10.kernel->body) == tl::ir::instruction_count(r100k.kernel->body));
  CHECK(tl::ir::instruction_count(r100k.kernel->body) < 30);
  CHECK(count_in(tl::ir::print(*r100k.kernel), "for ") == 1);
  CHECK(small.get(0) == 45);
  CHECK(big.get(0) == 4999950000.0);
}

TEST_CASE("a loop bounded by a runtime scalar runs that many iterations") {
  auto run = launch(
      [](const P& p) {
        auto acc = tl::zeros({1}, tl::i64);
        for (auto i : tl::range(0, p.n)) acc = acc + i;
        tl::store(p.out + tl::arange(0, 1), acc);
      },
      100000);
  CHECK(run.at(0) == 4999950000.0);
}

TEST_CASE("acc += ... carries a tile through the loop") {
  auto run = launch([](const P& p) {
    auto acc = tl::zeros({8}, tl::f32);
    for (auto i : tl::range(0, 8)) acc += tl::load(p.x + i * 8 + tl::arange(0, 8));
    tl::store(p.out + tl::arange(0, 8), acc);
  });
  for (int j = 0; j < 8; ++j) CHECK(run.at(j) == 8 * j + 8 * 28);  // sum_i (8 i + j)
}

TEST_CASE("acc = acc * a + b carries a tile through the loop") {
  auto run = launch([](const P& p) {
    auto acc = tl::arange(0, 4);
    for (auto i : tl::range(0, 5)) acc = acc * 3 + 1 + i * 0;
    tl::store(p.out + tl::arange(0, 4), acc);
  });
  for (int l = 0; l < 4; ++l) CHECK(run.at(l) == 243 * l + 121);
}

TEST_CASE("a copy `auto old = m,` made before `m = ...` keeps the old value") {
  auto run = launch(
      [](const P& p) {
        auto m = tl::zeros({4}, tl::i32);
        auto total = tl::zeros({4}, tl::i32);
        auto growth = tl::zeros({4}, tl::i32);
        for (auto t : tl::range(0, p.n)) {
          auto old = m;
          m = m + 1 + t * 0;
          total += old;         // 0 + 1 + ... + (n - 1)
          growth += m - old;    // 1 per iteration
        }
        tl::store(p.out + tl::arange(0, 4), total);
        tl::store(p.out + 4 + tl::arange(0, 4), growth);
      },
      10);
  CHECK(run.at(0) == 45);  // 55 if `old` aliased `m`
  CHECK(run.at(3) == 45);
  CHECK(run.at(4) == 10);  // 0 if `old` aliased `m`
}

TEST_CASE("a running max with its previous value, as in online softmax") {
  auto run = launch([](const P& p) {
    auto m = tl::full({1}, -1.0f, tl::f32);
    auto jumps = tl::zeros({1}, tl::f32);
    for (auto i : tl::range(0, 8)) {
      auto m_old = m;
      m = tl::maximum(m, tl::load(p.x + (i * 37 % 64) + tl::arange(0, 1)));
      jumps += m - m_old;
    }
    tl::store(p.out + tl::arange(0, 1), m);
    tl::store(p.out + 1 + tl::arange(0, 1), jumps);
  });
  // x[i * 37 % 64] for i < 8: 0 37 10 47 20 57 30 3 -> max 57
  CHECK(run.at(0) == 57);
  CHECK(run.at(1) == 58);  // 57 - (-1)
}

TEST_CASE("assigning a literal to a loop-carried tile splats it in the tile's type") {
  static DType kept = DType::i1;
  auto run = launch([](const P& p) {
    auto acc = tl::full({4}, 5, tl::i32);
    auto total = tl::zeros({4}, tl::i32);
    auto h = tl::zeros({4}, tl::f16);
    for (auto i : tl::range(0, 3)) {
      acc = 0;
      acc += i;
      total += acc;
      h = 2.5;
    }
    kept = h.dtype();
    tl::store(p.out + tl::arange(0, 4), total);
    tl::store(p.out + 4 + tl::arange(0, 4), (h * 2).to(tl::i32));
  });
  CHECK(run.at(0) == 3);  // 0 + 1 + 2: acc restarts at 0 each iteration
  CHECK(run.at(4) == 5);
  CHECK(kept == DType::f16);
}

TEST_CASE("nested loops, including an inner bound that depends on the outer variable") {
  auto run = launch(
      [](const P& p) {
        auto acc = tl::zeros({1}, tl::i32);
        auto tri = tl::zeros({1}, tl::i32);
        for (auto i : tl::range(0, p.n)) {
          for (auto j : tl::range(0, 4)) acc += i * 100 + j;
          for (auto j : tl::range(0, i)) tri += 1 + j * 0;
        }
        tl::store(p.out + tl::arange(0, 1), acc);
        tl::store(p.out + 1 + tl::arange(0, 1), tri);
      },
      5);
  CHECK(run.at(0) == 4 * 100 * 10 + 5 * 6);  // sum_i sum_j (100 i + j), i < 5, j < 4
  CHECK(run.at(1) == 10);                     // 0 + 1 + 2 + 3 + 4
}

TEST_CASE("tl::if_ on a runtime scalar runs one branch") {
  auto body = [](const P& p) {
    auto v = tl::zeros({4}, tl::i32);
    tl::if_(p.n > 5, [&] { v = v + 1; }, [&] { v = v - 1; });
    tl::store(p.out + tl::arange(0, 4), v);
    tl::if_(p.n == 3, [&] { tl::store(p.out + 7, 77); });
  };
  auto hi = launch(body, 10);
  CHECK(hi.at(0) == 1);
  CHECK(hi.at(7) == 0);
  auto lo = launch(body, 3);
  CHECK(lo.at(0) == -1);
  CHECK(lo.at(7) == 77);
}

TEST_CASE("tl::if_ inside a loop on the induction variable") {
  auto run = launch([](const P& p) {
    auto even = tl::zeros({1}, tl::i32);
    auto odd = tl::zeros({1}, tl::i32);
    for (auto i : tl::range(0, 10)) tl::if_(i % 2 == 0, [&] { even += i; }, [&] { odd += i; });
    tl::store(p.out + tl::arange(0, 1), even);
    tl::store(p.out + 1 + tl::arange(0, 1), odd);
  });
  CHECK(run.at(0) == 20);
  CHECK(run.at(1) == 25);
}

TEST_CASE("a negative step counts down and stops before the bound") {
  auto run = launch(
      [](const P& p) {
        auto sum = tl::zeros({1}, tl::i32);
        auto cnt = tl::zeros({1}, tl::i32);
        auto last = tl::zeros({1}, tl::i32);
        for (auto i : tl::range(10, 0, -3)) {
          sum += i;
          cnt += 1;
          last = last * 0 + i;
        }
        auto down = tl::zeros({1}, tl::i32);
        for (auto i : tl::range(p.n, -1, -1)) down += i;
        tl::store(p.out + tl::arange(0, 1), sum);
        tl::store(p.out + 1 + tl::arange(0, 1), cnt);
        tl::store(p.out + 2 + tl::arange(0, 1), last);
        tl::store(p.out + 3 + tl::arange(0, 1), down);
      },
      4);
  CHECK(run.at(0) == 22);  // 10 + 7 + 4 + 1
  CHECK(run.at(1) == 4);
  CHECK(run.at(2) == 1);
  CHECK(run.at(3) == 10);  // 4 + 3 + 2 + 1 + 0
}

TEST_CASE("a zero-trip loop leaves its carried values unchanged") {
  auto run = launch(
      [](const P& p) {
        auto a = tl::full({1}, 7, tl::i32);
        for (auto i : tl::range(5, 5)) a += i;
        auto b = tl::full({1}, 8, tl::i32);
        for (auto i : tl::range(5, 0)) b += i;
        auto c = tl::full({1}, 9, tl::i32);
        for (auto i : tl::range(0, p.n)) c += i + 1;
        auto d = tl::full({1}, 6, tl::i32);
        for (auto i : tl::range(0, 3, -1)) d += i;
        tl::store(p.out + tl::arange(0, 1), a);
        tl::store(p.out + 1 + tl::arange(0, 1), b);
        tl::store(p.out + 2 + tl::arange(0, 1), c);
        tl::store(p.out + 3 + tl::arange(0, 1), d);
      },
      0);
  CHECK(run.at(0) == 7);
  CHECK(run.at(1) == 8);
  CHECK(run.at(2) == 9);
  CHECK(run.at(3) == 6);
  CHECK(run.r.issues.empty());
}

TEST_CASE("a runtime step of 0 skips the loop and is flagged") {
  auto run = launch(
      [](const P& p) {
        auto a = tl::full({1}, 7, tl::i32);
        for (auto i : tl::range(0, 4, p.n)) a += i;
        tl::store(p.out + tl::arange(0, 1), a);
      },
      0);
  CHECK(run.at(0) == 7);
  REQUIRE(run.r.issues.size() == 1);
  CHECK(run.r.issues[0].message.find("step") != std::string::npos);
}

TEST_CASE("a pointer tile can be loop-carried") {
  auto run = launch([](const P& p) {
    auto ptrs = p.x + tl::arange(0, 8);
    auto acc = tl::zeros({8}, tl::f32);
    for (auto i : tl::range(0, 4)) {
      acc += tl::load(ptrs) + i * 0;
      ptrs += 8;
    }
    tl::store(p.out + tl::arange(0, 8), acc);
  });
  for (int j = 0; j < 8; ++j) CHECK(run.at(j) == 4 * j + 8 * 6);  // sum_i (8 i + j), i < 4
}

TEST_CASE("the induction variable is i32, or i64 when a bound is 64-bit") {
  static DType d32, d64;
  struct K {
    static void kernel(tl::Ptr out, tl::Int64 n) {
      auto acc = tl::zeros({1}, tl::i64);
      for (auto i : tl::range(0, 3)) {
        d32 = i.dtype();
        acc += i;
      }
      for (auto i : tl::range(n - 2, n)) {
        d64 = i.dtype();
        acc += i;
      }
      tl::store(out + tl::arange(0, 1), acc);
    }
  };
  tl::KernelDef k("iv", &K::kernel);
  tl::Buffer out("out", DType::i64, {1});
  tl::run(k, {}, {out, int64_t{5000000000}});
  CHECK(d32 == DType::i32);
  CHECK(d64 == DType::i64);
  CHECK(out.get(0) == 3 + 4999999998.0 + 4999999999.0);
}
