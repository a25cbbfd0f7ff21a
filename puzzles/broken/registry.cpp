#include "broken/registry.h"

#include <fstream>
#include <string>

#include "broken/broken_defs.h"

namespace puzzles {

const std::vector<BrokenKernel>& all_broken() {
  static const std::vector<BrokenKernel> list = [] {
    std::vector<BrokenKernel> v;
    v.push_back(make_missing_load_mask());
    v.push_back(make_load_mask_not_store());
    v.push_back(make_off_by_one_mask());
    v.push_back(make_wrong_row_stride());
    v.push_back(make_wrong_program_id_axis());
    v.push_back(make_max_padded_lanes_win());
    v.push_back(make_two_programs_same_rows());
    v.push_back(make_read_output_before_write());
    v.push_back(make_signed_shift_no_mask());
    v.push_back(make_loop_bound_one_block_short());
    v.push_back(make_arange_not_power_of_two());
    v.push_back(make_dot_shape_mismatch());
    v.push_back(make_interleaved_wrong_row_stride());
    v.push_back(make_fixed_point_index_overflow());
    v.push_back(make_nibble_shift_in_bytes());
    v.push_back(make_pack_into_i8());
    v.push_back(make_f16_exponentials());
    v.push_back(make_codes_in_i8());
    v.push_back(make_cumsum_padded_lanes());
    v.push_back(make_gather_reverse_off_by_one());
    v.push_back(make_atomic_xchg_one_past_end());
    v.push_back(make_bitcast_float_offsets());
    v.push_back(make_dot_operand_without_other());
    v.push_back(make_clamp_index_to_n());
    v.push_back(make_early_return_skips_last_block());
    return v;
  }();
  return list;
}

const std::vector<BrokenKernel>& hidden_broken() {
  static const std::vector<BrokenKernel> list = {make_runaway_loop()};
  return list;
}

const BrokenKernel* find_broken(std::string_view name) {
  constexpr std::string_view kPrefix = "broken/";
  if (name.starts_with(kPrefix)) name.remove_prefix(kPrefix.size());
  for (const BrokenKernel& b : all_broken())
    if (b.name == name) return &b;
  for (const BrokenKernel& b : hidden_broken())
    if (b.name == name) return &b;
  return nullptr;
}

int bug_line(const BrokenKernel& b) {
  std::ifstream in(b.source_file);
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (line.find("// BUG") != std::string::npos) return number;
  }
  return 0;
}

}  // namespace puzzles
