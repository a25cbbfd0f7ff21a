// The dot view: the A, B and C tiles of a dot event and how their cells
// relate. A dot event records shapes only (the values live in registers),
// so the view shows the index relation C[m, n] = sum_k A[m, k] * B[k, n]:
// hovering C[m, n] lights A's row m and B's column n; hovering A[m, k]
// lights C's row m; hovering B[k, n] lights C's column n.
#pragma once
#include <cstdint>
#include <string>

#include "model_layout.h"
#include "trace.h"

namespace viz {

struct DotShapes {
  int64_t batch = 0;  // 0: not batched; else the leading dimension of all three
  int64_t m = 0, k = 0, n = 0;
  bool valid = false;
  std::string describe() const;  // "[16, 32] x [32, 16] -> [16, 16]"
};
DotShapes dot_shapes(const tl::Event& e);

enum class DotOperand { A, B, C };

// Cells of each operand tile (one batch slice, rows x cols) highlighted for
// a hovered cell of one operand.
struct DotHighlight {
  CellBounds a, b, c;
};
DotHighlight dot_highlight(const DotShapes& s, DotOperand hovered, Cell cell);

// The operand tile's grid size: A is m x k, B is k x n, C is m x n.
CellBounds dot_tile_bounds(const DotShapes& s, DotOperand which);

}  // namespace viz
