// The interpreter-vs-GPU tab: |interpreter - GPU| per element of a buffer,
// mismatches flagged. Empty until the GPU backend brings results (see
// GpuResults in model_gpu_diff.h).
#include <algorithm>
#include <string>

#include "model_grid_image.h"
#include "ui_grid_canvas.h"
#include "ui_windows.h"

namespace viz {

void draw_gpu_tab(ViewerState& s) {
  if (!s.doc->gpu) {
    ImGui::TextUnformatted("No GPU results in this trace.");
    if (!s.doc->gpu_note.empty()) ImGui::TextWrapped("%s", s.doc->gpu_note.c_str());
    ImGui::TextWrapped("When the same launch also runs on a GPU, this tab shows |interpreter - GPU| for every "
                       "element of every buffer, with the elements beyond tolerance flagged ('tilescope view N --gpu').");
    return;
  }
  const GpuResults& gpu = *s.doc->gpu;
  const tl::Trace& t = s.trace();
  ImGui::Text("GPU: %s   tolerance %.3g (relative)", gpu.device.c_str(), gpu.relative_tolerance);
  if (t.buffers.empty()) return;
  s.gpu_buffer = std::clamp(s.gpu_buffer, 0, static_cast<int>(t.buffers.size()) - 1);
  if (ImGui::BeginCombo("buffer", t.buffers[s.gpu_buffer].name.c_str())) {
    for (size_t b = 0; b < t.buffers.size(); ++b)
      if (ImGui::Selectable(t.buffers[b].name.c_str(), static_cast<int>(b) == s.gpu_buffer)) s.gpu_buffer = static_cast<int>(b);
    ImGui::EndCombo();
  }
  const tl::TraceBuffer& b = t.buffers[s.gpu_buffer];
  if (s.gpu_diff_buffer != s.gpu_buffer) {
    const GpuBufferResult* r = find_gpu_buffer(gpu, b.name);
    if (r) {
      s.gpu_diff = diff_gpu_buffer(b, *r, gpu.relative_tolerance);
    } else {
      s.gpu_diff = GpuDiff{};
      s.gpu_diff->buffer = b.name;
      s.gpu_diff->unavailable_reason = "the GPU run has no " + b.name;
    }
    s.gpu_diff_buffer = s.gpu_buffer;
    s.gpu_image.key.clear();
  }
  const GpuDiff& d = *s.gpu_diff;
  if (!d.available) {
    ImGui::TextDisabled("%s", d.unavailable_reason.c_str());
    return;
  }
  ImGui::Text("%lld of %zu elements beyond tolerance, max |diff| %.3g", static_cast<long long>(d.flagged_count),
              d.abs_diff.size(), d.max_abs_diff);
  const TensorPane& pane = s.panes[s.gpu_buffer];
  const GridLayout& layout = pane.layout;
  const std::string key = b.name + "/" + std::to_string(pane.layout_version);
  if (s.gpu_image.key != key) {
    s.gpu_image.texture.upload(build_grid_image(layout, [&](int64_t o) { return gpu_diff_color(d, o); }, max_texture_size()));
    s.gpu_image.key = key;
  }
  CanvasInput in;
  in.layout = &layout;
  in.texture = &s.gpu_image.texture;
  in.content = layout.tensor_bounds();
  in.size = ImGui::GetContentRegionAvail();
  const CanvasResult r = grid_canvas("gpu_diff", s.gpu_view, in);
  record_canvas(s, "gpu:" + b.name, r, layout, nullptr);
  if (r.hovered && layout.inside(*r.hovered)) {
    s.canvas_hovered_now = true;
    const int64_t o = layout.offset_at(*r.hovered);
    ImGui::SetTooltip("%s%s  |interp - gpu| = %.3g%s", b.name.c_str(), format_index(layout.index_at(*r.hovered)).c_str(),
                      d.abs_diff[o], d.flagged[o] ? "  MISMATCH" : "");
  }
}

}  // namespace viz
