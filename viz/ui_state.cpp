#include "ui_state.h"

#include <algorithm>

#include "model_grid_image.h"
#include "model_reference.h"
#include "model_placement.h"
#include "model_program_map.h"

namespace viz {

const char* details_tab_name(DetailsTab t) {
  switch (t) {
    case DetailsTab::Puzzle: return "puzzle";
    case DetailsTab::Legend: return "legend";
    case DetailsTab::Dot: return "dot";
    case DetailsTab::Gpu: return "gpu";
  }
  return "?";
}

std::optional<DetailsTab> parse_details_tab(std::string_view s) {
  for (DetailsTab t : {DetailsTab::Puzzle, DetailsTab::Legend, DetailsTab::Dot, DetailsTab::Gpu})
    if (s == details_tab_name(t)) return t;
  return std::nullopt;
}

ViewerState::ViewerState(const ViewerDocument& d)
    : doc(&d), index(d.trace), cursor(index), source(load_source(*d.trace)) {
  const tl::Trace& t = *d.trace;
  for (size_t b = 0; b < t.buffers.size(); ++b) {
    TensorPane pane;
    pane.buffer = static_cast<int>(b);
    pane.layout = default_layout(t.buffers[b]);
    panes.push_back(std::move(pane));
  }
  coverage_.resize(t.buffers.size());
  ranges_.resize(t.buffers.size());
  conflicts_.resize(t.buffers.size());
  reference_diffs_.resize(t.buffers.size());
  if (!d.puzzle && !buffers_with_reference(t).empty()) {
    tab = DetailsTab::Puzzle;
    select_reference_buffer(buffers_with_reference(t).front());
  }
  if (d.puzzle) {
    tab = DetailsTab::Puzzle;
    tl::TraceBuffer out;
    out.shape = d.puzzle->diff.shape;
    out.strides.assign(out.shape.size(), 1);
    for (size_t k = out.shape.size(); k-- > 1;) out.strides[k - 1] = out.strides[k] * out.shape[k];
    out.extent = 1;
    for (int64_t n : out.shape) out.extent *= n;
    diff_layout = default_layout(out);
    for (size_t b = 0; b < t.buffers.size(); ++b)
      if (t.buffers[b].name == d.puzzle->output) legend_buffer = gpu_buffer = static_cast<int>(b);
  }
  on_cursor_moved();
}

void ViewerState::select_reference_buffer(int buffer) {
  if (buffer == reference_buffer) return;
  reference_buffer = buffer;
  diff_layout = default_layout(trace().buffers.at(static_cast<size_t>(buffer)));
  diff_view = CanvasView{};
  legend_buffer = gpu_buffer = buffer;
}

const OutputDiff& ViewerState::reference_diff_of(int buffer) {
  auto& slot = reference_diffs_.at(static_cast<size_t>(buffer));
  if (!slot) slot = std::make_unique<OutputDiff>(reference_output_diff(trace().buffers[buffer]));
  return *slot;
}

const BufferCoverage& ViewerState::coverage(int buffer) {
  auto& slot = coverage_.at(static_cast<size_t>(buffer));
  if (!slot) slot = std::make_unique<BufferCoverage>(compute_coverage(trace(), buffer, is_output(buffer)));
  return *slot;
}

const ValueRange& ViewerState::value_range_of(int buffer) {
  auto& slot = ranges_.at(static_cast<size_t>(buffer));
  if (!slot) {
    const tl::TraceBuffer& b = trace().buffers[buffer];
    std::vector<double> both(b.values_before);
    both.insert(both.end(), b.values_after.begin(), b.values_after.end());
    slot = value_range(both);
  }
  return *slot;
}

const BufferConflicts* ViewerState::conflicts(int buffer) {
  auto& slot = conflicts_.at(static_cast<size_t>(buffer));
  if (!slot) {
    // Coverage (a walk over the whole trace) only where the sanitizer found conflicts.
    slot = has_write_conflicts(trace(), buffer) ? compute_conflicts(trace(), buffer, coverage(buffer)) : BufferConflicts{};
  }
  return slot->empty() ? nullptr : &*slot;
}

bool ViewerState::is_output(int buffer) const {
  if (doc->puzzle) return trace().buffers[buffer].name == doc->puzzle->output;
  for (const tl::ProgramTrace& p : trace().programs)
    for (const tl::Event& e : p.events)
      if (e.buffer == buffer && (e.kind == tl::EventKind::Store || e.kind == tl::EventKind::Atomic)) return true;
  return false;
}

void ViewerState::on_cursor_moved() {
  scroll_timeline = scroll_source = scroll_map = true;
  for (TensorPane& pane : panes) {
    follow_event_slice(*this, pane);
    // A new selection is framed again, even after zooming by hand.
    if (frame_mode == FrameMode::Selection) pane.view.user_moved = false;
  }
  // The dot tab follows a dot event when nothing else was asked for.
  const tl::Event* e = cursor.current_event();
  if (e && e->kind == tl::EventKind::Dot && tab == DetailsTab::Legend && !screenshot_mode) {
    tab = DetailsTab::Dot;
    tab_requested = true;
  }
}

void ViewerState::toggle_frame_mode() {
  frame_mode = frame_mode == FrameMode::Selection ? FrameMode::Whole : FrameMode::Selection;
  for (TensorPane& pane : panes) pane.view.user_moved = false;
}

bool ViewerState::go_to_typed_program() {
  const ParsedPid p = parse_program_id(program_text, index.grid());
  program_error = p.error;
  if (!p.pid) return false;
  cursor.select(*p.pid);
  on_cursor_moved();
  return true;
}

void follow_event_slice(ViewerState& s, TensorPane& pane) {
  const tl::Event* e = s.cursor.current_event();
  if (!pane.follow_event || pane.layout.kind != LayoutKind::Matrix || pane.layout.slice_axes().empty() || !e ||
      e->buffer != pane.buffer)
    return;
  if (follow_slice(pane.layout, *e)) ++pane.layout_version;
}

const EventCells& pane_event_cells(ViewerState& s, TensorPane& pane) {
  const int program = s.cursor.program(), event = s.cursor.event();
  if (pane.cells_program == program && pane.cells_event == event && pane.cells_layout == pane.layout_version)
    return pane.cells;
  pane.cells = {};
  pane.shown_event = -1;
  if (program >= 0) {
    const auto& events = s.trace().programs[program].events;
    for (int k = event; k >= 0; --k)
      if (events[k].buffer == pane.buffer) {
        pane.shown_event = k;
        pane.cells = map_event(events[k], pane.layout);
        break;
      }
  }
  pane.cells_program = program;
  pane.cells_event = event;
  pane.cells_layout = pane.layout_version;
  return pane.cells;
}

const CellBounds& pane_program_bounds(ViewerState& s, TensorPane& pane) {
  const int program = s.cursor.program();
  if (pane.bounds_program == program && pane.bounds_layout == pane.layout_version) return pane.program_bounds;
  pane.program_bounds = {};
  if (program >= 0)
    for (const tl::Event& e : s.trace().programs[program].events)
      if (e.buffer == pane.buffer) pane.program_bounds.include(map_event(e, pane.layout).bounds);
  pane.bounds_program = program;
  pane.bounds_layout = pane.layout_version;
  return pane.program_bounds;
}

const std::vector<CellBounds>& pane_conflict_runs(ViewerState& s, TensorPane& pane) {
  if (pane.conflicts_layout == pane.layout_version) return pane.conflict_runs;
  const BufferConflicts* c = s.conflicts(pane.buffer);
  pane.conflict_runs = c ? conflict_runs(*c, pane.layout) : std::vector<CellBounds>{};
  pane.conflicts_layout = pane.layout_version;
  return pane.conflict_runs;
}

CachedImage& pane_image(ViewerState& s, TensorPane& pane) {
  const tl::TraceBuffer& b = s.trace().buffers[pane.buffer];
  const bool values = s.mode == ColorMode::Values;
  const std::string key = std::string(color_mode_name(s.mode)) + "/" +
                          (values ? value_source_name(s.value_source) : "") + "/" +
                          std::to_string(pane.layout_version) + "/" + std::to_string(pane.layout.wrap);
  if (pane.image.key == key && pane.image.texture.valid()) return pane.image;
  GridImage img;
  const int64_t max_side = max_texture_size();
  switch (s.mode) {
    case ColorMode::Access:
      img = build_grid_image(pane.layout, [](int64_t) { return palette::untouched; }, max_side);
      break;
    case ColorMode::Coverage: {
      const BufferCoverage& c = s.coverage(pane.buffer);
      img = build_grid_image(pane.layout, [&](int64_t o) { return coverage_color(c, o); }, max_side);
      break;
    }
    case ColorMode::Values: {
      const ValueRange& r = s.value_range_of(pane.buffer);
      const std::vector<double>& v = s.value_source == ValueSource::After ? b.values_after : b.values_before;
      // Behind a store's values, the buffer before the launch, dimmed.
      const double dim = s.value_source == ValueSource::Stored ? 0.55 : 0.0;
      img = build_grid_image(
          pane.layout,
          [&](int64_t o) {
            if (o < 0 || o >= static_cast<int64_t>(v.size())) return palette::untouched;
            return mix(value_color(v[o], r), palette::untouched, dim);
          },
          max_side);
      break;
    }
  }
  pane.image.texture.upload(img);
  pane.image.key = key;
  return pane.image;
}

Rgba event_cell_color(ViewerState& s, const TensorPane& pane, const EventCell& c) {
  if (pane.shown_event != s.cursor.event()) return mix(mark_color(c.mark), palette::untouched, 0.55);
  if (s.mode == ColorMode::Values && s.value_source == ValueSource::Stored && !is_hatched(c.mark) &&
      c.mark != CellMark::OutOfBounds) {
    const tl::Event* e = s.cursor.current_event();
    if (e && c.lane < static_cast<int64_t>(e->values.size()))
      return value_color(e->values[c.lane], s.value_range_of(pane.buffer));
  }
  return mark_color(c.mark);
}

}  // namespace viz
