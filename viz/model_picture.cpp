#include "model_picture.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "model_framing.h"
#include "model_placement.h"

namespace viz {

namespace {

std::string pid_text(const Pid& p) {
  return "(" + std::to_string(p[0]) + ", " + std::to_string(p[1]) + ", " + std::to_string(p[2]) + ")";
}

// The first finding's program and event, when there is one.
bool first_finding(const TraceIndex& index, int& program, int& event) {
  for (int p : index.programs_with_findings()) {
    const std::vector<int>& events = index.finding_events(p);
    if (events.empty()) continue;
    program = p;
    event = events.front();
    return true;
  }
  return false;
}

void resolve(const tl::Trace& t, const PictureOptions& o, Picture& pic) {
  pic.program = o.program;
  pic.event = o.event;
  if (t.programs.empty()) {
    if (o.program >= 0) throw std::out_of_range("the trace recorded no programs");
    pic.program = pic.event = -1;
    return;
  }
  if (pic.program < 0) {
    const TraceIndex index(std::shared_ptr<const tl::Trace>(&t, [](const tl::Trace*) {}));
    int p = -1, e = -1;
    if (first_finding(index, p, e)) {
      pic.program = p;
      if (pic.event < 0) pic.event = e;
    } else {
      pic.program = static_cast<int>(t.programs.size()) - 1;
    }
  }
  if (pic.program >= static_cast<int>(t.programs.size()))
    throw std::out_of_range("program index " + std::to_string(pic.program) + " is not in the trace (it recorded " +
                            std::to_string(t.programs.size()) + ")");
  const auto& events = t.programs[pic.program].events;
  if (pic.event < 0) pic.event = static_cast<int>(events.size()) - 1;
  if (pic.event >= static_cast<int>(events.size()))
    throw std::out_of_range("event index " + std::to_string(pic.event) + " is not in program " +
                            pid_text(t.programs[pic.program].pid) + " (it has " + std::to_string(events.size()) +
                            " events)");
  pic.pid = t.programs[pic.program].pid;
}

std::string event_line(const tl::Trace& t, const Picture& pic) {
  if (pic.program < 0) return "no program was recorded";
  std::string s = "program " + pid_text(pic.pid);
  if (pic.event < 0) return s + ", no events";
  const tl::Event& e = t.programs[pic.program].events[pic.event];
  s += ", event #" + std::to_string(pic.event) + " " + tl::event_kind_name(e.kind);
  if (e.loc >= 0 && e.loc < static_cast<int>(t.locations.size())) {
    const tl::SrcLoc& l = t.locations[e.loc];
    s += " at " + l.file + ":" + std::to_string(l.line);
  }
  return s;
}

void build_pane(const tl::Trace& t, const Picture& pic, const PictureOptions& o, PicturePane& pane) {
  const tl::TraceBuffer& b = t.buffers[pane.buffer];
  pane.layout = default_layout(b);
  pane.title = b.name + " " + std::string(tl::name(b.dtype)) + format_index(b.shape);
  const std::vector<tl::Event>* events = pic.program >= 0 ? &t.programs[pic.program].events : nullptr;
  if (events)
    for (int k = pic.event; k >= 0; --k)
      if ((*events)[k].buffer == pane.buffer) {
        pane.shown_event = k;
        break;
      }
  pane.current = pane.shown_event >= 0 && pane.shown_event == pic.event;
  const tl::Event* shown = pane.shown_event >= 0 ? &(*events)[pane.shown_event] : nullptr;
  // A rank >= 3 pane follows the chosen event, or with no dimming its own.
  if (shown && (pane.current || !o.dim_earlier)) follow_slice(pane.layout, *shown);
  if (!pane.layout.slice_axes().empty()) {  // rank >= 3: which 2-D slice is shown, "[3, :, :]"
    std::string at;
    for (int a = 0; a < pane.layout.rank(); ++a) {
      const bool shown_axis = a == pane.layout.row_axis || a == pane.layout.col_axis;
      at += (a ? ", " : "") + (shown_axis ? std::string(":") : std::to_string(pane.layout.slice[a]));
    }
    pane.title += ", slice [" + at + "]";
  }
  CellBounds program;
  if (events)
    for (const tl::Event& e : *events)
      if (e.buffer == pane.buffer) program.include(map_event(e, pane.layout).bounds);
  if (shown) {
    pane.cells = map_event(*shown, pane.layout);
    pane.summary = "#" + std::to_string(pane.shown_event) + " " + tl::event_kind_name(shown->kind) +
                   (pane.current || !o.dim_earlier ? "" : " (earlier)") + ": " + cells_summary(pane.cells);
  }
  pane.whole = pane.layout.tensor_bounds();
  pane.whole.include(program);
  pane.content = frame_bounds(FrameMode::Selection, shown ? pane.cells.bounds : program, pane.whole, o.width,
                              o.max_height, o.max_cell);
  pane.framed = pane.content != pane.whole;
  const float cell = fit_cell(pane.content, o.width, 1e9f, o.max_cell);
  const float height = std::clamp(static_cast<float>(pane.content.rows()) * cell + 8.0f, 40.0f, o.max_height);
  pane.geometry = fitted_geometry(pane.content, o.width, height, o.max_cell);
  // The viewer's canvas, less the empty strip right of a narrow tensor.
  const float used = static_cast<float>(pane.content.cols()) * pane.geometry.cell + 2 * kCanvasMargin;
  pane.width = static_cast<int>(std::ceil(std::min(o.width, used)));
  pane.height = static_cast<int>(height);
  pane.geometry.max_x = static_cast<float>(pane.width);

  CanvasContent in;
  in.layout = &pane.layout;
  in.cells = shown ? &pane.cells : nullptr;
  const bool dim = o.dim_earlier && !pane.current;
  in.cell_color = [dim](const EventCell& c) {
    return dim ? mix(mark_color(c.mark), palette::untouched, 0.55) : mark_color(c.mark);
  };
  if (!shown && pane.framed) in.highlights.push_back({program, rgba(255, 255, 255, 120)});
  pane.commands = canvas_commands(in, pane.geometry);
}

}  // namespace

std::string cells_summary(const EventCells& cells) {
  std::string out;
  for (CellMark m : {CellMark::Loaded, CellMark::Stored, CellMark::Atomic, CellMark::Masked,
                     CellMark::MaskedOutOfBounds, CellMark::OutOfBounds}) {
    const int64_t n = cells.count(m);
    if (n) out += (out.empty() ? "" : ", ") + std::to_string(n) + " " + cell_mark_name(m);
  }
  return out;
}

Picture build_picture(const tl::Trace& trace, const PictureOptions& options) {
  Picture pic;
  resolve(trace, options, pic);
  pic.event_line = event_line(trace, pic);
  std::vector<int> buffers = options.buffers;
  if (buffers.empty())
    for (int b = 0; b < static_cast<int>(trace.buffers.size()); ++b) buffers.push_back(b);
  for (int b : buffers) {
    if (b < 0 || b >= static_cast<int>(trace.buffers.size()))
      throw std::out_of_range("buffer index " + std::to_string(b) + " is not in the trace (it has " +
                              std::to_string(trace.buffers.size()) + " buffers)");
    PicturePane pane;
    pane.buffer = b;
    build_pane(trace, pic, options, pane);
    pic.panes.push_back(std::move(pane));
  }
  return pic;
}

}  // namespace viz
