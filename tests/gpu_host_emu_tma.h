// Part of the CUDA emulation that gpu_host_emulation.h force-includes (see
// its header comment): mbarriers and the TMA unit (boxes, multicast, remote
// arrivals); after gpu_host_emu_threads.h.
#pragma once

// On the GPU a kernel with tensor maps is compiled for one copy path
// (TS_TMA_PATH in the prelude: the TMA form, or the cp.async form a launch
// whose maps could not be encoded runs). Here one library serves both: the
// path follows the launch's ts_tma_launch, 0 exactly when the maps could
// not be encoded, so each run takes the path its device launch would.
#define TS_TMA_PATH (ts_tma_launch != 0)

// TMA (CodegenOptions::tma): a tensor map as the test runner encodes it
// (gpu_host_runner.h: base, cols, rows, row stride in bytes, box cols and
// rows, element bytes, 128-byte swizzle, batches, batch stride in bytes),
// a box copied at once when issued,
// and mbarriers as one arrival count and a byte count per phase.
// An mbarrier's 8 bytes: its arrival count and the arrivals pending (up
// to 2^13 - 1 each: a block's threads and the copies' arming), the phase's
// parity, then the bytes expected and not yet landed.
struct EmuMbarrier {
  uint32_t count, pending, parity;
  int32_t tx;
};
inline EmuMbarrier emu_mbar_read(const uint64_t* bar) {
  uint32_t word;
  EmuMbarrier m;
  std::memcpy(&word, bar, 4);
  std::memcpy(&m.tx, reinterpret_cast<const char*>(bar) + 4, 4);
  m.count = word & 0x1fff;
  m.pending = (word >> 13) & 0x1fff;
  m.parity = word >> 26 & 1;
  return m;
}
inline void emu_mbar_write(uint64_t* bar, const EmuMbarrier& m) {
  const uint32_t word = m.count | m.pending << 13 | m.parity << 26;
  std::memcpy(bar, &word, 4);
  std::memcpy(reinterpret_cast<char*>(bar) + 4, &m.tx, 4);
}
// `arrivals` arrive and the byte count moves by `tx` (+ expected, - landed);
// with no arrival and no byte left pending the phase completes.
inline void emu_mbar_update(uint64_t* bar, int arrivals, int32_t tx) {
  EmuMbarrier m = emu_mbar_read(bar);
  m.pending = (m.pending - arrivals) & 0x1fff;
  m.tx += tx;
  if (m.pending == 0 && m.tx == 0) {
    m.parity ^= 1;
    m.pending = m.count;
  }
  emu_mbar_write(bar, m);
}
inline void ts_mbar_init(uint64_t* bar, unsigned count) {
  if (count == 0 || count > 0x1fff) {
    std::fprintf(stderr, "emulation: an mbarrier's count %u is out of the emulator's range\n", count);
    std::abort();
  }
  emu_mbar_write(bar, EmuMbarrier{count, count, 0, 0});
}
inline void ts_mbar_fence_init() {}
inline void ts_mbar_inval(uint64_t* bar) { std::memset(bar, 0, 8); }
inline void ts_mbar_expect_tx(uint64_t* bar, unsigned bytes) { emu_mbar_update(bar, 1, static_cast<int32_t>(bytes)); }
// Phase `parity` has completed once the barrier's parity moved past it;
// until then the thread hands over to the others (one of them arms it).
inline void ts_mbar_wait(uint64_t* bar, unsigned parity) {
  for (long spins = 0;; ++spins) {
    if (emu_mbar_read(bar).parity != (parity & 1u)) return;
    if (spins > 1000000) {
      std::fprintf(stderr, "emulation: an mbarrier wait never completes\n");
      std::abort();
    }
    emu_hand_over(*emu_block, emu_block->current);
  }
}
// A waiter's suspend hint changes nothing here.
inline void ts_mbar_wait_sleep(uint64_t* bar, unsigned parity) { ts_mbar_wait(bar, parity); }
// Registers are the host's: setmaxnreg changes nothing here.
template <int N> void ts_setmaxnreg_dec() {}
template <int N> void ts_setmaxnreg_inc() {}
// One box of the tensor `map` describes (words: base, cols, rows, row
// stride in bytes, box cols and rows, element bytes, 128-byte swizzle,
// batches, batch stride in bytes: 0 for a 2-D map) at ts_smem offset
// `start` of `smem`, its bytes completing on the barrier at offset `bar`.
inline void emu_tma_box(unsigned char* smem, int64_t start, const void* map, int c0, int c1, int c2, int64_t bar) {
  const unsigned long long* w = static_cast<const unsigned long long*>(map);
  const unsigned char* base = reinterpret_cast<const unsigned char*>(w[0]);
  const int64_t cols = static_cast<int64_t>(w[1]), rows = static_cast<int64_t>(w[2]), stride = static_cast<int64_t>(w[3]);
  const int64_t box_cols = static_cast<int64_t>(w[4]), box_rows = static_cast<int64_t>(w[5]);
  const int64_t elem = static_cast<int64_t>(w[6]);
  const bool swizzle = w[7] != 0;
  const int64_t batches = w[9] ? static_cast<int64_t>(w[8]) : 1, batch_stride = static_cast<int64_t>(w[9]);
  const bool batch_in = c2 >= 0 && c2 < batches;
  for (int64_t r = 0; r < box_rows; ++r)
    for (int64_t c = 0; c < box_cols; ++c) {
      int64_t at = start + (r * box_cols + c) * elem;
      if (swizzle) at ^= ((at >> 7) & 7) << 4;
      const int64_t x = int64_t{c0} + c, y = int64_t{c1} + r;
      if (batch_in && x >= 0 && x < cols && y >= 0 && y < rows)
        std::memcpy(smem + at, base + c2 * batch_stride + y * stride + x * elem, static_cast<size_t>(elem));
      else
        std::memset(smem + at, 0, static_cast<size_t>(elem));
    }
  emu_mbar_update(reinterpret_cast<uint64_t*>(smem + bar), 0, -static_cast<int32_t>(box_cols * box_rows * elem));
}
inline void ts_tma_load_2d(void* dst, const void* map, int c0, int c1, uint64_t* bar) {
  emu_tma_box(ts_smem, static_cast<unsigned char*>(dst) - ts_smem, map, c0, c1, 0,
              reinterpret_cast<unsigned char*>(bar) - ts_smem);
}
inline void ts_tma_load_3d(void* dst, const void* map, int c0, int c1, int c2, uint64_t* bar) {
  emu_tma_box(ts_smem, static_cast<unsigned char*>(dst) - ts_smem, map, c0, c1, c2,
              reinterpret_cast<unsigned char*>(bar) - ts_smem);
}
inline void ts_mbar_arrive(uint64_t* bar) { emu_mbar_update(bar, 1, 0); }
// An arrival on the barrier at bar's offset in block `rank`'s shared memory.
inline void ts_mbar_arrive_cluster(uint64_t* bar, unsigned rank) {
  const int64_t at = reinterpret_cast<unsigned char*>(bar) - ts_smem;
  emu_mbar_update(reinterpret_cast<uint64_t*>(emu_smem_of(static_cast<int>(rank)) + at), 1, 0);
}
// Multicast: the same box at the same offsets in every block of the mask.
inline void ts_tma_load_3d_mc(void* dst, const void* map, int c0, int c1, int c2, uint64_t* bar, unsigned short mask) {
  const int64_t at = static_cast<unsigned char*>(dst) - ts_smem, b = reinterpret_cast<unsigned char*>(bar) - ts_smem;
  for (int r = 0; r < emu_block->blocks; ++r)
    if (mask >> r & 1) emu_tma_box(emu_smem_of(r), at, map, c0, c1, c2, b);
}
inline void ts_tma_load_2d_mc(void* dst, const void* map, int c0, int c1, uint64_t* bar, unsigned short mask) {
  ts_tma_load_3d_mc(dst, map, c0, c1, 0, bar, mask);
}
