// Part of the CUDA emulation that gpu_host_emulation.h force-includes (see
// its header comment): the tensor-core steps (mma.sync, wgmma and its
// descriptors, ldmatrix) and cp.async; after gpu_host_emu_threads.h.
#pragma once

// The tensor-core steps, with the fragment layouts the prelude's comment
// gives: every lane posts its fragments, then computes its four outputs
// from all 32 lanes' (products of tf32, f16 and bf16 values are exact in
// f32; the sums go in k order).
#define TS_HOST_MMA
struct EmuMmaLane {
  uint32_t a[4], b[2];
};
inline EmuMmaLane emu_mma_slots[2048];
// `value(word, half)` turns one 32-bit fragment word into the value at
// position `half` (0 or 1) of it; `kstep` is 8 (tf32) or 16 (f16, bf16).
template <class Value>
void emu_mma(float* d, const uint32_t* a, const uint32_t* b, unsigned kstep, Value value) {
  const unsigned t = emu_slot(), warp = t & ~31u, lane = t & 31u;
  for (int i = 0; i < 4; ++i) emu_mma_slots[t].a[i] = a[i];
  for (int i = 0; i < 2; ++i) emu_mma_slots[t].b[i] = b[i];
  __syncthreads();
  // Word w of lane 4g + q covers k = q + 4 * (w >= 2) for tf32, and
  // k = 2q + (0, 1) + 8 * (w >= 2) for the 16-bit types.
  auto A = [&](unsigned row, unsigned k) {  // A[row][k], row < 16
    const unsigned hi = kstep == 8 ? k / 4 : k / 8, q = kstep == 8 ? k % 4 : (k % 8) / 2;
    return value(emu_mma_slots[warp + (row % 8) * 4 + q].a[(row >= 8 ? 1 : 0) + 2 * hi], kstep == 8 ? 0 : k % 2);
  };
  auto B = [&](unsigned k, unsigned col) {  // B[k][col], col < 8
    const unsigned hi = kstep == 8 ? k / 4 : k / 8, q = kstep == 8 ? k % 4 : (k % 8) / 2;
    return value(emu_mma_slots[warp + col * 4 + q].b[hi], kstep == 8 ? 0 : k % 2);
  };
  const unsigned g = lane / 4, q = lane % 4;
  for (int i = 0; i < 4; ++i) {
    const unsigned row = g + (i >= 2 ? 8 : 0), col = 2 * q + (i & 1);
    float acc = d[i];
    for (unsigned k = 0; k < kstep; ++k) acc += A(row, k) * B(k, col);
    d[i] = acc;
  }
  __syncthreads();
}
// The tensor cores read an f32 word as tf32 by ignoring its 13 low bits.
inline float emu_tf32_word(uint32_t w) { return std::bit_cast<float>(w & 0xffffe000u); }
inline void ts_mma_tf32(float* d, const uint32_t* a, const uint32_t* b) {
  emu_mma(d, a, b, 8, [](uint32_t w, unsigned) { return emu_tf32_word(w); });
}
inline void ts_mma_bf16(float* d, const uint32_t* a, const uint32_t* b) {
  emu_mma(d, a, b, 16, [](uint32_t w, unsigned h) { return std::bit_cast<float>((h ? w >> 16 : w & 0xffffu) << 16); });
}
inline void ts_mma_f16(float* d, const uint32_t* a, const uint32_t* b) {
  emu_mma(d, a, b, 16, [](uint32_t w, unsigned h) {
    return __half2float(std::bit_cast<__half>(static_cast<uint16_t>(h ? w >> 16 : w & 0xffffu)));
  });
}

// cp.async on the CPU: the copy happens at once; commit and wait have
// nothing left to order.
inline void ts_cp_async16(void* dst, const void* src, int src_bytes) {
  std::memcpy(dst, src, static_cast<size_t>(src_bytes));
  std::memset(static_cast<unsigned char*>(dst) + src_bytes, 0, static_cast<size_t>(16 - src_bytes));
}
inline void ts_cp_async_commit() {}
inline void ts_cp_async_wait_all() {}
inline void ts_cp_async_wait_1() {}
inline void ts_cp_async_wait_2() {}

// wgmma (CodegenOptions::wgmma): descriptors hold offsets into ts_smem; each
// thread computes its accumulators (warp w of the warpgroup: rows 16w + g
// and + 8, columns 8j + 2q and + 1) from the core matrices the descriptors
// name, sums in k order. The operands were published by a barrier before.
inline uint64_t ts_wgmma_desc(const void* p, unsigned lbo, unsigned sbo) {
  const uint64_t a = static_cast<uint64_t>(static_cast<const unsigned char*>(p) - ts_smem);
  return ((a & 0x3ffff) >> 4) | (static_cast<uint64_t>(lbo >> 4) << 16) | (static_cast<uint64_t>(sbo >> 4) << 32);
}
inline uint64_t ts_wgmma_desc_sw128(const void* p) {
  const uint64_t a = static_cast<uint64_t>(static_cast<const unsigned char*>(p) - ts_smem);
  return ((a & 0x3ffff) >> 4) | (uint64_t{1} << 16) | (uint64_t{1024 >> 4} << 32) | (uint64_t{1} << 62);
}
inline uint64_t ts_wgmma_desc_sw128_mn(const void* p, unsigned lbo) {
  const uint64_t a = static_cast<uint64_t>(static_cast<const unsigned char*>(p) - ts_smem);
  return ((a & 0x3ffff) >> 4) | (static_cast<uint64_t>(lbo >> 4) << 16) | (uint64_t{1024 >> 4} << 32) | (uint64_t{1} << 62);
}
inline void ts_wgmma_fence() {}
inline void ts_wgmma_commit() {}
inline void ts_wgmma_wait0() {}
template <int N> void ts_wgmma_wait() {}
inline void ts_fence_proxy_async() {}

inline void ts_fence_operand(float&) {}
// Element (row, k) of a K-major tf32 operand. Without swizzle: core
// matrices of 8 rows x 16 bytes, LBO apart along k, SBO between 8-row
// groups. 128-byte swizzle (mode 1): rows 128 bytes apart, 8-row groups SBO
// apart, and the 16-byte chunk index (address bits 4-6) XORed with the row
// within its 1024-byte atom (bits 7-9), as the hardware does.
inline float emu_desc_tf32(uint64_t desc, unsigned row, unsigned k) {
  const uint64_t start = (desc & 0x3fff) << 4, lbo = ((desc >> 16) & 0x3fff) << 4, sbo = ((desc >> 32) & 0x3fff) << 4;
  uint64_t at = start + row / 8 * sbo + k / 4 * lbo + row % 8 * 16 + k % 4 * 4;
  if ((desc >> 62) == 1) {
    at = start + row / 8 * sbo + row % 8 * 128 + k * 4;
    at ^= ((at >> 7) & 7) << 4;
  } else if ((desc >> 62) != 0) {
    std::fprintf(stderr, "wgmma emulation: swizzle mode %u not modelled\n", static_cast<unsigned>(desc >> 62));
    std::abort();
  }
  uint32_t w;
  std::memcpy(&w, ts_smem + at, 4);
  return emu_tf32_word(w);
}
inline void emu_wgmma_tf32(float* d, uint64_t da, uint64_t db, int n) {
  const unsigned t = threadIdx.x, w = (t / 32) % 4, lane = t % 32, g = lane / 4, q = lane % 4;
  for (int j = 0; j < n / 8; ++j)
    for (int c = 0; c < 4; ++c) {
      const unsigned row = 16 * w + g + (c >= 2 ? 8 : 0), col = 8 * j + 2 * q + (c & 1);
      float acc = d[4 * j + c];
      for (unsigned k = 0; k < 8; ++k) acc += emu_desc_tf32(da, row, k) * emu_desc_tf32(db, col, k);
      d[4 * j + c] = acc;
    }
}
// Element (mn, k) of a 16-bit operand (mn: m of A, n of B), by the
// canonical layouts of PTX's wgmma descriptors, offsets in bytes:
// - K-major, no swizzle: core matrices of 8 rows x 16 bytes (8 k), LBO
//   apart along k, SBO between 8-row groups;
// - K-major, 128-byte swizzle: rows 128 bytes apart, 8-row groups SBO apart;
// - M/N-major (the transpose bit), no swizzle: core matrices of 8 k rows x
//   16 bytes (8 values along mn), SBO apart along mn, LBO between 8-k groups;
// - M/N-major, 128-byte swizzle: rows of 64 values (one k each) 128 bytes
//   apart, 8-k groups SBO apart, the next 64 values LBO on;
// the swizzles XOR the 16-byte chunk (address bits 4-6) with bits 7-9.
inline float emu_desc_16(uint64_t desc, unsigned mn, unsigned k, bool mn_major, bool bf16) {
  const uint64_t start = (desc & 0x3fff) << 4, lbo = ((desc >> 16) & 0x3fff) << 4, sbo = ((desc >> 32) & 0x3fff) << 4;
  const unsigned mode = static_cast<unsigned>(desc >> 62);
  if (mode > 1) {
    std::fprintf(stderr, "wgmma emulation: swizzle mode %u not modelled\n", mode);
    std::abort();
  }
  uint64_t at = 0;
  if (!mn_major)
    at = mode == 0 ? start + mn / 8 * sbo + k / 8 * lbo + mn % 8 * 16 + k % 8 * 2 : start + mn / 8 * sbo + mn % 8 * 128 + k * 2;
  else
    at = mode == 0 ? start + mn / 8 * sbo + k / 8 * lbo + k % 8 * 16 + mn % 8 * 2
                   : start + mn / 64 * lbo + k / 8 * sbo + k % 8 * 128 + mn % 64 * 2;
  if (mode == 1) at ^= ((at >> 7) & 7) << 4;
  uint16_t h;
  std::memcpy(&h, ts_smem + at, 2);
  return bf16 ? std::bit_cast<float>(static_cast<uint32_t>(h) << 16) : __half2float(std::bit_cast<__half>(h));
}
inline void emu_wgmma_16(float* d, uint64_t da, uint64_t db, int n, bool bf16, bool a_mn_major, bool b_mn_major) {
  const unsigned t = threadIdx.x, w = (t / 32) % 4, lane = t % 32, g = lane / 4, q = lane % 4;
  for (int j = 0; j < n / 8; ++j)
    for (int c = 0; c < 4; ++c) {
      const unsigned row = 16 * w + g + (c >= 2 ? 8 : 0), col = 8 * j + 2 * q + (c & 1);
      float acc = d[4 * j + c];
      for (unsigned k = 0; k < 16; ++k)
        acc += emu_desc_16(da, row, k, a_mn_major, bf16) * emu_desc_16(db, col, k, b_mn_major, bf16);
      d[4 * j + c] = acc;
    }
}
// A from registers: every thread posts its four words (a0..a3 at rows
// g, g + 8, g, g + 8 and columns q, q, q + 4, q + 4 of its warp's 16 rows),
// then reads the rows its accumulator needs from the threads of its
// warpgroup; called by every thread of the warpgroup together, which meet
// at a barrier of their own (the warpgroups of a decoupled kernel need
// not be at the same wgmma: CodegenOptions::wgmma_decoupled).
inline uint32_t emu_wgmma_a[2048][4];
inline void emu_warpgroup_barrier() { emu_named_barrier(16 + static_cast<int>(threadIdx.x >> 7), 128); }
inline void emu_wgmma_tf32_rs(float* d, const uint32_t* a, uint64_t db, int n) {
  const unsigned t = emu_slot(), group = t / 128 * 128, w = (t / 32) % 4, lane = t % 32, g = lane / 4, q = lane % 4;
  for (int i = 0; i < 4; ++i) emu_wgmma_a[t][i] = a[i];
  emu_warpgroup_barrier();
  auto a_at = [&](unsigned row, unsigned k) {
    const unsigned holder = group + 32 * (row / 16) + 4 * (row % 8) + k % 4, word = (row % 16) / 8 + 2 * (k / 4);
    return emu_tf32_word(emu_wgmma_a[holder][word]);
  };
  for (int j = 0; j < n / 8; ++j)
    for (int c = 0; c < 4; ++c) {
      const unsigned row = 16 * w + g + (c >= 2 ? 8 : 0), col = 8 * j + 2 * q + (c & 1);
      float acc = d[4 * j + c];
      for (unsigned k = 0; k < 8; ++k) acc += a_at(row, k) * emu_desc_tf32(db, col, k);
      d[4 * j + c] = acc;
    }
  emu_warpgroup_barrier();
}

// 16-bit, A from registers: every thread posts its four words (a0..a3 hold
// k 2q and 2q + 1 of rows g, g + 8, then k 2q + 8 and 2q + 9 of the same
// rows, the lower k in the low half), then reads the rows its accumulator
// needs from the threads of its warpgroup.
inline void emu_wgmma_16_rs(float* d, const uint32_t* a, uint64_t db, int n, bool bf16, bool b_mn_major) {
  const unsigned t = emu_slot(), group = t / 128 * 128, w = (t / 32) % 4, lane = t % 32, g = lane / 4, q = lane % 4;
  for (int i = 0; i < 4; ++i) emu_wgmma_a[t][i] = a[i];
  emu_warpgroup_barrier();
  auto a_at = [&](unsigned row, unsigned k) {
    const unsigned holder = group + 32 * (row / 16) + 4 * (row % 8) + (k % 8) / 2, word = (row % 16) / 8 + 2 * (k / 8);
    const uint16_t half = static_cast<uint16_t>(emu_wgmma_a[holder][word] >> (16 * (k % 2)));
    return bf16 ? std::bit_cast<float>(static_cast<uint32_t>(half) << 16) : __half2float(std::bit_cast<__half>(half));
  };
  for (int j = 0; j < n / 8; ++j)
    for (int c = 0; c < 4; ++c) {
      const unsigned row = 16 * w + g + (c >= 2 ? 8 : 0), col = 8 * j + 2 * q + (c & 1);
      float acc = d[4 * j + c];
      for (unsigned k = 0; k < 16; ++k) acc += a_at(row, k) * emu_desc_16(db, col, k, b_mn_major, bf16);
      d[4 * j + c] = acc;
    }
  emu_warpgroup_barrier();
}

// ldmatrix: every lane posts its row address, then takes its words from
// the rows of the 8 x 8 matrices of its warp (the prelude's comment gives
// the layout); like the MMAs, called by every thread of the block together.
inline const void* emu_ldsm_rows[2048];
template <int N, bool Trans>
void emu_ldsm(uint32_t* r, const void* p) {
  const unsigned t = emu_slot(), warp = t & ~31u, lane = t & 31u, g = lane / 4, q = lane % 4;
  emu_ldsm_rows[t] = p;
  __syncthreads();
  for (int j = 0; j < N; ++j) {
    if (!Trans) {
      std::memcpy(&r[j], static_cast<const unsigned char*>(emu_ldsm_rows[warp + 8 * j + g]) + 4 * q, 4);
    } else {
      uint16_t lo, hi;
      std::memcpy(&lo, static_cast<const unsigned char*>(emu_ldsm_rows[warp + 8 * j + 2 * q]) + 2 * g, 2);
      std::memcpy(&hi, static_cast<const unsigned char*>(emu_ldsm_rows[warp + 8 * j + 2 * q + 1]) + 2 * g, 2);
      r[j] = static_cast<uint32_t>(lo) | static_cast<uint32_t>(hi) << 16;
    }
  }
  __syncthreads();
}
inline void ts_ldsm_x4(uint32_t* r, const void* p) { emu_ldsm<4, false>(r, p); }
inline void ts_ldsm_x4_trans(uint32_t* r, const void* p) { emu_ldsm<4, true>(r, p); }
inline void ts_ldsm_x2(uint32_t* r, const void* p) { emu_ldsm<2, false>(r, p); }
inline void ts_ldsm_x2_trans(uint32_t* r, const void* p) { emu_ldsm<2, true>(r, p); }
