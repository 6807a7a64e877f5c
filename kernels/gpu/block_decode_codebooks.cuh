// Device decoders for the codebook I-quants: chunk ib is the block's
// 32-value group ib, built from grid entries (iq_tables_device.h), signs
// and group scales.
#pragma once

#include "block_format.cuh"

namespace vt::gpu {

// Eight grid magnitudes times `scale`, negated where `signs` has the bit.
__device__ __forceinline__ void GridTimes(uint64_t grid, uint8_t signs, float scale, float* v) {
  for (int j = 0; j < 8; ++j) {
    const float x = Mul(scale, F(static_cast<int>((grid >> (8 * j)) & 0xFF)));
    v[j] = (signs >> j) & 1 ? -x : x;
  }
}
__device__ __forceinline__ float IqScale(float d, int nibble, float tail) {
  return Mul(Mul(d, __fadd_rn(0.5f, F(nibble))), tail);
}

template <>
struct Block<T::kIQ2_XXS> {
  static constexpr int kBytes = 66, kValues = 256;
  __device__ static void Decode(const uint8_t* b, int ib, float* v) {
    const uint32_t indices = U32At(b + 2 + 8 * ib);
    const uint32_t signs_scale = U32At(b + 6 + 8 * ib);
    const float db = IqScale(HalfAt(b), static_cast<int>(signs_scale >> 28), 0.25f);
    for (int l = 0; l < 4; ++l) {
      GridTimes(iq::kIq2xxsGrid[(indices >> (8 * l)) & 0xFF], iq::kSignsIq2xs[(signs_scale >> (7 * l)) & 127], db,
                v + 8 * l);
    }
  }
};
template <>
struct Block<T::kIQ2_XS> {
  static constexpr int kBytes = 74, kValues = 256;
  __device__ static void Decode(const uint8_t* b, int ib, float* v) {
    const float d = HalfAt(b);
    const uint8_t scales = b[66 + ib];
    for (int l = 0; l < 4; ++l) {
      const uint16_t q = U16At(b + 2 + 2 * (4 * ib + l));
      const float db = IqScale(d, l < 2 ? (scales & 15) : (scales >> 4), 0.25f);
      GridTimes(iq::kIq2xsGrid[q & 511], iq::kSignsIq2xs[q >> 9], db, v + 8 * l);
    }
  }
};
template <>
struct Block<T::kIQ2_S> {
  static constexpr int kBytes = 82, kValues = 256;
  __device__ static void Decode(const uint8_t* b, int ib, float* v) {
    const float d = HalfAt(b);
    const uint8_t* qs = b + 2 + 4 * ib;
    const uint8_t* signs = b + 34 + 4 * ib;
    const uint8_t qh = b[66 + ib], scales = b[74 + ib];
    for (int l = 0; l < 4; ++l) {
      const int index = qs[l] | ((qh << (8 - 2 * l)) & 0x300);
      const float db = IqScale(d, l < 2 ? (scales & 15) : (scales >> 4), 0.25f);
      GridTimes(iq::kIq2sGrid[index], signs[l], db, v + 8 * l);
    }
  }
};
// Two 4-value grid entries as one 8-value group.
__device__ __forceinline__ uint64_t Pair(uint32_t first, uint32_t second) {
  return static_cast<uint64_t>(first) | (static_cast<uint64_t>(second) << 32);
}
template <>
struct Block<T::kIQ3_XXS> {
  static constexpr int kBytes = 98, kValues = 256;
  __device__ static void Decode(const uint8_t* b, int ib, float* v) {
    const uint8_t* qs = b + 2 + 8 * ib;
    const uint32_t aux = U32At(b + 66 + 4 * ib);
    const float db = IqScale(HalfAt(b), static_cast<int>(aux >> 28), 0.5f);
    for (int l = 0; l < 4; ++l) {
      GridTimes(Pair(iq::kIq3xxsGrid[qs[2 * l]], iq::kIq3xxsGrid[qs[2 * l + 1]]),
                iq::kSignsIq2xs[(aux >> (7 * l)) & 127], db, v + 8 * l);
    }
  }
};
template <>
struct Block<T::kIQ3_S> {
  static constexpr int kBytes = 110, kValues = 256;
  __device__ static void Decode(const uint8_t* b, int ib, float* v) {
    const uint8_t* qs = b + 2 + 8 * ib;
    const uint8_t qh = b[66 + ib];
    const uint8_t* signs = b + 74 + 4 * ib;
    const uint8_t scales = b[106 + ib / 2];
    const float db = Mul(HalfAt(b), F(1 + 2 * ((ib % 2) ? (scales >> 4) : (scales & 15))));
    for (int l = 0; l < 4; ++l) {
      const uint32_t first = iq::kIq3sGrid[qs[2 * l] | ((qh << (8 - 2 * l)) & 256)];
      const uint32_t second = iq::kIq3sGrid[qs[2 * l + 1] | ((qh << (7 - 2 * l)) & 256)];
      GridTimes(Pair(first, second), signs[l], db, v + 8 * l);
    }
  }
};
// IQ1 groups: scale * (grid + delta), the grid bytes signed (-1, 0, 1).
__device__ __forceinline__ void Iq1Group(uint64_t grid, float scale, float delta, float* v) {
  for (int j = 0; j < 8; ++j) {
    v[j] = Mul(scale, __fadd_rn(F(static_cast<int8_t>((grid >> (8 * j)) & 0xFF)), delta));
  }
}
inline constexpr float kIq1Delta = 0.125f;
template <>
struct Block<T::kIQ1_S> {
  static constexpr int kBytes = 50, kValues = 256;
  __device__ static void Decode(const uint8_t* b, int ib, float* v) {
    const uint8_t* qs = b + 2 + 4 * ib;
    const uint16_t qh = U16At(b + 34 + 2 * ib);
    const float dl = Mul(HalfAt(b), F(2 * ((qh >> 12) & 7) + 1));
    const float delta = (qh & 0x8000) ? -kIq1Delta : kIq1Delta;
    for (int l = 0; l < 4; ++l) Iq1Group(iq::kIq1sGrid[qs[l] | (((qh >> (3 * l)) & 7) << 8)], dl, delta, v + 8 * l);
  }
};
// IQ1_M's four u16 scale words (3-bit group scales) and its f16 super-scale,
// spread over their top nibbles.
__device__ __forceinline__ float Iq1mScales(const uint8_t* b, uint16_t* sc) {
  for (int i = 0; i < 4; ++i) sc[i] = U16At(b + 48 + 2 * i);
  return HalfBitsToFloat(
      static_cast<uint16_t>((sc[0] >> 12) | ((sc[1] >> 8) & 0x00F0) | ((sc[2] >> 4) & 0x0F00) | (sc[3] & 0xF000)));
}
template <>
struct Block<T::kIQ1_M> {
  static constexpr int kBytes = 56, kValues = 256;
  __device__ static void Decode(const uint8_t* b, int ib, float* v) {
    uint16_t sc[4];
    const float d = Iq1mScales(b, sc);
    const uint8_t* qs = b + 4 * ib;
    const uint8_t* qh = b + 32 + 2 * ib;
    for (int l = 0; l < 4; ++l) {
      const uint8_t high = qh[l / 2];
      const int index = qs[l] | (((l % 2) ? (high << 4) : (high << 8)) & 0x700);
      const bool negative = (l % 2) ? (high & 0x80) : (high & 0x08);
      const int scale3 = (sc[ib / 2] >> (6 * (ib % 2) + 3 * (l / 2))) & 7;
      Iq1Group(iq::kIq1sGrid[index], Mul(d, F(2 * scale3 + 1)), negative ? -kIq1Delta : kIq1Delta, v + 8 * l);
    }
  }
};

}  // namespace vt::gpu
