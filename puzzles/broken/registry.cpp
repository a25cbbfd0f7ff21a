#include "broken/registry.h"

namespace puzzles {

const std::vector<BrokenKernel>& all_broken() {
  static const std::vector<BrokenKernel> list;
  return list;
}

const BrokenKernel* find_broken(std::string_view name) {
  if (name.rfind("broken/", 0) == 0) name.remove_prefix(7);
  for (const BrokenKernel& b : all_broken())
    if (b.name == name) return &b;
  return nullptr;
}

}  // namespace puzzles
