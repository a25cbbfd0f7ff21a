#include "report_text.h"

#include <cmath>
#include <cstdio>

#include "error.h"
#include "findings.h"

namespace puzzles {

namespace {

std::string pad(std::string s, size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

std::string index_list(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

std::string run_header(const RunReport& r) {
  std::string s = std::string(r.status == RunStatus::Error ? "ERROR" : r.passed() ? "PASS" : "FAIL");
  s += (r.puzzle > 0 ? " puzzle " + std::to_string(r.puzzle) + " " : " example ") + r.puzzle_id + ", set " + r.set + ", seed " +
       std::to_string(r.seed) + ": " + r.sizes.str() + " | " + r.blocks.str() + ", grid " + format_grid(r.grid) + "\n";
  const std::vector<std::string> why = failure_reasons(r);
  if (!why.empty()) {
    s += "  fails:";
    for (size_t i = 0; i < why.size(); ++i) s.append(i ? "; " : " ").append(why[i]);
    s += "\n";
  }
  return s;
}

// A kernel line without its indentation, for quoting under "at file:line".
std::string trimmed(const std::string& line) {
  const size_t first = line.find_first_not_of(" \t");
  return first == std::string::npos ? "" : line.substr(first);
}

void append_mismatches(const RunReport& r, std::string& s) {
  char line[256];
  std::snprintf(line, sizeof line, "  err %s %s threshold %s; %lld of %lld elements mismatch\n",
                format_number(r.err).c_str(), r.err <= r.threshold ? "<=" : ">", format_number(r.threshold).c_str(),
                static_cast<long long>(r.mismatch_count), static_cast<long long>(r.total));
  s += line;
  for (const OutputCheck& o : r.extra_outputs) {
    std::snprintf(line, sizeof line, "  %s: err %s %s threshold %s; %lld of %lld elements mismatch\n", o.name.c_str(),
                  format_number(o.err).c_str(), o.passed() ? "<=" : ">", format_number(o.threshold).c_str(),
                  static_cast<long long>(o.mismatch_count), static_cast<long long>(o.total));
    s += line;
  }
  if (r.mismatches.empty()) return;
  s += "  first mismatches (row-major):\n";
  size_t label_width = 0;
  for (const Mismatch& m : r.mismatches) label_width = std::max(label_width, m.label.size());
  for (const Mismatch& m : r.mismatches) {
    std::snprintf(line, sizeof line, "found %-13s expected %-13s |diff| %-13s owner %s  ", format_number(m.found).c_str(),
                  format_number(m.expected).c_str(), format_number(m.abs_diff).c_str(), format_pid(m.owner).c_str());
    s += "    " + pad(m.label, label_width) + "  " + line + mismatch_kind_name(m.kind) + "\n";
  }
  if (r.owner_count > 0) {
    s += "  owner programs involved (" + std::to_string(r.owner_count) + "):";
    for (const ProgramId& o : r.owners) s.append(" ").append(format_pid(o));
    if (static_cast<int64_t>(r.owners.size()) < r.owner_count) s += " ...";
    s += "\n";
  }
  // Wrong values everywhere, every access in bounds and every element
  // written: the classic signature of a stride or index that stays inside
  // the buffer (PUZZLES.md §5 "Wrong stride").
  const bool every_program = r.owner_count == r.grid.x * r.grid.y * r.grid.z && r.owner_count > 1;
  if (every_program && r.wrong_value == r.mismatch_count && r.oob_loads + r.oob_stores == 0 &&
      2 * r.mismatch_count > r.total)
    s += "  hint: every program's output is wrong, yet no access left its buffer and every element was written:\n"
         "        the mistake is in what is read or computed, not in where it is stored: a stride or index that\n"
         "        stays in bounds (row stride, transposed or interleaved index), a loop bound, padded lanes in a\n"
         "        reduction, sign bits after a shift\n";
}

void append_oob(const RunReport& r, const TextOptions& o, std::string& s) {
  if (r.oob_loads == 0 && r.oob_stores == 0) return;
  s += "  out-of-bounds accesses: " + std::to_string(r.oob_loads) + " load lanes, " + std::to_string(r.oob_stores) +
       " store lanes (first ones below)\n";
  for (const OobGroup& g : r.oob) {
    s += "    program " + format_pid(g.pid) + " " + (g.is_store ? "store to " : "load from ") + g.tensor + ", tile " +
         index_list(g.tile_shape) + ": valid offsets are [0, " + std::to_string(g.extent) + ")\n";
    for (size_t i = 0; i < g.lanes.size() && i < o.max_oob_lanes; ++i)
      s += "      lane " + index_list(g.lanes[i].tile_index) + " offset " + std::to_string(g.lanes[i].offset) + "\n";
    if (g.lanes.size() > o.max_oob_lanes) s += "      ... " + std::to_string(g.lanes.size() - o.max_oob_lanes) + " more lanes recorded\n";
    if (g.loc.known()) {
      s += "      at " + tl::display_path(g.loc.file) + ":" + std::to_string(g.loc.line) + "\n";
      if (!g.source_line.empty()) s += "        " + trimmed(g.source_line) + "\n";
    }
  }
}

}  // namespace

std::string format_number(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string format_pid(const ProgramId& pid) {
  char buf[80];
  std::snprintf(buf, sizeof buf, "(%lld, %lld, %lld)", static_cast<long long>(pid[0]), static_cast<long long>(pid[1]),
                static_cast<long long>(pid[2]));
  return buf;
}

std::string format_grid(const tl::Grid& g) { return format_pid({g.x, g.y, g.z}); }

std::string format_puzzle_list(const std::vector<Puzzle>& puzzles) {
  std::string s;
  char line[160];
  for (const Puzzle& p : puzzles) {
    std::snprintf(line, sizeof line, "%3d  %-24s %s (%zu size sets, tolerance %s)\n", p.number, p.id.c_str(),
                  p.title.c_str(), p.sets.size(), format_number(p.tolerance).c_str());
    s += line;
  }
  return s;
}

std::string format_run(const RunReport& r, const TextOptions& o) {
  std::string s = run_header(r);
  if (r.status == RunStatus::Error) {
    s += "  " + r.error_kind + " error:\n" + r.error + "\n";
    return s;
  }
  append_mismatches(r, s);
  if (r.findings.empty()) {
    append_oob(r, o, s);
  } else {
    // The sanitizer's findings already name program, lane, buffer and line.
    tl::FindingContext c{r.kernel_name, &r.finding_locations, &r.finding_buffers};
    std::string text = tl::format_findings(r.findings, c);
    s += "  sanitizer:\n";
    size_t start = 0;
    while (start < text.size()) {
      size_t end = text.find('\n', start);
      if (end == std::string::npos) end = text.size();
      s += "    " + text.substr(start, end - start) + "\n";
      start = end + 1;
    }
  }
  if (!r.modified_inputs.empty()) {
    s += "  inputs modified by the kernel:";
    for (const std::string& name : r.modified_inputs) s += " " + name;
    s += "\n";
  }
  for (const std::string& note : r.notes) s += "  note: " + note + "\n";
  return s;
}

std::string format_report(const PuzzleReport& r, const TextOptions& o) {
  std::string s = (r.number > 0 ? "Puzzle " + std::to_string(r.number) + " " : std::string("Example ")) + r.id + ": " +
                  r.title + "\n";
  s += "kernel " + r.kernel + ": " + (r.pass ? "PASS" : "FAIL") + ", " + std::to_string(r.failed_runs) + " of " +
       std::to_string(r.runs) + " runs failed, max err " + format_number(r.max_err) + " (threshold " +
       format_number(r.threshold) + ")\n\n";

  char line[256];
  for (const SetReport& set : r.sets) {
    const RunReport& first = set.runs.front();
    std::snprintf(line, sizeof line, "  %-10s %-36s %-30s %-14s %-5s max err %s\n", set.name.c_str(),
                  first.sizes.str().c_str(), first.blocks.str().c_str(), format_grid(first.grid).c_str(),
                  set.pass ? "pass" : "FAIL", format_number(set.max_err).c_str());
    s += line;
    if (!o.list_runs) continue;
    for (const RunReport& run : set.runs)
      s += "      seed " + std::to_string(run.seed) + ": " + run_status_name(run.status) + ", err " +
           format_number(run.err) + "\n";
  }

  // Details: the first failing run of each set (or every one), and the rest
  // as one line each. A build error repeats identically: show it once.
  std::string shown_error;
  for (const SetReport& set : r.sets) {
    bool detailed = false;
    for (const RunReport& run : set.runs) {
      if (run.passed()) continue;
      const bool repeat_error = run.status == RunStatus::Error && run.error == shown_error;
      if ((!detailed || o.every_failed_run) && !repeat_error) {
        s.append("\n").append(format_run(run, o));
        if (run.status == RunStatus::Error) shown_error = run.error;
        detailed = true;
      } else {
        s += "  also failing: set " + run.set + ", seed " + std::to_string(run.seed) + ", " +
             (run.status == RunStatus::Error ? run.error_kind + " error" : "err " + format_number(run.err)) + "\n";
      }
    }
  }
  return s;
}

}  // namespace puzzles
