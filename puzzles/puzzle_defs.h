// The twelve puzzle definitions, one per p??_*.cpp file. Only the registry
// calls these; everything else looks puzzles up through registry.h.
#pragma once
#include "puzzle.h"

namespace puzzles {

Puzzle make_add();                      // p01_add.cpp
Puzzle make_add_block();                // p02_add_block.cpp
Puzzle make_outer_add();                // p03_outer_add.cpp
Puzzle make_outer_add_block();          // p04_outer_add_block.cpp
Puzzle make_outer_mul_relu();           // p05_outer_mul_relu.cpp
Puzzle make_outer_mul_relu_backward();  // p06_outer_mul_relu_backward.cpp
Puzzle make_long_sum();                 // p07_long_sum.cpp
Puzzle make_long_softmax();             // p08_long_softmax.cpp
Puzzle make_flash_attention();          // p09_flash_attention.cpp
Puzzle make_conv2d();                   // p10_conv2d.cpp
Puzzle make_batched_matmul();           // p11_batched_matmul.cpp
Puzzle make_quant_matmul();             // p12_quant_matmul.cpp

}  // namespace puzzles
