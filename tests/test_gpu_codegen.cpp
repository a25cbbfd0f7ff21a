// The CUDA back end's generated text, without a GPU: SEMANTICS' defined
// cases as the prelude and the emitter spell them, and the fast paths
// (shuffles, tensor cores, runs, staged copies, epilogues) a kernel should
// take. That every kernel compiles is test_gpu_compile.cpp's.
#ifdef TILESCOPE_HAVE_GPU
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "broken/registry.h"
#include "codegen.h"
#include "codegen_text.h"
#include "harness.h"
#include "nvrtc_compiler.h"
#include "registry.h"
#include "test_cache.h"
#include "tl.h"

namespace {

// The generated source of a one-off kernel.
template <class... P>
std::string cuda_of(void (*fn)(P...), std::vector<tl::Arg> args) {
  tl::KernelDef k("probe", fn);
  return tl::gpu::lower_to_cuda(*tl::build_ir(k, args));
}

using codegen_text::has;

}  // namespace

TEST_CASE("generated CUDA spells out SEMANTICS' defined cases", "[gpu][codegen]") {
  tl::Buffer a("a", tl::DType::i32, {64}), f("f", tl::DType::f32, {64}), o("o", tl::DType::i32, {64}),
      of("of", tl::DType::f32, {64});

  SECTION("kernel shape and prelude") {
    std::string src = cuda_of(+[](tl::Ptr x, tl::Ptr z) { tl::store(z + tl::arange(0, 64), tl::load(x + tl::arange(0, 64))); },
                              {f, of});
    CHECK(has(src, "extern \"C\" __global__ void __launch_bounds__(128) probe(float* arg0, float* arg1)"));
    CHECK(has(src, "#ifdef __CUDACC_RTC__\ntypedef signed char int8_t;"));
    CHECK(has(src, "TS_ATOM_SCOPES(0, \"acq_rel\", PTX, C, IN)"));  // atomic_add's default sem
    // A 64-element tile in a 128-thread block is replicated: one owner stores.
    CHECK(has(src, "if (tid < 64) *"));
  }
  SECTION("integer division, remainder and shifts") {
    std::string src = cuda_of(+[](tl::Ptr x, tl::Ptr z) {
      auto i = tl::arange(0, 64);
      auto v = tl::load(x + i);
      tl::store(z + i, (v / (i - 3)) + (v % i) + (v >> i) + (v << 40));
    }, {a, o});
    CHECK(has(src, "ts_div("));
    CHECK(has(src, "ts_mod("));
    CHECK(has(src, "ts_shr("));
    CHECK(has(src, "ts_shl("));
    CHECK(has(src, "if (b == (T)0) return (T)0;"));
    CHECK(has(src, "if (ts_int<T>::is_signed && b == (T)-1) return ts_neg(a);"));
  }
  SECTION("saturating casts, NaN-dropping max, masked loads and atomics") {
    std::string src = cuda_of(+[](tl::Ptr x, tl::Ptr z) {
      auto i = tl::arange(0, 64);
      auto v = tl::load(x + i, i < 10);
      tl::store(z + i, tl::maximum(v, 0.5f).to(tl::i8).to(tl::f32));
      tl::atomic_add(z + i, v, i < 20);
    }, {f, of});
    CHECK(has(src, "ts_f32_to_int<int8_t>(r"));  // in f32: same bounds, exact
    CHECK(has(src, "fmaxf("));
    CHECK(has(src, " ? *r"));  // predicated: a masked lane never dereferences
    CHECK(has(src, ": 0.0f;"));  // and reads 0 without `other`
    CHECK(has(src, "= 0.0f;  // tl::: masked lanes return 0"));
    CHECK(has(src, "ts_atomic_add<0, 0>("));  // the defaults: acq_rel, gpu
  }
  SECTION("atomic_add's sem and scope reach the PTX atom as Triton spells them") {
    tl::gpu::LoweredKernel k = tl::gpu::lower(*tl::build_ir(tl::KernelDef("probe", +[](tl::Ptr x, tl::Ptr z) {
      auto i = tl::arange(0, 64);
      auto v = tl::load(x + i);
      auto old = tl::atomic_add(z + i, v, i < 20, "relaxed", "cta");
      tl::store(x + i, old);
      tl::atomic_add(z + i, v, i < 30, "release", "sys");
      tl::atomic_add(z + i, v, i < 40);
      tl::atomic_add(z + i, v, i < 50, "acquire");
    }), {f, of}), {});
    CHECK(has(k.source, "= ts_atomic_add<3, 1>("));  // its old values are stored
    // The others' old values are never read: red where its order allows
    // (relaxed, release), atom for acq_rel and acquire.
    CHECK(has(k.source, "ts_red_add<2, 2>("));
    CHECK(has(k.source, "= ts_atomic_add<0, 0>("));
    CHECK(has(k.source, "= ts_atomic_add<1, 0>("));
    const std::string ptx = tl::gpu::nvrtc_ptx(k.source, k.name, {});
    CHECK(has(ptx, "atom.relaxed.cta.global.add.f32"));
    CHECK(has(ptx, "red.release.sys.global.add.f32"));
    CHECK(has(ptx, "atom.acq_rel.gpu.global.add.f32"));
    CHECK(has(ptx, "atom.acquire.gpu.global.add.f32"));
    CHECK_FALSE(has(ptx, "atom.acq_rel.cta"));
  }
  SECTION("tf32 dot rounds its inputs like the interpreter, then runs on tensor cores") {
    tl::Buffer m("m", tl::DType::f32, {256});
    std::string src = cuda_of(+[](tl::Ptr x, tl::Ptr z) {
      auto r = tl::arange(0, 16);
      auto t = tl::load(x + r.col() * 16 + r.row());
      tl::store(z + r.col() * 16 + r.row(), tl::dot(t, t));
    }, {m, m});
    CHECK(has(src, "ts_tf32("));
    CHECK(has(src, "ts_mma_tf32(c[i][j], fa[i], fb[j])"));
    CHECK(has(src, "__syncthreads();"));
  }
  SECTION("i1 + - * i1 wrap in one bit; float % is frem as Triton's NVPTX lowering expands it") {
    std::string src = cuda_of(+[](tl::Ptr x, tl::Ptr z) {
      auto i = tl::arange(0, 64);
      auto v = tl::load(x + i);
      auto m = v > 0.0f;
      auto n = v < 1.0f;
      tl::store(z + i, ((m + n) * (m - n)).to(tl::f32) + v % 1.5f);
    }, {f, of});
    CHECK(has(src, " && "));  // i1 * i1
    CHECK(has(src, "isinf("));
    CHECK(has(src, "fmaf(-truncf("));
    CHECK_FALSE(has(src, "fmodf("));
  }
  SECTION("an i32 known to lie in [0, 2^23) goes to f32 without the conversion unit, its mask in the same lop3; any other by (float)") {
    std::string src = cuda_of(+[](tl::Ptr x, tl::Ptr z) {
      auto i = tl::arange(0, 64);
      auto v = tl::load(x + i);
      tl::store(z + i, (v & 3).to(tl::f32) + (v & (1 << 23)).to(tl::f32) + (v & -4).to(tl::f32) + v.to(tl::f32));
    }, {a, of});
    size_t exact = 0;
    for (size_t at = src.find("= ts_u23_mask_to_f32(r"); at != std::string::npos; at = src.find("= ts_u23_mask_to_f32(r", at + 1))
      ++exact;
    CHECK(exact == 1);  // v & 3 only: 2^23 itself and v & -4 may be out of range
    CHECK(has(src, ", 3u);"));
    CHECK_FALSE(has(src, "= ts_u23_to_f32(r"));
    CHECK(has(src, "= (float)r"));
  }
  SECTION("loops keep Python's range semantics") {
    std::string src = cuda_of(+[](tl::Ptr x, tl::Int n) {
      auto acc = tl::zeros({64}, tl::f32);
      for (auto j : tl::range(n, 0, -2)) acc += j.to(tl::f32);
      tl::store(x + tl::arange(0, 64), acc);
    }, {f, 9});
    CHECK(has(src, " > 0 && it"));
    CHECK(has(src, " < 0 && it"));
  }
}

TEST_CASE("every_load turns each load into a read the CUDA compiler keeps", "[gpu][nvrtc]") {
  // broken/missing_load_mask: its unmasked load is only used under the
  // store's mask, so plain code lets the compiler skip the out-of-bounds lanes.
  const puzzles::BrokenKernel* b = puzzles::find_broken("broken/missing_load_mask");
  REQUIRE(b);
  const puzzles::Puzzle& p = *puzzles::find_puzzle(b->puzzle_id);
  const puzzles::SizeSet& set = *puzzles::find_set(p, b->set);
  puzzles::RunBuffers bufs = puzzles::make_buffers(p, set, 0);
  auto ir = tl::build_ir(*b->kernel, puzzles::launch_args(set, bufs));
  tl::gpu::CodegenOptions kept;
  kept.every_load = true;
  const tl::gpu::LoweredKernel plain = tl::gpu::lower(*ir), checked = tl::gpu::lower(*ir, kept);
  const std::string body = checked.source.substr(checked.source.find("__global__"));
  CHECK(has(body, "= ts_load_kept(r"));
  CHECK_FALSE(has(plain.source.substr(plain.source.find("__global__")), "ts_load_kept"));
  CHECK_NOTHROW(test_cache::nvrtc_compile(checked));
}

namespace {

// The generated CUDA of a puzzle's solution for one size set.
std::string puzzle_cuda(const char* id, const char* set_name, tl::gpu::CodegenOptions cg = {}) {
  const puzzles::Puzzle& p = *puzzles::find_puzzle(id);
  const puzzles::SizeSet& set = *puzzles::find_set(p, set_name);
  puzzles::RunBuffers b = puzzles::make_buffers(p, set, 0);
  return tl::gpu::lower(*tl::build_ir(*p.solution, puzzles::launch_args(set, b)), cg).source;
}

}  // namespace

TEST_CASE("fast paths: shuffles for last-axis reductions, tensor cores for tf32 dots, recomputed index tiles", "[gpu][codegen]") {
  // Sums over the last axis (long sum, softmax) combine with warp shuffles.
  CHECK(has(puzzle_cuda("7", "canonical"), "ts_shfl_xor("));
  CHECK(has(puzzle_cuda("8", "canonical"), "ts_shfl_xor("));
  // The matmul's tf32 dot runs mma.sync, unless scalar dots are asked for.
  CHECK(has(puzzle_cuda("11", "canonical"), "ts_mma_tf32(c[i][j]"));
  tl::gpu::CodegenOptions scalar;
  scalar.scalar_dots = true;
  CHECK_FALSE(has(puzzle_cuda("11", "canonical", scalar), "ts_mma_tf32(c[i][j]"));
  // conv2d's masks and pointer tiles are broadcast index arithmetic: they
  // are recomputed per element, never moved through shared memory.
  const std::string conv = puzzle_cuda("10", "canonical");
  CHECK_FALSE(has(conv, "bool* sm"));
  CHECK_FALSE(has(conv, "float** sm"));
  CHECK_FALSE(has(conv, "int32_t* sm"));
}

TEST_CASE("generated CUDA tells the device compiler the range of the thread index", "[gpu][codegen]") {
  // NVVM then folds each slot's (s * T + tid) / N to a shift or a constant
  // instead of a signed division's fix-up per slot (e5 at one warp: a
  // quarter fewer PTX lines and NVRTC time).
  tl::gpu::CodegenOptions one_warp;
  one_warp.num_warps = 1;
  CHECK(has(puzzle_cuda("2", "canonical"), "  const int tid = threadIdx.x;\n  TS_ASSUME(tid >= 0 && tid < 128);\n"));
  CHECK(has(puzzle_cuda("2", "canonical", one_warp), "TS_ASSUME(tid >= 0 && tid < 32);"));
  // The host emulation's compilers have no __builtin_assume: the macro is
  // the device compiler's only.
  CHECK(has(puzzle_cuda("2", "canonical"), "#ifdef __CUDA_ARCH__\n#define TS_ASSUME(c) __builtin_assume(c)"));
}

TEST_CASE("a thread's values of several outputs are reduced together in one butterfly", "[gpu][codegen]") {
  // p09's [64, 32] score tiles at 1 warp: each lane holds one column, 64
  // rows' values; the butterfly halves them at each of the 5 xor steps and
  // lane l writes rows 2l and 2l + 1 (one reduction per row had lane 0
  // write each). At 4 warps: 16 slots, a warp's lanes sharing one row per
  // slot; four halving steps, then one plain, and even lanes write. E2's
  // pack: 8 slots over groups of 16 lanes, so bit 4 is never crossed.
  tl::gpu::CodegenOptions one, four;
  one.num_warps = 1;
  four.num_warps = 4;
  const std::string whole_rows = puzzle_cuda("9", "canonical", one);
  CHECK(has(whole_rows, "ts_hi_v = ps[j + 32];"));
  CHECK(has(whole_rows, "sm[((j + 2 * ((tid & 31) >> 0))) * 1 + (tid >> 5)] = ps[j];"));
  CHECK_FALSE(has(whole_rows, "if ((tid & 31) == 0) sm["));
  const std::string slots = puzzle_cuda("9", "canonical", four);
  CHECK(has(slots, "float ps[16];"));
  CHECK(has(slots, "ts_shfl_xor(ts_send, 16)"));
  CHECK(has(slots, "ts_shfl_xor(ps[0], 1)"));
  CHECK(has(slots, "if ((tid & 1) == 0)"));
  const std::string e2 = puzzle_cuda("e2", "canonical", one);
  CHECK(has(e2, "ts_shfl_xor(ts_send, 8)"));
  CHECK_FALSE(has(e2, "ts_shfl_xor(ts_send, 16)"));
}

TEST_CASE("a tile reduced over its rows is held in runs along them, so each warp reduces whole rows", "[gpu][codegen]") {
  // p09's [64, 128] score tile at 4 warps (its benchmark blocks, small
  // sizes): in runs of 4 a thread holds 4 neighbours in each of 16 rows; a
  // reduction combines each run, then a 16-value butterfly within the warp,
  // and no warp's partials meet another's. Striped: a 64-value butterfly
  // and four warps' partials per row.
  const puzzles::Puzzle& p = *puzzles::find_puzzle("9");
  puzzles::SizeSet set = *puzzles::find_set(p, "canonical");
  set.sizes = puzzles::Params{{"N0", 130}, {"T", 300}};
  set.blocks = puzzles::Params{{"B0", 64}, {"B1", 128}};
  puzzles::RunBuffers b = puzzles::make_buffers(p, set, 0);
  const auto ir = tl::build_ir(*p.solution, puzzles::launch_args(set, b));
  tl::gpu::CodegenOptions runs, striped;
  runs.num_warps = striped.num_warps = 4;
  striped.row_runs = false;
  const tl::gpu::LoweredKernel r = tl::gpu::lower(*ir, runs), st = tl::gpu::lower(*ir, striped);
  CHECK(has(r.source, "float ps[16];"));
  CHECK_FALSE(has(r.source, "for (int k = 1; k < 4; ++k)"));
  CHECK(has(st.source, "float ps[64];"));
  CHECK(has(st.source, "for (int k = 1; k < 4; ++k)"));
  auto count = [](const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
  };
  const std::string r_ptx = tl::gpu::nvrtc_ptx(r.source, r.name, {}), st_ptx = tl::gpu::nvrtc_ptx(st.source, st.name, {});
  // Three reductions a step: 16 shuffles each, not 62.
  CHECK(count(r_ptx, "shfl.sync") == 3 * 16);
  CHECK(count(st_ptx, "shfl.sync") == 3 * 62);
  // k's and v's rows read once per column a thread holds (4 each), q once.
  CHECK(count(r_ptx, "ld.global") == 9);
  // Only where no tile from elsewhere would cross shared memory to join:
  // softmax's exp(x - max) and a long sum reduce loaded tiles (8b: [4, 128]
  // rows at one warp, 7b: [8, 64]), which stay striped.
  for (auto [id, name] : {std::pair{"8", "8b"}, std::pair{"7", "7b"}}) {
    INFO("puzzle " << id << ", set " << name);
    tl::gpu::CodegenOptions one, one_striped;
    one.num_warps = one_striped.num_warps = 1;
    one_striped.row_runs = false;
    CHECK(puzzle_cuda(id, name, one) == puzzle_cuda(id, name, one_striped));
  }
}

TEST_CASE("dots in a loop accumulate in MMA registers and stage their loads with cp.async", "[gpu][codegen]") {
  // 32 x 16 tiles with 4 warps: the accumulator lives in mma fragments,
  // both loads go to shared memory by cp.async ahead of their iteration,
  // and the tensor cores read the staged f32 as it landed; only with
  // tf32_cut_staged does each thread cut the vectors it copied in place.
  const std::string mm = puzzle_cuda("11", "11b");
  CHECK(has(mm, "ts_cp_async16(ts_dst"));
  CHECK(has(mm, "ts_mma_tf32(&r"));
  CHECK_FALSE(has(mm, "ts_tf32_word(ts_x.x)"));
  tl::gpu::CodegenOptions cut;
  cut.tf32_cut_staged = true;
  CHECK(has(puzzle_cuda("11", "11b", cut), "ts_tf32_word(ts_x.x)"));
  CHECK(has(mm, "ts_cp_async_wait_all();"));
  CHECK_FALSE(has(mm, "float* so"));  // no result buffer
  // E4: a bf16 dot of a transposed load (its m axis contiguous) and a
  // dequantized register tile.
  const std::string e4 = puzzle_cuda("e4_fused", "canonical");
  CHECK(has(e4, "ts_mma_bf16(&r"));
  CHECK(has(e4, "ts_cp_async16(ts_dst"));
  // Its transposed A operand comes by ldmatrix.trans; without
  // ldmatrix, as pairs of 16-bit shared loads.
  CHECK(has(e4, "ts_ldsm_x4_trans(fa[i]"));
  CHECK_FALSE(has(e4, "ts_pack2(reinterpret_cast"));
  tl::gpu::CodegenOptions no_ldmatrix;
  no_ldmatrix.ldmatrix = false;
  CHECK(has(puzzle_cuda("e4_fused", "canonical", no_ldmatrix), "ts_pack2(reinterpret_cast"));
  // Its packed words, scales and minima are read two iterations ahead into
  // registers, written into the next iteration's stage before the barrier,
  // and read there where the body reads them: at their own slots and where
  // the broadcast spreads them over the dequantized tile, which without
  // the stages reads them from global memory again at every value.
  CHECK(has(e4, "const int64_t ts_after = it"));
  CHECK(has(e4, " + 2 * (int64_t)r"));
  CHECK(has(e4, "] = pf"));
  CHECK(has(e4, "* const ts_small"));
  const size_t loop = e4.find("for (int64_t it");
  CHECK(e4.find("ts_prefetch_l1(", loop) == std::string::npos);
  tl::gpu::CodegenOptions reload;
  reload.small_loads_in_stage = false;
  const std::string e4_reload = puzzle_cuda("e4_fused", "canonical", reload);
  CHECK_FALSE(has(e4_reload, "ts_small"));
  CHECK(has(e4_reload, "[0] = pf"));
  CHECK(has(e4_reload, "ts_prefetch_l1("));  // keeps the reloads' lines warm in L1
  // Two stages: a stage's small regions would be rewritten while this
  // iteration may still read them, so the loads stay in registers.
  tl::gpu::CodegenOptions two;
  two.num_stages = 2;
  CHECK_FALSE(has(puzzle_cuda("e4_fused", "canonical", two), "ts_small"));
  // E1: three staged loads (A once for both dots, then each half of B).
  const std::string e1 = puzzle_cuda("e1_v1", "bench");
  size_t copies = 0;
  for (size_t at = e1.find("// cp.async %"); at != std::string::npos; at = e1.find("// cp.async %", at + 1)) ++copies;
  // Three stages: each load is issued once in the prologue, a rolled loop
  // over the two stages ahead, and once in the loop.
  CHECK(has(e1, "ts_cp_async_wait_1();"));
  CHECK(has(e1, "#pragma unroll 1\n  for (int ts_t = 0; ts_t < 2; ++ts_t) {"));
  CHECK(copies == 6);
  tl::gpu::CodegenOptions scalar;
  scalar.scalar_dots = true;
  CHECK_FALSE(has(puzzle_cuda("11", "11b", scalar), "ts_cp_async16(ts_dst"));
  CHECK_FALSE(has(puzzle_cuda("e4_fused", "canonical", scalar), "ts_mma_bf16(&r"));
}

TEST_CASE("a split-K epilogue's atomic_add adds from the accumulator's registers, not through shared memory",
          "[gpu][codegen]") {
  // E4 split-K and rows: each program adds its partial dot into dW. The
  // accumulator stays in the MMA layout; the atomic's pointers and mask
  // are index arithmetic, recomputed at its elements.
  for (const char* id : {"e4_splitk", "e4_rows"}) {
    INFO(id);
    const std::string e4 = puzzle_cuda(id, "canonical");
    CHECK(has(e4, "ts_red_add<3, 0>("));  // relaxed (a sum needs no fences), its old values unread
    CHECK_FALSE(has(e4, "in the striped layout"));
    // dW's pointer climbs by one along a row and the mask is the row's: a
    // pair of columns by one address and one mask, one red.v2 where aligned.
    CHECK(has(e4, "for (int ts_p = 0; ts_p < "));
    CHECK(has(e4, "if (((uint64_t)ts_a0 & 7) == 0) {"));
    CHECK(has(e4, "ts_red_add_pair<3, 0>(ts_a0, "));
    CHECK(has(e4, "ts_red_add<3, 0>(ts_a0 + 1, "));
  }
}

TEST_CASE("an unread atomic_add adds column pairs at once only where the pointer climbs by one along the row and the mask does not change along it",
          "[gpu][codegen]") {
  // The dot's result is in the MMA layout; the three adds differ in the
  // pointer (along rows: unit step; down columns: a stride of 64) and the
  // mask (the row's only, or one that changes along the row).
  tl::Buffer x("x", tl::DType::f32, {64 * 64}), z("z", tl::DType::f32, {64 * 64});
  const std::string rows = cuda_of(+[](tl::Ptr px, tl::Ptr pz) {
    auto i = tl::arange(0, 64);
    auto a = tl::load(px + i.col() * 64 + i.row());
    tl::atomic_add(pz + i.col() * 64 + i.row(), tl::dot(a, a), (i < 50).col(), "relaxed");
  }, {x, z});
  const std::string columns = cuda_of(+[](tl::Ptr px, tl::Ptr pz) {
    auto i = tl::arange(0, 64);
    auto a = tl::load(px + i.col() * 64 + i.row());
    tl::atomic_add(pz + i.row() * 64 + i.col(), tl::dot(a, a), (i < 50).col(), "relaxed");
  }, {x, z});
  const std::string along = cuda_of(+[](tl::Ptr px, tl::Ptr pz) {
    auto i = tl::arange(0, 64);
    auto a = tl::load(px + i.col() * 64 + i.row());
    tl::atomic_add(pz + i.col() * 64 + i.row(), tl::dot(a, a), (i < 50).row(), "relaxed");
  }, {x, z});
  CHECK(has(rows, "ts_red_add_pair<3, 0>(ts_a0, "));
  CHECK_FALSE(has(columns, "ts_red_add_pair<3, 0>("));  // neighbouring columns are 64 apart
  CHECK(has(columns, "ts_red_add<3, 0>("));
  CHECK_FALSE(has(along, "ts_red_add_pair<3, 0>("));  // the mask changes along the row
  CHECK(has(along, "ts_red_add<3, 0>("));
}

TEST_CASE("an epilogue in the MMA layout stores column pairs by row and column, never dividing a flat index", "[gpu][codegen]") {
  // E1's activation stays in the accumulators' layout and is stored from
  // there; the store's pointers and mask are recomputed at each slot from the
  // slot's row and column (Emitter::element_coordinates), not from
  // `row * 64 + col` divided by 64 and wrapped again; the two columns of a
  // pair go out as one 8-byte store where both are in the mask and aligned.
  for (bool wgmma : {false, true}) {
    tl::gpu::CodegenOptions cg;
    cg.wgmma = wgmma;
    const std::string e1 = puzzle_cuda("e1_v1", "bench", cg);
    const size_t store = e1.find("// store %");
    REQUIRE(store != std::string::npos);
    const std::string tail = e1.substr(store);
    CHECK(has(tail, "(tid & 3) * 2 + ((2 * ts_p + 1) & 1)"));
    CHECK(has(tail, "if (ts_m0 && ts_m1 && ts_a1 == ts_a0 + 1 && ((uint64_t)ts_a0 & 7) == 0)"));
    CHECK(has(tail, "ts_store_pair(ts_a0, "));
    CHECK_FALSE(has(tail, ") / 64)"));
    CHECK_FALSE(has(tail, ") % 64)"));
  }
}

#endif  // TILESCOPE_HAVE_GPU
