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
Puzzle make_e6_split_k_semaphore();  // e6_split_k_semaphore.cpp: "e6_splitk_sem"
Puzzle make_e7_last_program_reduces();  // e7_last_program_reduces.cpp: "e7_last_reduces"

// Broken variants of E6 and E7, run on their example's inputs and sizes:
// a flag never raised (every waiting program deadlocks), a flag raised
// with relaxed ordering and a relaxed counter (races on the partials).
const tl::KernelDef& e6_flag_never_raised();
const tl::KernelDef& e6_relaxed_flag();
const tl::KernelDef& e7_relaxed_count();

}  // namespace puzzles
