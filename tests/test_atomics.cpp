// Atomics beyond atomic_add: atomic_max/min/and/or/xor/xchg/cas
// return the old values, apply in program order in the interpreter, follow
// Triton's dtype rules and float max/min semantics, validate sem= and
// scope=, and meet each other without write-conflict findings.
#include <catch2/catch.hpp>
#include <algorithm>
#include <bit>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "build_error_fixture.h"
#include "error.h"
#include "findings.h"
#include "interpreter.h"
#include "ir.h"
#include "tl.h"

namespace {

using build_error_fixture::check_error;
using build_error_fixture::g_line;
using build_error_fixture::specialize_error;
using tl::DType;

struct P {
  const tl::Ptr& x;
  const tl::Ptr& y;
  const tl::Int& n;
};
std::function<void(const P&)> g_body;
void kernel(tl::Ptr x, tl::Ptr y, tl::Int n) { g_body(P{x, y, n}); }

tl::RunResult launch(std::function<void(const P&)> fn, tl::Buffer& x, tl::Buffer& y, tl::Grid grid = {},
                     int threads = 0) {
  g_body = std::move(fn);
  tl::KernelDef k("atomics", kernel, {"x", "y", "n"});
  tl::RunOptions opt;
  opt.threads = threads;
  return tl::run(k, grid, {x, y, int64_t{0}}, opt);
}

std::optional<tl::BuildError> build_error(std::function<void(const P&)> fn, DType x = DType::f32) {
  g_body = std::move(fn);
  tl::KernelDef k("atomics", kernel, {"x", "y", "n"});
  return specialize_error(k, tl::Specialization{{x, DType::f32, DType::i32}, {0, 0, 0}});
}

std::vector<tl::FindingKind> kinds(const tl::RunResult& r) {
  std::vector<tl::FindingKind> v;
  for (const tl::Finding& f : r.findings) v.push_back(f.kind);
  return v;
}

const std::vector<int32_t> kVals = {5, -3, 17, 0, 17, -40, 9, 2};

}  // namespace

TEST_CASE("atomic_max and atomic_min on i32 return the old values in program order, for any thread count") {
  for (int threads : {1, 4}) {
    for (bool is_max : {true, false}) {
      tl::Buffer c("c", DType::i32, {1}), old("old", DType::i32, {8});
      c.set(0, 1);
      launch(
          [is_max](const P& p) {
            auto pid = tl::program_id(0);
            // The values kVals, as a function of pid: one per program.
            auto v = tl::where(pid == 0, 5, tl::where(pid == 1, -3, tl::where(pid == 2, 17, tl::where(pid == 3, 0,
                     tl::where(pid == 4, 17, tl::where(pid == 5, -40, tl::where(pid == 6, 9, 2)))))));
            tl::store(p.y + pid, is_max ? tl::atomic_max(p.x + 0, v) : tl::atomic_min(p.x + 0, v));
          },
          c, old, {8, 1, 1}, threads);
      int32_t cur = 1;
      for (int q = 0; q < 8; ++q) {
        CHECK(old.get(q) == cur);
        cur = is_max ? std::max(cur, kVals[q]) : std::min(cur, kVals[q]);
      }
      CHECK(c.get(0) == cur);
    }
  }
}

TEST_CASE("atomic_max on u32 compares unsigned") {
  tl::Buffer c("c", DType::u32, {2}), unused("u", DType::f32, {1});
  c.set(0, 7);
  c.set(1, 0x80000000u);
  launch([](const P& p) { tl::atomic_max(p.x + tl::arange(0, 2), (tl::arange(0, 2) + 0x7ffffffe).to(tl::u32)); }, c,
         unused);
  CHECK(c.get_bits(0) == 0x7ffffffeu);  // 0x7ffffffe > 7
  CHECK(c.get_bits(1) == 0x80000000u);  // 0x80000000 > 0x7fffffff unsigned
}

TEST_CASE("float atomic_max and atomic_min order ordinary floats by value") {
  const std::vector<float> start = {1.5f, -2.0f, -7.25f, 0.5f, 3.0f, -1.0f, 100.0f, -0.125f};
  const std::vector<float> vals = {-4.0f, -1.0f, -8.0f, 2.5f, 3.0f, -3.5f, -100.0f, 0.125f};
  for (bool is_max : {true, false}) {
    tl::Buffer c("c", DType::f32, {8}), v("v", DType::f32, {8});
    for (int i = 0; i < 8; ++i) {
      c.set(i, start[i]);
      v.set(i, vals[i]);
    }
    tl::Buffer old = c;
    launch(
        [is_max](const P& p) {
          auto i = tl::arange(0, 8);
          auto val = tl::load(p.y + i);
          tl::store(p.y + i, is_max ? tl::atomic_max(p.x + i, val) : tl::atomic_min(p.x + i, val));
        },
        c, v);
    for (int i = 0; i < 8; ++i) {
      INFO("lane " << i);
      CHECK(c.get(i) == (is_max ? std::max(start[i], vals[i]) : std::min(start[i], vals[i])));
      CHECK(v.get(i) == start[i]);  // the old value came back
    }
  }
}

TEST_CASE("float atomic_max follows Triton's bit-pattern rule for -0.0 and NaN") {
  // Triton: a value with the sign bit clear takes a signed max of the bits,
  // one with the sign bit set an unsigned min.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> start = {-0.0f, 0.0f, 1.0f, 1.0f};
  const std::vector<float> vals = {0.0f, -0.0f, nan, -nan};
  tl::Buffer c("c", DType::f32, {4}), v("v", DType::f32, {4});
  for (int i = 0; i < 4; ++i) {
    c.set_bits(i, std::bit_cast<uint32_t>(start[i]));
    v.set_bits(i, std::bit_cast<uint32_t>(vals[i]));
  }
  launch([](const P& p) { tl::atomic_max(p.x + tl::arange(0, 4), tl::load(p.y + tl::arange(0, 4))); }, c, v);
  CHECK(c.get_bits(0) == 0u);           // max(-0, +0) = +0
  CHECK(c.get_bits(1) == 0u);           // max(+0, -0) = +0
  CHECK(std::isnan(c.get(2)));          // a positive NaN wins
  CHECK(c.get(3) == 1.0);               // a negative NaN loses
}

TEST_CASE("atomic_and, atomic_or and atomic_xor on i32 and i64 combine the bits") {
  for (DType d : {DType::i32, DType::i64}) {
    for (int which = 0; which < 3; ++which) {
      tl::Buffer c("c", d, {4}), old("old", d, {8});
      const std::vector<int64_t> start = {0x0f0f, -1, 0x1234, 0};
      for (int i = 0; i < 4; ++i) c.set(i, static_cast<double>(start[i]));
      launch(
          [which](const P& p) {
            auto i = tl::arange(0, 4);
            auto pid = tl::program_id(0);
            auto v = (i * 0x111 + pid * 0x100 + 3);
            auto o = which == 0 ? tl::atomic_and(p.x + i, v) : which == 1 ? tl::atomic_or(p.x + i, v)
                                                                           : tl::atomic_xor(p.x + i, v);
            tl::store(p.y + pid * 4 + i, o);
          },
          c, old, {2, 1, 1});
      for (int i = 0; i < 4; ++i) {
        int64_t cur = start[i];
        for (int q = 0; q < 2; ++q) {
          INFO("dtype " << tl::name(d) << " op " << which << " lane " << i << " program " << q);
          CHECK(static_cast<int64_t>(old.get(q * 4 + i)) == cur);
          const int64_t v = i * 0x111 + q * 0x100 + 3;
          cur = which == 0 ? (cur & v) : which == 1 ? (cur | v) : (cur ^ v);
        }
        CHECK(static_cast<int64_t>(c.get(i)) == cur);
      }
    }
  }
}

TEST_CASE("atomic_xchg writes the value and returns the previous one, program after program") {
  tl::Buffer c("c", DType::f32, {1}), old("old", DType::f32, {4});
  c.set(0, -1.0);
  launch(
      [](const P& p) {
        auto pid = tl::program_id(0);
        tl::store(p.y + pid, tl::atomic_xchg(p.x + 0, pid.to(tl::f32) * 2.5f));
      },
      c, old, {4, 1, 1});
  CHECK(old.get(0) == -1.0);
  for (int q = 1; q < 4; ++q) CHECK(old.get(q) == 2.5 * (q - 1));
  CHECK(c.get(0) == 7.5);
}

TEST_CASE("atomic_cas swaps only where the element equals cmp and always returns the old value") {
  tl::Buffer c("c", DType::i32, {4}), old("old", DType::i32, {4});
  for (int i = 0; i < 4; ++i) c.set(i, i * 10);
  launch(
      [](const P& p) {
        auto i = tl::arange(0, 4);
        // cmp matches on lanes 0 and 2 only.
        auto cmp = tl::where(i % 2 == 0, i * 10, 99);
        tl::store(p.y + i, tl::atomic_cas(p.x + i, cmp, i + 1000));
      },
      c, old);
  const std::vector<int> want = {1000, 10, 1002, 30};
  for (int i = 0; i < 4; ++i) {
    CHECK(old.get(i) == i * 10);
    CHECK(c.get(i) == want[i]);
  }
}

TEST_CASE("an atomic_cas ticket lock: each program claims the next ticket in program order") {
  for (int threads : {1, 4}) {
    tl::Buffer c("c", DType::i32, {1}), old("old", DType::i32, {16});
    launch(
        [](const P& p) {
          auto pid = tl::program_id(0);
          tl::store(p.y + pid, tl::atomic_cas(p.x + 0, pid, pid + 1));
        },
        c, old, {16, 1, 1}, threads);
    CHECK(c.get(0) == 16);
    for (int q = 0; q < 16; ++q) CHECK(old.get(q) == q);
  }
}

TEST_CASE("atomic_cas on f16 buffers compares bits") {
  tl::Buffer c("c", DType::f16, {2}), unused("u", DType::f32, {1});
  c.set(0, 1.5);
  c.set(1, 2.0);
  launch([](const P& p) { tl::atomic_cas(p.x + tl::arange(0, 2), 1.5f, 8.0f); }, c, unused);
  CHECK(c.get(0) == 8.0);
  CHECK(c.get(1) == 2.0);
}

TEST_CASE("masked atomic_max lanes leave memory alone and return 0") {
  tl::Buffer c("c", DType::i32, {4}), old("old", DType::i32, {4});
  c.fill(5);
  launch(
      [](const P& p) {
        auto i = tl::arange(0, 4);
        tl::store(p.y + i, tl::atomic_max(p.x + i, 50, i < 2, "relaxed", "cta"));
      },
      c, old);
  CHECK(c.get(0) == 50);
  CHECK(c.get(1) == 50);
  CHECK(c.get(2) == 5);
  CHECK(c.get(3) == 5);
  CHECK(old.get(0) == 5);
  CHECK(old.get(2) == 0);
}

TEST_CASE("sem and scope take Triton's values and show in the IR when not the default") {
  tl::Buffer c("c", DType::i32, {4}), old("old", DType::i32, {4});
  g_body = [](const P& p) {
    auto i = tl::arange(0, 4);
    tl::atomic_or(p.x + i, 1, i < 4, "acquire", "sys");
    tl::atomic_xor(p.x + i, 1, i < 4, "release", "gpu");
    tl::atomic_and(p.x + i, 1, i < 4, "acq_rel", "cta");
    tl::atomic_add(p.x + i, 1, i < 4, "relaxed");
  };
  tl::KernelDef k("atomics", kernel, {"x", "y", "n"});
  const std::string ir = tl::ir::print(*tl::build_ir(k, {c, old, int64_t{0}}));
  INFO(ir);
  CHECK(ir.find("atomic_rmw.or") != std::string::npos);
  CHECK(ir.find("sem=acquire scope=sys") != std::string::npos);
  CHECK(ir.find("sem=release") != std::string::npos);
  CHECK(ir.find("scope=gpu") == std::string::npos);  // the default is not printed
  CHECK(ir.find("scope=cta") != std::string::npos);
  CHECK(ir.find("atomic_add") != std::string::npos);
  CHECK(ir.find("sem=relaxed") != std::string::npos);
}

TEST_CASE("an unknown sem or scope is a build error naming the allowed values") {
  check_error(build_error([](const P& p) { g_line = __LINE__; tl::atomic_max(p.x + 0, 1.0f, true, "seq_cst"); }),
              {"atomic_max", "memory semantic 'seq_cst'", "acquire, release, acq_rel or relaxed"});
  check_error(build_error([](const P& p) { g_line = __LINE__; tl::atomic_xchg(p.x + 0, 1.0f, true, "", "warp"); }),
              {"atomic_xchg", "memory scope 'warp'", "gpu, cta or sys"});
}

TEST_CASE("atomics refuse the dtypes Triton refuses") {
  check_error(build_error([](const P& p) { g_line = __LINE__; tl::atomic_max(p.x + 0, 1.0f); }, DType::f16),
              {"atomic_max does not support f16", "atomic_add only"});
  check_error(build_error([](const P& p) { g_line = __LINE__; tl::atomic_min(p.x + 0, 1.0f); }, DType::bf16),
              {"atomic_min does not support bf16"});
  check_error(build_error([](const P& p) { g_line = __LINE__; tl::atomic_and(p.x + 0, 1); }, DType::f32),
              {"atomic_and needs an integer buffer", "f32"});
  check_error(build_error([](const P& p) { g_line = __LINE__; tl::atomic_add(p.x + 0, 1); }, DType::i8),
              {"atomic_add does not support i8", "32 or 64 bits"});
  check_error(build_error([](const P& p) { g_line = __LINE__; tl::atomic_xchg(p.x + 0, 1); }, DType::i16),
              {"atomic_xchg does not support i16"});
  check_error(build_error([](const P& p) { g_line = __LINE__; tl::atomic_cas(p.x + 0, 1, 2); }, DType::u8),
              {"atomic_cas needs 16-, 32- or 64-bit elements", "u8"});
  check_error(build_error([](const P&) { g_line = __LINE__; tl::atomic_max(tl::arange(0, 4), 1); }, DType::i32),
              {"atomic_max needs a pointer"});
  check_error(build_error([](const P& p) { g_line = __LINE__; tl::atomic_max(p.x + tl::arange(0, 4), tl::zeros({8}, tl::f32)); }),
              {"shape mismatch in atomic_max", "[4] and [8]"});
}

TEST_CASE("atomics of different kinds on one element from different programs are not a conflict") {
  tl::Buffer c("c", DType::i32, {1}), unused("u", DType::f32, {1});
  auto r = launch(
      [](const P& p) {
        auto pid = tl::program_id(0);
        tl::atomic_max(p.x + 0, pid);
        tl::atomic_or(p.x + 0, 1);
        tl::atomic_xchg(p.x + 0, pid);
        tl::atomic_add(p.x + 0, 1);
        tl::atomic_cas(p.x + 0, 3, 4);
      },
      c, unused, {4, 1, 1});
  CHECK(kinds(r).empty());
}

TEST_CASE("a plain store and another program's atomic_xchg on one element conflict") {
  tl::Buffer c("c", DType::i32, {1}), unused("u", DType::f32, {1});
  auto r = launch(
      [](const P& p) {
        auto pid = tl::program_id(0);
        tl::if_(pid == 0, [&] { tl::store(p.x + 0, 7); }, [&] { tl::atomic_xchg(p.x + 0, 1); });
      },
      c, unused, {2, 1, 1});
  const std::vector<tl::FindingKind> k = kinds(r);
  CHECK(std::count(k.begin(), k.end(), tl::FindingKind::WriteConflict) >= 1);
}

TEST_CASE("an out-of-bounds atomic lane is reported and never touches memory") {
  tl::Buffer c("c", DType::i32, {4}), old("old", DType::i32, {8});
  c.fill(1);
  auto r = launch([](const P& p) { tl::store(p.y + tl::arange(0, 8), tl::atomic_min(p.x + tl::arange(0, 8), -5)); },
                  c, old);
  REQUIRE(kinds(r) == std::vector{tl::FindingKind::OutOfBoundsStore});
  CHECK(r.findings[0].lanes == 4);
  for (int i = 0; i < 4; ++i) CHECK(c.get(i) == -5);
}
