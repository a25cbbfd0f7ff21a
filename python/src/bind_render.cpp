// Pictures of a launch's trace for notebooks: the viewer's panes
// (viz/model_picture.h) rendered on the CPU to PNG, the trace's programs
// and events for a table, and a traced run of a puzzle kernel. Python
// composes these into HTML; nothing here decides what a picture shows.
#include <pybind11/stl.h>

#include <memory>
#include <stdexcept>

#include "convert.h"
#include "findings.h"
#include "harness.h"
#include "model_picture.h"
#include "model_trace_index.h"
#include "registry.h"
#include "render_raster.h"
#include "report_text.h"
#include "tilescope/tilescope.h"
#include "trace.h"

namespace tilescope_py {

namespace {

// A recorded trace, shared with whatever produced it.
struct TraceHandle {
  std::shared_ptr<const tl::Trace> trace;
  std::shared_ptr<viz::TraceIndex> index;

  explicit TraceHandle(std::shared_ptr<const tl::Trace> t)
      : trace(std::move(t)), index(std::make_shared<viz::TraceIndex>(trace)) {}
};

py::tuple pid_tuple(const std::array<int64_t, 3>& p) { return py::make_tuple(p[0], p[1], p[2]); }

py::dict event_dict(const TraceHandle& h, int program, int k) {
  const tl::Trace& t = *h.trace;
  const tl::Event& e = t.programs[program].events[k];
  py::dict d;
  d["index"] = k;
  d["kind"] = tl::event_kind_name(e.kind);
  d["buffer"] = e.buffer >= 0 && e.buffer < static_cast<int>(t.buffers.size()) ? py::cast(t.buffers[e.buffer].name)
                                                                               : py::none();
  if (e.loc >= 0 && e.loc < static_cast<int>(t.locations.size())) {
    d["file"] = t.locations[e.loc].file;
    d["line"] = t.locations[e.loc].line;
  }
  d["lanes"] = e.lanes.size();
  d["masked"] = viz::TraceIndex::masked_lanes(e);
  d["out_of_bounds"] = viz::TraceIndex::oob_lanes(e);
  d["finding"] = h.index->is_finding_event(program, k);
  return d;
}

py::dict picture_dict(const TraceHandle& h, const viz::PictureOptions& o) {
  viz::Picture pic;
  std::vector<std::string> pngs;
  std::string stacked;
  {
    py::gil_scoped_release release;
    pic = viz::build_picture(*h.trace, o);
    for (const viz::PicturePane& p : pic.panes) pngs.push_back(viz::encode_png(viz::render_pane(p)));
  }
  py::dict d;
  d["program"] = pic.program;
  d["event"] = pic.event;
  d["pid"] = pid_tuple(pic.pid);
  d["event_line"] = pic.event_line;
  py::list panes;
  for (size_t i = 0; i < pic.panes.size(); ++i) {
    const viz::PicturePane& p = pic.panes[i];
    py::dict x;
    x["buffer"] = p.buffer;
    x["title"] = p.title;
    x["summary"] = p.summary;
    x["current"] = p.current;
    x["framed"] = p.framed;
    x["content"] = py::make_tuple(p.content.row0, p.content.col0, p.content.row1, p.content.col1);
    x["whole"] = py::make_tuple(p.whole.row0, p.whole.col0, p.whole.row1, p.whole.col1);
    x["cell"] = p.geometry.cell;
    x["width"] = p.width;
    x["height"] = p.height;
    py::dict counts;
    for (viz::CellMark m : {viz::CellMark::Loaded, viz::CellMark::Stored, viz::CellMark::Atomic, viz::CellMark::Masked,
                            viz::CellMark::MaskedOutOfBounds, viz::CellMark::OutOfBounds})
      counts[viz::cell_mark_name(m)] = p.cells.count(m);
    x["counts"] = counts;
    x["png"] = py::bytes(pngs[i]);
    panes.append(x);
  }
  d["panes"] = panes;
  return d;
}

void bind_trace(py::module_& m) {
  py::class_<TraceHandle, std::shared_ptr<TraceHandle>>(m, "Trace")
      .def_property_readonly("kernel", [](const TraceHandle& h) { return h.trace->kernel; })
      .def_property_readonly("grid", [](const TraceHandle& h) { return pid_tuple(h.trace->grid); })
      .def_property_readonly("truncated", [](const TraceHandle& h) { return h.trace->truncated; })
      .def_property_readonly("buffers", [](const TraceHandle& h) {
        std::vector<std::string> names;
        for (const tl::TraceBuffer& b : h.trace->buffers) names.push_back(b.name);
        return names;
      })
      .def_property_readonly("programs", [](const TraceHandle& h) {
        py::list out;
        for (const tl::ProgramTrace& p : h.trace->programs) out.append(pid_tuple(p.pid));
        return out;
      })
      .def("events", [](const TraceHandle& h, int program) {
        if (program < 0 || program >= static_cast<int>(h.trace->programs.size()))
          throw py::index_error("no program " + std::to_string(program) + " in the trace");
        py::list out;
        for (size_t k = 0; k < h.trace->programs[program].events.size(); ++k)
          out.append(event_dict(h, program, static_cast<int>(k)));
        return out;
      })
      // The first finding's (program, event), or None.
      .def("first_finding", [](const TraceHandle& h) -> py::object {
        for (int p : h.index->programs_with_findings())
          if (!h.index->finding_events(p).empty()) return py::make_tuple(p, h.index->finding_events(p).front());
        return py::none();
      })
      .def("program_at", [](const TraceHandle& h, std::array<int64_t, 3> pid) { return h.index->program_at(pid); });
}

viz::PictureOptions picture_options(int program, int event, std::vector<int> buffers, float width, float max_height,
                                    bool dim_earlier) {
  viz::PictureOptions o;
  o.program = program;
  o.event = event;
  o.buffers = std::move(buffers);
  o.width = width;
  o.max_height = max_height;
  o.dim_earlier = dim_earlier;
  return o;
}

}  // namespace

void bind_render(py::module_& m) {
  bind_trace(m);
  m.def("trace_of", [](const tilescope::Result& r) -> py::object {
    if (!r.trace) return py::none();
    return py::cast(std::make_shared<TraceHandle>(r.trace));
  });
  m.def("picture", [](const TraceHandle& h, int program, int event, std::vector<int> buffers, float width,
                      float max_height, bool dim_earlier) {
    const viz::PictureOptions o = picture_options(program, event, std::move(buffers), width, max_height, dim_earlier);
    try {
      return picture_dict(h, o);
    } catch (const std::out_of_range& e) {
      throw py::index_error(e.what());
    }
  }, py::arg("trace"), py::arg("program") = -1, py::arg("event") = -1, py::arg("buffers") = std::vector<int>{},
     py::arg("width") = 480.0f, py::arg("max_height") = 360.0f, py::arg("dim_earlier") = true);
  // Every pane stacked in one PNG (what a notebook shows for image/png).
  m.def("picture_png", [](const TraceHandle& h, int program, int event, std::vector<int> buffers, float width,
                          float max_height, bool dim_earlier) {
    const viz::PictureOptions o = picture_options(program, event, std::move(buffers), width, max_height, dim_earlier);
    std::string png;
    try {
      py::gil_scoped_release release;
      png = viz::encode_png(viz::render_picture(viz::build_picture(*h.trace, o)));
    } catch (const std::out_of_range& e) {
      throw py::index_error(e.what());
    }
    return py::bytes(png);
  });
  // One traced run of `kernel` on a puzzle's (set, seed): (passed, report
  // text, Trace or None when it did not build).
  m.def("traced_puzzle_run", [](const std::string& key, std::shared_ptr<tl::KernelDef> kernel, const std::string& set,
                                uint32_t seed) {
    const auto [p, s] = puzzle_and_set(key, set);
    puzzles::RunReport r;
    {
      py::gil_scoped_release release;
      r = puzzles::run_kernel(*p, *kernel, *s, seed, puzzles::TraceRequest::full_trace());
    }
    py::object trace = r.trace ? py::cast(std::make_shared<TraceHandle>(r.trace)) : py::none();
    return py::make_tuple(r.passed(), puzzles::format_run(r), trace);
  });
}

}  // namespace tilescope_py
