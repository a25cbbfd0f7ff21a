// The examples of ../shared/EXAMPLES.md, one Puzzle per kernel variant.
// Only the registry calls these; everything else looks examples up through
// registry.h (all_examples, find_puzzle).
#pragma once
#include "puzzle.h"

namespace puzzles {

Puzzle make_e1_two_accumulators();  // e1_split_activation.cpp: "e1_v1"
Puzzle make_e1_interleaved();       // e1_split_activation.cpp: "e1_v2"
Puzzle make_e2_quant_pack();        // e2_quant_pack.cpp: "e2"
Puzzle make_e3_dequant_unpack();    // e3_dequant_unpack.cpp: "e3"
Puzzle make_e4_fused();             // e4_packed_weight_grad.cpp: "e4_fused"
Puzzle make_e4_split_k();           // e4_packed_weight_grad.cpp: "e4_splitk"
Puzzle make_e4_rows();              // e4_packed_weight_grad.cpp: "e4_rows"
Puzzle make_e5_relu_forward();      // e5_relu_bitmask.cpp: "e5_fwd"
Puzzle make_e5_relu_backward();     // e5_relu_bitmask.cpp: "e5_bwd"

}  // namespace puzzles
