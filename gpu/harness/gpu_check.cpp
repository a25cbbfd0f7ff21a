#include "gpu_check.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <sstream>

#include <nlohmann/json.hpp>

#include "child_process.h"
#include "compare.h"
#include "device_runtime.h"
#include "error.h"
#include "harness.h"
#include "inputs.h"
#include "wire.h"

static_assert(tl::gpu::kFillBits == puzzles::kNeverWrittenBits);

namespace tl::gpu {

namespace {

using wire::put;
using wire::Reader;

// One (set, seed) run, prepared in this process before any GPU work.
struct PlannedRun {
  const puzzles::SizeSet* set = nullptr;
  uint32_t seed = 0;
  int kernel = -1;  // index into the compiled kernels, -1 when it failed to build or compile
  puzzles::RunBuffers gpu_buffers;
};

struct CompiledSet {
  std::shared_ptr<const ir::Kernel> ir;
  LoweredKernel lowered;
  Cubin cubin;
};

// A record per run: index, 1 and the output bytes and modified inputs, or
// 0 and an error.
void gpu_work(std::vector<PlannedRun>& runs, const std::vector<CompiledSet>& compiled, CudaDriver& d,
              const std::function<void(const std::string&)>& send) {
  std::map<int, std::unique_ptr<LoadedKernel>> loaded;
  for (size_t i = 0; i < runs.size(); ++i) {
    PlannedRun& run = runs[i];
    if (run.kernel < 0) continue;
    std::string rec;
    put(rec, static_cast<uint64_t>(i));
    try {
      auto& lk = loaded[run.kernel];
      if (!lk) lk = std::make_unique<LoadedKernel>(d, compiled[run.kernel].cubin, compiled[run.kernel].lowered);
      const auto before = puzzles::snapshot(run.gpu_buffers.inputs);
      run_on_device(d, *lk, *compiled[run.kernel].ir, puzzles::grid_for(*run.set),
                    puzzles::launch_args(*run.set, run.gpu_buffers));
      put(rec, 1);
      for (const tl::Buffer* out : run.gpu_buffers.outputs())
        put(rec, std::string(reinterpret_cast<const char*>(out->data()), out->size_bytes()));
      const auto changed = puzzles::changed_buffers(run.gpu_buffers.inputs, before);
      put(rec, static_cast<uint64_t>(changed.size()));
      for (const std::string& c : changed) put(rec, c);
      send(rec);
    } catch (const CudaError& e) {
      put(rec, 0);
      put(rec, std::string(e.what()));
      send(rec);
      if (e.sticky()) return;  // the context is lost: nothing more can run here
    } catch (const std::exception& e) {
      put(rec, 0);
      put(rec, std::string(e.what()));
      send(rec);
    }
  }
}

std::string sizes_of(const puzzles::SizeSet& set) {
  puzzles::Params all = set.sizes;
  for (const auto& [n, v] : set.constants.values()) all.add(n, v);
  return all.str() + " | " + set.blocks.str();
}

// A kernel with these findings has no single right output: the GPU may
// pick another winner of a race, or read real memory where the
// interpreter reads poison.
std::string undefined_result_caveat(const std::vector<tl::Finding>& findings) {
  std::string kinds;
  for (tl::FindingKind k : {tl::FindingKind::WriteConflict, tl::FindingKind::ReadWriteRace,
                            tl::FindingKind::OutOfBoundsLoad, tl::FindingKind::UndefinedValueUsed}) {
    bool found = false;
    for (const tl::Finding& f : findings) found |= f.kind == k;
    if (found) kinds += (kinds.empty() ? "" : ", ") + std::string(tl::finding_kind_name(k));
  }
  if (kinds.empty()) return "";
  return "the interpreter found " + kinds + ": the output depends on scheduling or on memory outside the buffers, "
         "so the GPU may rightly differ";
}

std::string fmt(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2g", v);
  return buf;
}

}  // namespace

DeviceProbe probe_device() {
  DeviceProbe probe;
  ChildOutcome out = run_in_child([] {
    std::string rec;
    try {
      CudaDriver d;
      const DeviceInfo& i = d.device();
      put(rec, 1);
      put(rec, i.name);
      for (int64_t v : {int64_t{i.major}, int64_t{i.minor}, int64_t{i.sm_count}, i.l2_bytes, i.memory_bytes,
                        i.max_smem_per_block, int64_t{i.driver_version}})
        put(rec, static_cast<uint64_t>(v));
    } catch (const NoDriver& e) {
      put(rec, 0);
      put(rec, std::string(e.what()));
    }
    return rec;
  });
  if (!out.completed) {
    probe.reason = "the device probe failed: " + out.failure;
    return probe;
  }
  Reader r(out.payload);
  uint64_t ok = 0;
  if (!r.u64(ok)) {
    probe.reason = "the device probe sent nothing";
    return probe;
  }
  if (!ok) {
    r.str(probe.reason);
    return probe;
  }
  DeviceInfo& i = probe.info;
  uint64_t v[7] = {};
  r.str(i.name);
  for (uint64_t& x : v) r.u64(x);
  i.major = static_cast<int>(v[0]);
  i.minor = static_cast<int>(v[1]);
  i.sm_count = static_cast<int>(v[2]);
  i.l2_bytes = static_cast<int64_t>(v[3]);
  i.memory_bytes = static_cast<int64_t>(v[4]);
  i.max_smem_per_block = static_cast<int64_t>(v[5]);
  i.driver_version = static_cast<int>(v[6]);
  probe.ok = true;
  return probe;
}

GpuPuzzleReport check_on_gpu(const puzzles::Puzzle& p, const tl::KernelDef& kernel, const GpuCheckOptions& opt) {
  GpuPuzzleReport report;
  report.number = p.number;
  report.id = p.id;
  report.kernel = kernel.name();
  report.threshold = p.tolerance;

  // Build, lower and compile once per size set; make every run's buffers.
  std::vector<CompiledSet> compiled;
  std::vector<PlannedRun> runs;
  std::vector<std::string> errors;
  for (const puzzles::SizeSet& set : p.sets) {
    if (!opt.sets.empty() && std::find(opt.sets.begin(), opt.sets.end(), set.name) == opt.sets.end()) continue;
    int index = -1;
    std::string error;
    try {
      puzzles::RunBuffers probe = puzzles::make_buffers(p, set, opt.seeds.empty() ? 0 : opt.seeds[0]);
      CompiledSet c;
      c.ir = tl::build_ir(kernel, puzzles::launch_args(set, probe));
      c.lowered = lower(*c.ir, opt.codegen);
      c.cubin = compile_cubin(c.lowered, opt.compile, opt.cache);
      if (report.cuda_kernel.empty()) report.cuda_kernel = c.lowered.name;
      if (compiled.empty()) report.tolerance = tolerance_for(*c.ir, p.output.dtype);
      compiled.push_back(std::move(c));
      index = static_cast<int>(compiled.size()) - 1;
    } catch (const tl::BuildError& e) {
      error = std::string("build error: ") + e.what();
    } catch (const std::exception& e) {
      error = e.what();
    }
    // A benchmark-size set costs the interpreter minutes: one seed, unless named.
    const bool named = std::find(opt.sets.begin(), opt.sets.end(), set.name) != opt.sets.end();
    std::vector<uint32_t> seeds = opt.seeds;
    if (set.large && !named && seeds.size() > 1) seeds.resize(1);
    for (uint32_t seed : seeds) {
      PlannedRun run;
      run.set = &set;
      run.seed = seed;
      run.kernel = index;
      if (index >= 0) run.gpu_buffers = puzzles::make_buffers(p, set, seed);
      runs.push_back(std::move(run));
      errors.push_back(error);
    }
  }

  // The GPU launches: in a child process unless a driver was given.
  std::string payload, gpu_failure;
  if (opt.driver) {
    try {
      gpu_work(runs, compiled, *opt.driver, [&](const std::string& rec) { payload += rec; });
    } catch (const std::exception& e) {
      gpu_failure = e.what();
    }
  } else {
    ChildOutcome out = run_in_child_streaming([&](const std::function<void(const std::string&)>& send) {
      CudaDriver d;
      gpu_work(runs, compiled, d, send);
    });
    payload = std::move(out.payload);
    gpu_failure = out.failure;
  }
  report.runs.resize(runs.size());
  std::vector<bool> received(runs.size(), false);
  Reader rd(payload);
  while (!rd.done()) {
    uint64_t index = 0, ok = 0;
    if (!rd.u64(index) || !rd.u64(ok) || index >= runs.size()) break;
    received[index] = true;
    if (!ok) {
      rd.str(errors[index]);
      continue;
    }
    for (tl::Buffer* out : runs[index].gpu_buffers.outputs()) {
      std::string bytes;
      rd.str(bytes);
      std::memcpy(out->data(), bytes.data(), std::min(bytes.size(), out->size_bytes()));
    }
    uint64_t n_changed = 0;
    rd.u64(n_changed);
    std::vector<std::string>& changed = report.runs[index].gpu_modified_inputs;
    changed.resize(n_changed);
    for (std::string& c : changed) rd.str(c);
  }

  // The interpreter on the same inputs, and the three comparisons.
  report.all_match = report.all_spec_pass = !runs.empty();
  for (size_t i = 0; i < runs.size(); ++i) {
    PlannedRun& run = runs[i];
    GpuRun& r = report.runs[i];
    r.set = run.set->name;
    r.sizes = sizes_of(*run.set);
    r.seed = run.seed;
    r.error = errors[i];
    if (r.error.empty() && !received[i])
      r.error = "not run on the GPU: " + (gpu_failure.empty() ? std::string("the GPU context was lost at an earlier fault") : gpu_failure);
    if (r.error.empty()) {
      try {
        puzzles::RunBuffers ib = puzzles::make_buffers(p, *run.set, run.seed);
        const std::vector<double> ref = puzzles::reference_output(p, *run.set, ib);
        r.caveat = undefined_result_caveat(
            tl::run(kernel, puzzles::grid_for(*run.set), puzzles::launch_args(*run.set, ib)).findings);
        r.spec_err_interp = puzzles::compare_output(p, *run.set, ib.output, ref, 0).err;
        r.spec_err_gpu = puzzles::compare_output(p, *run.set, run.gpu_buffers.output, ref, 0).err;
        r.interp_vs_gpu = diff_buffers(ib.output, run.gpu_buffers.output, report.tolerance);
        r.matches = r.interp_vs_gpu.pass && r.gpu_modified_inputs.empty();
        r.spec_pass = r.spec_err_gpu <= p.tolerance;
        if (!p.extra_outputs.empty()) {
          const std::vector<std::vector<double>> extra_refs = p.extra_reference(*run.set, ib.inputs);
          for (size_t e = 0; e < p.extra_outputs.size(); ++e) {
            const puzzles::TensorDecl& decl = p.extra_outputs[e];
            GpuExtraOutput x;
            x.name = decl.name;
            x.threshold = puzzles::tolerance_of(p, decl);
            const tl::Buffer& interp_out = ib.extra_outputs[e];
            const tl::Buffer& gpu_out = run.gpu_buffers.extra_outputs[e];
            x.spec_err_interp = puzzles::compare_tensor(p, decl, x.threshold, *run.set, interp_out, extra_refs[e], 0).err;
            x.spec_err_gpu = puzzles::compare_tensor(p, decl, x.threshold, *run.set, gpu_out, extra_refs[e], 0).err;
            x.interp_vs_gpu = diff_buffers(interp_out, gpu_out, report.tolerance);
            r.matches &= x.interp_vs_gpu.pass;
            r.spec_pass &= x.spec_err_gpu <= x.threshold;
            r.extra_outputs.push_back(std::move(x));
          }
        }
      } catch (const std::exception& e) {
        r.error = std::string("interpreter: ") + e.what();
      }
    }
    report.all_match &= r.matches;
    report.all_spec_pass &= r.spec_pass;
  }
  return report;
}

std::string format_gpu_report(const GpuPuzzleReport& r) {
  std::ostringstream out;
  out << (r.number == 0 ? "  " : r.number < 10 ? " " : "") << (r.number > 0 ? std::to_string(r.number) : "") << " " << r.id << "  GPU " << (r.all_match ? "matches" : "DIFFERS from")
      << " the interpreter (tolerance " << r.tolerance.str() << "); spec "
      << (r.all_spec_pass ? "pass" : "FAIL") << " (threshold " << fmt(r.threshold) << ")";
  if (!r.cuda_kernel.empty()) out << "  [" << r.cuda_kernel << "]";
  out << "\n";
  char line[512];
  std::snprintf(line, sizeof line, "     %-10s %-44s %12s %12s %14s\n", "set", "sizes | blocks", "spec~interp",
                "spec~GPU", "interp~GPU");
  out << line;
  const GpuRun* first_bad = nullptr;
  for (size_t i = 0; i < r.runs.size();) {
    // One line per set: the worst of its seeds.
    size_t j = i;
    double e_i = 0, e_g = 0, e_ig = 0;
    bool ok = true, err = false;
    for (; j < r.runs.size() && r.runs[j].set == r.runs[i].set; ++j) {
      const GpuRun& x = r.runs[j];
      e_i = std::max(e_i, x.spec_err_interp);
      e_g = std::max(e_g, x.spec_err_gpu);
      e_ig = std::max(e_ig, x.interp_vs_gpu.relative);
      ok &= x.matches && x.spec_pass;
      err |= !x.error.empty();
      if (!(x.matches && x.spec_pass) && !first_bad) first_bad = &x;
    }
    std::string verdict = err ? "ERROR" : ok ? "ok" : "FAIL";
    std::snprintf(line, sizeof line, "     %-10s %-44s %12s %12s %14s  %s\n", r.runs[i].set.c_str(),
                  r.runs[i].sizes.c_str(), err ? "-" : fmt(e_i).c_str(), err ? "-" : fmt(e_g).c_str(),
                  err ? "-" : fmt(e_ig).c_str(), verdict.c_str());
    out << line;
    i = j;
  }
  if (first_bad) {
    out << "     first failing run: set " << first_bad->set << ", seed " << first_bad->seed << ": ";
    if (!first_bad->error.empty()) out << first_bad->error;
    else if (!first_bad->gpu_modified_inputs.empty()) out << "the GPU launch modified input " << first_bad->gpu_modified_inputs[0];
    else if (!first_bad->interp_vs_gpu.pass) out << "interpreter vs GPU: " << first_bad->interp_vs_gpu.str();
    else if (first_bad->spec_err_gpu > r.threshold)
      out << "GPU output vs reference: err " << fmt(first_bad->spec_err_gpu) << " > " << fmt(r.threshold);
    out << "\n";
    for (const GpuExtraOutput& x : first_bad->extra_outputs)
      out << "     output " << x.name << ": spec~interp " << fmt(x.spec_err_interp) << ", spec~GPU "
          << fmt(x.spec_err_gpu) << " (threshold " << fmt(x.threshold) << "), interp~GPU " << x.interp_vs_gpu.str()
          << "\n";
    if (!first_bad->caveat.empty()) out << "     note: " << first_bad->caveat << "\n";
  }
  return out.str();
}

std::string gpu_report_json(const GpuPuzzleReport& r) {
  // Non-finite errors (a never-written output gives inf) become null.
  auto num = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); };
  nlohmann::json runs = nlohmann::json::array();
  for (const GpuRun& x : r.runs) {
    nlohmann::json run = {{"set", x.set},
                          {"sizes", x.sizes},
                          {"seed", x.seed},
                          {"matches", x.matches},
                          {"spec_pass", x.spec_pass}};
    if (!x.error.empty()) {
      run["error"] = x.error;
    } else {
      run["spec_err_interp"] = num(x.spec_err_interp);
      run["spec_err_gpu"] = num(x.spec_err_gpu);
      run["interp_vs_gpu"] = {{"relative", num(x.interp_vs_gpu.relative)},
                              {"max_abs", num(x.interp_vs_gpu.max_abs)},
                              {"mismatched", x.interp_vs_gpu.mismatched},
                              {"pass", x.interp_vs_gpu.pass}};
      run["gpu_modified_inputs"] = x.gpu_modified_inputs;
      nlohmann::json extras = nlohmann::json::array();
      for (const GpuExtraOutput& e : x.extra_outputs)
        extras.push_back({{"name", e.name},
                          {"spec_err_interp", num(e.spec_err_interp)},
                          {"spec_err_gpu", num(e.spec_err_gpu)},
                          {"threshold", e.threshold},
                          {"interp_vs_gpu", {{"relative", num(e.interp_vs_gpu.relative)},
                                             {"mismatched", e.interp_vs_gpu.mismatched},
                                             {"pass", e.interp_vs_gpu.pass}}}});
      if (!extras.empty()) run["extra_outputs"] = extras;
    }
    if (!x.caveat.empty()) run["caveat"] = x.caveat;
    runs.push_back(std::move(run));
  }
  nlohmann::json j = {{"number", r.number},
                      {"id", r.id},
                      {"kernel", r.kernel},
                      {"cuda_kernel", r.cuda_kernel},
                      {"threshold", r.threshold},
                      {"tolerance", r.tolerance.str()},
                      {"all_match", r.all_match},
                      {"all_spec_pass", r.all_spec_pass},
                      {"runs", runs}};
  return j.dump(2);
}

}  // namespace tl::gpu
