// The program map (one cell per program of the grid's x-y plane) and
// finding a program by typing its id. A 2-D grid is drawn as y rows of x
// columns. A 1-D grid is wrapped into rows, a multiple of 10 programs each
// where there is room, so 3,200 programs make a 2-D map of cells a few
// pixels wide instead of a one-pixel line: program x sits at row
// x / columns, column x % columns.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "model_layout.h"
#include "model_trace_index.h"

namespace viz {

struct ProgramMapLayout {
  int64_t grid_x = 1, grid_y = 1;  // the plane shown
  int64_t columns = 1, rows = 1;   // map cells
  float cell = 1;                  // pixels per map cell
  bool wrapped = false;            // a 1-D grid wrapped into several rows

  float width() const { return cell * static_cast<float>(columns); }
  float height() const { return cell * static_cast<float>(rows); }
  // The map cell of program (x, y) (at the shown z).
  Cell cell_of(int64_t x, int64_t y) const;
  // The program (x, y) at a map cell; none outside the map or past the last
  // program of a wrapped row.
  std::optional<std::array<int64_t, 2>> program_at(Cell c) const;
};

// The layout for a `grid_x` x `grid_y` plane in `width` x `height` pixels:
// the largest whole-pixel cell in [min_cell, max_cell] with which the map
// fits (a 1-D grid choosing how many programs per row), else min_cell and
// the map scrolls.
ProgramMapLayout program_map_layout(int64_t grid_x, int64_t grid_y, float width, float height, float min_cell = 4,
                                    float max_cell = 22);

// A program id as typed: "12", "3,1", "3, 1, 0", "(3, 1)" or "[3 1]". Axes
// not given are 0. Fails with a one-line reason for anything else, and for
// ids outside `grid`.
struct ParsedPid {
  std::optional<Pid> pid;
  std::string error;
};
ParsedPid parse_program_id(std::string_view text, const Pid& grid);

}  // namespace viz
