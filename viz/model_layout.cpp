#include "model_layout.h"

#include <algorithm>
#include <cmath>

namespace viz {

namespace {
int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
// a - floor_div(a, b) * b, in [0, b) for b > 0, without the product (which
// overflows for `a` near INT64_MIN).
int64_t floor_mod(int64_t a, int64_t b) {
  const int64_t r = a % b;
  return r != 0 && ((r < 0) != (b < 0)) ? r + b : r;
}
}  // namespace

void CellBounds::include(Cell c) {
  if (empty()) {
    *this = {c.row, c.col, c.row + 1, c.col + 1};
    return;
  }
  row0 = std::min(row0, c.row);
  col0 = std::min(col0, c.col);
  row1 = std::max(row1, c.row + 1);
  col1 = std::max(col1, c.col + 1);
}

void CellBounds::include(const CellBounds& b) {
  if (b.empty()) return;
  if (empty()) {
    *this = b;
    return;
  }
  row0 = std::min(row0, b.row0);
  col0 = std::min(col0, b.col0);
  row1 = std::max(row1, b.row1);
  col1 = std::max(col1, b.col1);
}

int64_t GridLayout::elements() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

int64_t GridLayout::rows() const {
  if (kind == LayoutKind::Strip) {
    const int64_t n = elements();
    return n / wrap + (n % wrap != 0);  // not (n + wrap - 1) / wrap: n may be near INT64_MAX
  }
  return shape[row_axis];
}

int64_t GridLayout::cols() const {
  if (kind == LayoutKind::Strip) return std::min(wrap, std::max<int64_t>(elements(), 1));
  return shape[col_axis];
}

std::optional<Cell> GridLayout::cell_of(const std::vector<int64_t>& index) const {
  if (kind == LayoutKind::Strip) {
    // A strip continues past its end and before its start, one row per wrap.
    const int64_t flat = index.empty() ? 0 : ravel(index, shape);
    return Cell{floor_div(flat, wrap), floor_mod(flat, wrap)};
  }
  if (static_cast<int>(index.size()) != rank()) return std::nullopt;
  for (int a : slice_axes())
    if (index[a] != slice[a]) return std::nullopt;
  return Cell{index[row_axis], index[col_axis]};
}

bool GridLayout::inside(Cell c) const {
  if (c.row < 0 || c.col < 0 || c.row >= rows() || c.col >= cols()) return false;
  return kind == LayoutKind::Matrix || c.row * wrap + c.col < elements();
}

std::vector<int64_t> GridLayout::index_at(Cell c) const {
  if (kind == LayoutKind::Strip) {
    const int64_t flat = c.row * wrap + c.col;
    return shape.empty() ? std::vector<int64_t>{} : unravel_unbounded(flat, shape);
  }
  std::vector<int64_t> index = slice;
  index.resize(shape.size(), 0);
  index[row_axis] = c.row;
  index[col_axis] = c.col;
  return index;
}

int64_t GridLayout::offset_at(Cell c) const {
  if (kind == LayoutKind::Strip) return c.row * wrap + c.col;
  // Row-major, without building the index: this runs once per texel.
  int64_t offset = 0, stride = 1;
  for (int a = rank(); a-- > 0;) {
    const int64_t i = a == row_axis ? c.row : a == col_axis ? c.col : (a < static_cast<int>(slice.size()) ? slice[a] : 0);
    offset += i * stride;
    stride *= shape[a];
  }
  return offset;
}

std::vector<int> GridLayout::slice_axes() const {
  std::vector<int> axes;
  if (kind != LayoutKind::Matrix) return axes;
  for (int a = 0; a < rank(); ++a)
    if (a != row_axis && a != col_axis) axes.push_back(a);
  return axes;
}

bool is_dense_row_major(const tl::TraceBuffer& b) {
  if (b.strides.size() != b.shape.size()) return false;
  int64_t expect = 1;
  for (size_t d = b.shape.size(); d-- > 0;) {
    if (b.shape[d] != 1 && b.strides[d] != expect) return false;
    expect *= b.shape[d];
  }
  return b.extent == expect;
}

int64_t default_wrap(int64_t elements) {
  // Small vectors in rows of 32 (a common block size, so blocks line up);
  // large ones nearly square, in a power of two so blocks still line up.
  if (elements <= 32) return std::max<int64_t>(elements, 1);
  if (elements <= 4096) return 32;
  int64_t w = 64;
  while (w * w < elements && w < 8192) w *= 2;
  return w;
}

GridLayout default_layout(const tl::TraceBuffer& b) {
  GridLayout g;
  if (!is_dense_row_major(b)) {
    g.by_storage = true;
    g.shape = {b.extent};
  } else {
    g.shape = b.shape;
  }
  if (g.rank() <= 1) {
    g.kind = LayoutKind::Strip;
    g.wrap = default_wrap(g.elements());
    return g;
  }
  g.kind = LayoutKind::Matrix;
  g.row_axis = g.rank() - 2;
  g.col_axis = g.rank() - 1;
  g.slice.assign(g.shape.size(), 0);
  return g;
}

void unravel_unbounded_into(int64_t flat, const std::vector<int64_t>& shape, int64_t* out) {
  for (size_t d = shape.size(); d-- > 1;) {
    const int64_t n = std::max<int64_t>(shape[d], 1);
    out[d] = floor_mod(flat, n);
    flat = floor_div(flat, n);
  }
  if (!shape.empty()) out[0] = flat;
}

std::vector<int64_t> unravel_unbounded(int64_t flat, const std::vector<int64_t>& shape) {
  std::vector<int64_t> index(shape.size());
  unravel_unbounded_into(flat, shape, index.data());
  return index;
}

int64_t ravel(const std::vector<int64_t>& index, const std::vector<int64_t>& shape) {
  int64_t flat = 0;
  for (size_t d = 0; d < shape.size() && d < index.size(); ++d) flat = flat * shape[d] + index[d];
  return flat;
}

std::string format_index(const std::vector<int64_t>& index) {
  std::string s = "[";
  for (size_t i = 0; i < index.size(); ++i) s += (i ? ", " : "") + std::to_string(index[i]);
  return s + "]";
}

}  // namespace viz
