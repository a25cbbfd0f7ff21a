#include "model_program_map.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <vector>

namespace viz {

Cell ProgramMapLayout::cell_of(int64_t x, int64_t y) const {
  if (wrapped) return {x / columns, x % columns};
  return {y, x};
}

std::optional<std::array<int64_t, 2>> ProgramMapLayout::program_at(Cell c) const {
  if (c.row < 0 || c.col < 0 || c.row >= rows || c.col >= columns) return std::nullopt;
  if (wrapped) {
    const int64_t x = c.row * columns + c.col;
    if (x >= grid_x) return std::nullopt;
    return std::array<int64_t, 2>{x, 0};
  }
  return std::array<int64_t, 2>{c.col, c.row};
}

ProgramMapLayout program_map_layout(int64_t grid_x, int64_t grid_y, float width, float height, float min_cell,
                                    float max_cell) {
  ProgramMapLayout m;
  m.grid_x = std::max<int64_t>(grid_x, 1);
  m.grid_y = std::max<int64_t>(grid_y, 1);
  width = std::max(width, 1.0f);
  height = std::max(height, 1.0f);
  if (m.grid_y > 1) {
    m.columns = m.grid_x;
    m.rows = m.grid_y;
    const float fit = std::min(width / static_cast<float>(m.columns), height / static_cast<float>(m.rows));
    m.cell = std::clamp(std::floor(fit), min_cell, max_cell);
    return m;
  }
  // 1-D: try whole-pixel cells from the largest down; the first whose rows fit wins.
  const int64_t n = m.grid_x;
  auto columns_for = [&](float cell) {
    int64_t cols = std::max<int64_t>(static_cast<int64_t>(width / cell), 1);
    if (cols >= n) return n;
    if (cols >= 10) cols -= cols % 10;  // round ids per row: row k starts at k * columns
    return cols;
  };
  for (float cell = std::floor(max_cell); cell >= min_cell; cell -= 1) {
    const int64_t cols = columns_for(cell);
    const int64_t rows = (n + cols - 1) / cols;
    if (static_cast<float>(rows) * cell <= height) {
      m.cell = cell;
      m.columns = cols;
      m.rows = rows;
      m.wrapped = rows > 1;
      return m;
    }
  }
  m.cell = min_cell;
  m.columns = columns_for(min_cell);
  m.rows = (n + m.columns - 1) / m.columns;
  m.wrapped = m.rows > 1;
  return m;
}

ParsedPid parse_program_id(std::string_view text, const Pid& grid) {
  ParsedPid out;
  std::vector<int64_t> axes;
  size_t i = 0;
  auto skip = [&] {
    while (i < text.size() && (std::isspace(static_cast<unsigned char>(text[i])) || text[i] == ',' || text[i] == '(' ||
                               text[i] == ')' || text[i] == '[' || text[i] == ']'))
      ++i;
  };
  for (skip(); i < text.size(); skip()) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) {
      out.error = text[i] == '-' ? "program ids are not negative" : "not a program id: type e.g. 12 or 3,1";
      return out;
    }
    int64_t v = 0;
    for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) {
      if (v > (int64_t{1} << 40)) {
        out.error = "program id too large";
        return out;
      }
      v = v * 10 + (text[i] - '0');
    }
    axes.push_back(v);
  }
  if (axes.empty()) {
    out.error = "type a program id, e.g. 12 or 3,1";
    return out;
  }
  if (axes.size() > 3) {
    out.error = "a program id has at most 3 axes (x, y, z)";
    return out;
  }
  Pid pid{0, 0, 0};
  for (size_t a = 0; a < axes.size(); ++a) pid[a] = axes[a];
  for (int a = 0; a < 3; ++a)
    if (pid[a] >= grid[a]) {
      static const char* kAxis[3] = {"x", "y", "z"};
      out.error = "outside the grid: " + std::string(kAxis[a]) + " = " + std::to_string(pid[a]) + " but the grid has " +
                  std::to_string(grid[a]);
      return out;
    }
  out.pid = pid;
  return out;
}

}  // namespace viz
