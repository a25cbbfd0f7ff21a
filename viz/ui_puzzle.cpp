// The puzzle tab: the statement, pass/fail and max error per size set, why
// the viewed run failed, and a diff grid of output vs reference with every
// mismatching element marked. For a launch of the public API with a
// reference check (Options::reference), the same grid per checked buffer.
#include <algorithm>
#include <cmath>
#include <string>

#include "model_grid_image.h"
#include "model_reference.h"
#include "report_text.h"
#include "ui_grid_canvas.h"
#include "ui_windows.h"

namespace viz {

namespace {

const ImVec4 kPass(0.35f, 0.8f, 0.45f, 1), kFail(0.95f, 0.3f, 0.3f, 1);

void verdict(const PuzzleContext& p) {
  ImGui::Text("Puzzle %d: %s (%s), %s", p.number, p.title.c_str(), p.id.c_str(), p.variant.c_str());
  ImGui::TextColored(p.pass ? kPass : kFail, "%s", p.pass ? "PASS" : "FAIL");
  ImGui::SameLine();
  ImGui::Text("max err %s (threshold %s), every size set, seeds 0-2", puzzles::format_number(p.max_err).c_str(),
              puzzles::format_number(p.threshold).c_str());
}

void sets_table(const PuzzleContext& p) {
  if (!ImGui::BeginTable("sets", 4, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp))
    return;
  ImGui::TableSetupColumn("set");
  ImGui::TableSetupColumn("sizes");
  ImGui::TableSetupColumn("result");
  ImGui::TableSetupColumn("max err");
  ImGui::TableHeadersRow();
  for (const PuzzleSetSummary& s : p.sets) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(s.name.c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(s.sizes.c_str());
    if (ImGui::IsItemHovered() && !s.stresses.empty()) ImGui::SetTooltip("%s", s.stresses.c_str());
    ImGui::TableNextColumn();
    if (s.pass) ImGui::TextColored(kPass, "pass");
    else ImGui::TextColored(kFail, "FAIL %d/%d", s.failed_runs, s.runs);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(puzzles::format_number(s.max_err).c_str());
  }
  ImGui::EndTable();
}

void viewed_run(const PuzzleContext& p) {
  const puzzles::RunReport& r = p.viewed;
  ImGui::Text("This run: set %s, seed %u, grid (%lld, %lld, %lld):", r.set.c_str(), r.seed, static_cast<long long>(r.grid.x),
              static_cast<long long>(r.grid.y), static_cast<long long>(r.grid.z));
  ImGui::SameLine();
  ImGui::TextColored(r.passed() ? kPass : kFail, "%s", puzzles::run_status_name(r.status));
  for (const std::string& why : puzzles::failure_reasons(r)) ImGui::BulletText("%s", why.c_str());
  if (!r.error.empty()) {
    // The message wrapped; the source line and its caret unwrapped, so the
    // caret stays under its column.
    const size_t newline = r.error.find('\n');
    ImGui::PushStyleColor(ImGuiCol_Text, kFail);
    ImGui::TextWrapped("%s", r.error.substr(0, newline).c_str());
    if (newline != std::string::npos) {
      const std::string code = r.error.substr(newline + 1);
      const float lines = static_cast<float>(std::count(code.begin(), code.end(), '\n') + 1);
      ImGui::BeginChild("error", ImVec2(0, ImGui::GetTextLineHeightWithSpacing() * (lines + 1.2f)), false,
                        ImGuiWindowFlags_HorizontalScrollbar);
      ImGui::TextUnformatted(code.c_str());
      ImGui::EndChild();
    }
    ImGui::PopStyleColor();
  }
}

void diff_tooltip(const std::string& name, const OutputDiff& d, const GridLayout& g, Cell c) {
  if (!g.inside(c)) return;
  const int64_t o = g.offset_at(c);
  if (o < 0 || o >= static_cast<int64_t>(d.found.size())) return;
  ImGui::BeginTooltip();
  ImGui::Text("%s%s", name.c_str(), format_index(g.index_at(c)).c_str());
  ImGui::Text("found %.7g   expected %.7g   |diff| %.3g", d.found[o], d.expected[o], std::fabs(d.found[o] - d.expected[o]));
  if (d.mismatch[o])
    ImGui::TextColored(kFail, "%s", puzzles::mismatch_kind_name(static_cast<puzzles::MismatchKind>(d.mismatch[o] - 1)));
  ImGui::EndTooltip();
}

// `key` names the grid for the image cache and the screenshot record.
void diff_grid(ViewerState& s, const std::string& name, const OutputDiff& d, const std::string& key) {
  if (!d.available) {
    ImGui::TextDisabled("No diff grid: %s.", d.unavailable_reason.c_str());
    return;
  }
  ImGui::Text("%s vs reference: %lld of %zu elements mismatch (max |diff| %.3g)", name.c_str(),
              static_cast<long long>(d.mismatch_count), d.found.size(), d.max_abs_diff);
  color_swatch(palette::match, "within tolerance");
  ImGui::SameLine();
  color_swatch(palette::mismatch, "wrong value");
  ImGui::SameLine();
  color_swatch(palette::never_written, "never written / not finite");
  if (s.diff_image.key != key) {
    s.diff_image.texture.upload(build_grid_image(s.diff_layout, [&](int64_t o) { return diff_color(d, o); }, max_texture_size()));
    s.diff_image.key = key;
  }
  CanvasInput in;
  in.layout = &s.diff_layout;
  in.texture = &s.diff_image.texture;
  in.content = s.diff_layout.tensor_bounds();
  const float width = ImGui::GetContentRegionAvail().x;
  const float cell = fit_cell_size(in.content, ImVec2(width, 1e9f), 20.0f);
  in.size = ImVec2(width, std::clamp(static_cast<float>(in.content.rows()) * cell + 8.0f, 40.0f,
                                     std::max(120.0f, ImGui::GetContentRegionAvail().y - 4)));
  in.max_cell = 20;
  const CanvasResult r = grid_canvas("diff", s.diff_view, in);
  record_canvas(s, key, r, s.diff_layout, nullptr);
  if (r.hovered) {
    s.canvas_hovered_now = true;
    diff_tooltip(name, d, s.diff_layout, *r.hovered);
  }
}

// One row per checked buffer; clicking a row shows its grid below.
void reference_table(ViewerState& s, const std::vector<int>& checked) {
  const tl::Trace& t = s.trace();
  if (!ImGui::BeginTable("reference", 4, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp))
    return;
  ImGui::TableSetupColumn("buffer");
  ImGui::TableSetupColumn("result");
  ImGui::TableSetupColumn("max |diff|");
  ImGui::TableSetupColumn("tolerance");
  ImGui::TableHeadersRow();
  for (int b : checked) {
    const tl::TraceBuffer& tb = t.buffers[b];
    const OutputDiff& d = s.reference_diff_of(b);
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    if (ImGui::Selectable(tb.name.c_str(), s.reference_buffer == b, ImGuiSelectableFlags_SpanAllColumns))
      s.select_reference_buffer(b);
    ImGui::TableNextColumn();
    if (d.mismatch_count == 0) ImGui::TextColored(kPass, "matches");
    else ImGui::TextColored(kFail, "%lld of %zu differ", static_cast<long long>(d.mismatch_count), d.found.size());
    ImGui::TableNextColumn();
    ImGui::Text("%.3g", d.max_abs_diff);
    ImGui::TableNextColumn();
    ImGui::Text("atol %.3g + rtol %.3g x |expected|", tb.expected_atol, tb.expected_rtol);
  }
  ImGui::EndTable();
}

void draw_reference_check(ViewerState& s) {
  const std::vector<int> checked = buffers_with_reference(s.trace());
  if (checked.empty()) {
    ImGui::TextWrapped("This trace was loaded from a file: no puzzle to check it against. "
                       "Open a puzzle with 'tilescope view N' to see its statement, results and diff, or launch "
                       "with Options::reference to keep the expected values in the trace.");
    return;
  }
  ImGui::TextWrapped("Reference check of the launch (Options::reference): each checked buffer after the launch "
                     "against the values it should hold.");
  reference_table(s, checked);
  if (s.reference_buffer < 0) s.select_reference_buffer(checked.front());
  ImGui::Separator();
  const tl::TraceBuffer& tb = s.trace().buffers[s.reference_buffer];
  diff_grid(s, tb.name, s.reference_diff_of(s.reference_buffer), "reference:" + tb.name);
}

}  // namespace

void draw_puzzle_tab(ViewerState& s) {
  if (!s.doc->puzzle) {
    draw_reference_check(s);
    return;
  }
  const PuzzleContext& p = *s.doc->puzzle;
  verdict(p);
  if (!p.explanation.empty()) ImGui::TextWrapped("%s", p.explanation.c_str());
  sets_table(p);
  viewed_run(p);
  if (ImGui::CollapsingHeader("Statement")) ImGui::TextUnformatted(p.statement.c_str());
  ImGui::Separator();
  diff_grid(s, "Output " + p.output, p.diff, "diff:" + p.output);
}

}  // namespace viz
