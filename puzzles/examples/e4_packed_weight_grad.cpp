// Example E4 — weight gradient straight from packed activations: the E3
// unpack fused into the product dW = dY^T @ X. Three kernels: "e4_fused" (one
// program per dW tile walks all of K), "e4_splitk" (K cut into SPLIT_K
// slices along grid axis 2, partial tiles added with atomic_add) and
// "e4_rows" (a program owns ROW_BLOCKS x BM rows of dW, all of
// COUT at the benchmark sizes, so each X tile is dequantized once instead of
// once per BM-row block; split-K as e4_splitk).
#include <vector>

#include "examples/example_common.h"
#include "examples/example_defs.h"
#include "tl.h"

namespace puzzles {
namespace {

constexpr const char* kStatementFused = R"(Example E4 - weight gradient from packed activations, fused (e4_fused)

Training a linear layer y = x W^T with the activation x kept packed (E2
format, GROUP = 256, BITS = 2): dW = dY^T @ X, where X[K, CIN] is the
dequantized activation and dY[K, COUT] the output gradient. CIN is a
multiple of GROUP; G = CIN / GROUP groups per activation row; packed row
k * G + g holds group g of activation row k, with its own scale and minimum.
Each program owns a BM x BN tile of dW (BN divides GROUP, so the tile lies in
one group); it walks K in steps of BK, loads the dY tile [BK, BM] and
transposes it, loads the packed words covering its BN columns, unpacks and
dequantizes them to a [BK, BN] bf16 tile, and accumulates a dot in f32.

Math:        X[k, c] = code(P[k*G + c/GROUP, (c mod GROUP) / VPW], c mod VPW) * S[k*G + c/GROUP]
                       + Mn[k*G + c/GROUP]
             dW[o, c] = sum over k < K of dY[k, o] * X[k, c]
Inputs:      dY: bf16[K, COUT], P: i32[K*G, NWORDS], S: bf16[K*G], Mn: bf16[K*G]
Output:      dW: f32[COUT, CIN]
Parameters:  (dY, P, S, Mn, dW, K, COUT, CIN | GROUP, BITS | BM, BN, BK)
Grid:        (cdiv(COUT, BM), CIN / BN, 1); dW[o, c] belongs to (o / BM, c / BN, 0)
Tolerance:   2e-2 relative (bf16 dot inputs)
Benchmark:   K = 8192 and K = 100864, CIN = COUT = 768, BM = BN = 64, BK = 32
)";

constexpr const char* kStatementSplitK = R"(Example E4 - weight gradient from packed activations, split-K (e4_splitk)

E4 (dW = dY^T @ X with X unpacked from the E2 format in registers) with the
K range cut into SPLIT_K slices along grid axis 2: program (i, j, s) walks
its slice of K (a multiple of BK long) and adds its partial BM x BN tile into
dW with a relaxed atomic_add (no fences: a sum needs no ordering). dW starts
at zero (the harness zeroes it, as the training step would); a bf16 copy, if
wanted, is a separate pass.

Inputs:      dY: bf16[K, COUT], P: i32[K*G, NWORDS], S: bf16[K*G], Mn: bf16[K*G]
Output:      dW: f32[COUT, CIN], zero before the launch
Parameters:  (dY, P, S, Mn, dW, K, COUT, CIN | GROUP, BITS | BM, BN, BK, SPLIT_K)
Grid:        (cdiv(COUT, BM), CIN / BN, SPLIT_K); dW[o, c] gets partial sums from
             (o / BM, c / BN, s) for every s; (o / BM, c / BN, 0) is named its owner
Tolerance:   2e-2 relative (bf16 dot inputs; float atomics add in any order)
Benchmark:   K = 8192 (SPLIT_K = 8) and K = 100864 (SPLIT_K = 16), CIN = COUT = 768
)";

constexpr const char* kStatementRows = R"(Example E4 - weight gradient from packed activations, X dequantized once (e4_rows)

E4 (dW = dY^T @ X with X unpacked from the E2 format in registers) in the
decomposition that unpacks and dequantizes each X tile once: program
(i, j, s) owns ROW_BLOCKS x BM rows of dW (all of COUT when ROW_BLOCKS * BM
>= COUT) and BN columns, for slice s of K (SPLIT_K slices, each a multiple
of BK long). Per K step it dequantizes the [BK, BN] X tile once and feeds it
to ROW_BLOCKS dots, one per BM-row block of dY^T, each with its own
accumulator; the partial tiles are added into dW with atomic_add. With
BM = 64 and ROW_BLOCKS = 1 this is e4_splitk; e4_fused dequantizes each X
tile COUT / BM times.

Inputs:      dY: bf16[K, COUT], P: i32[K*G, NWORDS], S: bf16[K*G], Mn: bf16[K*G]
Output:      dW: f32[COUT, CIN], zero before the launch
Parameters:  (dY, P, S, Mn, dW, K, COUT, CIN | GROUP, BITS | BM, BN, BK, ROW_BLOCKS, SPLIT_K)
Grid:        (cdiv(COUT, ROW_BLOCKS * BM), CIN / BN, SPLIT_K); dW[o, c] gets partial sums
             from (o / (ROW_BLOCKS * BM), c / BN, s) for every s; s = 0 is named its owner
Tolerance:   2e-2 relative (bf16 dot inputs; float atomics add in any order)
Benchmark:   K = 8192 and K = 100864, CIN = COUT = 768, BM = 256, ROW_BLOCKS = 3, BN = 32, BK = 32
)";

// Where a program's BN columns of X come from: one group's packed rows
// (BN divides GROUP, so the tile lies in one group), the words covering the
// columns, and the shift of each value within its word.
struct PackedColumns {
  tl::Tensor groups, group, words, bit_shifts;
  int VPW, NWORDS, QMAX;
};

PackedColumns packed_columns(tl::Int CIN, int GROUP, int BITS, int BN) {
  const int VPW = 32 / BITS;
  auto first_col = tl::program_id(1) * BN;
  return {CIN / GROUP, first_col / GROUP, (first_col % GROUP) / VPW + tl::arange(0, BN / VPW),
          tl::arange(0, VPW) * BITS, VPW, GROUP / VPW, (1 << BITS) - 1};
}

// X[ks, the program's BN columns], unpacked and dequantized to bf16; rows
// with k_ok false are exactly 0.
tl::Tensor dequantized_tile(tl::Ptr P, tl::Ptr S, tl::Ptr Mn, const PackedColumns& c, const tl::Tensor& ks,
                            const tl::Tensor& k_ok, int BK, int BN) {
  auto packed_rows = ks * c.groups + c.group;
  auto packed = tl::load(P + packed_rows.col() * c.NWORDS + c.words.row(), k_ok.col(), 0);  // [BK, BN / VPW]
  auto codes = tl::reshape((tl::expand_dims(packed, 2) >> c.bit_shifts) & c.QMAX, {BK, BN});  // mask after >>
  auto scale = tl::load(S + packed_rows, k_ok, 0.0f).to(tl::f32);
  auto xmin = tl::load(Mn + packed_rows, k_ok, 0.0f).to(tl::f32);
  // fma: one rounding on both back ends; padded rows are exactly 0.
  return tl::fma(codes.to(tl::f32), scale.col(), xmin.col()).to(tl::bf16);
}

// dW tile += dY[k_lo:k_hi]^T @ X[k_lo:k_hi] for the program's tile, unpacking
// X from the packed words in registers.
tl::Tensor weight_grad_tile(tl::Ptr dY, tl::Ptr P, tl::Ptr S, tl::Ptr Mn, tl::Int COUT, tl::Int CIN, const tl::Tensor& k_lo, const tl::Tensor& k_hi, int GROUP, int BITS, int BM, int BN,
                            int BK) {
  auto outs = tl::program_id(0) * BM + tl::arange(0, BM);
  auto out_ok = outs < COUT;
  const PackedColumns cols = packed_columns(CIN, GROUP, BITS, BN);
  auto acc = tl::zeros({BM, BN}, tl::f32);
  for (auto k : tl::range(k_lo, k_hi, BK)) {
    auto ks = k + tl::arange(0, BK);
    auto k_ok = ks < k_hi;
    auto dy = tl::load(dY + ks.col() * COUT + outs.row(), k_ok.col() & out_ok.row(), 0.0f);  // [BK, BM]
    auto x = dequantized_tile(P, S, Mn, cols, ks, k_ok, BK, BN);
    acc = tl::dot(tl::trans(dy), x, acc);
  }
  return acc;
}

// The K slice of program_id(2): a whole number of BK steps long; the last
// ones may be short or empty.
std::pair<tl::Tensor, tl::Tensor> k_slice(tl::Int K, int BK, int SPLIT_K) {
  auto slice = tl::cdiv(K, SPLIT_K * BK) * BK;
  auto k_lo = tl::program_id(2) * slice;
  return {k_lo, tl::minimum(k_lo + slice, K)};
}

void fused_kernel(tl::Ptr dY, tl::Ptr P, tl::Ptr S, tl::Ptr Mn, tl::Ptr dW, tl::Int K, tl::Int COUT, tl::Int CIN,
                  tl::Const GROUP, tl::Const BITS, tl::Const BM, tl::Const BN, tl::Const BK) {
  auto acc = weight_grad_tile(dY, P, S, Mn, COUT, CIN, tl::scalar(0), K, GROUP, BITS, BM, BN, BK);
  auto outs = tl::program_id(0) * BM + tl::arange(0, BM);
  auto cols = tl::program_id(1) * BN + tl::arange(0, BN);
  tl::store(dW + outs.col() * CIN + cols.row(), acc, (outs < COUT).col());
}

void split_k_kernel(tl::Ptr dY, tl::Ptr P, tl::Ptr S, tl::Ptr Mn, tl::Ptr dW, tl::Int K, tl::Int COUT, tl::Int CIN,
                    tl::Const GROUP, tl::Const BITS, tl::Const BM, tl::Const BN, tl::Const BK, tl::Const SPLIT_K) {
  auto [k_lo, k_hi] = k_slice(K, BK, SPLIT_K);
  auto acc = weight_grad_tile(dY, P, S, Mn, COUT, CIN, k_lo, k_hi, GROUP, BITS, BM, BN, BK);
  auto outs = tl::program_id(0) * BM + tl::arange(0, BM);
  auto cols = tl::program_id(1) * BN + tl::arange(0, BN);
  // Relaxed: a partial sum needs no order against other memory operations,
  // and acq_rel would bracket every element's add with fences.
  tl::atomic_add(dW + outs.col() * CIN + cols.row(), acc, (outs < COUT).col(), "relaxed");
}

void rows_kernel(tl::Ptr dY, tl::Ptr P, tl::Ptr S, tl::Ptr Mn, tl::Ptr dW, tl::Int K, tl::Int COUT, tl::Int CIN,
                 tl::Const GROUP, tl::Const BITS, tl::Const BM, tl::Const BN, tl::Const BK, tl::Const ROW_BLOCKS,
                 tl::Const SPLIT_K) {
  auto [k_lo, k_hi] = k_slice(K, BK, SPLIT_K);
  const PackedColumns cols = packed_columns(CIN, GROUP, BITS, BN);
  // One accumulator per BM-row block; reserved so no Tensor moves once the
  // loop has started assigning them (each is loop-carried).
  std::vector<tl::Tensor> outs, accs;
  outs.reserve(static_cast<size_t>(ROW_BLOCKS));
  accs.reserve(static_cast<size_t>(ROW_BLOCKS));
  for (int r = 0; r < ROW_BLOCKS; ++r) {
    outs.push_back((tl::program_id(0) * ROW_BLOCKS + r) * BM + tl::arange(0, BM));
    accs.push_back(tl::zeros({BM, BN}, tl::f32));
  }
  for (auto k : tl::range(k_lo, k_hi, BK)) {
    auto ks = k + tl::arange(0, BK);
    // Against K, not k_hi: a slice is whole BK steps, so only the last one's
    // last step has rows past its end, and there k_hi is K. A tile masked by
    // the tensor's own bounds is one the GPU back end may copy by TMA.
    auto k_ok = ks < K;
    auto x = dequantized_tile(P, S, Mn, cols, ks, k_ok, BK, BN);  // once for all ROW_BLOCKS dots
    for (int r = 0; r < ROW_BLOCKS; ++r) {
      auto dy = tl::load(dY + ks.col() * COUT + outs[r].row(), k_ok.col() & (outs[r] < COUT).row(), 0.0f);  // [BK, BM]
      accs[r] = tl::dot(tl::trans(dy), x, accs[r]);
    }
  }
  auto columns = tl::program_id(1) * BN + tl::arange(0, BN);
  for (int r = 0; r < ROW_BLOCKS; ++r)
    tl::atomic_add(dW + outs[r].col() * CIN + columns.row(), accs[r], (outs[r] < COUT).col(), "relaxed");  // as e4_splitk
}

std::vector<double> reference(const SizeSet& s, const std::vector<tl::Buffer>& in) {
  const examples::PackFormat f = examples::pack_format(s);
  const int64_t k_size = s["K"], cout = s["COUT"], cin = s["CIN"], groups = cin / f.group;
  const int32_t* p = in[1].as<int32_t>();
  // dW[o][c] = sum over k, in k order, of dY[k][o] * X[k][c]. K in chunks
  // (X dequantized a chunk at a time, not all 100864 rows at once), each
  // chunk's rows of dW split between threads: every element still sums in
  // k order, and a row of dW stays in cache across the chunk.
  constexpr int64_t kChunk = 256;
  std::vector<double> dw(static_cast<size_t>(cout * cin), 0.0);
  std::vector<double> x(static_cast<size_t>(kChunk * cin)), dy(static_cast<size_t>(kChunk * cout));
  for (int64_t k0 = 0; k0 < k_size; k0 += kChunk) {
    const int64_t rows = std::min(kChunk, k_size - k0);
    for (int64_t k = 0; k < rows; ++k) {
      for (int64_t c = 0; c < cin; ++c) {
        const int64_t row = (k0 + k) * groups + c / f.group, in_group = c % f.group;
        const int64_t code = f.code(p[row * f.words() + in_group / f.vpw()], in_group % f.vpw());
        x[static_cast<size_t>(k * cin + c)] = double(code) * examples::bf16_at(in[2], row) + examples::bf16_at(in[3], row);
      }
      for (int64_t o = 0; o < cout; ++o) dy[static_cast<size_t>(k * cout + o)] = examples::bf16_at(in[0], (k0 + k) * cout + o);
    }
    examples::parallel_ranges(cout, [&](int64_t o_lo, int64_t o_hi) {
      for (int64_t o = o_lo; o < o_hi; ++o) {
        double* out_row = &dw[static_cast<size_t>(o * cin)];
        auto d_at = [&](int64_t k) { return dy[static_cast<size_t>(k * cout + o)]; };
        auto x_at = [&](int64_t k) { return &x[static_cast<size_t>(k * cin)]; };
        int64_t k = 0;
        // Four k at a time: each element still adds its products for k,
        // k + 1, k + 2, k + 3 in that order, one rounding per multiply and
        // per add, but reads and writes its dW entry once (the reference
        // at K = 100864 is most of E4's benchmark-set tests).
        for (; k + 4 <= rows; k += 4) {
          const double d0 = d_at(k), d1 = d_at(k + 1), d2 = d_at(k + 2), d3 = d_at(k + 3);
          const double *x0 = x_at(k), *x1 = x_at(k + 1), *x2 = x_at(k + 2), *x3 = x_at(k + 3);
          for (int64_t c = 0; c < cin; ++c) {
            double v = out_row[c];
            v += d0 * x0[c];
            v += d1 * x1[c];
            v += d2 * x2[c];
            v += d3 * x3[c];
            out_row[c] = v;
          }
        }
        for (; k < rows; ++k) {
          const double d = d_at(k);
          const double* x_row = x_at(k);
          for (int64_t c = 0; c < cin; ++c) out_row[c] += d * x_row[c];
        }
      }
    });
  }
  return dw;
}

SizeSet set(std::string name, int64_t k, int64_t cout, int64_t cin, int64_t bm, int64_t bn, int64_t bk,
            int64_t split_k, std::string stresses, bool large = false) {
  Params blocks{{"BM", bm}, {"BN", bn}, {"BK", bk}};
  if (split_k > 0) blocks.add("SPLIT_K", split_k);
  return examples::make_set(std::move(name), {{"K", k}, {"COUT", cout}, {"CIN", cin}}, {{"GROUP", 256}, {"BITS", 2}},
                            blocks, std::move(stresses),
                            [](const SizeSet& s) {
                              return std::array<int64_t, 3>{examples::cdiv(s["COUT"], s["BM"]), s["CIN"] / s["BN"],
                                                            s.blocks.has("SPLIT_K") ? s["SPLIT_K"] : 1};
                            },
                            large);
}

// split_k 0: the fused kernel's sets (no SPLIT_K block).
std::vector<SizeSet> sets(int64_t split_small, int64_t split_bench, int64_t split_large) {
  return {set("canonical", 64, 64, 256, 32, 32, 16, split_small, "one group per row; two K steps"),
          set("e4a", 72, 80, 512, 32, 64, 32, split_small ? 3 : 0, "two groups per row; COUT and K tails"),
          set("e4b", 40, 24, 768, 64, 64, 32, split_small, "COUT below one block; three groups"),
          set("bench", 8192, 768, 768, 64, 64, 32, split_bench, "benchmark size, K = 8192 (GPU)", true),
          set("bench_k100864", 100864, 768, 768, 64, 64, 32, split_large, "benchmark size, K = 100864 (GPU)", true)};
}

// e4_rows' sets: each program covers ROW_BLOCKS x BM rows of dW.
SizeSet rows_set(std::string name, int64_t k, int64_t cout, int64_t cin, int64_t bm, int64_t bn, int64_t bk,
                 int64_t row_blocks, int64_t split_k, std::string stresses, bool large = false) {
  return examples::make_set(std::move(name), {{"K", k}, {"COUT", cout}, {"CIN", cin}}, {{"GROUP", 256}, {"BITS", 2}},
                            {{"BM", bm}, {"BN", bn}, {"BK", bk}, {"ROW_BLOCKS", row_blocks}, {"SPLIT_K", split_k}},
                            std::move(stresses),
                            [](const SizeSet& s) {
                              return std::array<int64_t, 3>{examples::cdiv(s["COUT"], s["BM"] * s["ROW_BLOCKS"]),
                                                            s["CIN"] / s["BN"], s["SPLIT_K"]};
                            },
                            large);
}

Puzzle common(std::string id, std::string title, const char* statement) {
  Puzzle p = examples::example_puzzle(std::move(id), std::move(title), statement, 2e-2);
  p.inputs = {{"dY", tl::bf16, dims({"K", "COUT"})},
              {"P", tl::i32,
               [](const SizeSet& s) {
                 return std::vector<int64_t>{s["K"] * (s["CIN"] / s["GROUP"]), examples::pack_format(s).words()};
               }},
              {"S", tl::bf16, [](const SizeSet& s) { return std::vector<int64_t>{s["K"] * (s["CIN"] / s["GROUP"])}; },
               examples::fill_positive_scale},
              {"Mn", tl::bf16, [](const SizeSet& s) { return std::vector<int64_t>{s["K"] * (s["CIN"] / s["GROUP"])}; }}};
  p.output = {"dW", tl::f32, dims({"COUT", "CIN"})};
  p.output_axes = {0, 1};
  p.owner = [](const SizeSet& s, const std::vector<int64_t>& i) {
    return std::array<int64_t, 3>{i[0] / s["BM"], i[1] / s["BN"], 0};
  };
  p.reference = reference;
  return p;
}

}  // namespace

Puzzle make_e4_fused() {
  static const tl::KernelDef kernel("e4_weight_grad_fused", fused_kernel,
                                    {"dY", "P", "S", "Mn", "dW", "K", "COUT", "CIN", "GROUP", "BITS", "BM", "BN", "BK"});
  Puzzle p = common("e4_fused", "Weight gradient from packed activations, fused", kStatementFused);
  p.sets = sets(0, 0, 0);
  p.solution = p.stub = &kernel;
  return p;
}

Puzzle make_e4_split_k() {
  static const tl::KernelDef kernel(
      "e4_weight_grad_split_k", split_k_kernel,
      {"dY", "P", "S", "Mn", "dW", "K", "COUT", "CIN", "GROUP", "BITS", "BM", "BN", "BK", "SPLIT_K"});
  Puzzle p = common("e4_splitk", "Weight gradient from packed activations, split-K with atomic_add", kStatementSplitK);
  p.output.zero_init = true;
  p.sets = sets(2, 8, 16);
  p.solution = p.stub = &kernel;
  return p;
}

Puzzle make_e4_rows() {
  static const tl::KernelDef kernel(
      "e4_weight_grad_rows", rows_kernel,
      {"dY", "P", "S", "Mn", "dW", "K", "COUT", "CIN", "GROUP", "BITS", "BM", "BN", "BK", "ROW_BLOCKS", "SPLIT_K"});
  Puzzle p = common("e4_rows", "Weight gradient from packed activations, each X tile dequantized once", kStatementRows);
  p.output.zero_init = true;
  p.owner = [](const SizeSet& s, const std::vector<int64_t>& i) {
    return std::array<int64_t, 3>{i[0] / (s["BM"] * s["ROW_BLOCKS"]), i[1] / s["BN"], 0};
  };
  // 8 warps at the benchmark blocks: three [256, 32] f32 accumulators are
  // 96 registers a thread (192 at 4 warps, which spill).
  p.sets = {rows_set("canonical", 64, 64, 256, 32, 32, 16, 2, 2, "all of COUT in one program; two K slices"),
            rows_set("e4a", 72, 80, 512, 32, 64, 32, 2, 3, "COUT past one program's rows (a second, partly masked); K tails"),
            rows_set("e4b", 40, 24, 768, 32, 64, 32, 3, 1, "COUT below one row block; three groups; one K slice"),
            rows_set("bench", 8192, 768, 768, 256, 32, 32, 3, 11, "benchmark size, K = 8192 (GPU)", true),
            rows_set("bench_k100864", 100864, 768, 768, 256, 32, 32, 3, 11, "benchmark size, K = 100864 (GPU)", true)};
  p.solution = p.stub = &kernel;
  return p;
}

}  // namespace puzzles
