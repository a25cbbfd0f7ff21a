#include "report_json.h"

#include <cmath>

#include <nlohmann/json.hpp>

#include "error.h"
#include "findings.h"
#include "harness.h"

namespace puzzles {

namespace {

using nlohmann::json;

json number(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return v;
}

// Parameters keep their order: an array of [name, value] would be noisy, an
// object reads naturally and nlohmann's ordered_json keeps insertion order.
nlohmann::ordered_json params(const Params& p) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (const auto& [name, value] : p.values()) j[name] = value;
  return j;
}

json grid(const tl::Grid& g) { return json::array({g.x, g.y, g.z}); }
json pid(const ProgramId& p) { return json::array({p[0], p[1], p[2]}); }

nlohmann::ordered_json mismatch(const Mismatch& m) {
  return {{"element", m.label}, {"index", m.index},       {"found", number(m.found)},
          {"expected", number(m.expected)}, {"abs_diff", number(m.abs_diff)}, {"owner", pid(m.owner)},
          {"kind", mismatch_kind_name(m.kind)}};
}

nlohmann::ordered_json oob_group(const OobGroup& g) {
  nlohmann::ordered_json lanes = nlohmann::ordered_json::array();
  for (const OobLane& l : g.lanes) lanes.push_back({{"lane", l.lane}, {"tile_index", l.tile_index}, {"offset", l.offset}});
  return {{"program", pid(g.pid)},
          {"access", g.is_store ? "store" : "load"},
          {"tensor", g.tensor},
          {"tile_shape", g.tile_shape},
          {"valid_range", json::array({0, g.extent})},
          {"file", g.loc.file},
          {"line", g.loc.line},
          {"source_line", g.source_line},
          {"lanes", lanes}};
}

// The sanitizer's findings with their locations and buffers resolved, and
// the text a user would read.
nlohmann::ordered_json findings_json(const RunReport& r) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  tl::FindingContext c{r.kernel_name, &r.finding_locations, &r.finding_buffers};
  for (const tl::Finding& f : r.findings) {
    nlohmann::ordered_json j;
    j["kind"] = tl::finding_kind_name(f.kind);
    j["severity"] = tl::finding_severity(f.kind);
    if (f.loc >= 0 && f.loc < static_cast<int>(r.finding_locations.size())) {
      const tl::SrcLoc& l = r.finding_locations[f.loc];
      j["file"] = tl::display_path(l.file);
      j["line"] = l.line;
      j["col"] = l.col;
    }
    if (f.buffer >= 0 && f.buffer < static_cast<int>(r.finding_buffers.size())) j["buffer"] = r.finding_buffers[f.buffer].name;
    j["lanes"] = f.lanes;
    j["programs"] = f.programs;
    nlohmann::ordered_json ex = nlohmann::ordered_json::array();
    for (const tl::FindingExample& e : f.examples) {
      nlohmann::ordered_json je;
      je["pid"] = e.pid;
      je["lane"] = e.lane;
      je["lane_index"] = e.lane_index;
      je["offset"] = e.offset;
      if (e.other_pid[0] >= 0) je["other_pid"] = e.other_pid;
      if (!e.detail.empty()) je["detail"] = e.detail;  // a value finding's operands and result
      ex.push_back(je);
    }
    j["examples"] = ex;
    j["text"] = tl::format_finding(f, c);
    out.push_back(j);
  }
  return out;
}

nlohmann::ordered_json run_json(const RunReport& r) {
  nlohmann::ordered_json mismatches = nlohmann::ordered_json::array();
  for (const Mismatch& m : r.mismatches) mismatches.push_back(mismatch(m));
  json owners = json::array();
  for (const ProgramId& o : r.owners) owners.push_back(pid(o));
  nlohmann::ordered_json oob = nlohmann::ordered_json::array();
  for (const OobGroup& g : r.oob) oob.push_back(oob_group(g));
  nlohmann::ordered_json j;
  j["puzzle"] = r.puzzle;
  j["puzzle_id"] = r.puzzle_id;
  j["set"] = r.set;
  j["seed"] = r.seed;
  j["sizes"] = params(r.sizes);
  j["blocks"] = params(r.blocks);
  j["grid"] = grid(r.grid);
  j["status"] = run_status_name(r.status);
  j["reasons"] = failure_reasons(r);
  if (r.status == RunStatus::Error) {
    j["error_kind"] = r.error_kind;
    j["error"] = r.error;
  }
  j["err"] = number(r.err);
  j["threshold"] = r.threshold;
  j["mismatch_count"] = r.mismatch_count;
  j["never_written"] = r.never_written;
  j["non_finite"] = r.non_finite;
  j["wrong_value"] = r.wrong_value;
  j["total"] = r.total;
  if (!r.extra_outputs.empty()) {
    nlohmann::json extras = nlohmann::json::array();
    for (const OutputCheck& o : r.extra_outputs)
      extras.push_back({{"name", o.name}, {"err", number(o.err)}, {"threshold", o.threshold},
                        {"mismatch_count", o.mismatch_count}, {"total", o.total}});
    j["extra_outputs"] = extras;
  }
  j["mismatches"] = mismatches;
  j["owners"] = owners;
  j["owner_count"] = r.owner_count;
  j["oob_loads"] = r.oob_loads;
  j["oob_stores"] = r.oob_stores;
  j["oob"] = oob;
  j["modified_inputs"] = r.modified_inputs;
  j["notes"] = r.notes;
  j["printed"] = r.printed;
  j["traced"] = r.trace != nullptr;
  j["findings"] = findings_json(r);
  return j;
}

}  // namespace

std::string puzzle_list_to_json(const std::vector<Puzzle>& puzzles, int indent) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const Puzzle& p : puzzles) {
    nlohmann::ordered_json sets = nlohmann::ordered_json::array();
    for (const SizeSet& s : p.sets) {
      Params sizes = s.sizes;
      for (const auto& [name, value] : s.constants.values()) sizes.add(name, value);
      sets.push_back({{"name", s.name}, {"sizes", params(sizes)}, {"blocks", params(s.blocks)},
                      {"grid", grid(grid_for(s))}, {"stresses", s.stresses}});
    }
    list.push_back({{"number", p.number}, {"id", p.id}, {"title", p.title}, {"tolerance", p.tolerance},
                    {"statement", p.statement}, {"sets", sets}});
  }
  return list.dump(indent);
}

std::string report_to_json(const PuzzleReport& r, int indent) {
  nlohmann::ordered_json sets = nlohmann::ordered_json::array();
  for (const SetReport& s : r.sets) {
    nlohmann::ordered_json runs = nlohmann::ordered_json::array();
    for (const RunReport& run : s.runs) runs.push_back(run_json(run));
    sets.push_back({{"name", s.name}, {"stresses", s.stresses}, {"pass", s.pass}, {"max_err", number(s.max_err)},
                    {"runs", runs}});
  }
  nlohmann::ordered_json j;
  j["number"] = r.number;
  j["id"] = r.id;
  j["title"] = r.title;
  j["kernel"] = r.kernel;
  j["pass"] = r.pass;
  j["max_err"] = number(r.max_err);
  j["threshold"] = r.threshold;
  j["runs"] = r.runs;
  j["failed_runs"] = r.failed_runs;
  j["sets"] = sets;
  return j.dump(indent);
}

std::string run_to_json(const RunReport& r, int indent) { return run_json(r).dump(indent); }

}  // namespace puzzles
