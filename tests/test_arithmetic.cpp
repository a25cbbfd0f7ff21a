// Arithmetic of tl:: (SEMANTICS §3, §5): C division and remainder, wrapping,
// shifts (arithmetic vs logical, over-wide counts), bitwise ops, comparisons
// with NaN, and every cast rule including saturation and f16/bf16 rounding.
#include <catch2/catch.hpp>
#include <bit>
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
using Fn2 = std::function<tl::Tensor(const tl::Tensor&, const tl::Tensor&)>;
using Fn1 = std::function<tl::Tensor(const tl::Tensor&)>;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

Fn2 g_fn;
DType g_result = DType::i1;

// out[i] = g_fn(a[i], b[i]) over n lanes, one program.
void apply2(tl::Ptr a, tl::Ptr b, tl::Ptr out, tl::Const n) {
  auto i = tl::arange(0, n);
  tl::Tensor r = g_fn(tl::load(a + i), tl::load(b + i));
  g_result = r.dtype();
  tl::store(out + i, r);
}

tl::Buffer buf(DType d, const std::vector<double>& v) {
  tl::Buffer b("in", d, {static_cast<int64_t>(v.size())});
  for (size_t i = 0; i < v.size(); ++i) b.set(static_cast<int64_t>(i), v[i]);
  return b;
}

tl::Buffer buf_bits(DType d, const std::vector<uint64_t>& v) {
  tl::Buffer b("in", d, {static_cast<int64_t>(v.size())});
  for (size_t i = 0; i < v.size(); ++i) b.set_bits(static_cast<int64_t>(i), v[i]);
  return b;
}

struct Result {
  DType dtype;  // the dtype the expression produced
  tl::Buffer out;
  tl::RunResult run;
  double at(int64_t i) const { return out.get(i); }
  uint64_t bits(int64_t i) const { return out.get_bits(i); }
};

Result eval2(tl::Buffer a, tl::Buffer b, DType dout, Fn2 fn) {
  REQUIRE(a.numel() == b.numel());
  g_fn = std::move(fn);
  tl::Buffer out("out", dout, {a.numel()});
  tl::KernelDef k("apply2", apply2);
  auto run = tl::run(k, {}, {a, b, out, a.numel()});
  return Result{g_result, std::move(out), std::move(run)};
}

Result eval2(DType da, const std::vector<double>& a, DType db, const std::vector<double>& b, DType dout, Fn2 fn) {
  return eval2(buf(da, a), buf(db, b), dout, std::move(fn));
}

Result eval1(tl::Buffer a, DType dout, Fn1 fn) {
  tl::Buffer b = a;
  return eval2(std::move(a), std::move(b), dout, [fn](const tl::Tensor& x, const tl::Tensor&) { return fn(x); });
}

Result eval1(DType da, const std::vector<double>& a, DType dout, Fn1 fn) { return eval1(buf(da, a), dout, std::move(fn)); }

bool has_issue(const tl::RunResult& r, const std::string& word) {
  for (auto& is : r.issues)
    if (is.message.find(word) != std::string::npos) return true;
  return false;
}

constexpr double kI32Max = 2147483647.0, kI32Min = -2147483648.0;

}  // namespace

TEST_CASE("integer division truncates toward zero like C") {
  auto r = eval2(DType::i32, {-7, 7, -7, 7, 0, 1, -1, 100}, DType::i32, {2, 2, -2, -2, 5, 3, 3, 7}, DType::i32,
                 [](auto& a, auto& b) { return a / b; });
  CHECK(r.dtype == DType::i32);
  std::vector<double> want{-3, 3, 3, -3, 0, 0, 0, 14};
  for (int i = 0; i < 8; ++i) CHECK(r.at(i) == want[i]);
  CHECK(r.run.issues.empty());
  // A literal divisor too: -7 / 2 is -3 (Python's // would give -4).
  auto l = eval1(DType::i32, {-7, 7, -1, -9}, DType::i32, [](auto& a) { return a / 2; });
  CHECK(l.at(0) == -3);
  CHECK(l.at(1) == 3);
  CHECK(l.at(2) == 0);
  CHECK(l.at(3) == -4);
}

TEST_CASE("integer remainder takes the dividend's sign like C") {
  auto r = eval2(DType::i32, {-7, 7, -7, 7, 0, 1, -1, 100}, DType::i32, {2, 2, -2, -2, 5, 3, 3, 7}, DType::i32,
                 [](auto& a, auto& b) { return a % b; });
  std::vector<double> want{-1, 1, -1, 1, 0, 1, -1, 2};
  for (int i = 0; i < 8; ++i) CHECK(r.at(i) == want[i]);
  auto l = eval1(DType::i8, {-7, 7}, DType::i8, [](auto& a) { return a % 2; });
  CHECK(l.dtype == DType::i8);
  CHECK(l.at(0) == -1);
  CHECK(l.at(1) == 1);
}

TEST_CASE("unsigned division and remainder are unsigned") {
  auto r = eval2(DType::u32, {4294967295.0, 4294967295.0}, DType::u32, {2, 7}, DType::u32,
                 [](auto& a, auto& b) { return a / b; });
  CHECK(r.at(0) == 2147483647.0);
  CHECK(r.at(1) == 613566756.0);
  auto m = eval2(DType::u8, {250, 250}, DType::u8, {7, 255}, DType::u8, [](auto& a, auto& b) { return a % b; });
  CHECK(m.at(0) == 5);
  CHECK(m.at(1) == 250);
}

TEST_CASE("integer division or remainder by zero gives 0 and is flagged") {
  auto r = eval2(DType::i32, {5, -5, 0, 9}, DType::i32, {0, 0, 0, 3}, DType::i32, [](auto& a, auto& b) { return a / b; });
  CHECK(r.at(0) == 0);
  CHECK(r.at(1) == 0);
  CHECK(r.at(2) == 0);
  CHECK(r.at(3) == 3);
  REQUIRE(r.run.issues.size() == 1);
  CHECK(r.run.issues[0].message.find("zero") != std::string::npos);
  CHECK(r.run.issues[0].pid == std::array<int64_t, 3>{0, 0, 0});
  auto m = eval2(DType::u16, {5, 7}, DType::u16, {0, 4}, DType::u16, [](auto& a, auto& b) { return a % b; });
  CHECK(m.at(0) == 0);
  CHECK(m.at(1) == 3);
  CHECK(has_issue(m.run, "zero"));
}

TEST_CASE("INT_MIN / -1 wraps and its remainder is 0") {
  auto d = eval2(DType::i32, {kI32Min, kI32Min}, DType::i32, {-1, 1}, DType::i32, [](auto& a, auto& b) { return a / b; });
  CHECK(d.at(0) == kI32Min);
  CHECK(d.at(1) == kI32Min);
  auto m = eval2(DType::i32, {kI32Min, -7}, DType::i32, {-1, -1}, DType::i32, [](auto& a, auto& b) { return a % b; });
  CHECK(m.at(0) == 0);
  CHECK(m.at(1) == 0);
  auto d8 = eval2(DType::i8, {-128, 5}, DType::i8, {-1, -1}, DType::i8, [](auto& a, auto& b) { return a / b; });
  CHECK(d8.at(0) == -128);
  CHECK(d8.at(1) == -5);
  CHECK(d.run.issues.empty());
}

TEST_CASE("float remainder is frem as the GPU computes it: x - trunc(x / y) * y, x for an infinite y") {
  // The result takes the dividend's sign (C fmod, not Python's floor mod).
  auto r = eval2(DType::f32, {-7.5, 7.5, -7.5, 5.0}, DType::f32, {2.0, 2.0, -2.0, 3.0}, DType::f32,
                 [](auto& a, auto& b) { return a % b; });
  CHECK(r.dtype == DType::f32);
  CHECK(r.at(0) == -1.5);  // Python: 0.5
  CHECK(r.at(1) == 1.5);
  CHECK(r.at(2) == -1.5);
  CHECK(r.at(3) == 2.0);
  auto l = eval1(DType::f64, {-7.5, 7.25}, DType::f64, [](auto& a) { return a % 2.0; });
  CHECK(l.dtype == DType::f64);
  CHECK(l.at(0) == -1.5);
  CHECK(l.at(1) == 1.25);
  // Where fmod and the GPU's expansion part (recorded with Triton 3.6 on a
  // GPU, tests/fidelity float_mod_*): a zero result is +0.0, an infinite
  // divisor gives x, and x / y overflowing gives an infinity.
  const double tiny = std::ldexp(1.0, -149);
  auto g = eval2(DType::f32, {-0.0, -2.5, 2.5, -0.5}, DType::f32, {1.5, -2.5, -kInf, tiny}, DType::f32,
                 [](auto& a, auto& b) { return a % b; });
  CHECK(g.bits(0) == 0u);  // +0.0, not fmod's -0.0
  CHECK(g.bits(1) == 0u);
  CHECK(g.at(2) == 2.5);
  CHECK(g.at(3) == kInf);  // fmod: -0.0
}

TEST_CASE("float negation is 0 - x, as Triton's: -(+0.0) is +0.0") {
  auto n = eval1(DType::f32, {0.0, -0.0, 1.5, kInf}, DType::f32, [](auto& a) { return -a; });
  CHECK(n.bits(0) == 0u);  // not 0x80000000
  CHECK(n.bits(1) == 0u);
  CHECK(n.at(2) == -1.5);
  CHECK(n.at(3) == -kInf);
  auto h = eval1(DType::f16, {0.0, 2.0}, DType::f16, [](auto& a) { return -a; });
  CHECK(h.dtype == DType::f16);
  CHECK(h.bits(0) == 0u);
  CHECK(h.at(1) == -2.0);
}

TEST_CASE("i1 + - * i1 stays i1 and wraps: + and - are xor, * is and") {
  for (auto [name, fn] : std::vector<std::pair<const char*, Fn2>>{
           {"+", [](const tl::Tensor& a, const tl::Tensor& b) { return a + b; }},
           {"-", [](const tl::Tensor& a, const tl::Tensor& b) { return a - b; }},
           {"*", [](const tl::Tensor& a, const tl::Tensor& b) { return a * b; }}}) {
    INFO(name);
    auto r = eval2(DType::i1, {0, 0, 1, 1}, DType::i1, {0, 1, 0, 1}, DType::i32, fn);
    CHECK(r.dtype == DType::i1);
    bool mul = std::string(name) == "*";
    CHECK(r.at(0) == 0);
    CHECK(r.at(1) == (mul ? 0 : 1));
    CHECK(r.at(2) == (mul ? 0 : 1));
    CHECK(r.at(3) == (mul ? 1 : 0));
  }
  // With a literal, i1 still computes in i32.
  auto l = eval1(DType::i1, {1, 0}, DType::i32, [](auto& a) { return a + 1; });
  CHECK(l.dtype == DType::i32);
  CHECK(l.at(0) == 2);
}

TEST_CASE("maximum and minimum order -0.0 below +0.0 whichever operand comes first") {
  auto mx = eval2(DType::f32, {-0.0, 0.0, -0.0, kNaN}, DType::f32, {0.0, -0.0, -0.0, -0.0}, DType::f32,
                  [](auto& a, auto& b) { return tl::maximum(a, b); });
  CHECK(mx.bits(0) == 0u);
  CHECK(mx.bits(1) == 0u);
  CHECK(mx.bits(2) == 0x80000000u);
  CHECK(mx.bits(3) == 0x80000000u);  // a NaN loses to a number
  auto mn = eval2(DType::f64, {-0.0, 0.0, 0.0, 1.0}, DType::f64, {0.0, -0.0, 0.0, kNaN}, DType::f64,
                  [](auto& a, auto& b) { return tl::minimum(a, b); });
  CHECK(mn.bits(0) == 0x8000000000000000u);
  CHECK(mn.bits(1) == 0x8000000000000000u);
  CHECK(mn.bits(2) == 0u);
  CHECK(mn.at(3) == 1.0);
}

TEST_CASE("true division: int/int gives f32, f16 and bf16 division gives f32") {
  auto t = eval2(DType::i32, {7, -7}, DType::i32, {2, 2}, DType::f32, [](auto& a, auto& b) { return tl::truediv(a, b); });
  CHECK(t.dtype == DType::f32);
  CHECK(t.at(0) == 3.5);
  CHECK(t.at(1) == -3.5);
  auto t64 = eval2(DType::i64, {1, 7}, DType::i64, {3, 2}, DType::f32, [](auto& a, auto& b) { return tl::truediv(a, b); });
  CHECK(t64.dtype == DType::f32);
  CHECK(t64.at(0) == static_cast<double>(1.0f / 3.0f));
  auto lit = eval1(DType::i32, {7, -7}, DType::f32, [](auto& a) { return a / 2.0; });
  CHECK(lit.dtype == DType::f32);
  CHECK(lit.at(0) == 3.5);
  CHECK(lit.at(1) == -3.5);
  // f16 / 2 is computed in f32: 1/3 keeps f32 precision.
  auto h = eval1(DType::f16, {1, 7}, DType::f32, [](auto& a) { return a / 3; });
  CHECK(h.dtype == DType::f32);
  CHECK(h.at(0) == static_cast<double>(1.0f / 3.0f));
  auto hm = eval1(DType::bf16, {7, -7}, DType::f32, [](auto& a) { return a % 2; });
  CHECK(hm.dtype == DType::f32);
  CHECK(hm.at(0) == 1.0);
  CHECK(hm.at(1) == -1.0);
}

TEST_CASE("integer + - * wrap around") {
  auto add = eval2(DType::i32, {kI32Max, kI32Min}, DType::i32, {1, -1}, DType::i32, [](auto& a, auto& b) { return a + b; });
  CHECK(add.at(0) == kI32Min);
  CHECK(add.at(1) == kI32Max);
  auto mul = eval2(DType::i32, {65536, 46341}, DType::i32, {65536, 46341}, DType::i32, [](auto& a, auto& b) { return a * b; });
  CHECK(mul.at(0) == 0);
  CHECK(mul.at(1) == -2147479015.0);  // 2147488281 - 2^32
  auto u8 = eval1(DType::u8, {250, 3}, DType::u8, [](auto& a) { return a + 10; });
  CHECK(u8.at(0) == 4);
  CHECK(u8.at(1) == 13);
  auto u8s = eval1(DType::u8, {3, 200}, DType::u8, [](auto& a) { return a - 5; });
  CHECK(u8s.at(0) == 254);
  auto i8 = eval1(DType::i8, {100, -100}, DType::i8, [](auto& a) { return a + a; });
  CHECK(i8.at(0) == -56);
  CHECK(i8.at(1) == 56);
  auto i16 = eval1(DType::i16, {300, -300}, DType::i16, [](auto& a) { return a * a; });
  CHECK(i16.at(0) == 24464);
  auto u64 = eval1(buf_bits(DType::u64, {~uint64_t{0}, 5}), DType::u64, [](auto& a) { return a + 1; });
  CHECK(u64.bits(0) == 0);
  CHECK(u64.bits(1) == 6);
}

TEST_CASE("negation and abs of the most negative integer wrap") {
  auto n = eval1(DType::i32, {kI32Min, 5}, DType::i32, [](auto& a) { return -a; });
  CHECK(n.at(0) == kI32Min);
  CHECK(n.at(1) == -5);
  auto ab = eval1(DType::i32, {kI32Min, -5}, DType::i32, [](auto& a) { return tl::abs(a); });
  CHECK(ab.at(0) == kI32Min);
  CHECK(ab.at(1) == 5);
  auto nu = eval1(DType::u8, {1, 0}, DType::u8, [](auto& a) { return -a; });
  CHECK(nu.at(0) == 255);
  CHECK(nu.at(1) == 0);
  auto au = eval1(DType::u8, {200, 0}, DType::u8, [](auto& a) { return tl::abs(a); });
  CHECK(au.at(0) == 200);
}

TEST_CASE("right shift is arithmetic for signed and logical for unsigned") {
  auto s = eval2(DType::i32, {-8, kI32Min, 8, kI32Min}, DType::i32, {1, 1, 1, 31}, DType::i32,
                 [](auto& a, auto& b) { return a >> b; });
  CHECK(s.at(0) == -4);
  CHECK(s.at(1) == -1073741824.0);
  CHECK(s.at(2) == 4);
  CHECK(s.at(3) == -1);
  auto u = eval2(DType::u32, {2147483648.0, 4294967288.0}, DType::u32, {31, 1}, DType::u32,
                 [](auto& a, auto& b) { return a >> b; });
  CHECK(u.at(0) == 1);
  CHECK(u.at(1) == 2147483644.0);
  auto i8 = eval1(DType::i8, {-128, 64}, DType::i8, [](auto& a) { return a >> 7; });
  CHECK(i8.at(0) == -1);
  CHECK(i8.at(1) == 0);
  auto u8 = eval1(DType::u8, {128, 255}, DType::u8, [](auto& a) { return a >> 7; });
  CHECK(u8.at(0) == 1);
  CHECK(u8.at(1) == 1);
  CHECK(s.run.issues.empty());
}

TEST_CASE("the promoted left operand decides arithmetic or logical right shift") {
  // u32 >> i32 promotes to u32: logical.
  auto u = eval2(DType::u32, {2147483648.0}, DType::i32, {4}, DType::u32, [](auto& a, auto& b) { return a >> b; });
  CHECK(u.dtype == DType::u32);
  CHECK(u.at(0) == 134217728.0);
  // i64 >> u32 promotes to i64: arithmetic.
  auto s = eval2(DType::i64, {-16}, DType::u32, {2}, DType::i64, [](auto& a, auto& b) { return a >> b; });
  CHECK(s.dtype == DType::i64);
  CHECK(s.at(0) == -4);
  // i8 >> i32 promotes to i32: the sign of -128 is kept.
  auto w = eval2(DType::i8, {-128}, DType::i32, {1}, DType::i32, [](auto& a, auto& b) { return a >> b; });
  CHECK(w.dtype == DType::i32);
  CHECK(w.at(0) == -64);
}

TEST_CASE("a shift count at or above the width gives 0 or all sign bits and is flagged") {
  auto s = eval2(DType::i32, {-5, 5, -5, 5}, DType::i32, {32, 32, 100, -1}, DType::i32,
                 [](auto& a, auto& b) { return a >> b; });
  CHECK(s.at(0) == -1);
  CHECK(s.at(1) == 0);
  CHECK(s.at(2) == -1);
  CHECK(s.at(3) == 0);
  REQUIRE(s.run.issues.size() == 1);
  CHECK(s.run.issues[0].message.find("shift") != std::string::npos);
  auto l = eval2(DType::i32, {-5, 1}, DType::i32, {32, 33}, DType::i32, [](auto& a, auto& b) { return a << b; });
  CHECK(l.at(0) == 0);
  CHECK(l.at(1) == 0);
  CHECK(has_issue(l.run, "shift"));
  auto u = eval1(DType::u32, {4294967295.0, 1}, DType::u32, [](auto& a) { return a >> 32; });
  CHECK(u.at(0) == 0);
  CHECK(u.at(1) == 0);
  CHECK(has_issue(u.run, "shift"));
  auto i8 = eval1(DType::i8, {-3, 3}, DType::i8, [](auto& a) { return a >> 8; });
  CHECK(i8.at(0) == -1);
  CHECK(i8.at(1) == 0);
  auto u8 = eval1(DType::u8, {255, 1}, DType::u8, [](auto& a) { return a << 8; });
  CHECK(u8.at(0) == 0);
  CHECK(has_issue(u8.run, "shift"));
}

TEST_CASE("left shift wraps into the sign bit") {
  auto s = eval2(DType::i32, {1, 3}, DType::i32, {31, 30}, DType::i32, [](auto& a, auto& b) { return a << b; });
  CHECK(s.at(0) == kI32Min);
  CHECK(s.at(1) == kI32Min + 1073741824.0);
  auto u = eval1(DType::u8, {0x81, 0x40}, DType::u8, [](auto& a) { return a << 1; });
  CHECK(u.at(0) == 2);
  CHECK(u.at(1) == 128);
  CHECK(s.run.issues.empty());
}

TEST_CASE("bitwise operators work on integers and i1") {
  auto a = eval2(DType::i32, {12, -1}, DType::i32, {10, 255}, DType::i32, [](auto& x, auto& y) { return x & y; });
  CHECK(a.at(0) == 8);
  CHECK(a.at(1) == 255);
  auto o = eval2(DType::i32, {12, 0}, DType::i32, {10, 0}, DType::i32, [](auto& x, auto& y) { return x | y; });
  CHECK(o.at(0) == 14);
  auto x = eval2(DType::i32, {12, -1}, DType::i32, {10, 1}, DType::i32, [](auto& p, auto& q) { return p ^ q; });
  CHECK(x.at(0) == 6);
  CHECK(x.at(1) == -2);
  auto n = eval1(DType::i32, {0, 5}, DType::i32, [](auto& p) { return ~p; });
  CHECK(n.at(0) == -1);
  CHECK(n.at(1) == -6);
  auto nu = eval1(DType::u8, {0, 0x0f}, DType::u8, [](auto& p) { return ~p; });
  CHECK(nu.at(0) == 255);
  CHECK(nu.at(1) == 0xf0);
  // i1: & | ^ stay i1, ~ is logical not.
  auto b = eval1(DType::i32, {0, 1, 2, 3}, DType::i1, [](auto& p) { return ((p > 0) & (p < 3)) ^ ~(p == 3); });
  CHECK(b.dtype == DType::i1);
  // lane: (p>0 & p<3), ~(p==3): 0:(0,1)->1  1:(1,1)->0  2:(1,1)->0  3:(0,0)->0
  CHECK(b.at(0) == 1);
  CHECK(b.at(1) == 0);
  CHECK(b.at(2) == 0);
  CHECK(b.at(3) == 0);
}

TEST_CASE("float comparisons with NaN are false except !=") {
  std::vector<double> a{kNaN, kNaN, 1.0, 1.0}, b{1.0, kNaN, kNaN, 1.0};
  auto eq = eval2(DType::f32, a, DType::f32, b, DType::i32, [](auto& x, auto& y) { return x == y; });
  auto ne = eval2(DType::f32, a, DType::f32, b, DType::i32, [](auto& x, auto& y) { return x != y; });
  auto lt = eval2(DType::f32, a, DType::f32, b, DType::i32, [](auto& x, auto& y) { return x < y; });
  auto le = eval2(DType::f32, a, DType::f32, b, DType::i32, [](auto& x, auto& y) { return x <= y; });
  auto gt = eval2(DType::f32, a, DType::f32, b, DType::i32, [](auto& x, auto& y) { return x > y; });
  auto ge = eval2(DType::f32, a, DType::f32, b, DType::i32, [](auto& x, auto& y) { return x >= y; });
  CHECK(eq.dtype == DType::i1);
  for (int i = 0; i < 3; ++i) {
    CHECK(eq.at(i) == 0);
    CHECK(ne.at(i) == 1);
    CHECK(lt.at(i) == 0);
    CHECK(le.at(i) == 0);
    CHECK(gt.at(i) == 0);
    CHECK(ge.at(i) == 0);
  }
  CHECK(eq.at(3) == 1);
  CHECK(ne.at(3) == 0);
  CHECK(le.at(3) == 1);
}

TEST_CASE("integer comparisons follow the promoted signedness") {
  // i32 -1 vs u32 1 compares as u32: 4294967295 < 1 is false.
  auto u = eval2(DType::i32, {-1}, DType::u32, {1}, DType::i32, [](auto& x, auto& y) { return x < y; });
  CHECK(u.at(0) == 0);
  // i64 -1 vs u32 1 compares as i64.
  auto s = eval2(DType::i64, {-1}, DType::u32, {1}, DType::i32, [](auto& x, auto& y) { return x < y; });
  CHECK(s.at(0) == 1);
}

TEST_CASE("float to int truncates toward zero, saturates and maps NaN to 0") {
  std::vector<double> v{2.9, -2.9, 3e9, -3e9, kNaN, kInf, -kInf, 0.5};
  auto i32 = eval1(DType::f32, v, DType::i32, [](auto& x) { return x.to(tl::i32); });
  CHECK(i32.dtype == DType::i32);
  std::vector<double> want{2, -2, kI32Max, kI32Min, 0, kI32Max, kI32Min, 0};
  for (int i = 0; i < 8; ++i) CHECK(i32.at(i) == want[i]);
  auto i8 = eval1(DType::f32, {300, -300, kNaN, 127.9}, DType::i8, [](auto& x) { return x.to(tl::i8); });
  CHECK(i8.at(0) == 127);
  CHECK(i8.at(1) == -128);
  CHECK(i8.at(2) == 0);
  CHECK(i8.at(3) == 127);
  auto u8 = eval1(DType::f32, {-1, 300, 255.5, kNaN}, DType::u8, [](auto& x) { return x.to(tl::u8); });
  CHECK(u8.at(0) == 0);
  CHECK(u8.at(1) == 255);
  CHECK(u8.at(2) == 255);
  CHECK(u8.at(3) == 0);
  auto u16 = eval1(DType::f16, {60000, -2}, DType::u16, [](auto& x) { return x.to(tl::u16); });
  CHECK(u16.at(0) == 60000);
  CHECK(u16.at(1) == 0);
  auto i16 = eval1(DType::f32, {1e5, -1e5}, DType::i16, [](auto& x) { return x.to(tl::i16); });
  CHECK(i16.at(0) == 32767);
  CHECK(i16.at(1) == -32768);
  auto i64 = eval1(DType::f64, {1e19, -1e19, kNaN, -2.5}, DType::i64, [](auto& x) { return x.to(tl::i64); });
  CHECK(i64.bits(0) == static_cast<uint64_t>(std::numeric_limits<int64_t>::max()));
  CHECK(i64.bits(1) == static_cast<uint64_t>(std::numeric_limits<int64_t>::min()));
  CHECK(i64.bits(2) == 0);
  CHECK(i64.at(3) == -2);
  auto u64 = eval1(DType::f32, {-5, 1e20}, DType::u64, [](auto& x) { return x.to(tl::u64); });
  CHECK(u64.bits(0) == 0);
  CHECK(u64.bits(1) == ~uint64_t{0});
  auto d = eval1(DType::f64, {2147483647.5, 2147483648.0, -2147483648.9, -2147483649.0}, DType::i32,
                 [](auto& x) { return x.to(tl::i32); });
  CHECK(d.at(0) == kI32Max);
  CHECK(d.at(1) == kI32Max);
  CHECK(d.at(2) == kI32Min);
  CHECK(d.at(3) == kI32Min);
}

TEST_CASE("int to int casts sign-extend, zero-extend or keep the low bits") {
  auto a = eval1(DType::i8, {-1, 127}, DType::i32, [](auto& x) { return x.to(tl::i32); });
  CHECK(a.at(0) == -1);
  auto b = eval1(DType::i8, {-1, 127}, DType::u32, [](auto& x) { return x.to(tl::u32); });
  CHECK(b.at(0) == 4294967295.0);
  auto c = eval1(DType::u8, {255, 1}, DType::i32, [](auto& x) { return x.to(tl::i32); });
  CHECK(c.at(0) == 255);
  auto d = eval1(DType::u8, {255, 128}, DType::i8, [](auto& x) { return x.to(tl::i8); });
  CHECK(d.at(0) == -1);
  CHECK(d.at(1) == -128);
  auto e = eval1(DType::i32, {300, -1, 70000, 65535}, DType::u8, [](auto& x) { return x.to(tl::u8); });
  CHECK(e.at(0) == 44);
  CHECK(e.at(1) == 255);
  CHECK(e.at(2) == 112);
  CHECK(e.at(3) == 255);
  auto f = eval1(DType::i32, {70000, -1}, DType::i16, [](auto& x) { return x.to(tl::i16); });
  CHECK(f.at(0) == 4464);
  CHECK(f.at(1) == -1);
  auto g = eval1(buf_bits(DType::i64, {0x100000005ull, 0xffffffff80000000ull}), DType::i32,
                 [](auto& x) { return x.to(tl::i32); });
  CHECK(g.at(0) == 5);
  CHECK(g.at(1) == kI32Min);
  auto h = eval1(DType::i32, {0, 1, 2, -7}, DType::i32, [](auto& x) { return (x != 0).to(tl::i32) + (x != 0).to(tl::u8); });
  CHECK(h.at(0) == 0);
  CHECK(h.at(1) == 2);  // true -> 1 for both widths
  auto i = eval1(DType::i32, {0, 2, -7, 256}, DType::i32, [](auto& x) { return x.to(tl::i1).to(tl::i32); });
  CHECK(i.at(0) == 0);
  CHECK(i.at(1) == 1);
  CHECK(i.at(2) == 1);
  CHECK(i.at(3) == 1);  // x != 0, not the low bit
}

TEST_CASE("float to i1 is x != 0 and NaN gives true") {
  auto r = eval1(DType::f32, {0.0, -0.0, 0.25, kNaN}, DType::i32, [](auto& x) { return x.to(tl::i1).to(tl::i32); });
  CHECK(r.at(0) == 0);
  CHECK(r.at(1) == 0);
  CHECK(r.at(2) == 1);
  CHECK(r.at(3) == 1);
}

TEST_CASE("int to float rounds to nearest even") {
  auto f = eval1(DType::i32, {16777217, 16777219, -16777217, 3}, DType::f32, [](auto& x) { return x.to(tl::f32); });
  CHECK(f.at(0) == 16777216.0);
  CHECK(f.at(1) == 16777220.0);
  CHECK(f.at(2) == -16777216.0);
  auto u = eval1(DType::u32, {4294967295.0, 1}, DType::f32, [](auto& x) { return x.to(tl::f32); });
  CHECK(u.at(0) == 4294967296.0);
  auto d = eval1(buf_bits(DType::i64, {(uint64_t{1} << 53) + 1, (uint64_t{1} << 53) + 3}), DType::f64,
                 [](auto& x) { return x.to(tl::f64); });
  CHECK(d.at(0) == 9007199254740992.0);
  CHECK(d.at(1) == 9007199254740996.0);
  auto h = eval1(DType::i32, {2049, 2051, 70000, -70000}, DType::f16, [](auto& x) { return x.to(tl::f16); });
  CHECK(h.at(0) == 2048);
  CHECK(h.at(1) == 2052);
  CHECK(h.at(2) == kInf);
  CHECK(h.at(3) == -kInf);
  auto b = eval1(DType::i32, {257, 259}, DType::bf16, [](auto& x) { return x.to(tl::bf16); });
  CHECK(b.at(0) == 256);
  CHECK(b.at(1) == 260);
}

TEST_CASE("f32 to f16 rounds to nearest even, overflows to inf and keeps subnormals") {
  const double e11 = std::ldexp(1.0, -11), e25 = std::ldexp(1.0, -25);
  std::vector<double> v{1 + e11, 1 + 3 * e11, 65504, 65519, 65520, -65520, e25, 3 * e25};
  auto h = eval1(DType::f32, v, DType::f16, [](auto& x) { return x.to(tl::f16); });
  CHECK(h.dtype == DType::f16);
  CHECK(h.at(0) == 1.0);
  CHECK(h.at(1) == 1 + std::ldexp(1.0, -9));
  CHECK(h.at(2) == 65504);
  CHECK(h.at(3) == 65504);
  CHECK(h.at(4) == kInf);
  CHECK(h.at(5) == -kInf);
  CHECK(h.at(6) == 0.0);                     // half the smallest subnormal: ties to 0 (even)
  CHECK(h.at(7) == std::ldexp(1.0, -23));    // 1.5 subnormal units: ties to 2 (even)
}

TEST_CASE("f32 to bf16 rounds to nearest even") {
  const double e8 = std::ldexp(1.0, -8);
  std::vector<double> v{1 + e8, 1 + 3 * e8, 1 + e8 + std::ldexp(1.0, -20), 3.4028234663852886e38};
  auto b = eval1(DType::f32, v, DType::bf16, [](auto& x) { return x.to(tl::bf16); });
  CHECK(b.at(0) == 1.0);
  CHECK(b.at(1) == 1 + std::ldexp(1.0, -6));
  CHECK(b.at(2) == 1 + std::ldexp(1.0, -7));
  CHECK(b.at(3) == kInf);
  auto n = eval1(DType::f32, {kNaN, -kInf}, DType::bf16, [](auto& x) { return x.to(tl::bf16); });
  CHECK(std::isnan(n.at(0)));
  CHECK(n.at(1) == -kInf);
}

TEST_CASE("f64 to f16, bf16 and f32 rounds once, not twice through f32") {
  // Just above a tie at f16/bf16 precision, but a tie once rounded to f32.
  const double h = 1 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  const double b = 1 + std::ldexp(1.0, -8) + std::ldexp(1.0, -30);
  auto rh = eval1(DType::f64, {h, -h}, DType::f16, [](auto& x) { return x.to(tl::f16); });
  CHECK(rh.at(0) == 1 + std::ldexp(1.0, -10));
  CHECK(rh.at(1) == -(1 + std::ldexp(1.0, -10)));
  auto rb = eval1(DType::f64, {b, -b}, DType::bf16, [](auto& x) { return x.to(tl::bf16); });
  CHECK(rb.at(0) == 1 + std::ldexp(1.0, -7));
  CHECK(rb.at(1) == -(1 + std::ldexp(1.0, -7)));
  auto rf = eval1(DType::f64, {1e39, 1.0 / 3.0}, DType::f32, [](auto& x) { return x.to(tl::f32); });
  CHECK(rf.at(0) == kInf);
  CHECK(rf.at(1) == static_cast<double>(1.0f / 3.0f));
}

TEST_CASE("f16 and bf16 arithmetic rounds every result to its own type") {
  // f16: 2048 + 1 is 2048 (ulp 2); 60000 * 2.0 overflows to inf (result stays f16).
  auto h = eval1(DType::f16, {2048, 60000}, DType::f32, [](auto& x) { return tl::where(x < 4096, x + 1, x * 2.0); });
  CHECK(h.dtype == DType::f16);
  CHECK(h.at(0) == 2048);
  CHECK(h.at(1) == kInf);
  auto b = eval1(DType::bf16, {256, 1}, DType::f32, [](auto& x) { return x + 1; });
  CHECK(b.dtype == DType::bf16);
  CHECK(b.at(0) == 256);
  CHECK(b.at(1) == 2);
}

TEST_CASE("bitcast reinterprets the bits of a same-width type") {
  auto f = eval1(DType::f32, {1.0, -2.0}, DType::i32, [](auto& x) { return x.to(tl::i32, true); });
  CHECK(f.at(0) == 0x3f800000);
  CHECK(f.bits(1) == 0xc0000000u);
  auto u = eval1(DType::i32, {-1, 5}, DType::u32, [](auto& x) { return x.to(tl::u32, true); });
  CHECK(u.at(0) == 4294967295.0);
  auto h = eval1(DType::f16, {1.0, -0.0}, DType::i16, [](auto& x) { return x.to(tl::i16, true); });
  CHECK(h.at(0) == 0x3c00);
  CHECK(h.bits(1) == 0x8000);
  auto back = eval1(DType::i32, {0x40490fdb}, DType::f32, [](auto& x) { return x.to(tl::f32, true); });
  CHECK(back.at(0) == static_cast<double>(std::bit_cast<float>(0x40490fdbu)));
}
