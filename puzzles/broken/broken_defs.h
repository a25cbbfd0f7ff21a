// The broken kernel definitions, one per b??_*.cpp file. Only the broken
// registry calls these; everything else uses broken/registry.h.
#pragma once
#include "broken/registry.h"

namespace puzzles {

BrokenKernel make_missing_load_mask();           // b01_missing_load_mask.cpp
BrokenKernel make_load_mask_not_store();         // b02_load_mask_not_store.cpp
BrokenKernel make_off_by_one_mask();             // b03_off_by_one_mask.cpp
BrokenKernel make_wrong_row_stride();            // b04_wrong_row_stride.cpp
BrokenKernel make_wrong_program_id_axis();       // b05_wrong_program_id_axis.cpp
BrokenKernel make_max_padded_lanes_win();        // b06_max_padded_lanes_win.cpp
BrokenKernel make_two_programs_same_rows();      // b07_two_programs_same_rows.cpp
BrokenKernel make_read_output_before_write();    // b08_read_output_before_write.cpp
BrokenKernel make_signed_shift_no_mask();        // b09_signed_shift_no_mask.cpp
BrokenKernel make_loop_bound_one_block_short();  // b10_loop_bound_one_block_short.cpp
BrokenKernel make_arange_not_power_of_two();     // b11_arange_not_power_of_two.cpp
BrokenKernel make_dot_shape_mismatch();          // b12_dot_shape_mismatch.cpp
BrokenKernel make_interleaved_wrong_row_stride();  // b13_interleaved_wrong_row_stride.cpp
BrokenKernel make_fixed_point_index_overflow();  // b14_fixed_point_index_overflow.cpp
BrokenKernel make_nibble_shift_in_bytes();       // b15_nibble_shift_in_bytes.cpp
BrokenKernel make_pack_into_i8();                // b16_pack_into_i8.cpp
BrokenKernel make_f16_exponentials();            // b17_f16_exponentials.cpp
BrokenKernel make_codes_in_i8();                 // b18_codes_in_i8.cpp
BrokenKernel make_cumsum_padded_lanes();        // b20_cumsum_padded_lanes.cpp
BrokenKernel make_gather_reverse_off_by_one();  // b21_gather_reverse_off_by_one.cpp
BrokenKernel make_atomic_xchg_one_past_end();   // b22_atomic_xchg_one_past_end.cpp
BrokenKernel make_bitcast_float_offsets();      // b23_bitcast_float_offsets.cpp
BrokenKernel make_dot_operand_without_other();  // b24_dot_operand_without_other.cpp
BrokenKernel make_clamp_index_to_n();           // b25_clamp_index_to_n.cpp
BrokenKernel make_early_return_skips_last_block();  // b26_early_return_skips_last_block.cpp
BrokenKernel make_runaway_loop();                // b19_runaway_loop.cpp (hidden)

}  // namespace puzzles
