// Kernels built by the Python visitor, their launch through the public API
// (tilescope::launch: the same checks, interpreter, sanitizer and GPU
// compare as a C++ program gets), results, traces, and the puzzle checker.
#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include <memory>

#include "convert.h"
#include "error.h"
#include "findings.h"
#include "harness.h"
#include "registry.h"
#include "report_json.h"
#include "report_text.h"
#include "tilescope/tilescope.h"
#include "trace.h"
#include "broken/registry.h"
#ifdef TILESCOPE_HAVE_GPU
#include "codegen.h"
#endif

namespace tilescope_py {

namespace {

// The Python exception a build error travels as between C++ and the
// visitor: args (file, line, col, message).
PyObject* g_build_error = nullptr;

[[noreturn]] void rethrow_as_build_error(py::error_already_set& e) {
  if (e.matches(g_build_error)) {
    py::tuple args = e.value().attr("args");
    tl::SrcLoc loc{args[0].cast<std::string>(), args[1].cast<uint32_t>(), args[2].cast<uint32_t>()};
    throw tl::BuildError(std::move(loc), args[3].cast<std::string>());
  }
  if (e.matches(PyExc_KeyboardInterrupt)) throw;
  // A bug of the front end itself, not of the kernel: say so, at the line
  // being built, with Python's own words.
  throw tl::BuildError(current_loc(), std::string("internal error in tilescope's Python front end: ") + e.what());
}


tl::ir::ParamKind to_kind(const std::string& kind) {
  if (kind == "pointer") return tl::ir::ParamKind::Pointer;
  if (kind == "scalar") return tl::ir::ParamKind::Scalar;
  return tl::ir::ParamKind::Constant;
}

const char* kind_str(tl::ir::ParamKind k) {
  switch (k) {
    case tl::ir::ParamKind::Pointer: return "pointer";
    case tl::ir::ParamKind::Scalar: return "scalar";
    case tl::ir::ParamKind::Constant: return "constant";
  }
  return "constant";
}

using ParamDecl = std::tuple<std::string, std::string, std::string>;  // name, kind, dtype

std::shared_ptr<tl::KernelDef> make_kernel_def(std::string name, const std::vector<ParamDecl>& params,
                                               std::string file, uint32_t line, py::function build) {
  std::vector<tl::ParamSpec> specs;
  std::vector<std::string> names;
  for (const auto& [pname, kind, dtype] : params) {
    specs.push_back({to_kind(kind), to_dtype(py::str(dtype))});
    names.push_back(pname);
  }
  // The callback is called while the IR is built, perhaps from a thread
  // that does not hold the GIL; it is released with the GIL held.
  auto holder = std::shared_ptr<py::function>(new py::function(std::move(build)), [](py::function* f) {
    py::gil_scoped_acquire gil;
    delete f;
  });
  auto fn = [holder](const std::vector<int>& regs, const std::vector<int64_t>& consts) {
    py::gil_scoped_acquire gil;
    try {
      (*holder)(regs, consts);
    } catch (py::error_already_set& e) {
      rethrow_as_build_error(e);
    }
  };
  return std::make_shared<tl::KernelDef>(std::move(name), std::move(specs), std::move(names),
                                         tl::SrcLoc{std::move(file), line, 1}, std::move(fn));
}

py::dict finding_dict(const tl::Finding& f, const tl::FindingContext& c) {
  py::dict d;
  d["kind"] = tl::finding_kind_name(f.kind);
  d["severity"] = tl::finding_severity(f.kind);
  d["message"] = f.message;
  d["lanes"] = f.lanes;
  d["programs"] = f.programs;
  if (f.loc >= 0 && c.locations && f.loc < static_cast<int>(c.locations->size())) {
    const tl::SrcLoc& l = (*c.locations)[f.loc];
    d["file"] = l.file;
    d["line"] = l.line;
    d["col"] = l.col;
  }
  if (f.buffer >= 0 && c.buffers && f.buffer < static_cast<int>(c.buffers->size()))
    d["buffer"] = (*c.buffers)[f.buffer].name;
  py::list examples;
  for (const tl::FindingExample& e : f.examples) {
    py::dict x;
    x["pid"] = py::make_tuple(e.pid[0], e.pid[1], e.pid[2]);
    x["lane"] = e.lane;
    x["lane_index"] = e.lane_index;
    x["offset"] = e.offset;
    x["other_pid"] = py::make_tuple(e.other_pid[0], e.other_pid[1], e.other_pid[2]);
    if (!e.detail.empty()) x["detail"] = e.detail;  // value findings: the lane's operands and result
    examples.append(x);
  }
  d["examples"] = examples;
  d["text"] = tl::format_finding(f, c);
  return d;
}

py::list findings_list(const std::vector<tl::Finding>& fs, const tl::FindingContext& c) {
  py::list out;
  for (const tl::Finding& f : fs) out.append(finding_dict(f, c));
  return out;
}

// The specialization a dump asks for: pointer dtypes and constant values,
// in parameter order.
tl::Specialization specialization_of(const std::vector<std::string>& dtypes, const std::vector<int64_t>& consts) {
  tl::Specialization s;
  for (const std::string& d : dtypes) s.dtypes.push_back(to_dtype(py::str(d)));
  s.constants = consts;
  return s;
}

tl::Grid to_grid(const std::vector<int64_t>& g) {
  tl::Grid grid;
  if (g.size() > 0) grid.x = g[0];
  if (g.size() > 1) grid.y = g[1];
  if (g.size() > 2) grid.z = g[2];
  return grid;
}

}  // namespace

void bind_launch(py::module_& m) {
  g_build_error = PyErr_NewException("_tilescope.BuildError", PyExc_Exception, nullptr);
  m.add_object("BuildError", py::handle(g_build_error));
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const tl::BuildError& e) {
      py::tuple args = py::make_tuple(e.loc().file, e.loc().line, e.loc().col, e.message());
      PyErr_SetObject(g_build_error, args.ptr());
    }
  });
  m.def("format_diagnostic", [](std::string file, uint32_t line, uint32_t col, const std::string& severity,
                                const std::string& message) {
    return tl::format_diagnostic(tl::SrcLoc{std::move(file), line, col}, severity, message);
  });

  py::class_<tl::KernelDef, std::shared_ptr<tl::KernelDef>>(m, "KernelDef")
      .def(py::init(&make_kernel_def), py::arg("name"), py::arg("params"), py::arg("file"), py::arg("line"),
           py::arg("build"))
      .def_property_readonly("name", &tl::KernelDef::name)
      // The IR's readable dump for one specialization (pointer dtypes and
      // constant values, in parameter order).
      .def("ir", [](const tl::KernelDef& k, const std::vector<std::string>& dtypes, const std::vector<int64_t>& consts,
                    bool locations) {
        const tl::Specialization s = specialization_of(dtypes, consts);
        py::gil_scoped_release release;
        return tl::ir::print(*k.specialize(s), locations);
      })
      // The CUDA C++ the GPU backend makes of it ("" without the backend).
      .def("cuda", [](const tl::KernelDef& k, const std::vector<std::string>& dtypes, const std::vector<int64_t>& consts) {
        const tl::Specialization s = specialization_of(dtypes, consts);
        py::gil_scoped_release release;
#ifdef TILESCOPE_HAVE_GPU
        return tl::gpu::lower_to_cuda(*k.specialize(s));
#else
        (void)k.specialize(s);
        return std::string();
#endif
      });

  py::class_<tl::Buffer>(m, "Buffer")
      .def_property_readonly("name", &tl::Buffer::name)
      .def_property_readonly("dtype", [](const tl::Buffer& b) { return std::string(tl::name(b.dtype())); })
      .def_property_readonly("shape", &tl::Buffer::shape)
      .def_property_readonly("strides", &tl::Buffer::strides);
  // Memory the caller owns (a numpy array's or a torch tensor's data), not
  // copied: results land in it. Strides in elements.
  m.def("wrap", [](std::string name, py::handle dtype, uintptr_t data, std::vector<int64_t> shape,
                   std::vector<int64_t> strides) {
    return tl::Buffer::wrap(std::move(name), to_dtype(dtype), reinterpret_cast<void*>(data), std::move(shape),
                            std::move(strides));
  });

  py::class_<tilescope::Result, std::shared_ptr<tilescope::Result>>(m, "Result")
      .def_readonly("error", &tilescope::Result::error)
      .def_readonly("findings_text", &tilescope::Result::findings_text)
      .def_readonly("printed", &tilescope::Result::printed)
      .def_readonly("stopped", &tilescope::Result::stopped)
      .def("ok", &tilescope::Result::ok)
      .def("report", &tilescope::Result::report)
      .def_property_readonly("traced", [](const tilescope::Result& r) { return r.trace != nullptr; })
      .def_property_readonly("findings", [](const tilescope::Result& r) {
        return findings_list(r.findings, tl::context_of(r.run));
      })
      .def_property_readonly("gpu", [](const tilescope::Result& r) -> py::object {
        if (!r.gpu) return py::none();
        py::dict d;
        d["ran"] = r.gpu->ran;
        d["error"] = r.gpu->error;
        d["device"] = r.gpu->device;
        d["matches"] = r.gpu->matches;
        d["median_ms"] = r.gpu->median_ms;
        py::list buffers;
        for (const auto& b : r.gpu->buffers) buffers.append(py::make_tuple(b.name, b.pass, b.summary));
        d["buffers"] = buffers;
        py::dict outputs;  // name -> the buffer's bytes after the GPU's launch
        for (const auto& b : r.gpu->outputs)
          outputs[py::str(b.name)] = py::bytes(reinterpret_cast<const char*>(b.bytes.data()), b.bytes.size());
        d["outputs"] = outputs;
        return d;
      });

  m.def("launch", [](std::shared_ptr<tl::KernelDef> def, const std::vector<std::string>& names,
                     const std::vector<int64_t>& grid, py::list args, const py::dict& options, std::string file,
                     uint32_t line) {
    std::vector<tilescope::Param> params(names.begin(), names.end());
    tilescope::Kernel kernel(std::move(def), std::move(params));
    std::vector<tl::Arg> launch_args;
    for (py::handle a : args) {
      if (py::isinstance<tl::Buffer>(a)) launch_args.emplace_back(a.cast<tl::Buffer&>());
      else if (py::isinstance<py::bool_>(a) || py::isinstance<py::int_>(a)) launch_args.emplace_back(a.cast<int64_t>());
      else launch_args.emplace_back(a.cast<double>());
    }
    tilescope::Options o;
    const std::string trace = options.contains("trace") ? options["trace"].cast<std::string>() : "off";
    o.trace = trace == "full" ? tilescope::Tracing::Full : trace == "filtered" ? tilescope::Tracing::Filtered
                                                                              : tilescope::Tracing::Off;
    if (options.contains("trace_programs"))
      o.trace_programs = options["trace_programs"].cast<std::vector<tilescope::Program>>();
    if (options.contains("strict")) o.strict = options["strict"].cast<bool>();
    if (options.contains("threads")) o.threads = options["threads"].cast<int>();
    if (options.contains("gpu_compare")) o.gpu_compare = options["gpu_compare"].cast<bool>();
    if (options.contains("gpu_time")) o.gpu_time = options["gpu_time"].cast<bool>();
    auto result = std::make_shared<tilescope::Result>();
    {
      // The launch line named by launch errors is the Python call's.
      tl::detail::LocOverride at(tl::SrcLoc{std::move(file), line, 1});
      py::gil_scoped_release release;
      *result = tilescope::launch(kernel, to_grid(grid), launch_args, o);
    }
    return result;
  });

  m.def("save_trace", [](const tilescope::Result& r, const std::string& path) {
    tilescope::Status s = tilescope::save_trace(r, path);
    return py::make_tuple(s.ok, s.message);
  });
  m.def("view", [](const tilescope::Result& r, const std::string& executable, const std::string& screenshot) {
    tilescope::ViewOptions v;
    v.executable = executable;
    v.screenshot = screenshot;
    py::gil_scoped_release release;
    tilescope::Status s = tilescope::view(r, v);
    return py::make_tuple(s.ok, s.message);
  });

  // ---- The puzzle checker, for kernels written in Python ----------------
  // The puzzle's parameters (name, kind, dtype), in its kernels' order.
  m.def("puzzle_params", [](const std::string& key) -> py::object {
    const puzzles::Puzzle* p = puzzles::find_puzzle(key);
    if (!p) return py::none();
    py::list out;
    const auto& specs = p->solution->params();
    const auto& names = p->solution->param_names();
    for (size_t i = 0; i < specs.size(); ++i)
      out.append(py::make_tuple(i < names.size() ? names[i] : "arg" + std::to_string(i), kind_str(specs[i].kind),
                                std::string(tl::name(specs[i].dtype))));
    return out;
  });
  m.def("puzzle_sets", [](const std::string& key) {
    std::vector<std::string> names;
    if (const puzzles::Puzzle* p = puzzles::find_puzzle(key))
      for (const auto& s : p->sets) names.push_back(s.name);
    return names;
  });
  // Runs the checker on `kernel` (built with the puzzle's parameters):
  // every set (or those named) and seed; returns (pass, text or JSON).
  m.def("check_puzzle", [](const std::string& key, std::shared_ptr<tl::KernelDef> kernel,
                           std::vector<uint32_t> seeds, std::vector<std::string> sets, bool json) {
    const puzzles::Puzzle* p = puzzles::find_puzzle(key);
    if (!p) throw py::value_error("no puzzle or example named '" + key + "'");
    puzzles::CheckOptions opt;
    if (!seeds.empty()) opt.seeds = std::move(seeds);
    opt.sets = std::move(sets);
    puzzles::PuzzleReport r;
    {
      py::gil_scoped_release release;
      r = puzzles::check_kernel(*p, *kernel, opt);
    }
    return py::make_tuple(r.pass, json ? puzzles::report_to_json(r) : puzzles::format_report(r));
  });
  // One run of `kernel` on a puzzle's (set, seed): its findings and status,
  // to compare a Python kernel's findings with a C++ kernel's.
  m.def("run_puzzle", [](const std::string& key, std::shared_ptr<tl::KernelDef> kernel, const std::string& set,
                         uint32_t seed) {
    const auto [p, s] = puzzle_and_set(key, set);
    puzzles::RunReport r;
    {
      py::gil_scoped_release release;
      r = puzzles::run_kernel(*p, *kernel, *s, seed);
    }
    tl::FindingContext c{r.kernel_name, &r.finding_locations, &r.finding_buffers};
    py::dict d;
    d["passed"] = r.passed();
    d["error"] = r.error;
    d["findings"] = findings_list(r.findings, c);
    d["text"] = puzzles::format_run(r);
    return d;
  });
  // The C++ broken kernels: (name, puzzle id, set) of each, and one run of
  // one of them on its puzzle, for comparison with a Python twin.
  m.def("broken_kernels", [] {
    py::list out;
    for (const puzzles::BrokenKernel& b : puzzles::all_broken())
      out.append(py::make_tuple(b.name, b.puzzle_id, b.set));
    return out;
  });
  // A puzzle's or example's own C++ solution, to run beside a Python twin.
  m.def("solution_kernel_def", [](const std::string& key) -> py::object {
    const puzzles::Puzzle* p = puzzles::find_puzzle(key);
    if (!p) return py::none();
    return borrowed(p->solution);
  });
  m.def("broken_kernel_def", [](const std::string& name) -> py::object {
    const puzzles::BrokenKernel* b = puzzles::find_broken(name);
    if (!b) return py::none();
    return borrowed(b->kernel);
  });
}

}  // namespace tilescope_py
