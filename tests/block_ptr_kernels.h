// Real-style kernels written with block pointers (Triton's
// tl.make_block_ptr), each with a plain C++ reference, run by
// test_block_ptr_kernels.cpp on the interpreter and (where the GPU back end
// is built) through NVRTC and the host emulation:
//   pack2 / unpack2  2-bit codes <-> i32 words, 16 codes a word, through a
//                    3-D block pointer [rows, words, 16] over the codes
//   bp_matmul        C = A x B with a K loop advancing both block pointers
//   tail_copy        a [R, C] copy, boundary-checked on both dims
//   tail_copy_broken the same load without boundary_check (a finding)
#pragma once
#include <cmath>
#include <cstdint>
#include <vector>

#include "buffer.h"
#include "tl.h"

namespace bp_kernels {

inline int g_broken_load_line = 0;

// codes: i8 [R, W * 16] with values 0..3; words: i32 [R, W]. Word (r, w)
// holds code (r, 16 w + j) in bits 2j, 2j + 1. The codes are read as a 3-D
// tensor [R, W, 16] with strides (16 W, 16, 1); the fields are disjoint,
// so the sum of the shifted codes is their bitwise or.
inline void pack2(tl::Ptr codes, tl::Ptr words, tl::Int R, tl::Int W, tl::Const BR, tl::Const BW) {
  auto r0 = tl::program_id(0) * BR, w0 = tl::program_id(1) * BW;
  auto src = tl::make_block_ptr(codes, {R, W, 16}, {W * 16, 16, 1}, {r0, w0, 0}, {BR, BW, 16}, {2, 1, 0});
  auto c = tl::load(src, {0, 1}, tl::Padding::Zero).to(tl::i32);
  auto shift = (tl::arange(0, 16) * 2).reshape({1, 1, 16});
  auto packed = tl::sum(c << shift, 2);
  auto dst = tl::make_block_ptr(words, {R, W}, {W, 1}, {r0, w0}, {BR, BW}, {1, 0});
  tl::store(dst, packed, {0, 1});
}

inline void unpack2(tl::Ptr words, tl::Ptr codes, tl::Int R, tl::Int W, tl::Const BR, tl::Const BW) {
  auto r0 = tl::program_id(0) * BR, w0 = tl::program_id(1) * BW;
  auto src = tl::make_block_ptr(words, {R, W}, {W, 1}, {r0, w0}, {BR, BW}, {1, 0});
  auto w = tl::load(src, {0, 1}, tl::Padding::Zero).reshape({BR, BW, 1});
  auto shift = (tl::arange(0, 16) * 2).reshape({1, 1, 16});
  auto c = ((w >> shift) & 3).to(tl::i8);
  auto dst = tl::make_block_ptr(codes, {R, W, 16}, {W * 16, 16, 1}, {r0, w0, 0}, {BR, BW, 16}, {2, 1, 0});
  tl::store(dst, c, {0, 1});
}

// A [M, K] x B [K, N] -> C [M, N], f32 (tf32 dot); M, N, K need not be
// multiples of the blocks: both loads are boundary-checked with zero
// padding, so the K tail adds zeros.
inline void bp_matmul(tl::Ptr a, tl::Ptr b, tl::Ptr c, tl::Int M, tl::Int N, tl::Int K, tl::Const BM, tl::Const BN,
                      tl::Const BK) {
  auto pm = tl::program_id(0), pn = tl::program_id(1);
  auto a_bp = tl::make_block_ptr(a, {M, K}, {K, 1}, {pm * BM, 0}, {BM, BK}, {1, 0});
  auto b_bp = tl::make_block_ptr(b, {K, N}, {N, 1}, {0, pn * BN}, {BK, BN}, {1, 0});
  auto acc = tl::zeros({BM, BN}, tl::f32);
  for (auto k : tl::range(0, K, BK)) {
    (void)k;
    auto av = tl::load(a_bp, {0, 1}, tl::Padding::Zero);
    auto bv = tl::load(b_bp, {0, 1}, tl::Padding::Zero);
    acc = tl::dot(av, bv, acc);
    a_bp = tl::advance(a_bp, {0, BK});
    b_bp = tl::advance(b_bp, {BK, 0});
  }
  auto c_bp = tl::make_block_ptr(c, {M, N}, {N, 1}, {pm * BM, pn * BN}, {BM, BN}, {1, 0});
  tl::store(c_bp, acc, {0, 1});
}

// dst[r, c] = src[r, c] for a row-major [R, C] matrix, one [BR, BC] block a
// program; the tails of both dims are boundary-checked away.
inline void tail_copy(tl::Ptr src, tl::Ptr dst, tl::Int R, tl::Int C, tl::Const BR, tl::Const BC) {
  auto offs = std::vector<tl::Operand>{tl::program_id(0) * BR, tl::program_id(1) * BC};
  auto in = tl::make_block_ptr(src, {R, C}, {C, 1}, offs, {BR, BC}, {1, 0});
  auto out = tl::make_block_ptr(dst, {R, C}, {C, 1}, offs, {BR, BC}, {1, 0});
  tl::store(out, tl::load(in, {0, 1}), {0, 1});
}

// The bug: the load is not boundary-checked. A row's tail lanes read the
// next row's first elements (inside the buffer, so no out-of-bounds
// finding for them), the last block's rows read past the end.
inline void tail_copy_broken(tl::Ptr src, tl::Ptr dst, tl::Int R, tl::Int C, tl::Const BR, tl::Const BC) {
  auto offs = std::vector<tl::Operand>{tl::program_id(0) * BR, tl::program_id(1) * BC};
  auto in = tl::make_block_ptr(src, {R, C}, {C, 1}, offs, {BR, BC}, {1, 0});
  auto out = tl::make_block_ptr(dst, {R, C}, {C, 1}, offs, {BR, BC}, {1, 0});
  g_broken_load_line = __LINE__; auto v = tl::load(in);
  tl::store(out, v, {0, 1});
}

// ---- References ---------------------------------------------------------------

inline std::vector<uint32_t> pack2_reference(const tl::Buffer& codes, int64_t R, int64_t W) {
  std::vector<uint32_t> words(static_cast<size_t>(R * W), 0);
  for (int64_t r = 0; r < R; ++r)
    for (int64_t w = 0; w < W; ++w)
      for (int64_t j = 0; j < 16; ++j)
        words[static_cast<size_t>(r * W + w)] |=
            static_cast<uint32_t>(codes.get(r * W * 16 + w * 16 + j)) << (2 * j);
  return words;
}

inline std::vector<double> matmul_reference(const tl::Buffer& a, const tl::Buffer& b, int64_t M, int64_t N, int64_t K) {
  std::vector<double> c(static_cast<size_t>(M * N), 0.0);
  for (int64_t m = 0; m < M; ++m)
    for (int64_t n = 0; n < N; ++n) {
      double s = 0;
      for (int64_t k = 0; k < K; ++k) s += a.get(m * K + k) * b.get(k * N + n);
      c[static_cast<size_t>(m * N + n)] = s;
    }
  return c;
}

// Deterministic values in [-0.5, 0.5).
inline double wave(int64_t i) { return std::fmod(static_cast<double>(i) * 0.6180339887, 1.0) - 0.5; }

inline tl::Buffer filled(const char* name, tl::DType d, std::vector<int64_t> shape, double (*f)(int64_t)) {
  tl::Buffer b(name, d, shape);
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  for (int64_t i = 0; i < n; ++i) b.set(i, f(i));
  return b;
}

}  // namespace bp_kernels
