// Fusion and thread count never change what a launch reports:
// every puzzle solution, every example and every broken kernel, on each of
// their small size sets, runs with fusion off on one thread (the reference)
// and with fusion on and off at 1, 2, 4 and 8 threads; the findings (every
// field of every example), the trace JSON, the output buffers, the printed
// text and the out-of-bounds records must be identical byte for byte, traced
// and untraced (fusion does its work only untraced).
#include <catch2/catch.hpp>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "broken/registry.h"
#include "harness.h"
#include "inputs.h"
#include "interpreter.h"
#include "registry.h"
#include "trace.h"

namespace {

std::string ids(const std::array<int64_t, 3>& p) {
  return std::to_string(p[0]) + "," + std::to_string(p[1]) + "," + std::to_string(p[2]);
}

// Everything a launch reports, as one string.
std::string outcome(const puzzles::Puzzle& p, const tl::KernelDef& kernel, const puzzles::SizeSet& set, bool fuse,
                    int threads, bool traced) {
  puzzles::RunBuffers b = puzzles::make_buffers(p, set, 0);
  tl::RunOptions opt;
  opt.fuse = fuse;
  opt.threads = threads;
  opt.check_unread_inputs = true;
  opt.trace = traced ? tl::TraceMode::Full : tl::TraceMode::Off;
  std::string o;
  try {
    tl::RunResult r = tl::run(kernel, puzzles::grid_for(set), puzzles::launch_args(set, b), opt);
    for (const tl::Finding& f : r.findings) {
      o += std::string(tl::finding_kind_name(f.kind)) + " loc " + std::to_string(f.loc) + " buf " +
           std::to_string(f.buffer) + " lanes " + std::to_string(f.lanes) + " programs " + std::to_string(f.programs) +
           " '" + f.message + "'\n";
      for (const tl::FindingExample& e : f.examples) {
        o += "  pid " + ids(e.pid) + " lane " + std::to_string(e.lane) + " [";
        for (int64_t i : e.lane_index) o += std::to_string(i) + " ";
        o += "] off " + std::to_string(e.offset) + " other " + ids(e.other_pid) + " event " + std::to_string(e.event) +
             " dim " + std::to_string(e.dim) + " " + std::to_string(e.index) + "/" + std::to_string(e.extent) + " '" +
             e.detail + "'\n";
      }
    }
    for (const tl::OobAccess& a : r.oob)
      o += "oob " + ids(a.pid) + " " + a.buffer + " lane " + std::to_string(a.lane) + " off " + std::to_string(a.offset) +
           "\n";
    o += "oob counts " + std::to_string(r.oob_loads) + " " + std::to_string(r.oob_stores) + "\n";
    for (const tl::RuntimeIssue& i : r.issues) o += "issue " + ids(i.pid) + " " + i.message + "\n";
    o += "printed " + r.printed + "\n";
    o += "max steps " + std::to_string(r.max_program_steps) + "\n";
    if (r.trace) o += tl::trace_to_json(*r.trace);
  } catch (const std::exception& e) {
    o += std::string("error ") + e.what();
  }
  for (tl::Buffer* out : b.outputs())
    o.append(reinterpret_cast<const char*>(out->data()), static_cast<size_t>(out->size_bytes()));
  return o;
}

// Under the sanitizers (CI's second build, where this file was a quarter of
// the test time) 1 and 4 threads: the worker and merge code a thread count
// runs is the same at 2, 4 and 8, and the Release build runs all four.
#ifdef TILESCOPE_SANITIZED
constexpr int kThreadCounts[] = {1, 4};
#else
constexpr int kThreadCounts[] = {1, 2, 4, 8};
#endif

void same_everywhere(const puzzles::Puzzle& p, const tl::KernelDef& kernel, const puzzles::SizeSet& set) {
  for (bool traced : {false, true}) {
    const std::string reference = outcome(p, kernel, set, false, 1, traced);
    for (bool fuse : {true, false})
      for (int threads : kThreadCounts) {
        if (!fuse && threads == 1) continue;
        INFO(kernel.name() << " set " << set.name << (fuse ? " fused" : " per-op") << " threads " << threads
                           << (traced ? " traced" : " untraced"));
        CHECK(outcome(p, kernel, set, fuse, threads, traced) == reference);
      }
  }
}

}  // namespace

TEST_CASE("fusion and thread count leave every puzzle's and example's launches unchanged") {
  std::vector<const puzzles::Puzzle*> all;
  for (const puzzles::Puzzle& p : puzzles::all_puzzles()) all.push_back(&p);
  for (const puzzles::Puzzle& p : puzzles::all_examples()) all.push_back(&p);
  for (const puzzles::Puzzle* p : all)
    for (const puzzles::SizeSet& set : p->sets)
      if (!set.large) same_everywhere(*p, *p->solution, set);
}

TEST_CASE("fusion and thread count leave every broken kernel's findings unchanged") {
  for (const puzzles::BrokenKernel& b : puzzles::all_broken()) {
    const puzzles::Puzzle* p = puzzles::find_puzzle(b.puzzle_id);
    REQUIRE(p != nullptr);
    const puzzles::SizeSet* set = puzzles::find_set(*p, b.set);
    REQUIRE(set != nullptr);
    same_everywhere(*p, *b.kernel, *set);
  }
}

TEST_CASE("fusion is on by default, RunOptions::fuse = false and TILESCOPE_FUSE=0 turn it off") {
  const puzzles::Puzzle& p = *puzzles::find_puzzle("outer_add_block");
  const puzzles::SizeSet& set = p.sets[0];
  auto fused_steps = [&](bool fuse) {
    puzzles::RunBuffers b = puzzles::make_buffers(p, set, 0);
    tl::RunOptions opt;
    opt.fuse = fuse;
    return tl::run(*p.solution, puzzles::grid_for(set), puzzles::launch_args(set, b), opt).fused_steps;
  };
  CHECK(tl::RunOptions{}.fuse);
  CHECK(fused_steps(true) > 0);  // z + off_z: the store's pointer tile
  CHECK(fused_steps(false) == 0);
  ::setenv("TILESCOPE_FUSE", "0", 1);
  const int64_t with_env_off = fused_steps(true);
  ::unsetenv("TILESCOPE_FUSE");
  CHECK(with_env_off == 0);
}
