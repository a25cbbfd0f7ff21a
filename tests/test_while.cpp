// tl::while_: one IR While whose condition block runs before every
// iteration; loop-carried tiles and scalars assigned in the condition or
// the body; zero trips; nesting with tl::range; the IR text; build errors
// for a condition that is not a scalar i1; findings and trace events from
// inside the body; and the CUDA back end (NVRTC, host emulation).
#include <catch2/catch.hpp>
#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "error.h"
#include "gpu_vs_interp.h"
#include "interpreter.h"
#include "ir.h"
#include "tl.h"

namespace {

using tl::DType;

int g_while_line = 0, g_body_load_line = 0, g_oob_line = 0;

// Collatz steps per lane: the loop runs while any lane is above 1 (a
// reduction in the condition), the lanes already at 1 stay put.
void collatz(tl::Ptr x, tl::Ptr out, tl::Const B) {
  auto offs = tl::program_id(0) * B + tl::arange(0, B);
  auto n = tl::load(x + offs);
  auto steps = tl::zeros({B}, tl::i32);
  tl::while_([&] { return tl::max(n) > 1; },
             [&] {
               auto done = n <= 1;
               n = tl::where(done, n, tl::where(n % 2 == 0, n / 2, n * 3 + 1));
               steps = steps + (~done).to(tl::i32);
             });
  tl::store(out + offs, steps);
}

// Adds x[0], x[1], ... until the sum reaches `bound` or x runs out: a
// runtime trip count, a load in the body, two loop-carried scalars.
void sum_until(tl::Ptr x, tl::Ptr out, tl::Int n, tl::Int bound) {
  auto i = tl::scalar(0);
  auto acc = tl::scalar(0);
  g_while_line = __LINE__; tl::while_([&] { return (acc < bound) & (i < n); },
                                      [&] {
                                        g_body_load_line = __LINE__; acc += tl::load(x + i);
                                        i += 1;
                                      });
  tl::store(out + 0, i);
  tl::store(out + 1, acc);
}

// The same without `i < n`: once the sum stays below the bound the body
// reads past the end of x.
void sum_past_end(tl::Ptr x, tl::Ptr out, tl::Int n, tl::Int bound) {
  (void)n;
  auto i = tl::scalar(0);
  auto acc = tl::scalar(0);
  tl::while_([&] { return (acc < bound) & (i < 100); },
             [&] {
               g_oob_line = __LINE__; acc += tl::load(x + i);
               i += 1;
             });
  tl::store(out + 0, i);
}

// The condition itself assigns a loop-carried scalar: it runs once more
// than the body, so k ends at max(n, 1).
void count_in_cond(tl::Ptr out, tl::Int n) {
  auto k = tl::scalar(0);
  tl::while_([&] { k += 1; return k < n; }, [] {});
  tl::store(out + tl::program_id(0), k);
}

// A condition false at once: the body never runs.
void zero_trip(tl::Ptr out, tl::Int n) {
  auto v = tl::full({4}, 7, tl::i32);
  tl::while_([&] { return n < 0; }, [&] { v = v * 2; });
  tl::store(out + tl::arange(0, 4), v);
}

// A while inside a for inside a while: sum over i < n of 0 + 1 + ... + i,
// one increment at a time.
void nested(tl::Ptr out, tl::Int n) {
  auto total = tl::scalar(0);
  auto i = tl::scalar(0);
  tl::while_([&] { return i < n; },
             [&] {
               for (auto j : tl::range(0, i + 1)) {
                 auto k = tl::scalar(0);
                 tl::while_([&] { return k < j; },
                            [&] {
                              k += 1;
                              total += 1;
                            });
               }
               i += 1;
             });
  tl::store(out + tl::program_id(0), total);
}

#ifdef TILESCOPE_HAVE_GPU  // only the GPU tests below run these two
// A K loop written as a while: the CUDA back end must not software-
// pipeline it (only For loops have a next loop variable to load ahead
// with); the same loop as a tl::range is pipelined.
void while_matmul(tl::Ptr a, tl::Ptr b, tl::Ptr c, tl::Int K) {
  auto r = tl::arange(0, 32), kk = tl::arange(0, 16);
  auto acc = tl::zeros({32, 32}, tl::f32);
  auto k = tl::scalar(0);
  tl::while_([&] { return k < K; },
             [&] {
               auto av = tl::load(a + r.col() * K + (k + kk).row(), (k + kk).row() < K, 0.0f);
               auto bv = tl::load(b + (k + kk).col() * 32 + r.row(), (k + kk).col() < K, 0.0f);
               acc = tl::dot(av, bv, acc);
               k += 16;
             });
  tl::store(c + r.col() * 32 + r.row(), acc);
}
void for_matmul(tl::Ptr a, tl::Ptr b, tl::Ptr c, tl::Int K) {
  auto r = tl::arange(0, 32), kk = tl::arange(0, 16);
  auto acc = tl::zeros({32, 32}, tl::f32);
  for (auto k : tl::range(0, K, 16)) {
    auto av = tl::load(a + r.col() * K + (k + kk).row(), (k + kk).row() < K, 0.0f);
    auto bv = tl::load(b + (k + kk).col() * 32 + r.row(), (k + kk).col() < K, 0.0f);
    acc = tl::dot(av, bv, acc);
  }
  tl::store(c + r.col() * 32 + r.row(), acc);
}
#endif  // TILESCOPE_HAVE_GPU

int collatz_steps(int64_t n) {
  int s = 0;
  for (; n > 1; ++s) n = n % 2 == 0 ? n / 2 : 3 * n + 1;
  return s;
}

tl::Buffer iota_i32(const char* name, int64_t n, int64_t first = 0) {
  tl::Buffer b(name, DType::i32, {n});
  for (int64_t i = 0; i < n; ++i) b.set(i, static_cast<double>(first + i));
  return b;
}

// Build-error fixture: the condition is whatever the test returns.
std::function<tl::Tensor(const tl::Int&)> g_cond;
int g_line = 0;
void cond_kernel(tl::Ptr out, tl::Int n) {
  auto k = tl::scalar(0);
  g_line = __LINE__; tl::while_([&] { return g_cond(n); }, [&] { k += 1; });
  tl::store(out + 0, k);
}
std::optional<tl::BuildError> cond_error(std::function<tl::Tensor(const tl::Int&)> cond) {
  g_cond = std::move(cond);
  tl::KernelDef k("cond_kernel", cond_kernel);
  try {
    k.specialize(tl::Specialization{{DType::i32, DType::i32}, {0, 0}});
  } catch (const tl::BuildError& e) {
    return e;
  }
  return std::nullopt;
}

size_t count_in(const std::string& text, const std::string& word) {
  size_t n = 0;
  for (size_t p = text.find(word); p != std::string::npos; p = text.find(word, p + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("while_ re-evaluates its condition before each iteration: Collatz steps per lane", "[while]") {
  tl::KernelDef k("collatz", collatz);
  tl::Buffer x = iota_i32("x", 64, 1), out("out", DType::i32, {64});
  tl::run(k, {4}, {x, out, 16});
  for (int64_t i = 0; i < 64; ++i) {
    INFO("n = " << i + 1);
    CHECK(out.get(i) == collatz_steps(i + 1));
  }
  CHECK(out.get(26) == 111);  // 27 takes 111 steps
}

TEST_CASE("a while loop bounded by runtime values carries scalars and loads in its body", "[while]") {
  tl::KernelDef k("sum_until", sum_until);
  for (auto [n, bound] : std::vector<std::pair<int, int>>{{50, 100}, {50, 0}, {50, 100000}, {0, 10}}) {
    INFO("n " << n << ", bound " << bound);
    tl::Buffer x = iota_i32("x", std::max(n, 1), 1), out("out", DType::i32, {2});
    tl::RunOptions opt;
    opt.trace = tl::TraceMode::Full;
    tl::RunResult r = tl::run(k, {}, {x, out, n, bound}, opt);
    int i = 0, acc = 0;
    while (acc < bound && i < n) acc += ++i;
    CHECK(out.get(0) == i);
    CHECK(out.get(1) == acc);
    CHECK(r.findings.empty());
    // One load event per iteration, at the body's line: the trace records
    // what runs inside a While as it does inside a For.
    REQUIRE(r.trace);
    REQUIRE(r.trace->programs.size() == 1);
    int loads = 0;
    for (const tl::Event& e : r.trace->programs[0].events)
      if (e.kind == tl::EventKind::Load && r.trace->locations.at(static_cast<size_t>(e.loc)).line == static_cast<uint32_t>(g_body_load_line))
        ++loads;
    CHECK(loads == i);
  }
}

TEST_CASE("assignments in a while condition are loop-carried, the condition runs once more than the body", "[while]") {
  tl::KernelDef k("count_in_cond", count_in_cond);
  for (int n : {5, 1, 0, -3}) {
    tl::Buffer out("out", DType::i32, {1});
    tl::run(k, {}, {out, n});
    CHECK(out.get(0) == std::max(n, 1));
  }
}

TEST_CASE("a while loop whose condition is false at once never runs its body", "[while]") {
  tl::KernelDef k("zero_trip", zero_trip);
  tl::Buffer out("out", DType::i32, {4});
  tl::run(k, {}, {out, 3});
  for (int i = 0; i < 4; ++i) CHECK(out.get(i) == 7);
}

TEST_CASE("while loops nest inside for loops inside while loops", "[while]") {
  tl::KernelDef k("nested", nested);
  for (int n : {0, 1, 6}) {
    tl::Buffer out("out", DType::i32, {1});
    tl::run(k, {}, {out, n});
    int want = 0;
    for (int i = 0; i < n; ++i) want += i * (i + 1) / 2;
    CHECK(out.get(0) == want);
  }
}

TEST_CASE("the IR holds one While: condition block, condition, body, printed and verified", "[while]") {
  tl::KernelDef k("sum_until", sum_until);
  tl::Buffer x = iota_i32("x", 8), out("out", DType::i32, {2});
  auto ir = tl::build_ir(k, {x, out, 8, 10});
  CHECK(tl::ir::verify(*ir).empty());
  const std::string text = tl::ir::print(*ir);
  INFO(text);
  CHECK(count_in(text, "while {") == 1);
  CHECK(count_in(text, "condition %") == 1);
  CHECK(count_in(text, "} do {") == 1);
  CHECK(text.find("while {") < text.find("condition %"));
  CHECK(text.find("condition %") < text.find("= load"));  // the load is in the body, after the condition
  CHECK(text.find("# line " + std::to_string(g_while_line)) != std::string::npos);
  // The walker visits the condition block before the body.
  std::vector<tl::ir::Op> order;
  tl::ir::for_each_instr(ir->body, [&](const tl::ir::Instr& in, const tl::ir::Block&) { order.push_back(in.op); });
  auto at = [&](tl::ir::Op op) { return std::find(order.begin(), order.end(), op) - order.begin(); };
  CHECK(at(tl::ir::Op::While) < at(tl::ir::Op::Lt));
  CHECK(at(tl::ir::Op::Lt) < at(tl::ir::Op::Load));
}

TEST_CASE("the verifier rejects a While whose condition register is not a 0-d i1 left by its block", "[while]") {
  tl::KernelDef k("sum_until", sum_until);
  tl::Buffer x = iota_i32("x", 8), out("out", DType::i32, {2});
  auto ir = tl::build_ir(k, {x, out, 8, 10});
  tl::ir::Kernel broken;
  broken.regs = ir->regs;
  broken.params = ir->params;
  tl::ir::Instr in{};
  in.op = tl::ir::Op::While;
  in.cond_body = std::make_unique<tl::ir::Block>();
  in.body = std::make_unique<tl::ir::Block>();
  in.cond_reg = 0;  // a register nothing defines
  broken.body.instrs.push_back(std::move(in));
  auto problems = tl::ir::verify(broken);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].find("condition %0 is not defined") != std::string::npos);
}

TEST_CASE("a while condition that is not a scalar i1 is a build error at the while_ line", "[while]") {
  auto check = [](const std::optional<tl::BuildError>& e, const std::string& got) {
    REQUIRE(e.has_value());
    INFO(e->what());
    CHECK(e->message().find("while condition must be a scalar i1") != std::string::npos);
    CHECK(e->message().find(got) != std::string::npos);
    CHECK(static_cast<int>(e->loc().line) == g_line);
    CHECK(e->loc().file.find("test_while.cpp") != std::string::npos);
  };
  check(cond_error([](const tl::Int& n) { return n + 1; }), "got i32");
  check(cond_error([](const tl::Int& n) { return tl::arange(0, 4) < n; }), "got i1[4]");
  check(cond_error([](const tl::Int&) { return tl::Tensor(); }), "undefined");
  CHECK_FALSE(cond_error([](const tl::Int& n) { return n > 0; }).has_value());
}

TEST_CASE("an out-of-bounds load inside a while body is a finding at its line", "[while]") {
  tl::KernelDef k("sum_past_end", sum_past_end);
  tl::Buffer x = iota_i32("x", 4, 0), out("out", DType::i32, {1});
  tl::RunResult r = tl::run(k, {}, {x, out, 4, 1000});
  REQUIRE(r.findings.size() >= 1);
  CHECK(r.findings[0].kind == tl::FindingKind::OutOfBoundsLoad);
  CHECK(static_cast<int>(r.locations.at(static_cast<size_t>(r.findings[0].loc)).line) == g_oob_line);
  REQUIRE_FALSE(r.findings[0].examples.empty());
  CHECK(r.findings[0].examples[0].offset == 4);  // x[0..3] sum to 6 < 1000: the fifth read is out
}

#ifdef TILESCOPE_HAVE_GPU
TEST_CASE("while loops lower to CUDA that NVRTC compiles: while (true) { cond, if (!c) break, body }", "[while][gpu][nvrtc]") {
  tl::KernelDef k1("collatz", collatz), k2("sum_until", sum_until), k3("count_in_cond", count_in_cond),
      k4("nested", nested), k5("zero_trip", zero_trip);
  tl::Buffer x = iota_i32("x", 64, 1), out("out", DType::i32, {64});
  std::string src;
  CHECK(gpu_check::nvrtc_error(k1, {x, out, 16}, 4, &src) == "");
  CHECK(src.find("while (true) {") != std::string::npos);
  CHECK(src.find(") break;") != std::string::npos);
  // The condition's integer max reduction shuffles in every thread, never
  // under a ?: (a divergent shuffle deadlocked the host emulation).
  CHECK(src.find("? ts_shfl_xor") == std::string::npos);
  CHECK(gpu_check::nvrtc_error(k2, {x, out, 64, 100}, 4) == "");
  CHECK(gpu_check::nvrtc_error(k3, {out, 5}, 1) == "");
  CHECK(gpu_check::nvrtc_error(k4, {out, 5}, 4) == "");
  CHECK(gpu_check::nvrtc_error(k5, {out, 5}, 4) == "");
}

namespace {

// The kernels and launches both GPU checks below run.
void for_each_while_launch(
    const std::function<void(const tl::KernelDef&, tl::Grid, std::function<std::vector<tl::Buffer>()>, gpu_check::Bind)>& fn) {
  static const tl::KernelDef k1("collatz", collatz), k2("sum_until", sum_until), k3("count_in_cond", count_in_cond),
      k4("nested", nested), k5("zero_trip", zero_trip);
  auto x_out = [] { return std::vector<tl::Buffer>{iota_i32("x", 64, 1), tl::Buffer("out", DType::i32, {64})}; };
  auto out_only = [] { return std::vector<tl::Buffer>{tl::Buffer("out", DType::i32, {64})}; };
  fn(k1, {4}, x_out, [](auto& b) { return std::vector<tl::Arg>{b[0], b[1], 16}; });
  fn(k1, {1}, x_out, [](auto& b) { return std::vector<tl::Arg>{b[0], b[1], 64}; });
  fn(k2, {}, x_out, [](auto& b) { return std::vector<tl::Arg>{b[0], b[1], 64, 300}; });
  fn(k3, {3}, out_only, [](auto& b) { return std::vector<tl::Arg>{b[0], 7}; });
  fn(k4, {2}, out_only, [](auto& b) { return std::vector<tl::Arg>{b[0], 6}; });
  fn(k5, {}, out_only, [](auto& b) { return std::vector<tl::Arg>{b[0], 1}; });
  static const tl::KernelDef k6("while_matmul", while_matmul);
  auto abc = [] {
    std::vector<tl::Buffer> v{tl::Buffer("a", DType::f32, {32 * 40}), tl::Buffer("b", DType::f32, {40 * 32}),
                              tl::Buffer("c", DType::f32, {32 * 32})};
    for (int64_t i = 0; i < 32 * 40; ++i) {
      v[0].set(i, static_cast<double>(i % 7) * 0.25 - 0.5);
      v[1].set(i, static_cast<double>(i % 5) * 0.125);
    }
    return v;
  };
  fn(k6, {}, abc, [](auto& b) { return std::vector<tl::Arg>{b[0], b[1], b[2], 40}; });
}

}  // namespace

TEST_CASE("GPU: while loops compute what the interpreter computes", "[while][gpu][run]") {
  for (int warps : {1, 4, 8})
    for_each_while_launch([&](const tl::KernelDef& k, tl::Grid g, auto bufs, gpu_check::Bind bind) {
      gpu_check::compare_on_device(k, g, bufs(), bufs(), bind, warps);
    });
}

TEST_CASE("a K loop written as a while is not software-pipelined, as a range it is", "[while][gpu][nvrtc]") {
  tl::KernelDef w("while_matmul", while_matmul), f("for_matmul", for_matmul);
  tl::Buffer a("a", DType::f32, {32 * 40}), b("b", DType::f32, {40 * 32}), c("c", DType::f32, {32 * 32});
  std::string ws, fs;
  CHECK(gpu_check::nvrtc_error(w, {a, b, c, 40}, 4, &ws) == "");
  CHECK(gpu_check::nvrtc_error(f, {a, b, c, 40}, 4, &fs) == "");
  auto body = [](const std::string& src) { return src.substr(src.find("__global__")); };
  CHECK(body(ws).find("ts_cp_async_commit();") == std::string::npos);
  CHECK(body(fs).find("ts_cp_async_commit();") != std::string::npos);
  CHECK(body(ws).find("mma") != std::string::npos);  // still tensor cores, in the MMA layout
}

TEST_CASE("emulated: while loops compute what the interpreter computes", "[while][gpu][emulated]") {
  for (int warps : {1, 4})
    for_each_while_launch([&](const tl::KernelDef& k, tl::Grid g, auto bufs, gpu_check::Bind bind) {
      gpu_check::compare_emulated(k, g, bufs(), bufs(), bind, warps);
    });
}
#endif  // TILESCOPE_HAVE_GPU
