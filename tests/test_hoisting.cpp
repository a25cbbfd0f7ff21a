// Loop-invariant steps run once before their loop (exec_hoist.cpp) and
// nothing a launch reports changes: a wrap in a hoisted index op is still
// reported once per iteration, a wrap in a branch never taken is never
// reported, and a runaway loop stops at the same step with the same output.
// (The fusion golden test runs every puzzle, example and broken kernel with
// the pass on and off; these pin the cases the pass must leave to run in
// place.)
#include <catch2/catch.hpp>
#include <functional>
#include <string>

#include "interpreter.h"
#include "tl.h"

namespace {

using tl::DType;

// x: f32[16] = 0..15, out: f32[16]; `scale` a runtime i32.
std::function<void(tl::Ptr, tl::Ptr, tl::Int)> g_body;
void kernel(tl::Ptr x, tl::Ptr out, tl::Int scale) { g_body(x, out, scale); }

struct Outcome {
  tl::RunResult r;
  std::string out;
  std::string findings;
};

Outcome launch(bool fuse, int64_t scale, int threads = 1, int64_t max_steps = tl::kDefaultMaxSteps) {
  tl::Buffer x("x", DType::f32, {16}), out("out", DType::f32, {16});
  for (int i = 0; i < 16; ++i) x.set(i, i);
  tl::KernelDef k("hoisting", kernel);
  tl::RunOptions opt;
  opt.fuse = fuse;
  opt.threads = threads;
  opt.max_steps = max_steps;
  Outcome o;
  o.r = tl::run(k, {2, 1, 1}, {x, out, scale}, opt);
  for (int i = 0; i < 16; ++i) o.out += std::to_string(out.get(i)) + " ";
  for (const tl::Finding& f : o.r.findings)
    o.findings += std::string(tl::finding_kind_name(f.kind)) + " lanes " + std::to_string(f.lanes) + " programs " +
                  std::to_string(f.programs) + "\n";
  return o;
}

int64_t lanes_of(const tl::RunResult& r, tl::FindingKind kind) {
  int64_t n = 0;
  for (const tl::Finding& f : r.findings)
    if (f.kind == kind) n += f.lanes;
  return n;
}

// Each program sums its 8 elements of x, 3 times over, into out; `big`
// (lanes * scale, then minus itself) is the same on every iteration.
void invariant_index_body(tl::Ptr x, tl::Ptr out, tl::Int scale) {
  auto lanes = tl::arange(0, 8);
  auto base = tl::program_id(0) * 8;
  auto acc = tl::zeros({8}, tl::f32);
  for (auto i : tl::range(0, 3)) {
    auto big = lanes * scale;  // invariant; wraps when scale is large
    acc += tl::load(x + base + lanes + (big - big)) * (i + 1);
  }
  tl::store(out + base + lanes, acc);
}

}  // namespace

TEST_CASE("invariant index arithmetic in a loop is hoisted and the results are unchanged") {
  g_body = invariant_index_body;
  Outcome on = launch(true, 3), off = launch(false, 3);
  CHECK(on.r.hoisted_steps > 0);
  CHECK(off.r.hoisted_steps == 0);
  CHECK(on.out == off.out);
  CHECK(on.out.substr(0, 9) == std::to_string(0.0f).substr(0, 8) + " ");
  CHECK(on.findings.empty());
  CHECK(on.r.max_program_steps == off.r.max_program_steps);
}

TEST_CASE("a hoisted index op that wraps is still reported once per iteration, on any thread count") {
  g_body = invariant_index_body;
  // 2^28 * lanes wraps i32 for lanes 8..: none here; 2^29 wraps lanes 4..7.
  const int64_t scale = int64_t{1} << 29;
  Outcome off = launch(false, scale);
  // Lanes 4..7 wrap on each of 3 iterations in each of 2 programs.
  CHECK(lanes_of(off.r, tl::FindingKind::IndexOverflow) == 4 * 3 * 2);
  for (int threads : {1, 2}) {
    Outcome on = launch(true, scale, threads);
    CHECK(on.findings == off.findings);
    CHECK(on.out == off.out);
    CHECK(on.r.max_program_steps == off.r.max_program_steps);
  }
}

TEST_CASE("an invariant op in a branch never taken reports nothing, hoisted or not") {
  g_body = [](tl::Ptr x, tl::Ptr out, tl::Int scale) {
    auto lanes = tl::arange(0, 8);
    auto base = tl::program_id(0) * 8;
    for (auto i : tl::range(0, 4)) {
      tl::store(out + base + lanes, tl::load(x + base + lanes) + i);
      tl::if_(scale < 0, [&] {
        auto wrap = lanes * (scale * 65536);  // would wrap for every scale < 0 used here
        tl::store(out + base + lanes + (wrap - wrap), tl::load(x + base + lanes));
      });
    }
  };
  const int64_t scale = int64_t{1} << 20;  // the branch is never taken
  Outcome on = launch(true, scale), off = launch(false, scale);
  CHECK(on.findings == off.findings);
  CHECK(lanes_of(on.r, tl::FindingKind::IndexOverflow) == 0);
  CHECK(on.out == off.out);
}

TEST_CASE("a loop with hoisted steps stops at the same step under a step budget") {
  g_body = [](tl::Ptr x, tl::Ptr out, tl::Int scale) {
    auto lanes = tl::arange(0, 8);
    auto base = tl::program_id(0) * 8;
    for (auto i : tl::range(0, 1000)) {
      auto v = tl::load(x + base + lanes) * (scale + 1) + i;  // (scale + 1): invariant
      tl::store(out + base + lanes, v);
    }
  };
  for (int64_t budget : {int64_t{500}, int64_t{501}, int64_t{777}}) {
    INFO("budget " << budget);
    Outcome on = launch(true, 2, 1, budget), off = launch(false, 2, 1, budget);
    CHECK(on.r.hoisted_steps > 0);
    CHECK(on.r.budget_exceeded);
    CHECK(on.out == off.out);
    CHECK(on.findings == off.findings);
    CHECK(on.r.max_program_steps == off.r.max_program_steps);
  }
}
