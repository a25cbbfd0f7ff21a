#include "model_document.h"

#include <filesystem>
#include <stdexcept>

#include "broken/registry.h"
#include "registry.h"

namespace viz {

namespace {

std::optional<NamedKernel> find_broken_kernel(std::string_view name) {
  const puzzles::BrokenKernel* b = puzzles::find_broken(name);
  const puzzles::Puzzle* p = b ? puzzles::find_puzzle(b->puzzle_id) : nullptr;
  if (!p || !b->kernel) return std::nullopt;
  return NamedKernel{p, b->kernel, "broken/" + b->name, b->set, b->title + "\n\n" + b->explanation};
}

}  // namespace

const std::vector<KernelGroup>& kernel_groups() {
  // One line per group of named kernels.
  static const std::vector<KernelGroup> groups = {
      {"broken", find_broken_kernel},
  };
  return groups;
}

ViewerDocument open_trace_file(const std::string& path) {
  ViewerDocument d;
  d.trace = std::make_shared<const tl::Trace>(tl::load_trace(path));
  d.title = "trace " + path + " (" + d.trace->kernel + ")";
  return d;
}

std::shared_ptr<tl::Trace> empty_trace(const puzzles::Puzzle& p, const puzzles::SizeSet& set,
                                       const tl::KernelDef& kernel) {
  auto t = std::make_shared<tl::Trace>();
  t->kernel = kernel.name();
  t->source_file = kernel.loc().file;
  const tl::Grid g = puzzles::grid_for(set);
  t->grid = {g.x, g.y, g.z};
  auto add = [&](const puzzles::TensorDecl& decl) {
    tl::TraceBuffer b;
    b.name = decl.name;
    b.dtype = decl.dtype;
    b.shape = decl.shape(set);
    b.strides.assign(b.shape.size(), 1);
    for (size_t d = b.shape.size(); d-- > 1;) b.strides[d - 1] = b.strides[d] * b.shape[d];
    b.extent = puzzles::numel(b.shape);
    t->buffers.push_back(std::move(b));
  };
  for (const puzzles::TensorDecl& in : p.inputs) add(in);
  add(p.output);
  for (const puzzles::TensorDecl& out : p.extra_outputs) add(out);
  return t;
}

ViewerDocument open_kernel(const puzzles::Puzzle& p, const tl::KernelDef& kernel, const std::string& label,
                           const OpenOptions& opt, const std::string& explanation) {
  const std::string set_name = opt.set.empty() ? "canonical" : opt.set;
  const puzzles::SizeSet* set = puzzles::find_set(p, set_name);
  if (!set) {
    std::string names;
    for (const puzzles::SizeSet& s : p.sets) names += (names.empty() ? "" : ", ") + s.name;
    throw std::runtime_error(p.label() + " has no size set '" + set_name + "' (sets: " +
                             names + ")");
  }
  ViewerDocument d;
  d.puzzle = check_for_view(p, kernel, label, *set, opt.seed);
  d.puzzle->explanation = explanation;
  if (d.puzzle->viewed.trace) d.trace = d.puzzle->viewed.trace;
  else d.trace = empty_trace(p, *set, kernel);
  d.title = (p.example ? p.label() : p.label() + " " + p.id) + " (" + label + "), set " + set->name + ", seed " +
            std::to_string(opt.seed);
  return d;
}

ViewerDocument open_puzzle(const puzzles::Puzzle& p, const OpenOptions& opt) {
  return opt.stub ? open_kernel(p, *p.stub, "learner stub", opt) : open_kernel(p, *p.solution, "reference solution", opt);
}

ViewerDocument open_target(const std::string& target, const OpenOptions& opt) {
  if (const auto slash = target.find('/'); slash != std::string::npos) {
    const std::string group = target.substr(0, slash), name = target.substr(slash + 1);
    for (const KernelGroup& g : kernel_groups()) {
      if (group != g.name) continue;
      std::optional<NamedKernel> k = g.find(name);
      if (!k) throw std::runtime_error("no kernel '" + name + "' in " + group + "/ (see 'tilescope list')");
      OpenOptions with_set = opt;
      if (with_set.set.empty()) with_set.set = k->set;
      return open_kernel(*k->puzzle, *k->kernel, k->label, with_set, k->explanation);
    }
  }
  if (const puzzles::Puzzle* p = puzzles::find_puzzle(target)) return open_puzzle(*p, opt);
  std::error_code ec;
  const bool json_name = target.size() > 5 && target.ends_with(".json");
  if (json_name || std::filesystem::exists(target, ec)) return open_trace_file(target);
  throw std::runtime_error("'" + target + "' is neither a puzzle (1-12 or an id; see 'tilescope list') nor a trace file");
}

}  // namespace viz
