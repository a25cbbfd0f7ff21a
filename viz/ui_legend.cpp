// The legend tab: what each color means in the current mode, and for the
// values mode a color bar and a histogram of the chosen buffer.
#include <algorithm>
#include <span>
#include <string>
#include <vector>

#include "ui_windows.h"

namespace viz {

namespace {

void mode_selector(ViewerState& s) {
  for (ColorMode m : kColorModes) {
    if (ImGui::RadioButton(color_mode_name(m), s.mode == m)) s.mode = m;
    ImGui::SameLine();
  }
  ImGui::NewLine();
  if (s.mode != ColorMode::Values) return;
  ImGui::TextDisabled("values:");
  for (ValueSource v : kValueSources) {
    ImGui::SameLine();
    if (ImGui::RadioButton(value_source_name(v), s.value_source == v)) s.value_source = v;
  }
}

void access_legend() {
  color_swatch(palette::loaded, "loaded by the current event");
  color_swatch(palette::stored, "stored by the current event");
  color_swatch(palette::atomic, "atomic update");
  color_swatch(palette::masked, "masked lane (hatched): mask false, nothing touched");
  color_swatch(palette::out_of_bounds, "OUT OF BOUNDS: mask true, address outside the buffer");
  color_swatch(palette::untouched, "element not touched by this event");
  color_swatch(palette::beyond_tensor, "outside the tensor (lanes past the edge are drawn here)");
  color_swatch(palette::conflict, "outline: write conflict, two programs stored it (hover: which)");
  ImGui::TextWrapped("Masked and out-of-bounds lanes are drawn where the kernel meant them to be: "
                     "past the right edge for columns >= N, below the last row for rows past the end.");
}

void coverage_legend(ViewerState& s) {
  color_swatch(palette::never_written, "output element no program stored");
  color_swatch(palette::written_once, "stored by exactly one program");
  color_swatch(palette::overlap, "stored by two or more programs (a race without atomics)");
  color_swatch(palette::atomic, "updated atomically");
  color_swatch(palette::conflict, "outline: write conflict named by the findings (hover: which programs)");
  for (uint32_t k : {1u, 2u, 4u, 8u}) {
    const std::string label = "input read by " + std::to_string(k) + (k == 8 ? "+" : "") + " program" + (k == 1 ? "" : "s");
    color_swatch(read_count_color(k), label.c_str());
  }
  ImGui::Separator();
  for (size_t b = 0; b < s.trace().buffers.size(); ++b) {
    const BufferCoverage& c = s.coverage(static_cast<int>(b));
    const std::string& name = s.trace().buffers[b].name;
    if (c.written)
      ImGui::Text("%s: %lld never written, %lld stored by several programs", name.c_str(),
                  static_cast<long long>(c.never_written()), static_cast<long long>(c.overlapping()));
    else
      ImGui::Text("%s: read only", name.c_str());
  }
}

void color_bar(const ValueRange& r) {
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float w = ImGui::GetContentRegionAvail().x, h = 14;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  constexpr int kSteps = 64;
  for (int i = 0; i < kSteps; ++i) {
    const float x0 = p.x + w * static_cast<float>(i) / kSteps, x1 = p.x + w * static_cast<float>(i + 1) / kSteps;
    dl->AddRectFilled(ImVec2(x0, p.y), ImVec2(x1, p.y + h), heat_color((i + 0.5) / kSteps));
  }
  ImGui::Dummy(ImVec2(w, h));
  ImGui::Text("%.6g", r.lo);
  ImGui::SameLine(std::max(0.0f, w - 80));
  ImGui::Text("%.6g", r.hi);
}

void values_legend(ViewerState& s) {
  const tl::Trace& t = s.trace();
  if (t.buffers.empty()) return;
  s.legend_buffer = std::clamp(s.legend_buffer, 0, static_cast<int>(t.buffers.size()) - 1);
  if (ImGui::BeginCombo("buffer", t.buffers[s.legend_buffer].name.c_str())) {
    for (size_t b = 0; b < t.buffers.size(); ++b)
      if (ImGui::Selectable(t.buffers[b].name.c_str(), static_cast<int>(b) == s.legend_buffer))
        s.legend_buffer = static_cast<int>(b);
    ImGui::EndCombo();
  }
  const tl::TraceBuffer& b = t.buffers[s.legend_buffer];
  const ValueRange& range = s.value_range_of(s.legend_buffer);
  std::span<const double> values;
  const tl::Event* e = s.cursor.current_event();
  std::string what;
  if (s.value_source == ValueSource::Stored) {
    if (e && e->buffer == s.legend_buffer && !e->values.empty()) {
      values = e->values;
      what = "values stored by event #" + std::to_string(s.cursor.event()) + " (all lanes)";
    } else {
      what = "the current event stores nothing to " + b.name;
    }
  } else {
    values = s.value_source == ValueSource::Before ? std::span<const double>(b.values_before) : std::span<const double>(b.values_after);
    what = b.name + " " + value_source_name(s.value_source) + " the launch";
  }
  if (!range.any_finite() && values.empty()) {
    ImGui::TextWrapped("The trace keeps no values of %s (buffers over %lld elements keep none).", b.name.c_str(),
                       static_cast<long long>(tl::kTraceMaxValues));
    return;
  }
  color_bar(range);
  color_swatch(palette::not_a_number, "NaN (outputs start as NaN: never written)");
  ImGui::TextDisabled("%s", what.c_str());
  const ValueRange here = value_range(values);
  const Histogram h = histogram(values, range, 48);
  std::vector<float> bins(h.bins.begin(), h.bins.end());
  ImGui::PlotHistogram("##histogram", bins.data(), static_cast<int>(bins.size()), 0, nullptr, 0.0f,
                       static_cast<float>(h.max_bin()), ImVec2(ImGui::GetContentRegionAvail().x, 90));
  ImGui::Text("%lld finite in [%.6g, %.6g], %lld NaN, %lld +inf, %lld -inf", static_cast<long long>(here.finite), here.lo,
              here.hi, static_cast<long long>(here.nan), static_cast<long long>(here.pos_inf),
              static_cast<long long>(here.neg_inf));
}

}  // namespace

void draw_legend_tab(ViewerState& s) {
  mode_selector(s);
  ImGui::Separator();
  switch (s.mode) {
    case ColorMode::Access: access_legend(); break;
    case ColorMode::Coverage: coverage_legend(s); break;
    case ColorMode::Values: values_legend(s); break;
  }
}

}  // namespace viz
