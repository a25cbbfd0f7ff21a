// dot's dtypes: f16 and bf16 inputs accumulate in f32 (or f16
// with out_dtype=f16 for f16 inputs), int8 inputs in i32; out_dtype=bf16,
// a mismatched accumulator and dot_scaled are build errors; undefined lanes
// of a masked load without `other` are reported at the dot.
#include <catch2/catch.hpp>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "build_error_fixture.h"
#include "error.h"
#include "findings.h"
#include "interpreter.h"
#include "tl.h"

namespace {

using build_error_fixture::check_error;
using build_error_fixture::g_line;
using build_error_fixture::specialize_error;
using tl::DType;

struct P {
  const tl::Ptr& a;
  const tl::Ptr& b;
  const tl::Ptr& c;
  const tl::Ptr& out;
};
std::function<void(const P&)> g_body;
void body(tl::Ptr a, tl::Ptr b, tl::Ptr c, tl::Ptr out) { g_body(P{a, b, c, out}); }

constexpr int M = 16, N = 32, K = 32;

tl::Tensor offsets(int rows, int cols) { return tl::arange(0, rows).col() * cols + tl::arange(0, cols).row(); }

// Small integers and halves: every product and partial sum is exact in f16,
// bf16 and f32, so any summation order gives the reference exactly.
double av(int m, int k) { return ((m * 3 + k * 5) % 7 - 3) * 0.5; }
double bv(int k, int n) { return ((k * 2 + n) % 5 - 2); }

tl::Buffer fill(const char* name, DType d, int rows, int cols, double (*f)(int, int)) {
  tl::Buffer b(name, d, {rows * cols});
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) b.set(i * cols + j, f(i, j));
  return b;
}

double ref(int m, int n, double (*fa)(int, int), double (*fb)(int, int), double acc = 0) {
  double s = acc;
  for (int k = 0; k < K; ++k) s += fa(m, k) * fb(k, n);
  return s;
}

tl::RunResult launch(std::function<void(const P&)> fn, tl::Buffer& a, tl::Buffer& b, tl::Buffer& c, tl::Buffer& out) {
  g_body = std::move(fn);
  tl::KernelDef k("dot_dtypes", body);
  return tl::run(k, {}, {a, b, c, out});
}

std::optional<tl::BuildError> build_error(std::function<void(const P&)> fn, DType d) {
  g_body = std::move(fn);
  tl::KernelDef k("dot_dtypes", body);
  return specialize_error(k, tl::Specialization{{d, d, DType::f32, DType::f32}, {0, 0, 0, 0}});
}

}  // namespace

TEST_CASE("f16 and bf16 dots accumulate in f32 and give f32") {
  for (DType d : {DType::f16, DType::bf16}) {
    tl::Buffer a = fill("a", d, M, K, av), b = fill("b", d, K, N, bv), c("c", DType::f32, {1}),
               out("out", DType::f32, {M * N});
    launch(
        [](const P& p) {
          auto r = tl::dot(tl::load(p.a + offsets(M, K)), tl::load(p.b + offsets(K, N)));
          tl::static_assert_(r.dtype() == DType::f32, "f32 result");
          tl::store(p.out + offsets(M, N), r);
        },
        a, b, c, out);
    for (int m = 0; m < M; ++m)
      for (int n = 0; n < N; ++n) {
        INFO(tl::name(d) << " [" << m << ", " << n << "]");
        CHECK(out.get(m * N + n) == ref(m, n, av, bv));
      }
  }
}

TEST_CASE("an f16 dot with out_dtype=f16 gives f16 and takes an f16 accumulator") {
  tl::Buffer a = fill("a", DType::f16, M, K, av), b = fill("b", DType::f16, K, N, bv), c("c", DType::f32, {1}),
             out("out", DType::f16, {M * N});
  launch(
      [](const P& p) {
        auto acc = tl::full({M, N}, 1.5, tl::f16);
        auto r = tl::dot(tl::load(p.a + offsets(M, K)), tl::load(p.b + offsets(K, N)), acc, tl::ieee, tl::f16);
        tl::static_assert_(r.dtype() == DType::f16, "f16 result");
        tl::store(p.out + offsets(M, N), r);
      },
      a, b, c, out);
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) CHECK(out.get(m * N + n) == ref(m, n, av, bv, 1.5));
}

TEST_CASE("an int8 dot accumulates in i32, with an i32 accumulator") {
  auto ia = [](int m, int k) { return static_cast<double>((m * 37 + k * 11) % 255 - 127); };
  auto ib = [](int k, int n) { return static_cast<double>((k * 13 + n * 7) % 256 - 128); };
  tl::Buffer a = fill("a", DType::i8, M, K, ia), b = fill("b", DType::i8, K, N, ib), c("c", DType::i32, {M * N}),
             out("out", DType::i32, {M * N});
  for (int i = 0; i < M * N; ++i) c.set(i, i * 1000 - 70000);
  launch(
      [](const P& p) {
        auto r = tl::dot(tl::load(p.a + offsets(M, K)), tl::load(p.b + offsets(K, N)), tl::load(p.c + offsets(M, N)));
        tl::static_assert_(r.dtype() == DType::i32, "i32 result");
        tl::store(p.out + offsets(M, N), r);
      },
      a, b, c, out);
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      int64_t s = (m * N + n) * 1000 - 70000;
      for (int k = 0; k < K; ++k) s += static_cast<int64_t>(ia(m, k)) * static_cast<int64_t>(ib(k, n));
      CHECK(out.get(m * N + n) == static_cast<double>(s));
    }
}

TEST_CASE("out_dtype=bf16 is a build error that says how to get bf16") {
  check_error(build_error(
                  [](const P& p) {
                    auto a = tl::load(p.a + offsets(M, K)), b = tl::load(p.b + offsets(K, N));
                    g_line = __LINE__; (void)tl::dot(a, b, tl::Tensor(), tl::ieee, tl::bf16);
                  },
                  DType::bf16),
              {"out_dtype=bf16 is not supported", ".to(tl::bf16)"});
}

TEST_CASE("an accumulator of another dtype than the product is a build error") {
  check_error(build_error(
                  [](const P& p) {
                    auto a = tl::load(p.a + offsets(M, K)), b = tl::load(p.b + offsets(K, N));
                    g_line = __LINE__; (void)tl::dot(a, b, tl::zeros({M, N}, tl::f32), tl::ieee, tl::f16);
                  },
                  DType::f16),
              {"dot accumulator must be f16[16,32]", "got f32[16,32]"});
}

TEST_CASE("dot_scaled is a clear build error") {
  check_error(build_error(
                  [](const P& p) {
                    auto a = tl::load(p.a + offsets(M, K)), b = tl::load(p.b + offsets(K, N));
                    g_line = __LINE__; (void)tl::dot_scaled(a, b);
                  },
                  DType::f16),
              {"dot_scaled is not supported"});
}

TEST_CASE("undefined lanes of a masked load without other are reported at the dot") {
  tl::Buffer a = fill("a", DType::f16, M, K, av), b = fill("b", DType::f16, K, N, bv), c("c", DType::f32, {1}),
             out("out", DType::f32, {M * N});
  int dot_line = 0;
  auto r = launch(
      [&dot_line](const P& p) {
        auto ka = tl::arange(0, K);
        auto x = tl::load(p.a + offsets(M, K), (ka < K - 4).row());  // no other: 4 columns undefined
        auto y = tl::load(p.b + offsets(K, N));
        dot_line = __LINE__; auto r = tl::dot(x, y);
        tl::store(p.out + offsets(M, N), r);
      },
      a, b, c, out);
  bool found = false;
  for (const tl::Finding& f : r.findings)
    if (f.kind == tl::FindingKind::UndefinedValueUsed && f.loc >= 0 &&
        static_cast<int>(r.locations[static_cast<size_t>(f.loc)].line) == dot_line)
      found = true;
  CHECK(found);
}
