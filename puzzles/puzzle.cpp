#include "puzzle.h"

#include <stdexcept>

namespace puzzles {

bool Params::has(std::string_view name) const {
  for (const auto& [n, v] : values_)
    if (n == name) return true;
  return false;
}

int64_t Params::operator[](std::string_view name) const {
  for (const auto& [n, v] : values_)
    if (n == name) return v;
  throw std::out_of_range("puzzle parameter " + std::string(name) + " is not defined");
}

std::string Params::str() const {
  std::string s;
  for (const auto& [n, v] : values_) {
    if (!s.empty()) s += ", ";
    s += n + "=" + std::to_string(v);
  }
  return s;
}

int64_t SizeSet::operator[](std::string_view name) const {
  if (sizes.has(name)) return sizes[name];
  if (constants.has(name)) return constants[name];
  return blocks[name];
}

namespace {
// Size and block names per grid axis (PUZZLES.md §0.3).
constexpr const char* kSizeOfAxis[3] = {"N0", "N1", "N2"};
constexpr const char* kBlockOfAxis[3] = {"B0", "B1", "B2"};

// The extent of grid axis `axis`: cdiv(N<axis>, B<axis>), or 1 when the set
// has no such pair (T, H, W, MID are walked by loops, never gridded).
int64_t axis_extent(const SizeSet& set, int axis) {
  const char* n = kSizeOfAxis[axis];
  const char* b = kBlockOfAxis[axis];
  if (!set.sizes.has(n) || !set.blocks.has(b)) return 1;
  int64_t size = set.sizes[n], block = set.blocks[b];
  return (size + block - 1) / block;
}
}  // namespace

std::string Puzzle::label() const { return example ? "example " + id : "puzzle " + std::to_string(number); }

tl::Grid grid_for(const SizeSet& set) {
  if (set.grid) {
    const std::array<int64_t, 3> g = set.grid(set);
    return tl::Grid{g[0], g[1], g[2]};
  }
  return tl::Grid{axis_extent(set, 0), axis_extent(set, 1), axis_extent(set, 2)};
}

std::array<int64_t, 3> owner_of(const Puzzle& p, const SizeSet& set, const std::vector<int64_t>& index) {
  if (p.owner) return p.owner(set, index);
  std::array<int64_t, 3> pid{0, 0, 0};
  for (size_t d = 0; d < index.size() && d < p.output_axes.size(); ++d) {
    int axis = p.output_axes[d];
    if (axis < 0) continue;
    pid[axis] = index[d] / set.blocks[kBlockOfAxis[axis]];
  }
  return pid;
}

std::function<std::vector<int64_t>(const SizeSet&)> dims(std::vector<std::string> names) {
  return [names = std::move(names)](const SizeSet& set) {
    std::vector<int64_t> shape;
    for (const auto& n : names) shape.push_back(set[n]);
    return shape;
  };
}

int64_t numel(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

std::vector<int64_t> unravel(int64_t flat, const std::vector<int64_t>& shape) {
  std::vector<int64_t> index(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    index[d] = flat % shape[d];
    flat /= shape[d];
  }
  return index;
}

}  // namespace puzzles
