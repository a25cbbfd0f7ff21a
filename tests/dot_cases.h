// Tensor-core dot kernels and cases the GPU tests share: a tiled
// C = A @ Bt^T with its A mask chosen by the caller, and a bench case's
// kernel and blocks at sizes of the test's choosing (small, with tails).
#pragma once
#include <catch2/catch.hpp>

#include <cstdint>

#include "bench_cases.h"
#include "tl.h"

namespace dot_cases {

// C = A @ Bt^T over tiles of 64 x 64 x 32, its A tile masked by
// `a_mask(rows, ks, M, K)`; Bt and C masked by their bounds.
template <class AMask>
void tile_dot(tl::Ptr A, tl::Ptr Bt, tl::Ptr C, tl::Int M, tl::Int N, tl::Int K, AMask a_mask) {
  constexpr int BM = 64, BN = 64, BK = 32;
  auto rows = tl::program_id(0) * BM + tl::arange(0, BM);
  auto cols = tl::program_id(1) * BN + tl::arange(0, BN);
  auto acc = tl::zeros({BM, BN}, tl::f32);
  for (auto k : tl::range(0, K, BK)) {
    auto ks = k + tl::arange(0, BK);
    auto a = tl::load(A + rows.col() * K + ks.row(), a_mask(rows, ks, M, K), 0.0f);
    auto b = tl::load(Bt + cols.row() * K + ks.col(), (ks < K).col() & (cols < N).row(), 0.0f);
    acc = tl::dot(a, b, acc);
  }
  tl::store(C + rows.col() * N + cols.row(), acc, (rows < M).col() & (cols < N).row());
}

// The mask of every element inside [M, K].
inline auto in_bounds = [](auto rows, auto ks, tl::Int M, tl::Int K) { return (rows < M).col() & (ks < K).row(); };

// Bench case `name` (its kernel and blocks) at sizes M, N, K.
inline tl::gpu::BenchCase bench_case_at(const char* name, int64_t M, int64_t N, int64_t K) {
  for (tl::gpu::BenchCase c : tl::gpu::anchor_cases())
    if (c.name == name) {
      c.set.sizes = {{"M", M}, {"N", N}, {"K", K}};
      return c;
    }
  FAIL("no bench case " << name);
  return {};
}

}  // namespace dot_cases
