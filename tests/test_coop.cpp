// Programs that wait on each other (docs/memory-model.md): a spinning
// program is suspended while the others run; acquire and release atomics
// order accesses between programs, relaxed ones do not; deadlocks and
// waits that need more programs resident than a GPU holds are findings.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "findings.h"
#include "interpreter.h"
#include "tl.h"
#include "trace.h"

namespace {

using tl::DType;
using tl::FindingKind;

const char* const kSems[] = {"acq_rel", "acquire", "release", "relaxed"};
enum Sem { AcqRel = 0, Acquire = 1, Release = 2, Relaxed = 3 };

int g_consumer_line = 0, g_unlocked_line = 0, g_spin_line = 0, g_reduce_line = 0;

// Program 1 publishes four values and raises a flag; program 0 waits for
// the flag, then reads the values. PUB and WAIT pick the atomics' sem.
void handoff(tl::Ptr flag, tl::Ptr data, tl::Ptr out, tl::Const PUB, tl::Const WAIT) {
  auto pid = tl::program_id(0);
  auto lanes = tl::arange(0, 4);
  tl::if_(pid == 1, [&] {
    tl::store(data + lanes, lanes + 10);
    tl::atomic_xchg(flag + 0, 1, true, kSems[PUB]);
  });
  tl::if_(pid == 0, [&] {
    tl::while_([&] { return tl::atomic_cas(flag + 0, 1, 1, kSems[WAIT]) != 1; }, [] {});
    g_consumer_line = __LINE__ + 1;
    tl::store(out + lanes, tl::load(data + lanes));
  });
}
const tl::KernelDef kHandoff("handoff", handoff, {"flag", "data", "out", "PUB", "WAIT"});

// Triton tutorial 05's pattern: each program adds its tile into its
// group's accumulator under a spin lock, the first one storing instead.
// Program SKIP (if any) reads its group's accumulator without the lock.
void locked_sum(tl::Ptr lock, tl::Ptr count, tl::Ptr acc, tl::Ptr out, tl::Const G, tl::Const SKIP) {
  auto pid = tl::program_id(0);
  auto g = pid % G;
  auto lanes = tl::arange(0, 4);
  auto v = (lanes + pid).to(tl::f32);
  auto critical = [&] {
    tl::while_([&] { return tl::atomic_cas(lock + g, 0, 1) == 1; }, [] {});
    auto c = tl::load(count + g);
    tl::if_(
        c == 0,
        [&] {
          tl::atomic_xchg(count + g, 1);
          tl::store(acc + g * 4 + lanes, v);
        },
        [&] { tl::store(acc + g * 4 + lanes, tl::load(acc + g * 4 + lanes) + v); });
    tl::atomic_xchg(lock + g, 0);
  };
  if (SKIP < 0) {
    critical();
  } else {
    tl::if_(pid == SKIP, [&] {
      g_unlocked_line = __LINE__ + 1;
      tl::store(out + lanes, tl::load(acc + g * 4 + lanes));
    }, critical);
  }
}
const tl::KernelDef kLockedSum("locked_sum", locked_sum, {"lock", "count", "acc", "out", "G", "SKIP"});

// Every program but K waits for the flag K raises, then marks itself done.
void wait_for_k(tl::Ptr flag, tl::Ptr out, tl::Int K) {
  auto pid = tl::program_id(0);
  tl::if_(pid == K, [&] { tl::atomic_xchg(flag + 0, 1); }, [&] {
    g_spin_line = __LINE__ + 1;
    tl::while_([&] { return tl::atomic_cas(flag + 0, 1, 1, "acquire") != 1; }, [] {});
  });
  tl::store(out + pid, pid + 1);
}
const tl::KernelDef kWaitForK("wait_for_k", wait_for_k, {"flag", "out", "K"});

// Programs 0 and 1 each wait for the other's flag before raising their own.
void crossed(tl::Ptr flags, tl::Ptr out) {
  auto pid = tl::program_id(0);
  tl::if_(pid < 2, [&] {
    tl::while_([&] { return tl::atomic_cas(flags + (1 - pid), 1, 1) != 1; }, [] {});
    tl::atomic_xchg(flags + pid, 1);
  });
  tl::store(out + pid, pid + 1);
}
const tl::KernelDef kCrossed("crossed", crossed, {"flags", "out"});

// Each program publishes a partial tile and counts itself in; the one
// that counts last sums every partial.
void last_reduces(tl::Ptr partial, tl::Ptr count, tl::Ptr out, tl::Int n, tl::Const SEM) {
  auto pid = tl::program_id(0);
  auto lanes = tl::arange(0, 4);
  tl::store(partial + pid * 4 + lanes, (lanes + pid).to(tl::f32));
  auto done = tl::atomic_add(count + 0, 1, true, kSems[SEM]);
  tl::if_(done == n - 1, [&] {
    auto acc = tl::zeros({4}, tl::f32);
    for (auto j : tl::range(0, n, 1)) {
      g_reduce_line = __LINE__ + 1;
      acc += tl::load(partial + j * 4 + lanes);
    }
    tl::store(out + lanes, acc);
  });
}
const tl::KernelDef kLastReduces("last_reduces", last_reduces, {"partial", "count", "out", "n", "SEM"});

// Programs take turns from the highest id down: each waits until `turn`
// names it, folds its id into a value whose result depends on the order,
// and hands the turn on.
void reverse_turns(tl::Ptr turn, tl::Ptr value, tl::Ptr order, tl::Int n) {
  auto pid = tl::program_id(0);
  auto mine = n - 1 - pid;
  tl::while_([&] { return tl::atomic_cas(turn + 0, mine, mine) != mine; }, [] {});
  tl::store(value + 0, tl::load(value + 0) * 3 + pid);
  tl::store(order + mine, pid);
  tl::atomic_xchg(turn + 0, mine + 1);
}
const tl::KernelDef kReverseTurns("reverse_turns", reverse_turns, {"turn", "value", "order", "n"});

std::vector<FindingKind> kinds(const tl::RunResult& r) {
  std::vector<FindingKind> v;
  for (const tl::Finding& f : r.findings) v.push_back(f.kind);
  return v;
}

int line_of(const tl::RunResult& r, const tl::Finding& f) { return static_cast<int>(r.locations.at(f.loc).line); }

tl::RunOptions threads(int n) {
  tl::RunOptions o;
  o.threads = n;
  return o;
}

}  // namespace

TEST_CASE("a program spinning on a flag a later program raises is suspended, and reads what acq_rel published") {
  tl::Buffer flag("flag", DType::i32, {1}), data("data", DType::i32, {4}), out("out", DType::i32, {4});
  tl::RunResult r = tl::run(kHandoff, {2, 1, 1}, {flag, data, out, int64_t{AcqRel}, int64_t{AcqRel}});
  CHECK(r.findings.empty());
  CHECK_FALSE(r.deadlocked);
  for (int i = 0; i < 4; ++i) CHECK(out.get(i) == 10 + i);
}

TEST_CASE("release pairs with acquire, while relaxed, or acquire and release swapped, leave the data read a race") {
  struct Case {
    Sem pub, wait;
    bool ordered;
  };
  for (Case c : {Case{Release, Acquire, true}, Case{AcqRel, Acquire, true}, Case{Release, AcqRel, true},
                 Case{Relaxed, AcqRel, false}, Case{AcqRel, Relaxed, false}, Case{Acquire, Release, false}}) {
    CAPTURE(kSems[c.pub], kSems[c.wait]);
    tl::Buffer flag("flag", DType::i32, {1}), data("data", DType::i32, {4}), out("out", DType::i32, {4});
    tl::RunResult r = tl::run(kHandoff, {2, 1, 1}, {flag, data, out, int64_t{c.pub}, int64_t{c.wait}});
    for (int i = 0; i < 4; ++i) CHECK(out.get(i) == 10 + i);
    if (c.ordered) {
      CHECK(r.findings.empty());
    } else {
      REQUIRE(kinds(r) == std::vector{FindingKind::ReadWriteRace});
      CHECK(line_of(r, r.findings[0]) == g_consumer_line);
      CHECK(r.findings[0].lanes == 4);
      CHECK(r.findings[0].examples.at(0).pid[0] == 0);
      CHECK(r.findings[0].examples.at(0).other_pid[0] == 1);
    }
  }
}

TEST_CASE("the tutorial's spin lock orders every critical section: no finding, and the sums are right") {
  for (int n : {1, 2, 8}) {
    tl::Buffer lock("lock", DType::i32, {3}), count("count", DType::i32, {3}), acc("acc", DType::f32, {12}),
        out("out", DType::f32, {4});
    tl::RunResult r = tl::run(kLockedSum, {16, 1, 1}, {lock, count, acc, out, int64_t{3}, int64_t{-1}}, threads(n));
    CHECK(r.findings.empty());
    for (int g = 0; g < 3; ++g)
      for (int i = 0; i < 4; ++i) {
        double want = 0;
        for (int p = g; p < 16; p += 3) want += i + p;
        CHECK(acc.get(g * 4 + i) == want);
      }
  }
}

TEST_CASE("a program that skips the lock is exactly one race, at its unlocked read") {
  tl::Buffer lock("lock", DType::i32, {2}), count("count", DType::i32, {2}), acc("acc", DType::f32, {8}),
      out("out", DType::f32, {4});
  tl::RunResult r = tl::run(kLockedSum, {8, 1, 1}, {lock, count, acc, out, int64_t{2}, int64_t{7}});
  REQUIRE(kinds(r) == std::vector{FindingKind::ReadWriteRace});
  CHECK(line_of(r, r.findings[0]) == g_unlocked_line);
  CHECK(r.findings[0].programs == 1);
  CHECK(r.findings[0].examples.at(0).pid[0] == 7);
  CHECK(r.findings[0].examples.at(0).other_pid[0] == 5);  // the group's last writer under the lock
}

TEST_CASE("the last program to count in reduces every partial: ordered by acq_rel, a race when relaxed") {
  for (Sem sem : {AcqRel, Relaxed}) {
    tl::Buffer partial("partial", DType::f32, {40}), count("count", DType::i32, {1}), out("out", DType::f32, {4});
    tl::RunResult r = tl::run(kLastReduces, {10, 1, 1}, {partial, count, out, int64_t{10}, int64_t{sem}});
    for (int i = 0; i < 4; ++i) CHECK(out.get(i) == 4 * 0 + 10 * i + 45);
    if (sem == AcqRel) {
      CHECK(r.findings.empty());
    } else {
      REQUIRE(kinds(r) == std::vector{FindingKind::ReadWriteRace});
      CHECK(line_of(r, r.findings[0]) == g_reduce_line);
      CHECK(r.findings[0].lanes == 36);  // the nine other programs' partials
    }
  }
}

TEST_CASE("when every program waits and none is left to run, the launch stops with one deadlock finding") {
  tl::Buffer flag("flag", DType::i32, {1}), out("out", DType::i32, {4});
  tl::RunResult r = tl::run(kWaitForK, {4, 1, 1}, {flag, out, int64_t{99}});
  REQUIRE(kinds(r) == std::vector{FindingKind::Deadlock});
  CHECK(r.deadlocked);
  const tl::Finding& f = r.findings[0];
  CHECK(line_of(r, f) == g_spin_line);
  CHECK(f.message.find("all 4 unfinished programs wait") != std::string::npos);
  CHECK(f.message.find("program (3, 0, 0) waits in the while loop at line " + std::to_string(g_spin_line) +
                       " for flag[0] to hold 1 (it holds 0)") != std::string::npos);
  REQUIRE(f.examples.size() == 4);
  for (int p = 0; p < 4; ++p) CHECK(f.examples[p].pid[0] == p);
  CHECK(tl::format_findings(r.findings, tl::context_of(r)).find("deadlock") != std::string::npos);
}

TEST_CASE("two programs waiting on each other deadlock once the rest have finished") {
  tl::Buffer flags("flags", DType::i32, {2}), out("out", DType::i32, {4});
  tl::RunResult r = tl::run(kCrossed, {4, 1, 1}, {flags, out});
  REQUIRE(kinds(r) == std::vector{FindingKind::Deadlock});
  const tl::Finding& f = r.findings[0];
  CHECK(f.message.find("all 2 unfinished programs wait") != std::string::npos);
  CHECK(f.message.find("program (0, 0, 0) waits in the while loop at line") != std::string::npos);
  CHECK(f.message.find("for flags[1] to hold 1") != std::string::npos);
  CHECK(f.message.find("program (1, 0, 0)") != std::string::npos);
  CHECK(f.message.find("for flags[0] to hold 1") != std::string::npos);
  // The programs that did not wait ran to the end.
  CHECK(out.get(2) == 3);
  CHECK(out.get(3) == 4);
}

TEST_CASE("waiting on a program a GPU of the configured size starts only later is a co-residency finding") {
  for (int64_t resident : {int64_t{132}, int64_t{64}, int64_t{0}, int64_t{1000}}) {
    CAPTURE(resident);
    tl::Buffer flag("flag", DType::i32, {1}), out("out", DType::i32, {200});
    tl::RunOptions opt;
    opt.resident_programs = resident;
    tl::RunResult r = tl::run(kWaitForK, {200, 1, 1}, {flag, out, int64_t{199}}, opt);
    for (int p = 0; p < 200; ++p) CHECK(out.get(p) == p + 1);
    if (resident == 0 || resident == 1000) {
      CHECK(r.findings.empty());
      continue;
    }
    REQUIRE(kinds(r) == std::vector{FindingKind::CoResidency});
    const tl::Finding& f = r.findings[0];
    const std::string n = std::to_string(resident);
    CHECK(f.message.find("a GPU that holds " + n + " programs at once hangs here: all " + n +
                         " resident programs wait, and program (" + n + ", 0, 0)") != std::string::npos);
    CHECK(f.examples.at(0).other_pid[0] == resident);
    CHECK(line_of(r, f) == g_spin_line);
  }
}

TEST_CASE("a spin on a flag in a grid of 10^4 programs finishes, wherever the flag's program is") {
  // k = 9999 is the worst case: every other program waits at once, each on
  // a stack of its own (and a GPU would hang: a co-residency finding). How
  // long it takes is bench/spin_wait_bench.py's business, not this test's.
  for (int64_t k : {int64_t{100}, int64_t{9999}}) {
    tl::Buffer flag("flag", DType::i32, {1}), out("out", DType::i32, {10000});
    tl::RunResult r = tl::run(kWaitForK, {10000, 1, 1}, {flag, out, k});
    for (int p = 0; p < 10000; p += 997) CHECK(out.get(p) == p + 1);
    CHECK(out.get(9999) == 10000);
    if (k < tl::kDefaultResidentPrograms) CHECK(r.findings.empty());
    else CHECK(kinds(r) == std::vector{FindingKind::CoResidency});
  }
}

TEST_CASE("programs that wait on each other give the same results, findings and trace at 1, 2 and 8 threads") {
  std::string first;
  for (int n : {1, 2, 8}) {
    tl::Buffer turn("turn", DType::i32, {1}), value("value", DType::i64, {1}), order("order", DType::i32, {12});
    tl::RunOptions opt = threads(n);
    opt.trace = tl::TraceMode::Full;
    tl::RunResult r = tl::run(kReverseTurns, {12, 1, 1}, {turn, value, order, int64_t{12}}, opt);
    CHECK(r.findings.empty());
    int64_t want = 0;
    for (int p = 11; p >= 0; --p) want = want * 3 + p;
    CHECK(static_cast<int64_t>(value.get(0)) == want);
    for (int t = 0; t < 12; ++t) CHECK(order.get(t) == 11 - t);
    const std::string json = tl::trace_to_json(*r.trace);
    if (first.empty()) first = json;
    CHECK(json == first);
  }
}
