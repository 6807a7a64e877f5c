// The IQ2_S and IQ1_S grids, whose entry bytes take three values each, as
// one word of nibbles per entry for the integer GEMV's codebook copies in
// shared memory: half the bytes of the eight-byte originals, read with one
// 4-byte load and expanded by two byte permutes (NibbleEntry). The smaller
// grids (IQ2_XXS, IQ2_XS, and IQ1_M's in the two-activation kernel) and the
// tensor-core decoders measured slower with nibbles and keep the eight-byte
// grids.
// Where a choice here "measured faster", docs/GPU_TUNING.md has the runs.
#pragma once

#include "iq_tables_device.h"

namespace vt::gpu {

// Nibble i of an entry's word is the place of the entry's byte i among the
// bytes of its grid's `levels` word.
template <int N>
struct NibbleGrid {
  uint32_t words[N];
};

template <int N>
constexpr NibbleGrid<N> ToNibbles(const uint64_t (&grid)[N], uint32_t levels) {
  NibbleGrid<N> out{};
  for (int e = 0; e < N; ++e) {
    uint32_t word = 0;
    for (int i = 0; i < 8; ++i) {
      const uint32_t byte = static_cast<uint32_t>(grid[e] >> (8 * i)) & 0xFFu;
      int place = 0;
      while (place < 3 && ((levels >> (8 * place)) & 0xFFu) != byte) ++place;
      // A byte outside `levels` leaves place 3; the static_asserts below
      // then fail at compile time.
      word |= static_cast<uint32_t>(place) << (4 * i);
    }
    out.words[e] = word;
  }
  return out;
}

template <int N>
constexpr bool AllPlaced(const NibbleGrid<N>& grid) {
  for (uint32_t word : grid.words) {
    for (int i = 0; i < 8; ++i) {
      if (((word >> (4 * i)) & 15u) > 2) return false;
    }
  }
  return true;
}

constexpr uint32_t kIq2Levels = 0x002B1908u;  // the IQ2_S grid's bytes 8, 25, 43
constexpr uint32_t kIq1Levels = 0x000100FFu;  // the IQ1 grid's bytes -1, 0, 1

__device__ constexpr NibbleGrid<1024> kIq2sNibbles = ToNibbles(iq_constants::kIq2sGrid, kIq2Levels);
__device__ constexpr NibbleGrid<2048> kIq1sNibbles = ToNibbles(iq_constants::kIq1sGrid, kIq1Levels);
static_assert(AllPlaced(ToNibbles(iq_constants::kIq2sGrid, kIq2Levels)) &&
                  AllPlaced(ToNibbles(iq_constants::kIq1sGrid, kIq1Levels)),
              "every grid byte is one of its levels");

// Bytes 4 half .. 4 half + 3 of the entry whose nibble word is `word`.
template <uint32_t kLevels>
__device__ __forceinline__ uint32_t NibbleHalf(uint32_t word, int half) {
  return BytePerm(kLevels, 0, word >> (16 * half));
}
// All eight bytes of it.
template <uint32_t kLevels>
__device__ __forceinline__ uint64_t NibbleEntry(uint32_t word) {
  const uint64_t high = NibbleHalf<kLevels>(word, 1);
  return (high << 32) | NibbleHalf<kLevels>(word, 0);
}

}  // namespace vt::gpu
