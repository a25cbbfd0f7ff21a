// dot (SEMANTICS §8): 2-D and batched 3-D products, the accumulator, the
// result dtype per input dtype, tf32 operand truncation against exact
// references (ieee is plain f32), tf32x3 accuracy, and shape/dtype errors.
#include <catch2/catch.hpp>
#include <bit>
#include <cmath>
#include <cstdint>
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
  const tl::Ptr& c;
  const tl::Ptr& out;
};
std::function<void(const P&)> g_body;
void body(tl::Ptr a, tl::Ptr b, tl::Ptr c, tl::Ptr out) { g_body(P{a, b, c, out}); }

// Row-major offsets of a 2-D or 3-D tile.
tl::Tensor offsets(const Shape& s) {
  if (s.size() == 2) return tl::arange(0, s[0]).col() * static_cast<int>(s[1]) + tl::arange(0, s[1]).row();
  auto b = tl::expand_dims(tl::arange(0, s[0]), std::vector<int>{1, 2}) * static_cast<int>(s[1] * s[2]);
  auto m = tl::expand_dims(tl::arange(0, s[1]), std::vector<int>{0, 2}) * static_cast<int>(s[2]);
  auto n = tl::expand_dims(tl::arange(0, s[2]), std::vector<int>{0, 1});
  return b + m + n;
}

tl::Tensor load(const tl::Ptr& p, const Shape& s) { return tl::load(p + offsets(s)); }

tl::Buffer make(const char* name, DType d, const std::vector<double>& v) {
  tl::Buffer b(name, d, {static_cast<int64_t>(v.size())});
  for (size_t i = 0; i < v.size(); ++i) b.set(static_cast<int64_t>(i), v[i]);
  return b;
}

// Runs body over buffers a, b, c and an output of `n_out` elements of dtype d_out.
tl::Buffer run(std::function<void(const P&)> fn, tl::Buffer& a, tl::Buffer& b, tl::Buffer& c, DType d_out,
               int64_t n_out) {
  tl::Buffer out("out", d_out, {n_out});
  g_body = std::move(fn);
  tl::KernelDef k("dot", body);
  tl::run(k, {}, {a, b, c, out});
  return out;
}

std::string build_error(std::function<void(const P&)> fn, std::vector<DType> dtypes) {
  g_body = std::move(fn);
  tl::KernelDef k("dot", body);
  try {
    k.specialize(tl::Specialization{dtypes, {0, 0, 0, 0}});
  } catch (const tl::BuildError& e) {
    return e.message();
  }
  return "";
}

// Deterministic values in [1, 2) with all 23 mantissa bits in use.
std::vector<double> mantissa_rich(size_t n, uint32_t seed) {
  std::vector<double> v(n);
  uint32_t s = seed;
  for (auto& x : v) {
    s = s * 1664525u + 1013904223u;
    x = std::bit_cast<float>(0x3f800000u | (s >> 9));
  }
  return v;
}

float tf32(float x) { return std::bit_cast<float>(std::bit_cast<uint32_t>(x) & 0xffffe000u); }

// Reference c[m][n] = acc + sum_k a[m][k] * b[k][n] in f32, k in order, one
// rounding per multiply and add, operands optionally truncated to tf32.
std::vector<float> ref(const std::vector<double>& a, const std::vector<double>& b, const std::vector<double>* acc,
                       int B, int M, int N, int K, bool trunc) {
  std::vector<float> c(static_cast<size_t>(B * M * N));
  for (int bi = 0; bi < B; ++bi)
    for (int m = 0; m < M; ++m)
      for (int n = 0; n < N; ++n) {
        float sum = acc ? static_cast<float>((*acc)[(bi * M + m) * N + n]) : 0.0f;
        for (int k = 0; k < K; ++k) {
          float x = static_cast<float>(a[(bi * M + m) * K + k]), y = static_cast<float>(b[(bi * K + k) * N + n]);
          if (trunc) {
            x = tf32(x);
            y = tf32(y);
          }
          float prod = x * y;
          sum = sum + prod;
        }
        c[(bi * M + m) * N + n] = sum;
      }
  return c;
}

std::vector<double> ref64(const std::vector<double>& a, const std::vector<double>& b, int M, int N, int K) {
  std::vector<double> c(static_cast<size_t>(M * N), 0.0);
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n)
      for (int k = 0; k < K; ++k) c[m * N + n] += a[m * K + k] * b[k * N + n];
  return c;
}

double rel_err(const tl::Buffer& out, const std::vector<double>& r) {
  double num = 0, den = 0;
  for (size_t i = 0; i < r.size(); ++i) {
    double d = out.get(static_cast<int64_t>(i)) - r[i];
    num += d * d;
    den += r[i] * r[i];
  }
  return std::sqrt(num / den);
}

}  // namespace

TEST_CASE("dot with tf32 truncates each operand, then multiplies and sums in f32") {
  const int M = 16, N = 32, K = 32;
  auto av = mantissa_rich(M * K, 1), bv = mantissa_rich(K * N, 2);
  tl::Buffer a = make("a", DType::f32, av), b = make("b", DType::f32, bv), c("c", DType::f32, {1});
  auto t = run([&](const P& p) { tl::store(p.out + offsets({M, N}), tl::dot(load(p.a, {M, K}), load(p.b, {K, N}), tl::tf32)); },
               a, b, c, DType::f32, M * N);
  auto d = run([&](const P& p) { tl::store(p.out + offsets({M, N}), tl::dot(load(p.a, {M, K}), load(p.b, {K, N}))); }, a,
               b, c, DType::f32, M * N);
  auto want = ref(av, bv, nullptr, 1, M, N, K, true);
  auto plain = ref(av, bv, nullptr, 1, M, N, K, false);
  int differ = 0;
  for (int i = 0; i < M * N; ++i) {
    CHECK(t.as<float>()[i] == want[i]);
    CHECK(d.as<float>()[i] == want[i]);  // tf32 is the default
    if (std::fabs(want[i] - plain[i]) > 1e-4f * std::fabs(plain[i])) ++differ;
  }
  CHECK(differ > M * N / 2);  // the truncation is measurable on these inputs
}

TEST_CASE("dot with tf32 clears the low bits of Inf and NaN too: a NaN with payload only there becomes Inf") {
  // SEMANTICS 8's truncation applies to every value, as the tensor cores
  // apply it (tests/test_gpu_run.cpp measures them). With B one-hot at
  // column 5, c[m][5] is a[m][5] as truncated.
  const int M = 16, N = 16, K = 16;
  const uint32_t specials[] = {0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffa00000u, 0x7f800001u, 0xff801000u};
  tl::Buffer a("a", DType::f32, {M * K}), b("b", DType::f32, {K * N}), c("c", DType::f32, {1});
  for (int m = 0; m < M; ++m)
    for (int k = 0; k < K; ++k) a.as<uint32_t>()[m * K + k] = k == 5 ? specials[m % 6] : 0x3f800000u;
  for (int k = 0; k < K; ++k)
    for (int n = 0; n < N; ++n) b.as<float>()[k * N + n] = k == n ? 1.0f : 0.0f;
  auto t = run([&](const P& p) { tl::store(p.out + offsets({M, N}), tl::dot(load(p.a, {M, K}), load(p.b, {K, N}))); }, a,
               b, c, DType::f32, M * N);
  for (int m = 0; m < M; ++m) {
    const float got = t.as<float>()[m * N + 5];
    INFO("a = 0x" << std::hex << specials[m % 6] << ", c = 0x" << t.as<uint32_t>()[m * N + 5]);
    switch (m % 6) {
      case 0: CHECK(got == INFINITY); break;
      case 1: CHECK(got == -INFINITY); break;
      case 2: case 3: CHECK(std::isnan(got)); break;  // a payload bit above the 13 low ones
      case 4: CHECK(got == INFINITY); break;           // 0x7f800001 -> 0x7f800000
      case 5: CHECK(got == -INFINITY); break;          // 0xff801000 -> 0xff800000
    }
  }
}

TEST_CASE("dot with ieee is plain f32 multiply-add") {
  const int M = 16, N = 16, K = 64;
  auto av = mantissa_rich(M * K, 3), bv = mantissa_rich(K * N, 4);
  tl::Buffer a = make("a", DType::f32, av), b = make("b", DType::f32, bv), c("c", DType::f32, {1});
  auto out = run([&](const P& p) { tl::store(p.out + offsets({M, N}), tl::dot(load(p.a, {M, K}), load(p.b, {K, N}), tl::ieee)); },
                 a, b, c, DType::f32, M * N);
  auto want = ref(av, bv, nullptr, 1, M, N, K, false);
  for (int i = 0; i < M * N; ++i) CHECK(out.as<float>()[i] == want[i]);
  CHECK(rel_err(out, ref64(av, bv, M, N, K)) < 1e-6);
}

TEST_CASE("dot with tf32x3 is close to f32 accuracy, far better than tf32") {
  const int M = 16, N = 16, K = 32;
  auto av = mantissa_rich(M * K, 5), bv = mantissa_rich(K * N, 6);
  for (auto& x : av) x -= 1.5;  // mixed signs
  tl::Buffer a = make("a", DType::f32, av), b = make("b", DType::f32, bv), c("c", DType::f32, {1});
  auto x3 = run([&](const P& p) { tl::store(p.out + offsets({M, N}), tl::dot(load(p.a, {M, K}), load(p.b, {K, N}), tl::tf32x3)); },
                a, b, c, DType::f32, M * N);
  auto t1 = run([&](const P& p) { tl::store(p.out + offsets({M, N}), tl::dot(load(p.a, {M, K}), load(p.b, {K, N}), tl::tf32)); },
                a, b, c, DType::f32, M * N);
  auto r = ref64(av, bv, M, N, K);
  double e3 = rel_err(x3, r), e1 = rel_err(t1, r);
  CHECK(e1 > 1e-5);
  CHECK(e3 < 1e-5);
  CHECK(e3 < e1 / 20);
}

TEST_CASE("dot adds the accumulator: a·b + acc") {
  const int M = 16, N = 16, K = 16;
  auto av = mantissa_rich(M * K, 7), bv = mantissa_rich(K * N, 8), cv = mantissa_rich(M * N, 9);
  for (auto& x : cv) x *= -3;
  tl::Buffer a = make("a", DType::f32, av), b = make("b", DType::f32, bv), c = make("c", DType::f32, cv);
  auto out = run(
      [&](const P& p) {
        tl::store(p.out + offsets({M, N}), tl::dot(load(p.a, {M, K}), load(p.b, {K, N}), load(p.c, {M, N}), tl::ieee));
      },
      a, b, c, DType::f32, M * N);
  auto want = ref(av, bv, &cv, 1, M, N, K, false);
  for (int i = 0; i < M * N; ++i) CHECK(out.as<float>()[i] == want[i]);
}

TEST_CASE("a K-blocked loop of dots with a carried acc equals one dot exactly") {
  const int M = 16, N = 16, K = 64, BK = 16;
  auto av = mantissa_rich(M * K, 13), bv = mantissa_rich(K * N, 14);
  tl::Buffer a = make("a", DType::f32, av), b = make("b", DType::f32, bv), c("c", DType::f32, {1});
  for (tl::Precision prec : {tl::ieee, tl::tf32}) {
    auto blocked = run(
        [&](const P& p) {
          auto acc = tl::zeros({M, N}, tl::f32);
          auto rm = tl::arange(0, M).col(), rk = tl::arange(0, BK), rn = tl::arange(0, N).row();
          for (auto k0 : tl::range(0, K, BK)) {
            auto ablk = tl::load(p.a + rm * K + (k0 + rk).row());
            auto bblk = tl::load(p.b + (k0 + rk).col() * N + rn);
            acc = tl::dot(ablk, bblk, acc, prec);
          }
          tl::store(p.out + offsets({M, N}), acc);
        },
        a, b, c, DType::f32, M * N);
    auto want = ref(av, bv, nullptr, 1, M, N, K, prec == tl::tf32);
    for (int i = 0; i < M * N; ++i) CHECK(blocked.as<float>()[i] == want[i]);
  }
}

TEST_CASE("batched dot multiplies each batch: [B, M, K] x [B, K, N]") {
  const int B = 2, M = 16, N = 32, K = 16;
  auto av = mantissa_rich(B * M * K, 10), bv = mantissa_rich(B * K * N, 11), cv = mantissa_rich(B * M * N, 12);
  tl::Buffer a = make("a", DType::f32, av), b = make("b", DType::f32, bv), c = make("c", DType::f32, cv);
  Shape got;
  auto out = run(
      [&](const P& p) {
        auto r = tl::dot(load(p.a, {B, M, K}), load(p.b, {B, K, N}), load(p.c, {B, M, N}), tl::tf32);
        got = r.shape();
        tl::store(p.out + offsets({B, M, N}), r);
      },
      a, b, c, DType::f32, B * M * N);
  CHECK(got == Shape{B, M, N});
  auto want = ref(av, bv, &cv, B, M, N, K, true);
  for (int i = 0; i < B * M * N; ++i) CHECK(out.as<float>()[i] == want[i]);
}

TEST_CASE("i8 and u8 dot give exact i32 that wraps") {
  const int M = 16, N = 32, K = 32;
  std::vector<double> av(M * K), bv(K * N);
  for (int i = 0; i < M * K; ++i) av[i] = (i * 37) % 256 - 128;
  for (int i = 0; i < K * N; ++i) bv[i] = (i * 91) % 256 - 128;
  tl::Buffer a = make("a", DType::i8, av), b = make("b", DType::i8, bv), c("c", DType::f32, {1});
  DType rd = DType::f32;
  auto out = run(
      [&](const P& p) {
        auto r = tl::dot(load(p.a, {M, K}), load(p.b, {K, N}));
        rd = r.dtype();
        tl::store(p.out + offsets({M, N}), r);
      },
      a, b, c, DType::i32, M * N);
  CHECK(rd == DType::i32);
  auto want = ref64(av, bv, M, N, K);
  for (int i = 0; i < M * N; ++i) CHECK(out.get(i) == want[i]);
  // u8: 255 * 255 * 32 plus an accumulator near INT32_MAX wraps.
  tl::Buffer ua = make("a", DType::u8, std::vector<double>(M * K, 255)), ub = make("b", DType::u8, std::vector<double>(K * N, 1));
  auto w = run(
      [&](const P& p) {
        auto acc = tl::full({M, N}, 2147483647, tl::i32);
        tl::store(p.out + offsets({M, N}), tl::dot(load(p.a, {M, K}), load(p.b, {K, N}), acc));
      },
      ua, ub, c, DType::i32, M * N);
  CHECK(w.get(0) == 2147483647.0 + 255 * 32 - 4294967296.0);
}

TEST_CASE("f16 dot gives f32 by default or f16 on request, bf16 gives f32, f64 gives f64") {
  const int M = 16, N = 16, K = 16;
  std::vector<double> av(M * K), bv(K * N);
  for (int i = 0; i < M * K; ++i) av[i] = (i % 7) - 3;
  for (int i = 0; i < K * N; ++i) bv[i] = (i % 5) - 2;
  auto want = ref64(av, bv, M, N, K);
  for (DType in : {DType::f16, DType::bf16, DType::f64}) {
    tl::Buffer a = make("a", in, av), b = make("b", in, bv), c("c", DType::f32, {1});
    DType rd = DType::i1;
    auto out = run(
        [&](const P& p) {
          auto r = tl::dot(load(p.a, {M, K}), load(p.b, {K, N}));
          rd = r.dtype();
          tl::store(p.out + offsets({M, N}), r);
        },
        a, b, c, DType::f64, M * N);
    CHECK(rd == (in == DType::f64 ? DType::f64 : DType::f32));
    for (int i = 0; i < M * N; ++i) CHECK(out.get(i) == want[i]);
  }
  tl::Buffer a = make("a", DType::f16, av), b = make("b", DType::f16, bv), c("c", DType::f32, {1});
  DType rd = DType::i1;
  run([&](const P& p) { rd = tl::dot(load(p.a, {M, K}), load(p.b, {K, N}), tl::Tensor(), tl::tf32, tl::f16).dtype(); }, a, b,
      c, DType::f32, 1);
  CHECK(rd == DType::f16);
  auto bad = build_error([&](const P& p) { (void)tl::dot(load(p.a, {M, K}), load(p.b, {K, N}), tl::Tensor(), tl::tf32, tl::bf16); },
                         {DType::bf16, DType::bf16, DType::f32, DType::f32});
  CHECK_FALSE(bad.empty());
}

TEST_CASE("dot shape errors name both shapes") {
  std::vector<DType> f32s{DType::f32, DType::f32, DType::f32, DType::f32};
  auto k = build_error([](const P& p) { (void)tl::dot(load(p.a, {16, 32}), load(p.b, {16, 16})); }, f32s);
  CHECK(k.find("[16, 32]") != std::string::npos);
  CHECK(k.find("[16, 16]") != std::string::npos);
  auto small = build_error([](const P& p) { (void)tl::dot(load(p.a, {8, 16}), load(p.b, {16, 16})); }, f32s);
  CHECK(small.find("16") != std::string::npos);
  CHECK(small.find("M = 8") != std::string::npos);
  CHECK_FALSE(build_error([](const P& p) { (void)tl::dot(load(p.a, {16, 16}), load(p.b, {2, 16, 16})); }, f32s).empty());
  CHECK_FALSE(build_error([](const P& p) { (void)tl::dot(load(p.a, {2, 16, 16}), load(p.b, {4, 16, 16})); }, f32s).empty());
  CHECK_FALSE(build_error([](const P& p) { (void)tl::dot(tl::load(p.a + tl::arange(0, 16)), load(p.b, {16, 16})); }, f32s).empty());
  auto acc = build_error(
      [](const P& p) { (void)tl::dot(load(p.a, {16, 16}), load(p.b, {16, 32}), tl::zeros({16, 16}, tl::f32)); }, f32s);
  CHECK(acc.find("f32[16,32]") != std::string::npos);
  auto acc_dtype = build_error(
      [](const P& p) { (void)tl::dot(load(p.a, {16, 16}), load(p.b, {16, 16}), tl::zeros({16, 16}, tl::f16)); }, f32s);
  CHECK(acc_dtype.find("f16") != std::string::npos);
}

TEST_CASE("dot dtype errors: mixed inputs, unsupported inputs, small 8-bit N/K, precision on non-f32") {
  auto mixed = build_error([](const P& p) { (void)tl::dot(load(p.a, {16, 16}), load(p.b, {16, 16})); },
                           {DType::f16, DType::f32, DType::f32, DType::f32});
  CHECK(mixed.find("f16") != std::string::npos);
  CHECK(mixed.find("f32") != std::string::npos);
  CHECK_FALSE(build_error([](const P& p) { (void)tl::dot(load(p.a, {16, 16}), load(p.b, {16, 16})); },
                          {DType::i32, DType::i32, DType::f32, DType::f32})
                  .empty());
  CHECK_FALSE(build_error([](const P& p) { (void)tl::dot(load(p.a, {16, 32}), load(p.b, {32, 16})); },
                          {DType::i8, DType::i8, DType::f32, DType::f32})
                  .empty());
  CHECK_FALSE(build_error([](const P& p) { (void)tl::dot(load(p.a, {16, 16}), load(p.b, {16, 32})); },
                          {DType::u8, DType::u8, DType::f32, DType::f32})
                  .empty());
  CHECK(build_error([](const P& p) { (void)tl::dot(load(p.a, {16, 32}), load(p.b, {32, 32})); },
                    {DType::i8, DType::i8, DType::f32, DType::f32})
            .empty());
  CHECK_FALSE(build_error([](const P& p) { (void)tl::dot(load(p.a, {16, 16}), load(p.b, {16, 16}), tl::tf32x3); },
                          {DType::f16, DType::f16, DType::f32, DType::f32})
                  .empty());
}
