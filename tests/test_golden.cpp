// Golden hashes of what tilescope produces, so that a change meant to leave
// behaviour alone (a refactoring, a move, a rename) is shown to: the CUDA
// source (with the launch facts beside it) the GPU back end generates for
// every puzzle, example, broken kernel and benchmark variant (its comments
// left out: a comment changes nothing NVRTC makes), and the
// interpreter's trace of every puzzle on its small size sets, of every
// example on its canonical set and of every broken kernel. The traces of
// the examples' larger sets are left out (two of them take seconds). Each
// is hashed (64-bit FNV-1a) and compared with the hash files in
// tests/golden/; a failure lists the entries that differ.
//
// A change that is meant to alter generated code or traces regenerates the
// files and names the entries it changed:
//
//   TILESCOPE_GOLDEN_UPDATE=1 build/tests/tilescope_tests "[golden]"
//
// which prints "changed", "added" and "removed" lines for each file (see
// docs/design.md, "Golden hashes").
#include <catch2/catch.hpp>
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <thread>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "broken/registry.h"
#include "harness.h"
#include "inputs.h"
#include "interpreter.h"
#include "registry.h"
#include "trace.h"

#ifdef TILESCOPE_HAVE_GPU
#include "bench_cases.h"
#include "codegen.h"
#endif

namespace {

using Entries = std::map<std::string, std::string>;  // entry name -> hash

uint64_t fnv1a(std::string_view s) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

// The hash of `text` with the source folder's path taken out (kernels name
// their files by full path; a checkout elsewhere must hash the same).
std::string hash_of(std::string text) {
  const std::string dir = std::string(TILESCOPE_SOURCE_DIR) + "/";
  for (size_t at; (at = text.find(dir)) != std::string::npos;) text.erase(at, dir.size());
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(fnv1a(text)));
  return buf;
}

std::string golden_path(const char* file) { return std::string(TILESCOPE_SOURCE_DIR) + "/tests/golden/" + file; }

// Lines "HASH NAME"; names may hold spaces.
Entries read_entries(const std::string& path) {
  Entries e;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);)
    if (line.size() > 17 && line[0] != '#') e[line.substr(17)] = line.substr(0, 16);
  return e;
}

void write_entries(const std::string& path, const Entries& entries) {
  std::ofstream out(path);
  out << "# Written by TILESCOPE_GOLDEN_UPDATE=1 tilescope_tests \"[golden]\" (tests/test_golden.cpp)\n";
  for (const auto& [name, hash] : entries) out << hash << ' ' << name << '\n';
}

// One line per entry that differs: "changed NAME", "added NAME", "removed NAME".
std::string differences(const Entries& before, const Entries& now) {
  std::string d;
  for (const auto& [name, hash] : now) {
    auto it = before.find(name);
    if (it == before.end()) d += "  added   " + name + "\n";
    else if (it->second != hash) d += "  changed " + name + "\n";
  }
  for (const auto& [name, hash] : before)
    if (!now.count(name)) d += "  removed " + name + "\n";
  return d;
}

// Compares `now` with the file, or with TILESCOPE_GOLDEN_UPDATE set
// rewrites the file and prints what changed. A `subset` is checked against
// the file's entries of the same names only.
void check_against(const char* file, const Entries& now, bool subset = false) {
  const std::string path = golden_path(file);
  Entries before = read_entries(path);
  if (subset) std::erase_if(before, [&](const auto& e) { return !now.count(e.first); });
  const std::string diff = differences(before, now);
  if (const char* update = std::getenv("TILESCOPE_GOLDEN_UPDATE"); update && *update && std::string(update) != "0") {
    REQUIRE_FALSE(subset);  // the sanitizer build computes a part of the entries
    write_entries(path, now);
    std::printf("tests/golden/%s: %zu entries, %s", file, now.size(),
                diff.empty() ? "none changed\n" : ("these changed:\n" + diff).c_str());
    return;
  }
  INFO("tests/golden/" << file << " (" << now.size() << " entries) differs:\n"
                       << diff << "If the change is meant, regenerate with\n"
                       << "  TILESCOPE_GOLDEN_UPDATE=1 build/tests/tilescope_tests \"[golden]\"");
  CHECK(diff.empty());
}

// Every puzzle with each of its size sets, every example with its
// canonical set or, where asked, with each (the benchmark-size ones too),
// and every broken kernel on the set that shows its mistake.
struct Target {
  std::string name;  // "puzzle p04 canonical", "broken missing_load_mask"
  const puzzles::Puzzle* puzzle;
  const tl::KernelDef* kernel;
  const puzzles::SizeSet* set;
};

std::vector<Target> targets(bool every_example_set) {
  std::vector<Target> all;
  for (const puzzles::Puzzle& p : puzzles::all_puzzles())
    for (const puzzles::SizeSet& s : p.sets)
      if (every_example_set || !s.large) all.push_back({"puzzle " + p.id + " " + s.name, &p, p.solution, &s});
  for (const puzzles::Puzzle& p : puzzles::all_examples())
    for (const puzzles::SizeSet& s : p.sets)
      if (every_example_set || &s == &p.sets[0]) all.push_back({"example " + p.id + " " + s.name, &p, p.solution, &s});
  for (const puzzles::BrokenKernel& b : puzzles::all_broken()) {
    const puzzles::Puzzle* p = puzzles::find_puzzle(b.puzzle_id);
    REQUIRE(p != nullptr);
    const puzzles::SizeSet* s = puzzles::find_set(*p, b.set);
    REQUIRE(s != nullptr);
    all.push_back({"broken " + b.name, p, b.kernel, s});
  }
  return all;
}

}  // namespace

TEST_CASE("the interpreter's traces of the puzzles, examples and broken kernels match tests/golden/traces.txt",
          "[golden]") {
  Entries now;
  for (const Target& t : targets(false)) {
    puzzles::RunBuffers b = puzzles::make_buffers(*t.puzzle, *t.set, 0);
    tl::RunOptions opt;
    opt.trace = tl::TraceMode::Full;
    opt.check_unread_inputs = true;
    std::string text;
    try {
      tl::RunResult r = tl::run(*t.kernel, puzzles::grid_for(*t.set), puzzles::launch_args(*t.set, b), opt);
      if (r.trace) text += tl::trace_to_json(*r.trace);
      text += "printed " + r.printed + "\n";
    } catch (const std::exception& e) {
      text += std::string("error ") + e.what();
    }
    for (tl::Buffer* out : b.outputs())
      text.append(reinterpret_cast<const char*>(out->data()), static_cast<size_t>(out->size_bytes()));
    now[t.name] = hash_of(text);
  }
  check_against("traces.txt", now);
}

#ifdef TILESCOPE_HAVE_GPU

namespace {

// The IR of `kernel` for `set`: it depends on the pointers' dtypes and the
// constants only, so one-element buffers stand in for the set's tensors
// (the benchmark sets' would take gigabytes).
std::shared_ptr<const tl::ir::Kernel> ir_of(const puzzles::Puzzle& p, const tl::KernelDef& kernel,
                                            const puzzles::SizeSet& set) {
  puzzles::RunBuffers b;
  for (const puzzles::TensorDecl& t : p.inputs) b.inputs.emplace_back(t.name, t.dtype, std::vector<int64_t>{1});
  b.output = tl::Buffer(p.output.name, p.output.dtype, {1});
  for (const puzzles::TensorDecl& t : p.extra_outputs) b.extra_outputs.emplace_back(t.name, t.dtype, std::vector<int64_t>{1});
  return tl::build_ir(kernel, puzzles::launch_args(set, b));
}

std::string value_text(const tl::gpu::TensorMapSpec::Value& v) {
  return std::to_string(v.param) + "," + std::to_string(v.constant) + "," + std::to_string(v.scale) + "," +
         std::to_string(v.param2);
}

// `source` without its `//` comments (the prelude's and the kernel lines'
// the generator writes beside the code) and the lines left blank: what
// NVRTC compiles, however its comments are worded and wrapped.
std::string without_comments(const std::string& source) {
  std::string out;
  out.reserve(source.size());
  for (size_t at = 0; at < source.size();) {
    size_t eol = source.find('\n', at);
    if (eol == std::string::npos) eol = source.size();
    const size_t c = source.find("//", at);
    const std::string code = source.substr(at, (c < eol ? c : eol) - at);
    if (code.find_first_not_of(" \t\r") != std::string::npos) out += code + '\n';
    at = eol + 1;
  }
  return out;
}

// The generated source and every launch fact the runtime reads from it.
std::string lowered_text(const tl::ir::Kernel& ir, const tl::gpu::CodegenOptions& opt) {
  std::ostringstream o;
  try {
    const tl::gpu::LoweredKernel k = tl::gpu::lower(ir, opt);
    o << k.name << " threads " << k.threads << " smem " << k.smem_bytes << " cluster " << k.cluster_axis << " pairs "
      << k.wgmma_dot_pairs << " behind " << k.copies_behind_dots << " b_in_stage " << k.b_in_stage << " decoupled "
      << k.decoupled << " b_tma " << k.b_tma << " specialized " << k.warp_specialized << "\nparams";
    for (int p : k.params) o << ' ' << p;
    for (const tl::gpu::TensorMapSpec& m : k.tensor_maps)
      o << "\nmap " << m.base_param << ' ' << tl::name(m.dtype) << ' ' << value_text(m.cols) << ' '
        << value_text(m.rows) << ' ' << value_text(m.row_stride) << ' ' << m.batched << ' ' << value_text(m.batches)
        << ' ' << value_text(m.batch_stride) << ' ' << m.box_cols << 'x' << m.box_rows << ' ' << m.swizzle128;
    o << '\n' << without_comments(k.source);
  } catch (const tl::gpu::CodegenError& e) {
    o << "codegen error " << e.what();
  }
  return o.str();
}

std::string config_name(const tl::gpu::CodegenOptions& o) {
  std::string n = "w" + std::to_string(o.num_warps) + " s" + std::to_string(o.num_stages);
  if (o.persistent()) n += " persistent" + std::to_string(o.persistent_interleave);
  if (o.wgmma) n += " wgmma";
  if (o.wgmma && !o.wgmma_in_flight) n += " waited";
  if (o.wgmma && !o.wgmma_copies_after_dots) n += " copies-first";
  if (o.tma) n += " tma";
  if (o.warp_specialize) n += " specialized" + std::to_string(o.producer_warpgroups);
  if (o.cluster_multicast) n += " cluster";
  if (o.every_load) n += " every-load";
  if (o.scalar_dots) n += " scalar-dots";
  if (!o.ldmatrix) n += " no-ldmatrix";
  if (!o.row_runs) n += " no-row-runs";
  if (!o.register_operand_runs) n += " no-operand-runs";
  if (!o.small_loads_in_stage) n += " no-small-in-stage";
  if (!o.wgmma_pair_dots) n += " no-dot-pairs";
  if (o.wgmma_register_a) n += " register-a";
  if (o.wgmma_b_in_stage) n += " b-in-stage";
  if (!o.wgmma_decoupled) n += " no-decoupled";
  if (!o.wgmma_b_tma) n += " no-b-tma";
  if (o.tf32_cut_staged) n += " tf32-cut";
  if (!o.comments) n += " no-comments";
  return n;
}

// The configurations `bench --gpu --wgmma` tunes over (gpu_bench.cpp's
// tune_case), and the options the command line can add on top of them.
std::vector<tl::gpu::CodegenOptions> bench_configs(const tl::gpu::BenchCase& c, bool wgmma_only) {
  const bool dots = c.math != tl::gpu::BenchCase::Math::None;
  const tl::Grid logical = puzzles::grid_for(c.set);
  std::vector<tl::gpu::CodegenOptions> all;
  const std::vector<int> warps = wgmma_only ? std::vector<int>{8} : dots ? std::vector<int>{4, 8} : std::vector<int>{1, 2, 4, 8};
  for (int persistent : dots ? std::vector<int>{0} : std::vector<int>{0, 1, 2})
    for (int wg : !dots ? std::vector<int>{0} : wgmma_only ? std::vector<int>{1, 2, 3, 4, 5, 6, 7}
                                                          : std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7})
      for (int s : dots ? std::vector<int>{0, 2, 3, 4} : std::vector<int>{0})
        for (int w : warps) {
          tl::gpu::CodegenOptions o;
          o.wgmma = wg > 0;
          o.wgmma_in_flight = wg == 1 || wg == 3 || wg == 5 || wg >= 6;
          o.wgmma_copies_after_dots = wg != 5;
          o.tma = wg >= 3;
          o.warp_specialize = wg >= 6;
          o.producer_warpgroups = wg == 7 ? 2 : 1;
          o.num_warps = w;
          o.num_stages = s;
          if (persistent) {
            o.persistent_grid[0] = logical.x, o.persistent_grid[1] = logical.y, o.persistent_grid[2] = logical.z;
            o.persistent_interleave = persistent == 2 ? 2 : 1;
          }
          all.push_back(o);
        }
  if (wgmma_only) return all;
  // One option of the command line at a time, on the plain configuration
  // and (for dot cases) on wgmma with TMA.
  std::vector<tl::gpu::CodegenOptions> bases(1);
  if (dots) {
    tl::gpu::CodegenOptions t;
    t.wgmma = t.tma = true;
    t.num_warps = 8;
    bases.push_back(t);
  }
  for (const tl::gpu::CodegenOptions& base : bases) {
    auto with = [&](auto change) {
      tl::gpu::CodegenOptions o = base;
      change(o);
      all.push_back(o);
    };
    with([](auto& o) { o.every_load = true; });
    with([](auto& o) { o.ldmatrix = false; });
    with([](auto& o) { o.row_runs = false; });
    with([](auto& o) { o.comments = false; });
    if (!dots) continue;
    with([](auto& o) { o.scalar_dots = true; });
    with([](auto& o) { o.register_operand_runs = false; });
    with([](auto& o) { o.small_loads_in_stage = false; });
    with([](auto& o) { o.tf32_cut_staged = true; });
    if (!base.wgmma) continue;
    with([](auto& o) { o.wgmma_pair_dots = false; });
    with([](auto& o) { o.wgmma_register_a = true; });
    with([](auto& o) { o.wgmma_b_in_stage = true; });
    with([](auto& o) { o.wgmma_decoupled = false; });
    with([](auto& o) { o.wgmma_b_tma = false; });
    with([](auto& o) { o.cluster_multicast = true; });
  }
  return all;
}

}  // namespace

TEST_CASE("the CUDA generated for every puzzle, example, broken kernel and bench variant matches "
          "tests/golden/cuda.txt",
          "[golden][gpu]") {
  // The IR is built here, one kernel after the other; the lowering, most
  // of the time, runs on every core afterwards.
  struct Job {
    std::string name;
    std::shared_ptr<const tl::ir::Kernel> ir;
    tl::gpu::CodegenOptions options;
  };
  std::vector<Job> jobs;
  Entries now;
  for (const Target& t : targets(true)) {
    std::shared_ptr<const tl::ir::Kernel> ir;
    try {
      ir = ir_of(*t.puzzle, *t.kernel, *t.set);
    } catch (const std::exception& e) {
      now[t.name] = hash_of(std::string("build error ") + e.what());
      continue;
    }
    for (int warps : {4, 8}) {
      tl::gpu::CodegenOptions o;
      o.num_warps = warps;
      jobs.push_back({t.name + " " + config_name(o), ir, o});
    }
  }
  // The sanitizer build leaves the bench variants (nine in ten entries) to
  // the Release build: the same code lowers them.
#ifdef TILESCOPE_SANITIZED
  constexpr bool kBenchVariants = false;
#else
  constexpr bool kBenchVariants = true;
#endif
  for (const tl::gpu::BenchCase& c : kBenchVariants ? tl::gpu::anchor_cases() : std::vector<tl::gpu::BenchCase>{}) {
    std::vector<puzzles::Params> blocks = {c.set.blocks};
    blocks.insert(blocks.end(), c.block_variants.begin(), c.block_variants.end());
    for (size_t bi = 0; bi < blocks.size(); ++bi) {
      tl::gpu::BenchCase bc = c;
      bc.set.blocks = blocks[bi];
      const auto ir = ir_of(*bc.puzzle, *bc.puzzle->solution, bc.set);
      for (const tl::gpu::CodegenOptions& o : bench_configs(bc, c.wgmma_variants.count(bi) > 0))
        jobs.push_back({"bench " + c.name + " blocks" + std::to_string(bi) + " " + config_name(o), ir, o});
    }
  }
  std::vector<std::string> hashes(jobs.size());
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i; (i = next++) < jobs.size();) hashes[i] = hash_of(lowered_text(*jobs[i].ir, jobs[i].options));
  };
  std::vector<std::thread> pool;
  for (unsigned n = std::max(1u, std::min(8u, std::thread::hardware_concurrency())); n > 1; --n) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  for (size_t i = 0; i < jobs.size(); ++i) now[jobs[i].name] = hashes[i];
  check_against("cuda.txt", now, !kBenchVariants);
}

#endif
