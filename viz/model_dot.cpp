#include "model_dot.h"

namespace viz {

std::string DotShapes::describe() const {
  if (!valid) return "(not a dot)";
  const std::string b = batch ? std::to_string(batch) + ", " : "";
  return "[" + b + std::to_string(m) + ", " + std::to_string(k) + "] x [" + b + std::to_string(k) + ", " +
         std::to_string(n) + "] -> [" + b + std::to_string(m) + ", " + std::to_string(n) + "]";
}

DotShapes dot_shapes(const tl::Event& e) {
  DotShapes s;
  if (e.kind != tl::EventKind::Dot) return s;
  const tl::ir::Shape &a = e.a_shape, &b = e.b_shape, &c = e.shape;
  if (a.size() == 2 && b.size() == 2 && c.size() == 2) {
    s = {0, a[0], a[1], b[1], true};
  } else if (a.size() == 3 && b.size() == 3 && c.size() == 3 && a[0] == b[0] && a[0] == c[0]) {
    s = {a[0], a[1], a[2], b[2], true};
  } else {
    return s;
  }
  // The trace format promises agreement; a trace that breaks it shows no relation.
  const int64_t cm = c[c.size() - 2], cn = c[c.size() - 1], bk = b[b.size() - 2];
  s.valid = cm == s.m && cn == s.n && bk == s.k;
  return s;
}

CellBounds dot_tile_bounds(const DotShapes& s, DotOperand which) {
  switch (which) {
    case DotOperand::A: return {0, 0, s.m, s.k};
    case DotOperand::B: return {0, 0, s.k, s.n};
    case DotOperand::C: return {0, 0, s.m, s.n};
  }
  return {};
}

DotHighlight dot_highlight(const DotShapes& s, DotOperand hovered, Cell cell) {
  DotHighlight h;
  if (!s.valid || !dot_tile_bounds(s, hovered).contains(cell)) return h;
  switch (hovered) {
    case DotOperand::C:  // C[m, n]: A row m, B column n
      h.c = {cell.row, cell.col, cell.row + 1, cell.col + 1};
      h.a = {cell.row, 0, cell.row + 1, s.k};
      h.b = {0, cell.col, s.k, cell.col + 1};
      break;
    case DotOperand::A:  // A[m, k] feeds C's row m, through B's row k
      h.a = {cell.row, cell.col, cell.row + 1, cell.col + 1};
      h.b = {cell.col, 0, cell.col + 1, s.n};
      h.c = {cell.row, 0, cell.row + 1, s.n};
      break;
    case DotOperand::B:  // B[k, n] feeds C's column n, through A's column k
      h.b = {cell.row, cell.col, cell.row + 1, cell.col + 1};
      h.a = {0, cell.row, s.m, cell.row + 1};
      h.c = {0, cell.col, s.m, cell.col + 1};
      break;
  }
  return h;
}

}  // namespace viz
