// Build errors: every broken rule of SEMANTICS.md stops the build with a
// message that names what is wrong and points at the kernel's own line
// (BuildError::loc(), and what() reads like a compiler diagnostic); launch
// mistakes are LaunchErrors.
#include <catch2/catch.hpp>
#include <functional>
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
  const tl::Ptr& x;  // f32 unless a test says otherwise
  const tl::Ptr& y;
  const tl::Int& n;
};
std::function<void(const P&)> g_body;
void kernel(tl::Ptr x, tl::Ptr y, tl::Int n) { g_body(P{x, y, n}); }

std::optional<tl::BuildError> build_error(std::function<void(const P&)> fn,
                                          std::vector<DType> dtypes = {DType::f32, DType::f32, DType::f32}) {
  g_body = std::move(fn);
  tl::KernelDef k("k", kernel);
  return specialize_error(k, tl::Specialization{dtypes, {0, 0, 0}});
}

// The error exists, names each of `words`, and points at g_line (set on the
// offending kernel line itself to __LINE__) in this file, at a column.
void check(const std::optional<tl::BuildError>& e, std::vector<std::string> words) {
  check_error(e, words);
  CHECK(e->loc().col > 0);
}

tl::Tensor off8() { return tl::arange(0, 8); }

}  // namespace

TEST_CASE("what() reads file:line:col: error: message, then the kernel line and a caret") {
  auto e = build_error([](const P&) { g_line = __LINE__; (void)tl::arange(0, 12); });
  REQUIRE(e);
  std::string w = e->what();
  std::string head = ":" + std::to_string(g_line) + ":" + std::to_string(e->loc().col) + ": error: " + e->message();
  CHECK(w.find(head) != std::string::npos);
  CHECK(w.find("test_build_errors.cpp") < w.find(head));
  // The offending source line is quoted, with a caret below it.
  CHECK(w.find("g_line = __LINE__; (void)tl::arange(0, 12);") != std::string::npos);
  CHECK(w.substr(w.rfind('\n') + 1).find('^') != std::string::npos);
}

TEST_CASE("a shape mismatch names both shapes") {
  check(build_error([](const P&) { g_line = __LINE__; (void)(tl::arange(0, 4) + tl::arange(0, 8)); }), {"[4]", "[8]"});
  check(build_error([](const P&) {
          auto a = tl::zeros({2, 4});
          g_line = __LINE__; (void)tl::where(a > 0, a, tl::zeros({4, 2}));
        }),
        {"[2, 4]", "[4, 2]"});
}

TEST_CASE("arange needs a power-of-two length") {
  check(build_error([](const P&) { g_line = __LINE__; (void)tl::arange(0, 12); }), {"12", "power of two"});
  check(build_error([](const P&) { g_line = __LINE__; (void)tl::arange(4, 4); }), {"empty"});
  check(build_error([](const P&) { g_line = __LINE__; (void)tl::full({4, 6}, 0, tl::f32); }), {"6", "power of two"});
}

TEST_CASE("`other` without a mask is rejected: a number where the mask goes is not a mask") {
  // tl::load has no (ptr, other) overload; load(ptr, 0.0f) passes 0.0 as the mask.
  check(build_error([](const P& p) { g_line = __LINE__; (void)tl::load(p.x + off8(), 0.0f); }), {"mask"});
  check(build_error([](const P& p) { g_line = __LINE__; (void)tl::load(p.x + off8(), off8(), 0.0f); }), {"mask", "i1"});
}

TEST_CASE("a mask that does not fit the pointer tile is rejected") {
  check(build_error([](const P& p) { g_line = __LINE__; (void)tl::load(p.x + tl::arange(0, 4), off8() < 3); }),
        {"[4]", "[8]"});
  check(build_error([](const P& p) { g_line = __LINE__; tl::store(p.y + tl::arange(0, 4), 1.0f, off8() < 3); }),
        {"[4]", "[8]"});
  check(build_error([](const P& p) { g_line = __LINE__; tl::store(p.y + tl::arange(0, 4), tl::zeros({2, 4})); }),
        {"[4]", "[2, 4]"});
}

TEST_CASE("dot shape and dtype errors point at the dot") {
  check(build_error([](const P&) {
          auto a = tl::zeros({16, 32}), b = tl::zeros({16, 16});
          g_line = __LINE__; (void)tl::dot(a, b);
        }),
        {"[16, 32]", "[16, 16]"});
  check(build_error([](const P&) {
          auto a = tl::zeros({16, 16}, tl::f16), b = tl::zeros({16, 16}, tl::f32);
          g_line = __LINE__; (void)tl::dot(a, b);
        }),
        {"f16", "f32"});
  check(build_error([](const P&) {
          auto a = tl::zeros({8, 16}), b = tl::zeros({16, 16});
          g_line = __LINE__; (void)tl::dot(a, b);
        }),
        {"M = 8"});
}

TEST_CASE("integer division or remainder of mixed signedness is rejected") {
  check(build_error([](const P& p) {
          auto a = tl::load(p.x + off8()), b = tl::load(p.y + off8());
          g_line = __LINE__; (void)(a / b);
        }, {DType::i32, DType::u32, DType::f32}),
        {"i32", "u32"});
  check(build_error([](const P& p) {
          auto a = tl::load(p.x + off8()), b = tl::load(p.y + off8());
          g_line = __LINE__; (void)(a % b);
        }, {DType::u16, DType::i64, DType::f32}),
        {"u16", "i64"});
}

TEST_CASE("an integer literal out of range for the tile's type is rejected") {
  check(build_error([](const P& p) {
          auto a = tl::load(p.x + off8());
          g_line = __LINE__; (void)(a + 300);
        }, {DType::u8, DType::f32, DType::f32}),
        {"300", "u8"});
  check(build_error([](const P& p) {
          auto a = tl::load(p.x + off8());
          g_line = __LINE__; (void)(a + (-1));
        }, {DType::u8, DType::f32, DType::f32}),
        {"-1", "u8"});
  check(build_error([](const P& p) {
          auto a = tl::load(p.x + off8());
          g_line = __LINE__; (void)(a * 2147483648);
        }, {DType::i32, DType::f32, DType::f32}),
        {"2147483648", "i32"});
}

TEST_CASE("a loop-carried tile may not change its type") {
  check(build_error([](const P& p) {
          auto acc = tl::zeros({4}, tl::i32);
          for (auto i : tl::range(0, p.n)) {
            g_line = __LINE__; acc += i * 0.5;
          }
        }),
        {"i32[4]", "f32[4]"});
  check(build_error([](const P& p) {
          auto acc = tl::zeros({4}, tl::f32);
          for (auto i : tl::range(0, p.n)) {
            g_line = __LINE__; acc = acc + tl::arange(0, 2).col() * i;
          }
        }),
        {"f32[4]", "f32[2,4]"});
  check(build_error([](const P& p) {
          auto acc = tl::zeros({4}, tl::f32);
          tl::if_(p.n > 0, [&] { g_line = __LINE__; acc = acc.to(tl::f16); });
        }),
        {"f32[4]", "f16[4]"});
  check(build_error([](const P& p) {
          tl::Tensor t;
          for (auto i : tl::range(0, p.n)) {
            g_line = __LINE__; t = off8() + i;
          }
        }),
        {"initial value"});
}

TEST_CASE("bitwise operators on floats are rejected") {
  check(build_error([](const P& p) {
          auto a = tl::load(p.x + off8());
          g_line = __LINE__; (void)(a & 1);
        }),
        {"integer", "f32"});
  check(build_error([](const P& p) {
          auto a = tl::load(p.x + off8());
          g_line = __LINE__; (void)(a << 1);
        }, {DType::f16, DType::f32, DType::f32}),
        {"integer", "f16"});
  check(build_error([](const P& p) {
          auto a = tl::load(p.x + off8());
          g_line = __LINE__; (void)(a ^ off8());
        }),
        {"integer"});
}

TEST_CASE("errors in unary operators (~x, -x) point at the kernel line too") {
  check(build_error([](const P& p) { g_line = __LINE__; (void)~tl::load(p.x + off8()); }), {"~", "f32"});
  check(build_error([](const P& p) { g_line = __LINE__; (void)-p.x; }), {"pointer"});
}

TEST_CASE("other rule breaks name the rule") {
  check(build_error([](const P&) { g_line = __LINE__; (void)tl::where(off8(), 1, 2); }), {"i1", "!= 0"});
  check(build_error([](const P& p) { g_line = __LINE__; (void)tl::load(p.x + tl::zeros({8})); }), {"integer"});
  check(build_error([](const P& p) { g_line = __LINE__; (void)(p.x + p.y); }), {"two pointers"});
  check(build_error([](const P& p) { g_line = __LINE__; (void)tl::exp(tl::load(p.x + off8())); },
                    {DType::f16, DType::f32, DType::f32}),
        {"f32", "f16"});
  check(build_error([](const P&) { g_line = __LINE__; tl::static_assert_(false, "block too small"); }),
        {"block too small"});
  check(build_error([](const P&) { g_line = __LINE__; tl::if_(off8() > 0, [] {}); }), {"scalar"});
  check(build_error([](const P&) { g_line = __LINE__; (void)off8().to(tl::i16, true); }), {"32", "16"});
  check(build_error([](const P&) { g_line = __LINE__; (void)tl::zeros({2048, 1024}); }), {"2097152"});
  check(build_error([](const P& p) {
          g_line = __LINE__; for (auto i : tl::range(0, p.n, 0)) (void)i;
        }),
        {"step"});
}

TEST_CASE("a tl:: operation outside a kernel build is an error at the caller's line") {
  std::optional<tl::BuildError> e;
  try {
    g_line = __LINE__; (void)tl::arange(0, 8);
  } catch (const tl::BuildError& err) {
    e = err;
  }
  check(e, {"outside a kernel"});
}

TEST_CASE("launching with the wrong argument kinds is a LaunchError") {
  g_body = [](const P& p) { tl::store(p.y + off8(), tl::load(p.x + off8()) + p.n); };
  tl::KernelDef k("k", kernel, {"x", "y", "n"});
  tl::Buffer x("x", DType::f32, {8}), y("y", DType::f32, {8});
  CHECK_THROWS_WITH(tl::run(k, {}, {5, y, 3}), Catch::Contains("tl::Ptr") && Catch::Contains("'x'"));
  CHECK_THROWS_WITH(tl::run(k, {}, {x, y, y}), Catch::Contains("integer") && Catch::Contains("'n'"));
  CHECK_THROWS_WITH(tl::run(k, {}, {x, y, 2.5}), Catch::Contains("integer"));
  CHECK_THROWS_WITH(tl::run(k, {}, {x, y}), Catch::Contains("2 arguments") && Catch::Contains("takes 3"));
  CHECK_THROWS_AS(tl::run(k, {}, {x, y, 3, 4}), tl::LaunchError);
  CHECK_NOTHROW(tl::run(k, {}, {x, y, 3}));
  CHECK(y.get(7) == 3.0);
}

TEST_CASE("an i32 scalar argument out of range is a LaunchError") {
  g_body = [](const P& p) { tl::store(p.y + off8(), tl::load(p.x + off8()) + p.n); };
  tl::KernelDef k("k", kernel);
  tl::Buffer x("x", DType::f32, {8}), y("y", DType::f32, {8});
  CHECK_THROWS_WITH(tl::run(k, {}, {x, y, 3000000000LL}), Catch::Contains("3000000000") && Catch::Contains("i32"));
  CHECK_THROWS_AS(tl::run(k, {}, {x, y, -2147483649LL}), tl::LaunchError);
  CHECK_NOTHROW(tl::run(k, {}, {x, y, -2147483648LL}));
  CHECK_NOTHROW(tl::run(k, {}, {x, y, 2147483647LL}));
}

TEST_CASE("a grid with a negative axis is a LaunchError, and an axis of 0 runs no program") {
  g_body = [](const P& p) { tl::store(p.y + off8(), tl::load(p.x + off8())); };
  tl::KernelDef k("k", kernel);
  tl::Buffer x("x", DType::f32, {8}), y("y", DType::f32, {8});
  CHECK_THROWS_WITH(tl::run(k, {4, -1, 1}, {x, y, 1}), Catch::Contains("size -1"));
  CHECK_THROWS_AS(tl::run(k, {1, 1, -2}, {x, y, 1}), tl::LaunchError);
  for (tl::Grid empty : {tl::Grid{4, 0, 1}, tl::Grid{0, 1, 1}}) {
    const tl::RunResult r = tl::run(k, empty, {x, y, 1});
    CHECK(r.programs_run == 0);
    CHECK(r.findings.empty());
    CHECK(r.kernel != nullptr);  // built all the same
  }
  CHECK_NOTHROW(tl::run(k, {1, 1, 1}, {x, y, 1}));
}

TEST_CASE("a constant argument must be an integer in int range") {
  struct K {
    static void kernel(tl::Ptr y, tl::Const b) { tl::store(y + tl::arange(0, b), 1.0f); }
  };
  tl::KernelDef k("kc", &K::kernel);
  tl::Buffer y("y", DType::f32, {8});
  CHECK_THROWS_AS(tl::run(k, {}, {y, 2.0}), tl::LaunchError);
  CHECK_THROWS_AS(tl::run(k, {}, {y, int64_t{1} << 40}), tl::LaunchError);
  CHECK_NOTHROW(tl::run(k, {}, {y, 8}));
}
