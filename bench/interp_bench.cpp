// The interpreter benchmark: the 12-puzzle suite at canonical
// sizes, and the at-scale cases of ANCHORS.md's interpreter table, each with
// tracing off and full, next to a plain C++ loop computing the same result.
// Not a test: it prints the numbers of bench/README.md.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "harness.h"
#include "memory_bench.h"
#include "inputs.h"
#include "registry.h"

namespace {

using Clock = std::chrono::steady_clock;

// Median of `reps` timings of f, in milliseconds.
double median_ms(const std::function<void()>& f, int reps) {
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    auto a = Clock::now();
    f();
    t.push_back(std::chrono::duration<double, std::milli>(Clock::now() - a).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

tl::RunOptions options(tl::TraceMode mode) {
  tl::RunOptions o;
  o.trace = mode;
  return o;
}

// ---- Plain loops computing what each at-scale kernel computes ------------

void plain_matmul(const float* x, const float* y, float* z, int M, int N, int K) {
  std::fill(z, z + static_cast<size_t>(M) * N, 0.0f);
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < K; ++k) {
      float a = x[static_cast<size_t>(i) * K + k];
      for (int j = 0; j < N; ++j) z[static_cast<size_t>(i) * N + j] += a * y[static_cast<size_t>(k) * N + j];
    }
}

void plain_softmax(const float* x, float* z, int R, int T) {
  for (int i = 0; i < R; ++i) {
    const float* row = x + static_cast<size_t>(i) * T;
    float m = -INFINITY, d = 0;
    for (int t = 0; t < T; ++t) m = std::max(m, row[t]);
    for (int t = 0; t < T; ++t) d += std::exp2((row[t] - m) * 1.44269504f);
    for (int t = 0; t < T; ++t) z[static_cast<size_t>(i) * T + t] = std::exp2((row[t] - m) * 1.44269504f) / d;
  }
}

void plain_outer_add(const float* x, const float* y, float* z, int N0, int N1) {
  for (int j = 0; j < N1; ++j)
    for (int i = 0; i < N0; ++i) z[static_cast<size_t>(j) * N0 + i] = x[i] + y[j];
}

void plain_conv2d(const float* x, const float* k, float* z, int N0, int H, int W, int KH, int KW) {
  for (int i = 0; i < N0; ++i)
    for (int h = 0; h < H; ++h)
      for (int w = 0; w < W; ++w) {
        float s = 0;
        for (int a = 0; a < KH && h + a < H; ++a)
          for (int b = 0; b < KW && w + b < W; ++b) s += k[a * KW + b] * x[(static_cast<size_t>(i) * H + h + a) * W + w + b];
        z[(static_cast<size_t>(i) * H + h) * W + w] = s;
      }
}

struct AtScale {
  const char* name;
  const char* puzzle;
  puzzles::SizeSet set;
  double triton_interp_s;  // ANCHORS.md, 16 cores (0: not measured there)
  std::function<void(puzzles::RunBuffers&)> plain;  // null: no plain loop
  bool large = false;  // seconds per launch: left out by --quick
};

const float* in(puzzles::RunBuffers& b, int i) { return b.inputs[i].as<float>(); }

// A benchmark-size set of an example, by name.
puzzles::SizeSet example_set(const char* id, const char* set) {
  const puzzles::Puzzle* p = puzzles::find_puzzle(id);
  for (const puzzles::SizeSet& s : p->sets)
    if (s.name == set) return s;
  std::fprintf(stderr, "no set %s of %s\n", set, id);
  std::exit(2);
}

std::vector<AtScale> at_scale_cases() {
  std::vector<AtScale> cases;
  cases.push_back({"matmul 256^3, blocks 32x32x32", "batched_matmul",
                   {"scale", {{"N0", 256}, {"N1", 256}, {"N2", 1}, {"MID", 256}}, {},
                    {{"B0", 32}, {"B1", 32}, {"B2", 1}, {"B_MID", 32}}, "", {}},
                   2.94, [](puzzles::RunBuffers& b) { plain_matmul(in(b, 0), in(b, 1), b.output.as<float>(), 256, 256, 256); }});
  cases.push_back({"softmax 256x4096, B0=1 B1=256", "long_softmax",
                   {"scale", {{"N0", 256}, {"T", 4096}}, {}, {{"B0", 1}, {"B1", 256}}, "", {}},
                   20.2, [](puzzles::RunBuffers& b) { plain_softmax(in(b, 0), b.output.as<float>(), 256, 4096); }});
  cases.push_back({"outer add 1024^2, blocks 32x32", "outer_add_block",
                   {"scale", {{"N0", 1024}, {"N1", 1024}}, {}, {{"B0", 32}, {"B1", 32}}, "", {}},
                   2.07, [](puzzles::RunBuffers& b) { plain_outer_add(in(b, 0), in(b, 1), b.output.as<float>(), 1024, 1024); }});
  cases.push_back({"conv2d 64x16x16, 4x4, B0=1", "conv2d",
                   {"scale", {{"N0", 64}, {"H", 16}, {"W", 16}}, {{"KH", 4}, {"KW", 4}}, {{"B0", 1}}, "", {}},
                   89.4, [](puzzles::RunBuffers& b) { plain_conv2d(in(b, 0), in(b, 1), b.output.as<float>(), 64, 16, 16, 4, 4); }});
  // The examples at their benchmark sizes (EXAMPLES.md): seconds per launch.
  cases.push_back({"E1 v1 1024x2048x2048, 64x64x32", "e1_v1", example_set("e1_v1", "bench"), 0, nullptr, true});
  cases.push_back({"E4 fused K=8192 768x768, 64x64x32", "e4_fused", example_set("e4_fused", "bench"), 0, nullptr, true});
  return cases;
}

// The most steps any one program takes, over every puzzle and example at
// every size set (benchmark sizes included) and the at-scale cases.
int max_steps_report() {
  int64_t most = 0;
  std::string where;
  auto note = [&](const tl::RunResult& r, const std::string& what) {
    if (r.max_program_steps > most) {
      most = r.max_program_steps;
      where = what;
    }
  };
  std::vector<const puzzles::Puzzle*> all;
  for (const puzzles::Puzzle& p : puzzles::all_puzzles()) all.push_back(&p);
  for (const puzzles::Puzzle& p : puzzles::all_examples()) all.push_back(&p);
  for (const puzzles::Puzzle* pp : all)
    for (const puzzles::SizeSet& set : pp->sets) {
      const puzzles::Puzzle& p = *pp;
      puzzles::RunBuffers b = puzzles::make_buffers(p, set, 0);
      tl::RunResult r = tl::run(*p.solution, puzzles::grid_for(set), puzzles::launch_args(set, b));
      std::printf("%-28s %-14s %12lld steps\n", p.id.c_str(), set.name.c_str(), static_cast<long long>(r.max_program_steps));
      note(r, p.id + " " + set.name);
    }
  for (AtScale& c : at_scale_cases()) {
    const puzzles::Puzzle* p = puzzles::find_puzzle(c.puzzle);
    puzzles::RunBuffers b = puzzles::make_buffers(*p, c.set, 0);
    tl::RunResult r = tl::run(*p->solution, puzzles::grid_for(c.set), puzzles::launch_args(c.set, b));
    std::printf("%-43s %12lld steps\n", c.name, static_cast<long long>(r.max_program_steps));
    note(r, c.name);
  }
  std::printf("\nmost steps in one program: %lld (%s); default budget %lld\n", static_cast<long long>(most),
              where.c_str(), static_cast<long long>(tl::kDefaultMaxSteps));
  return 0;
}


// Case names match by substring ("outer", "conv2d", "E1"); "suite" is the
// 12-puzzle suite.
bool selected(const char* only, const char* name) { return !only || std::strstr(name, only); }

struct Config {
  int reps = 11;
  int threads = 0;  // 0: the interpreter's default (all cores)
  bool quick = false, json = false;
  bool off_only = false;  // only the trace-off launches (for callgrind)
  const char* only = nullptr;
};

tl::RunOptions options(tl::TraceMode mode, int threads) {
  tl::RunOptions o = options(mode);
  o.threads = threads;
  return o;
}

// The scaling table: trace-off medians of every case at 1, 2, 4, 8, 16
// threads, and each one's speedup over 1 thread.
int scaling(const Config& cfg) {
  const int counts[] = {1, 2, 4, 8, 16};
  std::printf("tilescope interpreter scaling (%u cores, median of %d, tracing off, ms)\n\n",
              std::max(1u, std::thread::hardware_concurrency()), cfg.reps);
  std::printf("%-36s", "case");
  for (int t : counts) std::printf(" %9d thr", t);
  std::printf("   best speedup\n");
  std::string js = "{\"scaling\": [";
  bool first = true;
  for (AtScale& c : at_scale_cases()) {
    if (!selected(cfg.only, c.name) || (cfg.quick && c.large)) continue;
    const puzzles::Puzzle* p = puzzles::find_puzzle(c.puzzle);
    puzzles::RunBuffers b = puzzles::make_buffers(*p, c.set, 0);
    auto a = puzzles::launch_args(c.set, b);
    tl::Grid g = puzzles::grid_for(c.set);
    tl::run(*p->solution, g, a);  // warm
    std::printf("%-36s", c.name);
    double one = 0, best = 0;
    std::string row;
    for (int t : counts) {
      double ms = median_ms([&] { tl::run(*p->solution, g, a, options(tl::TraceMode::Off, t)); }, c.large ? 1 : cfg.reps);
      if (t == 1) one = ms;
      best = std::max(best, one / ms);
      std::printf(" %10.2f ms", ms);
      std::fflush(stdout);
      char buf[64];
      std::snprintf(buf, sizeof buf, "%s\"%d\": %.3f", row.empty() ? "" : ", ", t, ms);
      row += buf;
    }
    std::printf("   %6.2fx\n", best);
    js += std::string(first ? "" : ", ") + "{\"case\": \"" + c.name + "\", \"ms\": {" + row + "}}";
    first = false;
  }
  js += "]}";
  if (cfg.json) std::printf("JSON %s\n", js.c_str());
  return 0;
}

}  // namespace

// One at-scale case: its times printed (unless JSON) and returned as a
// JSON object (", " before it unless it is the first).
std::string run_at_scale(AtScale& c, const Config& cfg, bool first) {
  const int reps = cfg.reps;
  const bool json = cfg.json;
  char buf[512];
  const puzzles::Puzzle* p = puzzles::find_puzzle(c.puzzle);
  puzzles::RunBuffers b = puzzles::make_buffers(*p, c.set, 0);
  auto a = puzzles::launch_args(c.set, b);
  tl::Grid g = puzzles::grid_for(c.set);
  const int case_reps = c.large ? 1 : reps;
  if (!c.large && !cfg.off_only) tl::run(*p->solution, g, a, options(tl::TraceMode::Off, cfg.threads));  // warm
  double off = median_ms([&] { tl::run(*p->solution, g, a, options(tl::TraceMode::Off, cfg.threads)); }, case_reps);
  double full = c.large || cfg.off_only ? 0
                        : median_ms([&] { tl::run(*p->solution, g, a, options(tl::TraceMode::Full, cfg.threads)); },
                                    std::max(1, reps / 3));
  double plain = 0, maxdiff = 0, maxref = 0;
  if (c.plain && !cfg.off_only) {
    puzzles::RunBuffers pb = puzzles::make_buffers(*p, c.set, 0);
    plain = median_ms([&] { c.plain(pb); }, reps);
    // The plain loop must compute what the kernel computed.
    for (int64_t i = 0; i < b.output.numel(); ++i) {
      maxdiff = std::max(maxdiff, std::fabs(b.output.get(i) - pb.output.get(i)));
      maxref = std::max(maxref, std::fabs(pb.output.get(i)));
    }
  }
  const double ratio = plain > 0 ? off / plain : 0;
  if (!json)
    std::printf("%-34s %9.2f ms %9.2f ms %9.3f ms %7.1fx %11.1f s%s\n", c.name, off, full, plain, ratio,
                c.triton_interp_s, maxdiff > 1e-3 * std::max(1.0, maxref) ? "  (RESULTS DIFFER)" : "");
  std::snprintf(buf, sizeof buf,
                "%s{\"case\": \"%s\", \"off_ms\": %.3f, \"full_ms\": %.3f, \"plain_ms\": %.4f, \"ratio\": %.2f, "
                "\"triton_interp_s\": %.2f, \"max_abs_diff\": %.3g}",
                first ? "" : ", ", c.name, off, full, plain, ratio, c.triton_interp_s, maxdiff);
  return buf;
}

int main(int argc, char** argv) {
  Config cfg;
  bool memory = false, steps = false, scale = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--json")) cfg.json = true;
    else if (!std::strcmp(argv[i], "--reps") && i + 1 < argc) cfg.reps = std::max(1, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--threads") && i + 1 < argc) cfg.threads = std::max(0, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--memory")) memory = true;
    else if (!std::strcmp(argv[i], "--case") && i + 1 < argc) cfg.only = argv[++i];
    else if (!std::strcmp(argv[i], "--quick")) cfg.quick = true;
    else if (!std::strcmp(argv[i], "--off-only")) cfg.off_only = true;
    else if (!std::strcmp(argv[i], "--scaling")) scale = true;
    else if (!std::strcmp(argv[i], "--steps")) steps = true;
    else {
      std::printf("usage: tilescope_interp_bench [--reps N] [--threads N] [--case NAME] [--quick] [--json]\n"
                  "       tilescope_interp_bench --scaling [--reps N] [--case NAME] [--quick] [--json]\n"
                  "       tilescope_interp_bench --memory [--case NAME] [--json] | --steps\n"
                  "Times the interpreter on the puzzle suite and the at-scale cases of ANCHORS.md\n"
                  "(and examples E1, E4 at their benchmark sizes).\n"
                  "--threads N: run on N threads (default: all cores).\n"
                  "--case NAME: only the cases whose name contains NAME ('suite': the puzzle suite).\n"
                  "--quick: 3 repetitions, without the seconds-long example cases.\n"
                  "--off-only: no traced launches and no plain loops (for callgrind: --reps 1).\n"
                  "--scaling: the table of trace-off times at 1, 2, 4, 8, 16 threads.\n"
                  "--memory: peak RSS of untraced launches at real sizes (copy64m, programs1e7, findings1e7).\n"
                  "--steps: the most steps one program takes in every puzzle, example and bench case\n"
                  "(what the default step budget must stay far above).\n");
      return std::strcmp(argv[i], "--help") ? 2 : 0;
    }
  }
  if (cfg.quick) cfg.reps = std::min(cfg.reps, 3);
  if (memory) return bench::memory_cases(cfg.only, cfg.json);
  if (steps) return max_steps_report();
  if (scale) return scaling(cfg);
  const int reps = cfg.reps;
  const bool json = cfg.json;
  unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  std::string js = "{\"cores\": " + std::to_string(cores) + ", \"threads\": " + std::to_string(cfg.threads) +
                   ", \"suite\": {";

  // The suite: one launch per puzzle, canonical sizes, seed 0.
  std::vector<puzzles::RunBuffers> bufs;
  std::vector<std::vector<tl::Arg>> args;
  const auto& all = puzzles::all_puzzles();
  bufs.reserve(all.size());
  for (const puzzles::Puzzle& p : all) bufs.push_back(puzzles::make_buffers(p, p.sets[0], 0));
  for (size_t i = 0; i < all.size(); ++i) args.push_back(puzzles::launch_args(all[i].sets[0], bufs[i]));
  auto suite = [&](tl::TraceMode mode) {
    for (size_t i = 0; i < all.size(); ++i)
      tl::run(*all[i].solution, puzzles::grid_for(all[i].sets[0]), args[i], options(mode, cfg.threads));
  };
  double suite_off = 0, suite_full = 0;
  const bool with_suite = selected(cfg.only, "suite");
  if (with_suite) {
    suite(tl::TraceMode::Full);  // warm: builds every specialization once
    suite_off = median_ms([&] { suite(tl::TraceMode::Off); }, reps);
    suite_full = median_ms([&] { suite(tl::TraceMode::Full); }, reps);
  }
  if (!json) {
    std::printf("tilescope interpreter benchmark (%u cores, %s threads, median of %d)\n\n", cores,
                cfg.threads ? std::to_string(cfg.threads).c_str() : "all", reps);
    if (with_suite)
      std::printf("12-puzzle suite, canonical sizes, one seed: tracing off %.2f ms, full %.2f ms "
                  "(target <= 10 ms full; Triton interpreter 2.42 s on 16 cores)\n\n",
                  suite_off, suite_full);
    std::printf("%-34s %12s %12s %12s %8s %14s\n", "at-scale case", "trace off", "trace full", "plain loop",
                "ratio", "Triton interp");
  }
  char buf[512];
  std::snprintf(buf, sizeof buf, "\"off_ms\": %.3f, \"full_ms\": %.3f}, \"cases\": [", suite_off, suite_full);
  js += buf;

  bool first = true;
  for (AtScale& c : at_scale_cases()) {
    if (!selected(cfg.only, c.name) || (cfg.quick && c.large)) continue;
    js += run_at_scale(c, cfg, first);
    first = false;
  }
  js += "]}";
  if (json) std::printf("%s\n", js.c_str());
  return 0;
}
