// How a buffer of any rank is drawn as a 2-D grid of cells.
//
//   rank 0, 1   a strip wrapped every `wrap` elements (row = i / wrap)
//   rank 2      rows x cols
//   rank >= 3   two chosen axes as rows x cols; every other axis fixed at a
//               slice index (a slider in the UI)
//
// Buffers whose strides are not dense row-major (views) are drawn by storage
// offset instead, as a strip over [0, extent): then every recorded offset has
// exactly one cell.
//
// Positions may lie outside the tensor (negative, or past the last row or
// column): that is where out-of-bounds and masked lanes are drawn, so a
// layout maps any multi-index, not only valid ones.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "trace.h"

namespace viz {

struct Cell {
  int64_t row = 0, col = 0;
  bool operator==(const Cell&) const = default;
  auto operator<=>(const Cell&) const = default;
};

// A rectangle of cells, [row0, row1) x [col0, col1).
struct CellBounds {
  int64_t row0 = 0, col0 = 0, row1 = 0, col1 = 0;
  bool operator==(const CellBounds&) const = default;
  bool empty() const { return row1 <= row0 || col1 <= col0; }
  int64_t rows() const { return row1 - row0; }
  int64_t cols() const { return col1 - col0; }
  void include(Cell c);
  void include(const CellBounds& b);
  bool contains(Cell c) const { return c.row >= row0 && c.row < row1 && c.col >= col0 && c.col < col1; }
};

enum class LayoutKind { Strip, Matrix };

struct GridLayout {
  LayoutKind kind = LayoutKind::Strip;
  std::vector<int64_t> shape;  // the index space shown: the buffer's shape, or [extent] by storage
  bool by_storage = false;     // strides are not dense row-major: cells are storage offsets
  int64_t wrap = 32;           // Strip: cells per row
  int row_axis = 0, col_axis = 1;  // Matrix
  std::vector<int64_t> slice;      // Matrix: the index of every axis that is neither row nor column

  int rank() const { return static_cast<int>(shape.size()); }
  int64_t elements() const;  // product of the shape
  int64_t rows() const;      // of the tensor itself
  int64_t cols() const;
  CellBounds tensor_bounds() const { return {0, 0, rows(), cols()}; }

  // The cell of a multi-index (any values, in or out of the tensor), or
  // nothing when the index lies on another slice.
  std::optional<Cell> cell_of(const std::vector<int64_t>& index) const;
  // Whether the cell shows an element of the tensor (a strip's last row can
  // be partly empty).
  bool inside(Cell c) const;
  // The multi-index at a cell inside the tensor.
  std::vector<int64_t> index_at(Cell c) const;
  // The storage offset of the element at a cell inside the tensor: the
  // position in TraceBuffer::values_*, and what events record.
  int64_t offset_at(Cell c) const;
  // The axes that are fixed by a slice index (rank >= 3).
  std::vector<int> slice_axes() const;
};

// Whether strides are exactly the row-major ones of the shape (size-1 axes
// may have any stride) and the extent is the element count.
bool is_dense_row_major(const tl::TraceBuffer& b);

// The layout a buffer opens with: strip of width `default_wrap`, rows x cols,
// or the last two axes with slice 0 of the others.
GridLayout default_layout(const tl::TraceBuffer& b);
int64_t default_wrap(int64_t elements);

// Row-major multi-index of a flat position in `shape`, where the first axis
// is unbounded (floor division), so offsets before 0 or past the end land
// on rows before the first or after the last.
std::vector<int64_t> unravel_unbounded(int64_t flat, const std::vector<int64_t>& shape);
// The same, written to out[0, shape.size()) (for hot loops).
void unravel_unbounded_into(int64_t flat, const std::vector<int64_t>& shape, int64_t* out);
// Row-major flat position of a multi-index (no bounds check).
int64_t ravel(const std::vector<int64_t>& index, const std::vector<int64_t>& shape);

// "[2, 5]"
std::string format_index(const std::vector<int64_t>& index);

}  // namespace viz
