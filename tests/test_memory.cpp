// Memory (SEMANTICS §9 and "beyond Triton"): masks and `other`, masked lanes
// never dereferenced, bounds-checked loads (poison) and stores (dropped),
// far-away and wrapped offsets that leave memory around the buffers alone,
// deterministic atomics and cross-program write conflicts.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "error.h"
#include "interpreter.h"
#include "tl.h"
#include "trace.h"

namespace {

using tl::DType;

struct P {
  const tl::Ptr& x;
  const tl::Ptr& y;
  const tl::Int& n;
  const tl::Int& m;
};
std::function<void(const P&)> g_body;
void body(tl::Ptr x, tl::Ptr y, tl::Int n, tl::Int m) { g_body(P{x, y, n, m}); }

tl::RunResult launch(std::function<void(const P&)> fn, tl::Buffer& x, tl::Buffer& y, tl::Grid grid = {},
                     int threads = 0, int64_t n = 0, int64_t m = 0, tl::TraceMode trace = tl::TraceMode::Off) {
  g_body = std::move(fn);
  tl::KernelDef k("mem", body, {"x", "y", "n", "m"});
  tl::RunOptions opt;
  opt.threads = threads;
  opt.trace = trace;
  return tl::run(k, grid, {x, y, n, m}, opt);
}

// A buffer of `n` elements wrapped in the middle of a larger vector whose
// guard bytes (before and after) hold a known pattern.
struct Guarded {
  static constexpr size_t kGuard = 4096;  // bytes each side
  std::vector<unsigned char> storage;
  tl::Buffer buf;
  Guarded(const char* name, DType d, int64_t n)
      : storage(2 * kGuard + static_cast<size_t>(n) * tl::byte_size(d), 0xA5) {
    buf = tl::Buffer::wrap(name, d, storage.data() + kGuard, {n});
  }
  bool guards_intact() const {
    size_t end = storage.size() - kGuard;
    for (size_t i = 0; i < kGuard; ++i)
      if (storage[i] != 0xA5 || storage[end + i] != 0xA5) return false;
    return true;
  }
};

const double kNaN = std::numeric_limits<double>::quiet_NaN();

}  // namespace

TEST_CASE("masked-off lanes yield `other` and are never dereferenced") {
  Guarded x("x", DType::f32, 8);
  for (int i = 0; i < 8; ++i) x.buf.set(i, i + 0.5);
  tl::Buffer y("y", DType::f32, {16});
  auto r = launch(
      [](const P& p) {
        auto lane = tl::arange(0, 16);
        // Lanes 8..15 point a billion elements away, but are masked off.
        auto off = tl::where(lane < 8, lane, lane * 1000000000);
        tl::store(p.y + lane, tl::load(p.x + off, lane < 8, -7.0f));
      },
      x.buf, y, {}, 0, 0, 0, tl::TraceMode::Full);
  for (int i = 0; i < 8; ++i) CHECK(y.get(i) == i + 0.5);
  for (int i = 8; i < 16; ++i) CHECK(y.get(i) == -7.0);
  CHECK(r.oob_loads == 0);
  CHECK(r.oob.empty());
  CHECK(x.guards_intact());
  REQUIRE(r.trace);
  const tl::Event& e = r.trace->programs.at(0).events.at(0);
  CHECK(e.kind == tl::EventKind::Load);
  CHECK(e.has_other);
  CHECK(e.lanes[0] == tl::LaneState::Active);
  CHECK(e.lanes[9] == tl::LaneState::MaskedOutOfBounds);
}

TEST_CASE("a masked load without `other` gives 0 in masked lanes") {
  tl::Buffer x("x", DType::i32, {8}), y("y", DType::i32, {8});
  for (int i = 0; i < 8; ++i) x.set(i, 100 + i);
  auto r = launch(
      [](const P& p) {
        auto lane = tl::arange(0, 8);
        tl::store(p.y + lane, tl::load(p.x + lane, lane % 2 == 0));
      },
      x, y, {}, 0, 0, 0, tl::TraceMode::Full);
  for (int i = 0; i < 8; ++i) CHECK(y.get(i) == (i % 2 == 0 ? 100 + i : 0));
  CHECK_FALSE(r.trace->programs.at(0).events.at(0).has_other);
  CHECK(r.trace->programs.at(0).events.at(0).lanes[1] == tl::LaneState::Masked);
  tl::Buffer xf("x", DType::f32, {4}), yf("y", DType::f32, {4});
  xf.fill(kNaN);
  launch([](const P& p) { tl::store(p.y + tl::arange(0, 4), tl::load(p.x + tl::arange(0, 4), tl::arange(0, 4) < 0)); },
         xf, yf);
  for (int i = 0; i < 4; ++i) CHECK(yf.get(i) == 0.0);
}

static int g_load_line = 0;

TEST_CASE("out-of-bounds loads yield poison and are recorded with program, lane, offset and line") {
  tl::Buffer x("x", DType::f32, {20}), y("y", DType::f32, {24});
  x.fill(1.0);
  auto r = launch(
      [](const P& p) {
        auto off = tl::program_id(0) * 8 + tl::arange(0, 8);
        g_load_line = __LINE__; auto v = tl::load(p.x + off);
        tl::store(p.y + off, v);
      },
      x, y, {3, 1, 1});
  for (int i = 0; i < 20; ++i) CHECK(y.get(i) == 1.0);
  for (int i = 20; i < 24; ++i) CHECK(std::isnan(y.get(i)));
  CHECK(r.oob_loads == 4);
  CHECK(r.oob_stores == 0);
  REQUIRE(r.oob.size() == 4);
  const tl::OobAccess& o = r.oob[0];
  CHECK(o.pid == std::array<int64_t, 3>{2, 0, 0});
  CHECK_FALSE(o.is_store);
  CHECK(o.buffer == "x");
  CHECK(o.lane == 4);
  CHECK(o.lane_index == std::vector<int64_t>{4});
  CHECK(o.tile_shape == tl::Shape{8});
  CHECK(o.offset == 20);
  CHECK(o.extent == 20);
  CHECK(o.loc.line == static_cast<uint32_t>(g_load_line));
  CHECK(r.oob[3].lane == 7);
  CHECK(r.oob[3].offset == 23);
  // The same, grouped as one finding of the sanitizer.
  const tl::Finding* f = nullptr;
  for (auto& g : r.findings)
    if (g.kind == tl::FindingKind::OutOfBoundsLoad) f = &g;
  REQUIRE(f);
  CHECK(f->lanes == 4);
  CHECK(f->programs == 1);
  REQUIRE(f->loc >= 0);
  CHECK(r.locations.at(static_cast<size_t>(f->loc)).line == static_cast<uint32_t>(g_load_line));
  REQUIRE_FALSE(f->examples.empty());
  CHECK(f->examples[0].pid == std::array<int64_t, 3>{2, 0, 0});
  CHECK(f->examples[0].lane == 4);
  CHECK(f->examples[0].offset == 20);
}

TEST_CASE("out-of-bounds integer loads yield the type's maximum") {
  tl::Buffer x("x", DType::i32, {4}), y("y", DType::i32, {8});
  launch([](const P& p) { tl::store(p.y + tl::arange(0, 8), tl::load(p.x + tl::arange(0, 8))); }, x, y);
  CHECK(y.get(3) == 0);
  CHECK(y.get(4) == 2147483647.0);
  tl::Buffer xu("x", DType::u8, {4}), yu("y", DType::i32, {8});
  launch([](const P& p) { tl::store(p.y + tl::arange(0, 8), tl::load(p.x + tl::arange(0, 8))); }, xu, yu);
  CHECK(yu.get(7) == 255);
}

TEST_CASE("out-of-bounds stores are dropped, recorded, and leave the guard bytes alone") {
  tl::Buffer x("x", DType::f32, {1});
  Guarded y("y", DType::f32, 20);
  int line = 0;
  auto r = launch(
      [&](const P& p) {
        auto off = tl::program_id(0) * 8 + tl::arange(0, 8);
        line = __LINE__; tl::store(p.y + off, off.to(tl::f32));
        tl::store(p.y - 1 - tl::arange(0, 4), -1.0f);  // just before the start
        tl::store(p.y + tl::arange(0, 4) * 1000000000, -2.0f, tl::arange(0, 4) < 0);  // masked off: not a finding
      },
      x, y.buf, {3, 1, 1});
  for (int i = 0; i < 20; ++i) CHECK(y.buf.get(i) == i);
  CHECK(y.guards_intact());
  CHECK(r.oob_stores == 4 + 3 * 4);
  REQUIRE_FALSE(r.oob.empty());
  CHECK(r.oob[0].is_store);
  CHECK(r.oob[0].pid == std::array<int64_t, 3>{0, 0, 0});
  CHECK(r.oob[0].offset == -1);
  CHECK(r.oob[0].buffer == "y");
  bool found = false;
  for (auto& o : r.oob)
    if (o.pid[0] == 2 && o.offset == 20) {
      found = true;
      CHECK(o.lane == 4);
      CHECK(o.loc.line == static_cast<uint32_t>(line));
    }
  CHECK(found);
}

TEST_CASE("offsets a billion elements away are flagged and touch nothing") {
  Guarded x("x", DType::f32, 16), y("y", DType::f32, 16);
  x.buf.fill(2.0);
  y.buf.fill(3.0);
  auto r = launch(
      [](const P& p) {
        auto lane = tl::arange(0, 16);
        auto far = tl::load(p.x + 1000000000 + lane) + tl::load(p.x - 1000000000 + lane);
        tl::store(p.y + 1000000000 + lane, far);
        tl::store(p.y - 1000000000 + lane, far);
        tl::store(p.y + lane, far);
      },
      x.buf, y.buf, {2, 1, 1});
  CHECK(r.oob_loads == 2 * 2 * 16);
  CHECK(r.oob_stores == 2 * 2 * 16);
  for (int i = 0; i < 16; ++i) CHECK(std::isnan(y.buf.get(i)));  // poison + poison
  CHECK(x.guards_intact());
  CHECK(y.guards_intact());
  bool saw_neg = false;
  for (auto& o : r.oob) saw_neg |= o.offset == -1000000000;
  CHECK(saw_neg);
}

TEST_CASE("an i32 offset computation wraps before it reaches the pointer, as on the GPU") {
  tl::Buffer x("x", DType::f32, {1});
  Guarded y("y", DType::f32, 64);
  y.buf.fill(0.0);
  // row * stride = 50000 * 50000 = 2.5e9 wraps in i32 to -1794967296.
  auto r = launch([](const P& p) { tl::store(p.y + p.n * p.m + tl::arange(0, 4), 1.0f); }, x, y.buf, {}, 0, 50000,
                  50000);
  CHECK(r.oob_stores == 4);
  REQUIRE(r.oob.size() == 4);
  CHECK(r.oob[0].offset == -1794967296LL);
  CHECK(r.oob[3].offset == -1794967293LL);
  CHECK(y.guards_intact());
  // Widened to i64 first, the offset is the true 2.5e9.
  auto r64 = launch([](const P& p) { tl::store(p.y + p.n.to(tl::i64) * p.m + tl::arange(0, 4), 1.0f); }, x, y.buf,
                    {}, 0, 50000, 50000);
  REQUIRE(r64.oob.size() == 4);
  CHECK(r64.oob[0].offset == 2500000000LL);
  CHECK(y.guards_intact());
  for (int i = 0; i < 64; ++i) CHECK(y.buf.get(i) == 0.0f);
}

TEST_CASE("signed offsets sign-extend and unsigned ones zero-extend") {
  tl::Buffer x("x", DType::f32, {1});
  Guarded y("y", DType::f32, 300);
  auto r = launch(
      [](const P& p) {
        tl::store(p.y + tl::full({1}, -1, tl::i8), 1.0f);
        tl::store(p.y + tl::full({1}, 255, tl::u8), 2.0f);
        tl::store(p.y + tl::full({1}, 4294967295u, tl::u32), 3.0f);
      },
      x, y.buf);
  REQUIRE(r.oob.size() == 2);
  CHECK(r.oob[0].offset == -1);
  CHECK(r.oob[1].offset == 4294967295LL);
  CHECK(y.buf.get(255) == 2.0);
  CHECK(y.guards_intact());
}

TEST_CASE("i1 memory reads any nonzero byte as true") {
  tl::Buffer x("x", DType::i1, {4}), y("y", DType::i32, {8});
  x.set_bits(0, 0);
  x.set_bits(1, 1);
  x.set_bits(2, 2);
  x.set_bits(3, 0x80);
  launch(
      [](const P& p) {
        auto b = tl::load(p.x + tl::arange(0, 4));
        tl::store(p.y + tl::arange(0, 4), b.to(tl::i32));
        tl::store(p.y + 4 + tl::arange(0, 4), tl::where(b, 10, 20));
      },
      x, y);
  CHECK(y.get(0) == 0);
  CHECK(y.get(1) == 1);
  CHECK(y.get(2) == 1);
  CHECK(y.get(3) == 1);
  CHECK(y.get(4) == 20);
  CHECK(y.get(6) == 10);
}

TEST_CASE("stores convert the value to the element type") {
  tl::Buffer x("x", DType::f32, {4}), y("y", DType::i32, {4});
  x.set(0, 3.7);
  x.set(1, -3.7);
  x.set(2, 1e10);
  x.set(3, kNaN);
  launch([](const P& p) { tl::store(p.y + tl::arange(0, 4), tl::load(p.x + tl::arange(0, 4))); }, x, y);
  CHECK(y.get(0) == 3);
  CHECK(y.get(1) == -3);
  CHECK(y.get(2) == 2147483647.0);
  CHECK(y.get(3) == 0);
  tl::Buffer u("u", DType::u8, {4});
  launch([](const P& p) {
    tl::store(p.y + tl::arange(0, 2), tl::arange(0, 2) + 300);
    tl::store(p.y + 2, 0.5);
  }, x, u);
  CHECK(u.get(0) == 44);
  CHECK(u.get(1) == 45);
  CHECK(u.get(2) == 0);
}

TEST_CASE("scalar pointers take scalar masks and others") {
  tl::Buffer x("x", DType::f32, {4}), y("y", DType::f32, {4});
  x.set(3, 9.0);
  y.fill(-1);
  auto r = launch(
      [](const P& p) {
        tl::store(p.y + 0, tl::load(p.x + 3));
        tl::store(p.y + 1, tl::load(p.x + 100, p.n > 0, 5.0f));  // masked off: no OOB
        tl::store(p.y + 2, 7.0f, p.n > 0);                       // masked off: not written
        tl::store(p.y + 3, 8.0f, p.n == 0);
      },
      x, y, {}, 0, 0);
  CHECK(y.get(0) == 9.0);
  CHECK(y.get(1) == 5.0);
  CHECK(y.get(2) == -1.0);
  CHECK(y.get(3) == 8.0);
  CHECK(r.oob_loads == 0);
}

TEST_CASE("atomic_add returns the old values in program order for any thread count") {
  for (int threads : {1, 2, 8}) {
    tl::Buffer c("c", DType::i32, {1}), old("old", DType::i32, {16});
    launch(
        [](const P& p) {
          auto pid = tl::program_id(0);
          tl::store(p.y + pid, tl::atomic_add(p.x + 0, pid + 1));
        },
        c, old, {16, 1, 1}, threads);
    CHECK(c.get(0) == 16 * 17 / 2);
    for (int q = 0; q < 16; ++q) CHECK(old.get(q) == q * (q + 1) / 2);
  }
}

TEST_CASE("masked atomic lanes do nothing and return 0") {
  tl::Buffer c("c", DType::f32, {4}), old("old", DType::f32, {8});
  c.fill(10);
  launch(
      [](const P& p) {
        auto lane = tl::arange(0, 4);
        auto pid = tl::program_id(0);
        tl::store(p.y + pid * 4 + lane, tl::atomic_add(p.x + lane, 1.5f, lane != 1));
      },
      c, old, {2, 1, 1});
  CHECK(c.get(0) == 13.0);
  CHECK(c.get(1) == 10.0);
  CHECK(old.get(0) == 10.0);
  CHECK(old.get(4) == 11.5);
  CHECK(old.get(1) == 0.0);
  CHECK(old.get(5) == 0.0);
}

TEST_CASE("float atomic sums repeat bit for bit and equal the program-order sum") {
  float want = 0;
  for (int q = 0; q < 64; ++q) want = want + 0.1f * static_cast<float>(q);
  for (int threads : {1, 2, 8}) {
    tl::Buffer c("c", DType::f32, {1}), unused("u", DType::f32, {1});
    launch([](const P& p) { tl::atomic_add(p.x, tl::program_id(0).to(tl::f32) * 0.1f); }, c, unused, {64, 1, 1},
           threads);
    CHECK(c.as<float>()[0] == want);
  }
}

TEST_CASE("a write conflict between programs gives the program-order last-wins result") {
  for (int threads : {1, 8}) {
    tl::Buffer x("x", DType::f32, {1}), y("y", DType::i32, {4});
    auto r = launch([](const P& p) { tl::store(p.y + tl::arange(0, 4), tl::program_id(0) * 10 + tl::arange(0, 4)); },
                    x, y, {32, 1, 1}, threads);
    for (int i = 0; i < 4; ++i) CHECK(y.get(i) == 310 + i);
    CHECK(r.sequential);
  }
}

TEST_CASE("a read-modify-write race between programs replays in program order") {
  for (int threads : {2, 8}) {
    tl::Buffer c("c", DType::i32, {1}), unused("u", DType::f32, {1});
    auto r = launch([](const P& p) { tl::store(p.x, tl::load(p.x) + 1); }, c, unused, {64, 1, 1}, threads);
    CHECK(c.get(0) == 64);
    CHECK(r.sequential);
  }
}

TEST_CASE("programs that touch disjoint elements give the same result on several threads") {
  tl::Buffer x("x", DType::f32, {256}), y("y", DType::f32, {256});
  for (int i = 0; i < 256; ++i) x.set(i, i);
  auto r = launch(
      [](const P& p) {
        auto off = tl::program_id(0) * 16 + tl::arange(0, 16);
        tl::store(p.y + off, tl::load(p.x + off) * 2);
      },
      x, y, {16, 1, 1}, 4);
  for (int i = 0; i < 256; ++i) CHECK(y.get(i) == 2 * i);
  CHECK(r.oob_loads + r.oob_stores == 0);
}

TEST_CASE("two active lanes storing to one address: the last lane (row-major) wins") {
  tl::Buffer x("x", DType::f32, {1}), y("y", DType::i32, {2});
  launch(
      [](const P& p) {
        tl::store(p.y + tl::arange(0, 4) * 0, tl::arange(0, 4) + 1);
        auto r = tl::arange(0, 2).col(), c = tl::arange(0, 4).row();
        tl::store(p.y + 1 + (r + c) * 0, r * 10 + c);
      },
      x, y);
  CHECK(y.get(0) == 4);
  CHECK(y.get(1) == 13);
}

TEST_CASE("two active lanes storing to one address are flagged") {
  tl::Buffer x("x", DType::f32, {1}), y("y", DType::i32, {1});
  auto r = launch([](const P& p) { tl::store(p.y + tl::arange(0, 4) * 0, tl::arange(0, 4)); }, x, y);
  CHECK(y.get(0) == 3);
  // SEMANTICS §9: "applies lanes row-major (last wins) and flags it".
  CHECK((!r.issues.empty() || !r.findings.empty()));
}

static bool has_finding(const tl::RunResult& r, tl::FindingKind k) {
  for (auto& f : r.findings)
    if (f.kind == k && f.lanes > 0) return true;
  return false;
}

TEST_CASE("a write conflict between programs is flagged") {
  for (int threads : {1, 8}) {
    tl::Buffer x("x", DType::f32, {1}), y("y", DType::i32, {1});
    auto r = launch([](const P& p) { tl::store(p.y, tl::program_id(0)); }, x, y, {4, 1, 1}, threads);
    CHECK(y.get(0) == 3);
    // "Cross-program conflicts ... is flagged: on a GPU their order is undefined."
    CHECK(has_finding(r, tl::FindingKind::WriteConflict));
  }
}

TEST_CASE("one program reading what another writes is flagged") {
  for (int threads : {1, 8}) {
    tl::Buffer c("c", DType::i32, {1}), unused("u", DType::f32, {1});
    auto r = launch([](const P& p) { tl::store(p.x, tl::load(p.x) + 1); }, c, unused, {8, 1, 1}, threads);
    CHECK(c.get(0) == 8);
    CHECK((has_finding(r, tl::FindingKind::ReadWriteRace) || has_finding(r, tl::FindingKind::WriteConflict)));
  }
}

TEST_CASE("atomics between programs are not conflicts") {
  tl::Buffer c("c", DType::i32, {1}), unused("u", DType::f32, {1});
  auto r = launch([](const P& p) { tl::atomic_add(p.x, 1); }, c, unused, {8, 1, 1}, 8);
  CHECK(c.get(0) == 8);
  CHECK_FALSE(has_finding(r, tl::FindingKind::WriteConflict));
  CHECK_FALSE(has_finding(r, tl::FindingKind::ReadWriteRace));
}
