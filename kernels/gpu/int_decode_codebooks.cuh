// Integer decoders for the codebook I-quants: chunk ib is the block's
// 32-value group ib, built from grid entries (iq_tables_device.h), signs
// and group scales. Those with kCodebookBytes take their grid as an
// argument (the GEMV hands them a copy in shared memory, Codebook() being
// the original).
// Where a choice here "measured faster", docs/GPU_TUNING.md has the runs.
#pragma once

#include "int_chunk.cuh"
#include "iq_nibble_grids.cuh"

namespace vt::gpu {

// The eight signs a 7-bit ggml sign field stands for: its seven bits, and
// as bit 7 their parity (what ggml's ksigns_iq2xs table holds), worked out
// instead of looked up: four loads a chunk fewer for L1, which the IQ
// GEMVs keep busiest.
__device__ __forceinline__ uint32_t IqSigns(uint32_t seven) {
  return seven | ((static_cast<uint32_t>(__popc(seven)) & 1u) << 7);
}

// Codebook groups: eight unsigned grid bytes, negated where the sign mask
// has a bit. Grid bytes are never 0 in the IQ2/IQ3 codebooks, so the
// byte-wise two's complement (x ^ 0xFF) + 1 never carries into a neighbour.
__device__ __forceinline__ void SignedGrid(uint64_t grid, uint32_t signs, int* out) {
#pragma unroll
  for (int half = 0; half < 2; ++half) {
    const uint32_t g = static_cast<uint32_t>(grid >> (32 * half));
    const uint32_t s = (signs >> (4 * half)) & 15u;
    const uint32_t ones = (s * 0x00204081u) & 0x01010101u;  // bit i of s to byte i
    out[half] = static_cast<int>((g ^ (ones * 0xFFu)) + ones);
  }
}
template <>
struct IntBlock<T::kIQ2_XXS> {
  static constexpr bool kReadsPastFields = true, kHalfScales = false;
  static constexpr int kCodebookBytes = sizeof(iq_constants::kIq2xxsGrid);
  __device__ static const uint64_t* Codebook() { return iq::kIq2xxsGrid; }
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int ib, IntChunk& c, const uint64_t* grid = Codebook()) {
    uint32_t aux[2];
    LoadWords<2, S>(b + 2 + 8 * ib, aux);
#pragma unroll
    for (int l = 0; l < 4; ++l) {
      SignedGrid(grid[(aux[0] >> (8 * l)) & 0xFF], IqSigns((aux[1] >> (7 * l)) & 127u), c.v + 2 * l);
    }
    SetScales(c, AlignedHalfAt(b) * (0.5f + F(static_cast<int>(aux[1] >> 28))) * 0.25f, 0.0f);
  }
};
// IQ2_XS / IQ2_S: one 4-bit scale per half of the group, d (0.5 + s) / 4.
__device__ __forceinline__ void SetIq2HalfScales(float d, uint8_t scales, IntChunk& c) {
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    c.d[h] = d * (0.5f + F(h ? (scales >> 4) : (scales & 15))) * 0.25f;
    c.m[h] = 0.0f;
  }
}
template <>
struct IntBlock<T::kIQ2_XS> {
  static constexpr bool kReadsPastFields = true, kHalfScales = true;
  static constexpr int kCodebookBytes = sizeof(iq_constants::kIq2xsGrid);
  __device__ static const uint64_t* Codebook() { return iq::kIq2xsGrid; }
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int ib, IntChunk& c, const uint64_t* grid = Codebook()) {
    uint32_t words[2];
    LoadWords<2, S>(b + 2 + 8 * ib, words);
#pragma unroll
    for (int l = 0; l < 4; ++l) {
      const uint32_t q = (words[l / 2] >> (16 * (l % 2))) & 0xFFFFu;
      SignedGrid(grid[q & 511], IqSigns(q >> 9), c.v + 2 * l);
    }
    SetIq2HalfScales(AlignedHalfAt(b), b[66 + ib], c);
  }
};
template <>
struct IntBlock<T::kIQ2_S> {
  static constexpr bool kReadsPastFields = false, kHalfScales = true;
  static constexpr int kCodebookBytes = sizeof(kIq2sNibbles);
  __device__ static const uint32_t* Codebook() { return kIq2sNibbles.words; }
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int ib, IntChunk& c, const uint32_t* grid = Codebook()) {
    const uint8_t* qs = b + 2 + 4 * ib;
    const uint8_t* signs = b + 34 + 4 * ib;
    const uint8_t qh = b[66 + ib], scales = b[74 + ib];
#pragma unroll
    for (int l = 0; l < 4; ++l) {
      SignedGrid(NibbleEntry<kIq2Levels>(grid[qs[l] | ((qh << (8 - 2 * l)) & 0x300)]), signs[l], c.v + 2 * l);
    }
    SetIq2HalfScales(AlignedHalfAt(b), scales, c);
  }
};
template <>
struct IntBlock<T::kIQ3_XXS> {
  static constexpr bool kReadsPastFields = false, kHalfScales = false;
  static constexpr int kCodebookBytes = sizeof(iq_constants::kIq3xxsGrid);
  __device__ static const uint32_t* Codebook() { return iq::kIq3xxsGrid; }
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int ib, IntChunk& c, const uint32_t* grid = Codebook()) {
    const uint8_t* qs = b + 2 + 8 * ib;
    const uint32_t aux = U32At(b + 66 + 4 * ib);
#pragma unroll
    for (int l = 0; l < 4; ++l) {
      SignedGrid(Pair(grid[qs[2 * l]], grid[qs[2 * l + 1]]),
                 IqSigns((aux >> (7 * l)) & 127u), c.v + 2 * l);
    }
    SetScales(c, AlignedHalfAt(b) * (0.5f + F(static_cast<int>(aux >> 28))) * 0.5f, 0.0f);
  }
};
template <>
struct IntBlock<T::kIQ3_S> {
  static constexpr bool kReadsPastFields = false, kHalfScales = false;
  static constexpr int kCodebookBytes = sizeof(iq_constants::kIq3sGrid);
  __device__ static const uint32_t* Codebook() { return iq::kIq3sGrid; }
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int ib, IntChunk& c, const uint32_t* grid = Codebook()) {
    const uint8_t* qs = b + 2 + 8 * ib;
    const uint8_t qh = b[66 + ib];
    const uint8_t* signs = b + 74 + 4 * ib;
#pragma unroll
    for (int l = 0; l < 4; ++l) {
      const uint32_t first = grid[qs[2 * l] | ((qh << (8 - 2 * l)) & 256)];
      const uint32_t second = grid[qs[2 * l + 1] | ((qh << (7 - 2 * l)) & 256)];
      SignedGrid(Pair(first, second), signs[l], c.v + 2 * l);
    }
    const uint8_t scales = b[106 + ib / 2];
    SetScales(c, AlignedHalfAt(b) * F(1 + 2 * ((ib % 2) ? (scales >> 4) : (scales & 15))), 0.0f);
  }
};
// IQ1_S: value dl * (grid + delta), grid bytes already signed (-1, 0, 1);
// the delta is the affine term, one per 32 values.
template <>
struct IntBlock<T::kIQ1_S> {
  static constexpr bool kReadsPastFields = false, kHalfScales = false;
  static constexpr int kCodebookBytes = sizeof(kIq1sNibbles);
  __device__ static const uint32_t* Codebook() { return kIq1sNibbles.words; }
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int ib, IntChunk& c, const uint32_t* grid = Codebook()) {
    const uint8_t* qs = b + 2 + 4 * ib;
    const uint16_t qh = AlignedU16At(b + 34 + 2 * ib);
#pragma unroll
    for (int l = 0; l < 4; ++l) {
      const uint64_t entry = NibbleEntry<kIq1Levels>(grid[qs[l] | (((qh >> (3 * l)) & 7) << 8)]);
      c.v[2 * l] = static_cast<int>(static_cast<uint32_t>(entry));
      c.v[2 * l + 1] = static_cast<int>(static_cast<uint32_t>(entry >> 32));
    }
    const float dl = AlignedHalfAt(b) * F(2 * ((qh >> 12) & 7) + 1);
    SetScales(c, dl, -dl * ((qh & 0x8000) ? -kIq1Delta : kIq1Delta));
  }
};
// IQ1_M: value dl * (grid + delta) with delta = +-1/8 per eight values, so
// 8 * grid + 8 * delta (odd, within -9..9) under dl / 8 is exact.
template <>
struct IntBlock<T::kIQ1_M> {
  static constexpr bool kReadsPastFields = false, kHalfScales = true;
  static constexpr int kCodebookBytes = sizeof(iq_constants::kIq1sGrid);
  __device__ static const uint64_t* Codebook() { return iq::kIq1sGrid; }
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int ib, IntChunk& c, const uint64_t* grid = Codebook()) {
    uint16_t sc[4];
    const float d = Iq1mScales(b, sc);
    const uint8_t* qs = b + 4 * ib;
    const uint8_t* qh = b + 32 + 2 * ib;
#pragma unroll
    for (int l = 0; l < 4; ++l) {
      const uint8_t high = qh[l / 2];
      const int index = qs[l] | (((l % 2) ? (high << 4) : (high << 8)) & 0x700);
      const bool negative = (l % 2) ? (high & 0x80) : (high & 0x08);
      const uint64_t entry = grid[index];
      const uint32_t delta = negative ? 0xFFFFFFFFu : 0x01010101u;  // 8 * delta per byte
#pragma unroll
      for (int half = 0; half < 2; ++half) {
        // Per byte 8 * g + 8 * delta, within -9..9: g in {-1, 0, 1} times 8
        // is (g & 0x1F) << 3 in its byte, and the bytes are added without
        // carries between them.
        const uint32_t eight_g = (static_cast<uint32_t>(entry >> (32 * half)) & 0x1F1F1F1Fu) << 3;
        c.v[2 * l + half] = static_cast<int>(((eight_g & 0x7F7F7F7Fu) + (delta & 0x7F7F7F7Fu)) ^
                                             ((eight_g ^ delta) & 0x80808080u));
      }
    }
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      c.d[h] = d * F(2 * ((sc[ib / 2] >> (6 * (ib % 2) + 3 * h)) & 7) + 1) * 0.125f;
      c.m[h] = 0.0f;
    }
  }
};

}  // namespace vt::gpu
