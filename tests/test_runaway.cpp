// Runaway kernels: the step budget and its finding, the
// cancel flag (what Ctrl-C sets), progress reports, and the CLI stopped by
// a real SIGINT. No test depends on timing except generous upper bounds.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

#include "broken/registry.h"
#include "error.h"
#include "findings.h"
#include "harness.h"
#include "interpreter.h"
#include "kernel.h"
#include "tilescope/tilescope.h"
#include "tl.h"
#include "trace.h"

namespace {

int line_of(const char* text) {
  FILE* f = std::fopen(__FILE__, "r");
  REQUIRE(f != nullptr);
  char buf[512];
  int n = 0, found = 0;
  while (std::fgets(buf, sizeof buf, f)) {
    ++n;
    if (std::string(buf).find(text) != std::string::npos && std::string(buf).find("line_of") == std::string::npos) {
      found = n;
      break;
    }
  }
  std::fclose(f);
  return found;
}

// N iterations of a small body (a runtime bound: the IR loop is not unrolled).
void long_for(tl::Ptr x, tl::Ptr z, tl::Int N, tl::Const B) {
  auto off = tl::arange(0, B);
  auto acc = tl::zeros({B}, tl::f32);
  for ([[maybe_unused]] auto i : tl::range(0, N, 1)) {  // RUNAWAY FOR
    acc += tl::load(x + off);
  }
  tl::store(z + tl::program_id(0) * B + off, acc);
}

// A while loop whose condition never turns false.
void endless_while(tl::Ptr z, tl::Int N, tl::Const B) {
  auto off = tl::arange(0, B);
  auto i = tl::scalar(0);
  tl::while_([&] { return i < N; }, [&] {  // RUNAWAY WHILE
    i = i * 1;
  });
  tl::store(z + off, tl::zeros({B}, tl::f32) + i.to(tl::f32));
}

const tl::KernelDef kLongFor("long_for", long_for, {"x", "z", "N", "B"});
const tl::KernelDef kEndlessWhile("endless_while", endless_while, {"z", "N", "B"});

const tl::Finding* budget_finding(const tl::RunResult& r) {
  for (const tl::Finding& f : r.findings)
    if (f.kind == tl::FindingKind::StepBudgetExceeded) return &f;
  return nullptr;
}

}  // namespace

TEST_CASE("a 2e9-iteration loop stops at the step budget with a finding naming the loop, its line and trip count",
          "[runaway]") {
  tl::Buffer x("x", tl::f32, {16}), z("z", tl::f32, {4 * 16});
  for (int threads : {1, 2}) {
    INFO("threads " << threads);
    tl::RunOptions o;
    o.max_steps = 200'000;
    o.threads = threads;
    tl::RunResult r = tl::run(kLongFor, tl::Grid{4}, {x, z, 2'000'000'000, 16}, o);
    CHECK(r.budget_exceeded);
    CHECK_FALSE(r.interrupted);
    const tl::Finding* f = budget_finding(r);
    REQUIRE(f != nullptr);
    CHECK(r.locations.at(f->loc).line == static_cast<uint32_t>(line_of("RUNAWAY FOR")));
    CHECK(f->examples.at(0).pid[0] >= 0);
    // The body is a few steps: the trip count so far is a large fraction of
    // the budget, never the whole 2e9.
    CHECK(f->message.rfind("for loop still running after ", 0) == 0);
    const long long trips = std::stoll(f->message.substr(std::string("for loop still running after ").size()));
    CHECK(trips > 200'000 / 20);
    CHECK(trips < 200'000);
    CHECK(f->message.find("step budget of 200000 steps") != std::string::npos);
    CHECK(std::string(tl::finding_severity(f->kind)) == "error");
    // The text form names the line and program.
    const std::string text = tl::format_findings(r.findings, tl::context_of(r));
    CHECK(text.find(":" + std::to_string(line_of("RUNAWAY FOR")) + ":") != std::string::npos);
    CHECK(text.find("in program (") != std::string::npos);
    // Elements of programs that never ran are not reported as never written.
    for (const tl::Finding& g : r.findings) CHECK(g.kind != tl::FindingKind::NeverWritten);
  }
}

TEST_CASE("a while loop that never ends is stopped by the step budget and named as a while loop", "[runaway]") {
  tl::Buffer z("z", tl::f32, {16});
  tl::RunOptions o;
  o.max_steps = 100'000;
  tl::RunResult r = tl::run(kEndlessWhile, tl::Grid{1}, {z, 5, 16}, o);
  const tl::Finding* f = budget_finding(r);
  REQUIRE(f != nullptr);
  CHECK(f->message.rfind("while loop still running after ", 0) == 0);
  CHECK(r.locations.at(f->loc).line == static_cast<uint32_t>(line_of("RUNAWAY WHILE")));
  CHECK(r.programs_run == 1);
}

TEST_CASE("a loop inside the budget runs to the end, 0 means no budget, the steps taken are reported", "[runaway]") {
  tl::Buffer x("x", tl::f32, {16}), z("z", tl::f32, {16});
  x.fill(1);
  tl::RunOptions o;
  o.max_steps = 0;
  tl::RunResult r = tl::run(kLongFor, tl::Grid{1}, {x, z, 1000, 16}, o);
  CHECK(r.findings.empty());
  CHECK(z.get(3) == 1000);
  CHECK(r.max_program_steps > 1000);
  o.max_steps = r.max_program_steps;  // exactly enough
  CHECK(tl::run(kLongFor, tl::Grid{1}, {x, z, 1000, 16}, o).findings.empty());
  o.max_steps = r.max_program_steps - 1;
  CHECK(tl::run(kLongFor, tl::Grid{1}, {x, z, 1000, 16}, o).budget_exceeded);
}

TEST_CASE("the default budget stops broken/runaway_loop (2e9 iterations) with its finding at the BUG line",
          "[runaway]") {
  const puzzles::BrokenKernel* b = puzzles::find_broken("broken/runaway_loop");
  REQUIRE(b != nullptr);
  // Hidden from the list of every broken kernel (it runs for seconds).
  for (const puzzles::BrokenKernel& a : puzzles::all_broken()) CHECK(a.name != "runaway_loop");
  const puzzles::Puzzle* p = puzzles::find_puzzle(b->puzzle_id);
  REQUIRE(p != nullptr);
  const auto t0 = std::chrono::steady_clock::now();
  puzzles::RunReport r = puzzles::run_kernel(*p, *b->kernel, *puzzles::find_set(*p, b->set), 0);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  CHECK_FALSE(r.passed());
  REQUIRE_FALSE(r.findings.empty());
  const tl::Finding& f = r.findings.front();
  CHECK(f.kind == tl::FindingKind::StepBudgetExceeded);
  CHECK(r.finding_locations.at(f.loc).line == static_cast<uint32_t>(puzzles::bug_line(*b)));
  CHECK(f.message.find("step budget of " + std::to_string(tl::kDefaultMaxSteps)) != std::string::npos);
  CHECK(secs < 120);  // about 5 s on a loaded 2-core machine; only a hang fails this
}

TEST_CASE("a cancel flag stops a launch: before it starts, or part-way from another thread", "[runaway]") {
  tl::Buffer x("x", tl::f32, {16}), z("z", tl::f32, {8 * 16});
  std::atomic<bool> cancel{true};
  tl::RunOptions o;
  o.cancel = &cancel;
  o.max_steps = 0;
  tl::RunResult r = tl::run(kLongFor, tl::Grid{8}, {x, z, 2'000'000'000, 16}, o);
  CHECK(r.interrupted);
  CHECK(r.programs_run == 0);
  CHECK(r.findings.empty());

  cancel = false;
  for (int threads : {1, 2}) {
    o.threads = threads;
    std::thread stopper([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      cancel = true;
    });
    r = tl::run(kLongFor, tl::Grid{8}, {x, z, 2'000'000'000, 16}, o);  // would run for hours
    stopper.join();
    cancel = false;
    CHECK(r.interrupted);
    CHECK_FALSE(r.budget_exceeded);
    // On a loaded machine the flag may even come before the first claim.
    CHECK(r.programs_run <= 8);
  }
}

TEST_CASE("a traced launch cut short keeps the trace of the programs that ran", "[runaway]") {
  tl::Buffer x("x", tl::f32, {16}), z("z", tl::f32, {4 * 16});
  tl::RunOptions o;
  o.trace = tl::TraceMode::Full;
  o.max_steps = 50'000;
  o.threads = 1;
  tl::RunResult r = tl::run(kLongFor, tl::Grid{4}, {x, z, 2'000'000'000, 16}, o);
  REQUIRE(r.trace);
  CHECK(r.budget_exceeded);
  REQUIRE(r.trace->programs.size() == 1);  // program 0 ran part-way; the others never started
  CHECK_FALSE(r.trace->programs[0].events.empty());
  CHECK(r.trace->findings.size() == r.findings.size());
  // It saves and loads like any trace.
  const tl::Trace back = tl::trace_from_json(tl::trace_to_json(*r.trace));
  CHECK(back.findings.at(0).kind == tl::FindingKind::StepBudgetExceeded);
}

TEST_CASE("progress is reported on a launch longer than a second, and ends with a finished report", "[runaway]") {
  tl::Buffer x("x", tl::f32, {16}), z("z", tl::f32, {2 * 16});
  std::atomic<bool> cancel{false};
  std::vector<tl::Progress> seen;
  tl::RunOptions o;
  o.cancel = &cancel;
  o.max_steps = 0;
  // The launch cannot end before the first report: the report is what
  // cancels it.
  o.progress = [&](const tl::Progress& p) {
    seen.push_back(p);
    cancel = true;
  };
  tl::RunResult r = tl::run(kLongFor, tl::Grid{2}, {x, z, 2'000'000'000, 16}, o);
  CHECK(r.interrupted);
  REQUIRE(seen.size() == 2);
  CHECK_FALSE(seen[0].finished);
  CHECK(seen[0].programs_total == 2);
  CHECK(seen[0].elapsed_s >= 0.9);
  CHECK(seen[0].steps > 0);
  CHECK(seen[1].finished);
  // A short launch reports nothing.
  seen.clear();
  o.cancel = nullptr;
  tl::run(kLongFor, tl::Grid{2}, {x, z, 10, 16}, o);
  CHECK(seen.empty());
}

TEST_CASE("cli: Ctrl-C on a long check prints the report, writes the partial trace and exits 130", "[runaway][cli]") {
  const std::string trace_path = "runaway_sigint_trace.json";
  std::remove(trace_path.c_str());
  int out_pipe[2], err_pipe[2];
  REQUIRE(pipe(out_pipe) == 0);
  REQUIRE(pipe(err_pipe) == 0);
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    dup2(out_pipe[1], 1);
    dup2(err_pipe[1], 2);
    close(out_pipe[0]);
    close(err_pipe[0]);
    execl(TILESCOPE_CLI, TILESCOPE_CLI, "check", "broken/runaway_loop", "--max-steps", "0", "--progress", "--trace",
          trace_path.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(out_pipe[1]);
  close(err_pipe[1]);
  // Wait for the first progress line: the launch is running.
  std::string err;
  char buf[4096];
  const auto t0 = std::chrono::steady_clock::now();
  while (err.find("programs") == std::string::npos) {
    pollfd pf{err_pipe[0], POLLIN, 0};
    REQUIRE(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(120));
    if (poll(&pf, 1, 1000) <= 0) continue;
    ssize_t n = read(err_pipe[0], buf, sizeof buf);
    REQUIRE(n > 0);
    err.append(buf, static_cast<size_t>(n));
  }
  REQUIRE(kill(pid, SIGINT) == 0);
  std::string out;
  for (ssize_t n; (n = read(out_pipe[0], buf, sizeof buf)) > 0;) out.append(buf, static_cast<size_t>(n));
  for (ssize_t n; (n = read(err_pipe[0], buf, sizeof buf)) > 0;) err.append(buf, static_cast<size_t>(n));
  close(out_pipe[0]);
  close(err_pipe[0]);
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  INFO(out << "\n--- stderr ---\n" << err);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 130);
  CHECK(out.find("runaway_loop") != std::string::npos);
  CHECK(out.find("FAIL") != std::string::npos);
  CHECK(out.find("(partial: interrupted)") != std::string::npos);
  CHECK(err.find("interrupted (Ctrl-C)") != std::string::npos);
  const tl::Trace t = tl::load_trace(trace_path);
  CHECK(t.kernel == "runaway_loop");
  // How many programs it holds depends on when the signal came (possibly
  // none finished yet): that it loads and names the kernel is the point.
  std::remove(trace_path.c_str());
}

TEST_CASE("api: Options::max_steps and Options::cancel reach the interpreter, a cut-short launch is not ok()",
          "[runaway][api]") {
  const tilescope::Kernel kernel("long_for", long_for);
  tilescope::Buffer x("x", tl::f32, {16}), z("z", tl::f32, {2 * 16});
  tilescope::Options o;
  o.max_steps = 10'000;
  tilescope::Result r = tilescope::launch(kernel, {2}, {x, z, 2'000'000'000, 16}, o);
  REQUIRE(r.error.empty());
  REQUIRE_FALSE(r.findings.empty());
  CHECK(r.findings[0].kind == tl::FindingKind::StepBudgetExceeded);
  CHECK_FALSE(r.ok());
  CHECK(r.findings_text.find("step budget of 10000 steps") != std::string::npos);
  std::atomic<bool> cancel{true};
  o.max_steps = 0;
  o.cancel = &cancel;
  r = tilescope::launch(kernel, {2}, {x, z, 2'000'000'000, 16}, o);
  CHECK(r.interrupted);
  CHECK_FALSE(r.ok());
  CHECK(r.report().find("interrupted after 0 programs") != std::string::npos);
  o.max_steps = -1;
  CHECK(tilescope::launch(kernel, {2}, {x, z, 10, 16}, o).error.find("options.max_steps is -1") != std::string::npos);
}
