// The code generator's state while it walks one kernel's IR. Internal to
// gpu/: codegen.cpp holds the structure (signature, registers, control
// flow), the other codegen_*.cpp files one family of ops each.
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "codegen.h"
#include "codegen_pipeline_plan.h"
#include "tile_layout.h"

namespace tl::gpu::detail {

// Row-major strides of a shape.
std::vector<int64_t> row_major_strides(const ir::Shape& s);

// Whether `op` computes each element from the same element of its operands.
bool is_elementwise(ir::Op op);
// f16 or bf16: computed in float, and their CUDA types need their headers.
inline bool is_half(DType d) { return d == DType::f16 || d == DType::bf16; }
// A 16-bit float's bits as an unsigned short, and back: the CUDA call to
// open with (the caller adds the operand and the closing parenthesis).
inline std::string half_as_bits_call(DType d) { return d == DType::bf16 ? "__bfloat16_as_ushort(" : "__half_as_ushort("; }
inline std::string half_from_bits_call(DType d) {
  return d == DType::bf16 ? "__ushort_as_bfloat16((unsigned short)" : "__ushort_as_half((unsigned short)";
}
// Whether a reduction of a `rank`-D tile of `d` takes the shuffle tree
// (reduce_tree): over the last axis, with a combine whose order does not
// change the result; else it walks the axis in order (reduce_serial).
bool reduced_by_tree(const ir::Instr& in, DType d, size_t rank);

// Whether `in` is one of b's own instructions (not in a nested block).
inline bool directly_in(const ir::Block& b, const ir::Instr* in) {
  return std::any_of(b.instrs.begin(), b.instrs.end(), [&](const ir::Instr& x) { return &x == in; });
}

// The producer's ops of a loop CodegenOptions::warp_specialize took would
// need a block barrier: lower() lowers the kernel again without the roles.
class NotSpecializable : public CodegenError {
 public:
  using CodegenError::CodegenError;
};

class Emitter {
 public:
  Emitter(const ir::Kernel& k, const CodegenOptions& opt);
  LoweredKernel run();

 private:
  // ---- codegen.cpp: structure ----------------------------------------------
  std::string function_name() const;
  std::string param_name(int index) const;
  // program_id(axis) and num_programs(axis) as CUDA expressions: blockIdx
  // and gridDim, or the logical program of a persistent kernel.
  std::string program_id_expr(int axis) const;
  std::string num_programs_expr(int axis) const;
  std::string signature() const;
  void block(const ir::Block& b);
  // The body twice, instruction by instruction, for programs a and b
  // (CodegenOptions::persistent_interleave).
  void interleaved_body();
  void instr(const ir::Instr& in);
  void for_loop(const ir::Instr& in);
  // The `for` of range loop `in` (Python's range semantics, as the
  // interpreter's), its loop variable defined inside.
  void open_range_loop(const ir::Instr& in);
  // A loop with wgmma groups in flight: its dots' accumulators opaque before it.
  void fence_loop_accumulators(const ir::Instr& loop);
  void if_block(const ir::Instr& in);
  void while_loop(const ir::Instr& in);
  void comment(const ir::Instr& in);

  // Output helpers.
  void line(const std::string& s);
  void open(const std::string& head);  // "head {" and indent
  void close();
  // `} else {` between an open("if (...)") and its close().
  void open_else();
  // Runs `body` once per slot: a fully unrolled loop over `s`, or slot "0".
  void for_slots(int64_t slots, const std::function<void(const std::string& slot)>& body);

  // Registers.
  const ir::Type& type(int r) const { return k_.regs[r].type; }
  // The layout in which at() reads the register now (a converted copy's
  // while its instruction is emitted).
  TileLayout layout(int r) const;
  TileLayout layout_of(const ir::Shape& s) const;
  std::string name(int r) const { return "r" + std::to_string(r) + copy_suffix_; }
  // The register's value in one slot: "r5" for 0-d values, "r5[s]" else.
  std::string at(int r, const std::string& slot) const;
  std::string reg_type(int r) const;    // "float", "float*" for pointer tiles
  std::string const_type(int r) const;  // "const float", "float* const"
  // Declares the register at its first definition (arrays uninitialized).
  void declare(int r);
  // dst[slot] = expr(slot) for every slot; a single-definition 0-d value
  // becomes `const T r = expr;`.
  void assign(int dst, const std::function<std::string(const std::string& slot)>& expr);
  // The element index (an expression in `tid`) a thread holds in `slot`.
  std::string element(const TileLayout& l, const std::string& slot);
  // In runs (TileLayout::vec > 1): the first element of slot's run.
  std::string run_start(const TileLayout& l, const std::string& slot);
  // The coordinates of that element in a tile of `shape` (l.n elements).
  std::vector<std::string> element_coordinates(const TileLayout& l, const ir::Shape& shape, const std::string& slot);
  // A store from the MMA layout, its column pairs 8 bytes at a time where they can be.
  void store_column_pairs(const ir::Instr& in, const TileLayout& l);
  // The slot expressions store_column_pairs reads a pair's two slots at:
  // the longest any code reads an MMA-layout slot at, so what recomputes
  // there (within remat's length limit) recomputes at "s" too.
  static constexpr const char* kPairSlotFirst = "2 * ts_p";
  static constexpr const char* kPairSlotSecond = "2 * ts_p + 1";
  // "" when every thread owns its elements, else the condition under which
  // this thread is the one owner of its (replicated) element.
  std::string owner_guard(const TileLayout& l);
  // Grows the shared-memory size the kernel asks for.
  void need_smem(int64_t bytes);
  [[noreturn]] void fail(const ir::Instr& in, const std::string& what) const;

  // ---- codegen_values.cpp: leaves and elementwise ops -----------------------
  void leaf(const ir::Instr& in);
  void elementwise(const ir::Instr& in);
  std::string constant_literal(DType d, int64_t ival, double fval) const;
  std::string unary_expr(const ir::Instr& in, DType d, const std::string& x) const;
  std::string binary_expr(const ir::Instr& in, DType d, const std::string& a, const std::string& b) const;
  // One element of an elementwise op, from its operands' expressions.
  std::string elementwise_expr(const ir::Instr& in, const std::vector<std::string>& args) const;
  // Whether i32 register r is known to lie in [0, limit) (a cast's fast path).
  bool nonneg_below(int r, int64_t limit) const;
  // Register r's value where it is a constant in [0, limit) (every element).
  std::optional<int64_t> small_constant(int r, int64_t limit) const;
  // A cast i32 -> f32 of `x & mask` (mask a constant below 2^23, through
  // copies and reshapes of one layout): x's register and the mask, for one
  // lop3 with the exponent's bits (ts_u23_mask_to_f32).
  std::optional<std::pair<int, int64_t>> masked_u23(const ir::Instr& cast) const;
  // codegen_math.cpp: erf, log1p, expm1, rint, round, pow, umulhi.
  std::string math_expr(const ir::Instr& in, DType d, const std::vector<std::string>& args) const;

 public:
  // Also used by the dot and memory emitters (and tests through lower()).
  static std::string cast_expr(DType from, DType to, const std::string& x);
  static std::string cast_rtz_expr(DType from, DType to, const std::string& x);  // codegen_math.cpp
  static std::string widen(DType d, const std::string& x);   // f16/bf16 -> float, else x
  static std::string narrow(DType d, const std::string& x);  // float -> f16/bf16, else x
  static std::string compute_type(DType d);                  // "float" for f16/bf16
  // The lanes of a mask tile along one axis that may be true (mask_lanes).
  enum class Lanes { Same, Prefix, Suffix, Interval, Unknown };

 private:
  // ---- codegen_movement.cpp: broadcast, reshape, permute -------------------
  void movement(const ir::Instr& in);
  // Writes tile `r` into shared memory at `byte_offset` as `ctype` values
  // (row-major by element), converting with `convert` (x -> expr). The
  // caller sizes the buffer (need_smem) and places the barrier.
  void spill_to_smem(int r, const std::string& var, const std::string& ctype, int64_t byte_offset,
                     const std::function<std::string(const std::string&)>& convert);
  // The coordinate along one axis of element expression `e` in a tile.
  static std::string coordinate(const std::string& e, const ir::Shape& shape, size_t axis);
  // The row-major flat index of the element at `coords` in `shape` (the
  // inverse of coordinate); axes of extent 1 add nothing.
  static std::string flat_index(const std::vector<std::string>& coords, const ir::Shape& shape);

  // ---- codegen_reduce.cpp: sum, max, min, argmax, argmin -----------------------
  void reduce(const ir::Instr& in);
  void reduce_tree(const ir::Instr& in);
  void reduce_serial(const ir::Instr& in);
  std::string combine_expr(const ir::Instr& in, DType d, const std::string& a, const std::string& b) const;

  // ---- codegen_scan.cpp: scans, sorts and permutations ----------------------
  // Scan, ReduceWith, Sort, Flip, Join, Split, Gather, Histogram: operands
  // to shared memory, each result element read back. Sort first writes
  // each element at its rank in its row (sort_ranks); a scan or combine
  // reduction walks `len` elements `inner` apart (combine_walk).
  void through_shared_memory(const ir::Instr& in);
  void sort_ranks(const ir::Instr& in, int64_t sort_out, int64_t len);
  std::string combine_walk(const ir::Instr& in, int64_t len, int64_t inner);
  std::string gather_value(const ir::Instr& in, const std::string& slot, int64_t len, int64_t inner);
  std::string histogram_value(const ir::Instr& in);

  // ---- codegen_remat.cpp: index arithmetic recomputed instead of moved --------
  // The value of register `r` at the element with these coordinates, as an
  // expression of scalars, constants and the coordinates; nullopt when `r`
  // is not pure index arithmetic (a load, a reduction, a reassigned value).
  std::optional<std::string> remat(int r, const std::vector<std::string>& coords, int depth) const;
  // The same for the value instruction `in` computes.
  std::optional<std::string> remat_instr(const ir::Instr& in, const std::vector<std::string>& coords, int depth) const;
  // Emits a broadcast/reshape/permute by rematerialization if it can.
  // `period` > 0: the move's sources repeat every `period` slots, which
  // are read once and copied.
  bool try_remat_move(const ir::Instr& in, int64_t period = 0);
  // The move being rematerialized: loads it reaches may be read again at
  // its elements (reload_allowed) instead of being moved.
  const ir::Instr* reload_at_ = nullptr;
  bool reload_allowed(const ir::Instr& load, const ir::Instr& use) const;
  // Every instruction's block and program-order index; the indices of
  // stores and atomics, sorted.
  std::map<const ir::Instr*, std::pair<const ir::Block*, int64_t>> position_;
  std::vector<int64_t> writes_;
  // While set, remat() evaluates for another iteration of a loop: the loop
  // variable reads as `value`, 0-d values its body defines are recomputed.
  struct LoopSubst {
    int var;
    std::string value;
    const std::vector<char>* in_body;  // per register: defined inside the loop's body
  };
  mutable std::optional<LoopSubst> loop_subst_;

  // ---- codegen_pipeline.cpp: dot operands loaded by cp.async ---------------
  // A load staged by cp.async or TMA, and a pipelined loop's plan (codegen_pipeline_plan.h).
  using StagedLoad = detail::StagedLoad;
  using Pipeline = detail::Pipeline;
  // ---- codegen_wgmma.cpp: wgmma dots (dot_mma_fragments, operands in place) --
  // tf32 from staged K-major tiles; as C^T = B^T A^T with B^T read into
  // registers from B's rows of b_stride; 16-bit by descriptors.
  void wgmma_tf32(const ir::Instr& in, Pipeline& p, const std::string& a_base, const std::string& b_base);
  int64_t tf32_k_offset(const StagedLoad& s, int64_t kk) const;
  void wgmma_tf32_transposed(const ir::Instr& in, Pipeline& p, const std::string& a_base, const std::string& b_base,
                             int64_t b_stride);
  void wgmma_16bit(const ir::Instr& in, Pipeline& p, const std::string& a_base, const std::string& b_base);
  // C^T = B^T A^T with B^T from x's registers (Pipeline::wgmma_register_a)
  // and A's staged tile, at a_base, as wgmma's B.
  void wgmma_16bit_register_a(const ir::Instr& in, Pipeline& p, const std::string& a_base);
  // Slots lo and hi of 16-bit register x as one 32-bit word, lo in the low half.
  std::string packed_pair(int x, const std::string& lo, const std::string& hi);
  // How a 16-bit wgmma reads staged (or stage-written) operand x of `rows`
  // rows (m of A, n of B) and K columns, from `base`.
  struct Wgmma16Operand {
    bool mn_major = false;
    std::string at;                   // the start of warpgroup 0's rows, k step 0
    int64_t k_step = 0, wg_step = 0;  // elements a k16 step and a warpgroup's 64 rows on
    std::string tail;                 // the descriptor call's other arguments
    bool swizzled = false;
    std::string descriptor(const std::string& offset) const;
  };
  Wgmma16Operand wgmma16_operand(const Pipeline& p, int x, const std::string& base, int64_t rows, int64_t K) const;
  // A 16-bit operand from registers into its stage region through `var`.
  void wgmma_from_registers(const Pipeline& p, int x, bool is_a, const std::string& var);
  // Whether a thread of x's layout holds one whole column of K values (a
  // B operand written K-major by 16-byte stores).
  bool one_column_a_thread(int x) const;
  void vectorize_register_operand(const Pipeline& p, int x);
  // The group's commit, then its wait (wgmma_group_done) or, waited for at
  // once, the wait and the fence of dot `in`'s result.
  void end_wgmma_group(Pipeline& p, const ir::Instr& in);
  // An empty asm on each of register r's slots: nothing moves across it.
  void fence_operands(int r);
  // Pipeline::late_issue: the barrier and the copies after the last dot's wait.
  void issue_after_wait(Pipeline& p);
  // The copies of the iteration `ahead` on, if the loop runs it, and their commit.
  void issue_ahead(const Pipeline& p);
  // The other loads' reads ahead (Pipeline::prefetched), if any.
  void read_ahead(const Pipeline& p);
  // codegen_tma.cpp: one thread's TMA boxes for stage `stage` (inside issue_copies).
  // With `refill`, the stage held an earlier iteration's operands (issue_ahead).
  // `reused`: the condition under which a refill's stage held operands
  // before ("": after the loop's first iteration).
  void issue_tma(const Pipeline& p, const std::string& stage, bool refill, const std::string& reused = "");
  // A wgmma dot's group is committed (or its pair's): after the body's last
  // dot, the wait that leaves this iteration's groups in flight.
  void wgmma_group_done(Pipeline& p, int accumulator);
  // codegen_tma.cpp: whether staged load `s` is a plain rectangle of a 2-D
  // tensor the TMA unit can copy, and how.
  struct TmaMatch {
    TensorMapSpec spec;
    int inner_x = -1, outer_x = -1, batch_x = -1;
  };
  std::optional<TmaMatch> tma_match(const StagedLoad& s) const;
  std::optional<TensorMapSpec::Value> launch_value(int r) const;
  // a * b where the launcher can compute it (at most two parameters, i32).
  static std::optional<TensorMapSpec::Value> launch_product(TensorMapSpec::Value a, TensorMapSpec::Value b);
  // codegen_tma.cpp: the grid axis whose neighbours can share p's staged
  // tiles in clusters of two (CodegenOptions::cluster_multicast), or -1.
  int multicast_axis(const Pipeline& p) const;
  // Whether both programs of a cluster along `axis` copy staged load s's box alike.
  bool shared_in_cluster(const StagedLoad& s, int axis) const;
  // Whether register r's value depends on program_id(axis).
  bool depends_on_program_id(int r, int axis) const;
  // Whether 1-D index register r is r[0] + i (codegen_pipeline.cpp's steps).
  bool unit_step(int r) const;
  // Whether tile register r climbs by one along its last axis (a pointer:
  // neighbouring columns are neighbouring elements).
  bool unit_step_along_last(int r) const;
  // Which lanes along `axis` mask tile `mask` may hold true, by the shape of
  // the set (codegen_pipeline_plan.cpp): copy_vector tests a vector's first
  // and last lanes instead of all of them where the shape allows.
  Lanes mask_lanes(int mask, int axis) const;
  std::vector<TensorMapSpec> tensor_maps_;
  // ---- codegen_wgmma_plan.cpp: wgmma's side of the pipeline plan ----------
  // Whether p's dots can all run wgmma from its staged loads (and, 16-bit,
  // from registers).
  bool wgmma_fits(const Pipeline& p) const;
  // Whether wgmma reads dot operand x, staged as `sl` (through a transpose
  // or not), by descriptor, k being x's axis k_axis: tf32 K-major only;
  // 16-bit either way, as its first use staged it.
  bool wgmma_reads_staged(const StagedLoad& sl, int x, bool transposed, size_t k_axis, bool tf32) const;
  // A wgmma pipeline's stage layout: its staged tiles (core matrices or
  // swizzled rows; `register_read` keeps its padded rows) and its operands
  // from registers (Pipeline::reg_n_major).
  void place_wgmma_operands(Pipeline& p, int register_read);
  // Pipeline::small_offsets, after the stage's other regions.
  void place_small_loads(Pipeline& p) const;
  // Where p's one dot can run wgmma as C^T = B^T A^T (Pipeline::wgmma_transposed):
  // the kernel's only tensor-core dot, tf32, A K-major and B N-major staged,
  // and every tile in the MMA layout able to take the transposed one. Its
  // B's staged load register (read into registers), or nullopt.
  std::optional<int> wgmma_transposed_b(const Pipeline& p) const;
  // Where p's 16-bit dots can run as C^T = B^T A^T with their one B,
  // computed in registers, fed to wgmma as A (Pipeline::wgmma_register_a):
  // that B's register, or nullopt.
  std::optional<int> wgmma_register_a_operand(const Pipeline& p) const;
  // That B, and the body's elementwise ops, casts, reshapes and broadcasts
  // of its shape it is computed from, in the transposed MMA layout.
  void hold_as_wgmma_a(const Pipeline& p, int x);
  // Whether dot `in` of p's body may accumulate into its accumulator's own
  // registers: the loop reads that accumulator only here, and the result
  // only goes back into it (the loop-carried copy), so a wgmma group may
  // stay in flight across iterations.
  bool wgmma_accumulates_in_place(const ir::Instr& in, const Pipeline& p) const;
  // The element offset of vector (ts_o, ts_i) of a staged load in its region.
  std::string staged_offset(const StagedLoad& s, const std::string& row, const std::string& col) const;
  std::set<int64_t> wgmma_widths_;  // the N of each wgmma helper the kernel needs
  std::set<int64_t> wgmma_rs_widths_;  // the same for A from registers (Pipeline::wgmma_transposed)
  std::set<int64_t> wgmma_pair_widths_;  // the same for fused pairs (twice one dot's N)
  // 16-bit wgmma helpers with A from registers: (N, bf16, B N-major).
  std::set<std::tuple<int64_t, bool, bool>> wgmma16_rs_helpers_;
  // 16-bit wgmma helpers: (N, bf16 rather than f16, A M-major, B N-major).
  std::set<std::tuple<int64_t, bool, bool, bool>> wgmma16_helpers_;
  // The wgmma helpers those widths need (codegen_wgmma.cpp), for the source's head.
  std::string wgmma_helpers() const;
  // Whether dots x and then y of p's body can run as one wgmma (Pipeline::wgmma_pairs).
  bool wgmma_pairable(const ir::Instr& x, const ir::Instr& y, const Pipeline& p) const;
  bool swizzled_stages_ = false;     // some stage holds 128-byte swizzled rows: 1024-byte alignment
  // Pipeline planning (codegen_pipeline_plan.cpp), one loop at a time: the
  // loads and register operands staged for its dots, the wgmma form (the
  // register operand it reads, or -1), loads read ahead, stages, TMA,
  // paired dots; then, over all loops, clusters and decoupled warpgroups.
  using Uses = std::vector<std::vector<std::pair<const ir::Instr*, size_t>>>;
  void plan_pipelines();
  void plan_pipeline(const ir::Instr& loop, const Uses& uses);
  void stage_dot_loads(Pipeline& p, const Uses& uses);
  void stage_register_operands(Pipeline& p);
  int choose_wgmma_form(Pipeline& p);
  void plan_reads_ahead(Pipeline& p);
  void choose_stages(Pipeline& p);
  void plan_tma(Pipeline& p, int register_read);
  void pair_wgmma_dots(Pipeline& p);
  void plan_clusters_and_decoupling();
  // Pipeline::empty_arrivals and the barriers' place after the stages'.
  void add_empty_barriers(Pipeline& p, int arrivals);

  // ---- codegen_warp_specialize.cpp: a producer warpgroup and consumer warps ----
  // Pipeline::specialized where the kernel's one pipelined loop has the
  // shape CodegenOptions::warp_specialize takes.
  void plan_warp_specialization();
  // The loop in both roles, and its cp.async form for launches without
  // tensor maps (for_loop with the roles off).
  void specialized_loop(const ir::Instr& in, Pipeline& p);
  void producer_loop(const ir::Instr& in, Pipeline& p);
  void consumer_loop(const ir::Instr& in, Pipeline& p);
  // Consumer warps: this iteration's stage is full (publish_stage), and
  // the previous one's groups are retired, so its stage goes back
  // (wgmma_group_done).
  void wait_full_stage(Pipeline& p);
  void release_previous_stage(const Pipeline& p);
  std::string small_barrier_of(const Pipeline& p, const std::string& stage) const;
  // The producer's pf<reg> registers of 16-bit loads hold their bits in a
  // 32-bit register each (uint32_t), written back as the value: as 16-bit
  // values NVCC packed two into one register, with a PRMT right after each
  // load that waited for it (the load's whole latency, every iteration).
  bool pf_wide_ = false;
  // Whether `in`, directly in the specialized loop's body, is emitted by
  // the role being emitted (role_).
  bool in_role(const ir::Instr& in) const;
  enum class Role { all, producer, consumer };
  Role role_ = Role::all;
  bool specialized_any_ = false;
  // The block's threads: the consumers' threads_, and a producer warpgroup
  // with warp specialization.
  int block_threads() const { return threads_ + (specialized_any_ ? producer_threads() : 0); }
  int producer_threads() const { return 128 * producer_warpgroups_; }
  // The producer's warpgroups: CodegenOptions::producer_warpgroups, unless
  // plan_warp_specialization keeps one (a dot the count at entry cannot take).
  int producer_warpgroups_ = 1;
  // Whether staged tile s has 64 columns a warpgroup of whole warpgroups
  // (each warpgroup's C^T rows of B^T: written_transposed, decoupled).
  bool sixty_four_columns_a_warpgroup(const StagedLoad& s) const {
    return threads_ % 128 == 0 && s.inner == 64 * (threads_ / 128);
  }
  std::optional<StagedLoad> stage_plan(const ir::Instr& load, const Pipeline& p) const;
  // While one lives, remat() evaluates for the iteration of p's loop where
  // the loop variable is `value`.
  class AtIteration {
   public:
    AtIteration(const Emitter& e, const Pipeline& p, const std::string& value) : e_(e) {
      e_.loop_subst_ = LoopSubst{p.loop->dst, value, &p.in_body};
    }
    ~AtIteration() { e_.loop_subst_.reset(); }
    AtIteration(const AtIteration&) = delete;
    AtIteration& operator=(const AtIteration&) = delete;

   private:
    const Emitter& e_;
  };
  // One staged vector's copy into the stage at ts_stage (issue_copies
  // declares it): cp.async, zeros, or element by element.
  // With `warpgroup_columns` > 0 the copies of one warpgroup (for_vectors
  // with 128 threads): that many vectors of each row, its own columns.
  void copy_vector(const StagedLoad& s, int64_t warpgroup_columns = 0);
  // The global side of the vector of staged load s at (ts_o, ts_i), as
  // copy_vector and transposed_loads read it: emits ts_src (its first
  // element) and the mask lanes it tests; returns when every lane is read,
  // when none is, and the value of lane ts_e.
  struct VectorRead {
    std::string all, none, element;
  };
  VectorRead vector_read(const StagedLoad& s);
  // ---- codegen_transposed_stage.cpp: StagedLoad::written_transposed ------
  // Whether staged load s can be written so: f32 rows of 32 k values (one
  // 128-byte swizzled row each way), n a multiple of 32, 64 n a warpgroup.
  bool fits_written_transposed(const StagedLoad& s) const;
  // A transposed dot's register-read tile the TMA unit can copy in x's
  // layout (StagedLoad::register_read, CodegenOptions::wgmma_b_tma).
  bool fits_b_by_tma(const StagedLoad& s) const;
  // How many refills its register sets stay ahead of their stores: two
  // (two sets alternating) where the loop copies three or more iterations
  // ahead, else what the stages allow (0: read and stored at once).
  int transposed_depth(const Pipeline& p) const;
  // Its registers, declared before the loop's prologue.
  void declare_transposed_registers(const Pipeline& p);
  // The helper its stores call (ts_rotate4), for the source's head where a
  // pipeline writes a tile transposed (every other kernel's text stays as it was).
  std::string transposed_stage_helpers() const;
  // Its vectors, for the iteration of the current AtIteration, into
  // register set `set`; that set into stage `stage`, K-major and swizzled,
  // and the fence that hands the generic-proxy stores to wgmma's async proxy.
  void transposed_loads(const Pipeline& p, int set);
  void transposed_stores(const Pipeline& p, int set, const std::string& stage);
  // The prologue's copy for stage `t` (an expression), under issue_copies'
  // AtIteration: stored at once, but the last `depth` stages'.
  void transposed_prologue(const Pipeline& p, const std::string& t);
  // An iteration's refill, right after its stage is published: the set read
  // `depth` refills before into its stage, then that set's next reads.
  void transposed_refill(const Pipeline& p);
  // The condition under which `loop` runs an iteration with loop variable `value`.
  std::string loop_runs(const ir::Instr& loop, const std::string& value) const;
  // True from the pipelined loop's second iteration on (a C++ condition).
  std::string after_first_iteration(const Pipeline& p) const;
  // The pipeline whose loop body holds `in` directly, or null.
  Pipeline* pipeline_of(const ir::Instr& in) const;
  // Emits `body` once per 16-byte vector of a staged tile, `ts_v` its index
  // (vectors dealt round-robin to the threads, consecutive ones to
  // consecutive threads). `rolled` keeps the loop over a thread's vectors
  // rolled (code run once, where size costs more than speed).
  void for_vectors(int64_t vectors, const std::function<void()>& body, bool rolled = false, bool by_warpgroup = false);
  // The staged load behind dot operand `r` (the load itself or its
  // transpose) in pipeline `p`, or null; *transposed says which.
  const StagedLoad* staged_operand_in(const Pipeline& p, int r, bool* transposed) const;
  // Which of a TMA pipeline's two ways issue_copies emits: both behind
  // `if (ts_tma_ok)` (Both), or one of them alone, inside the caller's own
  // test (the prologue's TMA copies unrolled, its cp.async fallback rolled).
  enum class CopyPath { Both, Tma, CpAsync };
  // Copies of every staged load for the iteration where the loop variable
  // is `value`, into stage `stage` (an expression); `rolled` as for_vectors.
  void issue_copies(const Pipeline& p, const std::string& value, const std::string& stage, bool rolled = false,
                    bool refill = false, CopyPath path = CopyPath::Both);
  // At the first dot of an iteration: waits for and publishes this
  // iteration's stage, then issues the copies of a later one.
  void publish_stage(Pipeline& p);
  // The address of stage `stage`'s empty mbarrier (Pipeline::cluster_axis).
  std::string empty_barrier_of(const Pipeline& p, const std::string& stage) const;
  // The address of stage `stage`'s mbarrier (Pipeline::tma).
  std::string barrier_of(const Pipeline& p, const std::string& stage) const;
  // Reads the prefetched loads for the iteration where the loop variable
  // is `value` into their pf<reg> arrays.
  // Pipeline::small_in_stage: the prefetched values into stage `stage`'s
  // regions, and one element of a load's region in the current stage.
  void write_small_loads(const Pipeline& p, const std::string& stage);
  std::string small_load_at(const Pipeline& p, int reg, const std::string& flat_index) const;
  // `suffix`: into pf<reg><suffix> (warp specialization keeps two sets).
  void prefetch_loads(const Pipeline& p, const std::string& value, const std::string& suffix = "");
  // Cuts this thread's staged f32 vectors of stage `stage` to tf32 in place.
  void round_staged(const Pipeline& p, const std::string& stage);
  std::vector<Pipeline> pipelines_;
  Pipeline* active_ = nullptr;  // the pipeline of the loop being emitted
  std::vector<char> skipped_;   // registers a pipeline computes itself (staged loads, their transposes)
  int64_t pipe_bytes_ = 0;      // shared memory above every op's scratch, for the pipelines
  bool used_pipeline_ = false;

  // ---- codegen_layout.cpp: which registers live in the MMA layout -----------
  // Fills layouts_: tensor-core dot results, what is computed elementwise
  // from them and the loop-carried accumulators they feed take the MMA
  // layout; everything else is striped.
  void assign_layouts();
  void assign_row_runs();
  // The registers x is computed from along with it, x included: back from
  // x's definition through each argument `reach` joins, not past a
  // definition whose op `through` refuses (a move that reads its source at
  // any layout's elements). nullopt once `reach` aborts on an argument.
  // (The layout passes that extend a layout over an operand's producers:
  // assign_row_runs, vectorize_register_operand, hold_as_wgmma_a.)
  enum class Reach { skip, join, abort };
  std::optional<std::set<int>> computed_from(int x, const std::function<Reach(int)>& reach,
                                             const std::function<bool(ir::Op)>& through) const;
  // Whether reduce_tree reads `in`'s source in its own layout (runs of
  // len / 32 along the rows) rather than the striped one.
  bool reduces_row_runs(const ir::Instr& in) const;
  // Every tile operand of `in` that the op needs in another layout than
  // its own gets a converted copy (recomputed when it is index arithmetic,
  // else through shared memory); at() then names the copy.
  void convert_operands(const ir::Instr& in);
  // Whether `in` is a dot the tensor cores take with the MMA layout.
  bool mma_dot(const ir::Instr& in) const;
  // Whether register r is index arithmetic: recomputed at any layout's
  // elements (remat), so its own layout never costs a conversion.
  bool index_arithmetic(int r) const;

  // ---- codegen_dot.cpp -------------------------------------------------------
  void dot(const ir::Instr& in);
  void dot_mma_tf32(const ir::Instr& in);
  // A dot in the MMA layout: tf32, f16 or bf16 steps accumulate into its registers.
  void dot_mma_fragments(const ir::Instr& in);

  // ---- codegen_memory.cpp: load, store, atomic_add, print, assert -------------
  void load(const ir::Instr& in);
  void store(const ir::Instr& in);
  void atomic_add(const ir::Instr& in);
  // An atomic_add whose old values nothing reads: PTX red (its order
  // relaxed or release), a pair of columns at once where the IR allows.
  void red_add(const ir::Instr& in, const TileLayout& l, const std::string& guard, const std::string& order);
  // The condition of a store or atomic at `slot`: the owner guard (may be
  // empty) and the mask's element there (mask -1: none).
  std::string slot_condition(const std::string& guard, int mask, const std::string& slot) const;
  // `statement`, behind `if (cond)` unless cond is empty.
  void line_if(const std::string& cond, const std::string& statement);
  void atomic_rmw(const ir::Instr& in);  // codegen_atomics.cpp
  void print(const ir::Instr& in);
  void device_assert(const ir::Instr& in);

  const ir::Kernel& k_;
  CodegenOptions opt_;
  int threads_;
  std::ostringstream body_;
  int indent_ = 1;
  std::vector<int> def_count_;
  std::vector<const ir::Instr*> def_of_;  // each register's defining instruction (the last, if several)
  std::vector<int> use_count_;            // operands reading each register (an atomic's old value: often none)
  std::vector<bool> declared_;
  std::vector<TileLayout> layouts_;            // each register's layout (assign_layouts)
  // Operands converted for the current instruction: the copy's name and
  // layout, which at() and layout() give while the instruction is emitted.
  std::map<int, std::pair<std::string, TileLayout>> converted_;
  // Converted operands that are index arithmetic: recomputed at each use.
  std::map<int, std::function<std::string(const std::string& slot)>> recomputed_;
  int64_t smem_bytes_ = 0;
  bool uses_tid_ = false;
  int scratch_ = 0;  // numbers temporaries (loop counters, scopes)
  // While program b's copy of an instruction is emitted: "_b", appended to
  // register and program-id names (interleaved_body).
  std::string copy_suffix_;
};

}  // namespace tl::gpu::detail
