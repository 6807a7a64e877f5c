// Integer decoders for the 32-value legacy blocks (Q4_0 .. Q8_1, IQ4_NL,
// MXFP4) and the small-block formats (Q1_0, Q2_0, NVFP4).
#pragma once

#include "int_chunk.cuh"

namespace vt::gpu {

template <>
struct IntBlock<T::kQ8_0> {
  static constexpr bool kReadsPastFields = true, kHalfScales = false;
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int, IntChunk& c) {
    LoadWords<8, S>(b + 2, reinterpret_cast<uint32_t*>(c.v));
    SetScales(c, AlignedHalfAt(b), 0.0f);
  }
};
template <>
struct IntBlock<T::kQ8_1> {
  static constexpr bool kReadsPastFields = true, kHalfScales = false;
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int, IntChunk& c) {
    LoadWords<8, S>(b + 4, reinterpret_cast<uint32_t*>(c.v));
    SetScales(c, AlignedHalfAt(b), 0.0f);
  }
};
template <>
struct IntBlock<T::kQ4_0> {
  static constexpr bool kReadsPastFields = true, kHalfScales = false;
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int, IntChunk& c) {
    uint32_t words[4];
    LoadWords<4, S>(b + 2, words);
    SplitNibbles(words, c);
    // Byte loads, not AlignedHalfAt: the single load measured slower here
    // (batch 8: 1289 -> 1040 GB/s on an H200), as it did for Q4_1, Q5_1,
    // IQ4_NL and TQ2_0 (batch 8, 6-11%) and Q5_0 (batch 1, 2.5%), which
    // read theirs the same way.
    const float d = HalfAt(b);
    SetScales(c, d, 8.0f * d);
  }
};
template <>
struct IntBlock<T::kQ4_1> {
  static constexpr bool kReadsPastFields = true, kHalfScales = false;
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int, IntChunk& c) {
    uint32_t words[4];
    LoadWords<4, S>(b + 4, words);
    SplitNibbles(words, c);
    SetScales(c, HalfAt(b), -HalfAt(b + 2));  // byte loads: see Q4_0
  }
};
// Bits j..j+3 of `bits` moved to bit 4 of bytes 0..3.
__device__ __forceinline__ int FifthBits(uint32_t bits, int j) {
  const uint32_t x = (bits >> j) & 15u;
  return static_cast<int>(((x & 1u) | ((x & 2u) << 7) | ((x & 4u) << 14) | ((x & 8u) << 21)) << 4);
}
template <LoadMode S>
__device__ __forceinline__ void Q5Codes(const uint8_t* qs, uint32_t qh, IntChunk& c) {
  uint32_t words[4];
  LoadWords<4, S>(qs, words);
  SplitNibbles(words, c);
#pragma unroll
  for (int k = 0; k < 8; ++k) c.v[k] |= FifthBits(qh, 4 * k);
}
template <>
struct IntBlock<T::kQ5_0> {
  static constexpr bool kReadsPastFields = true, kHalfScales = false;
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int, IntChunk& c) {
    Q5Codes<S>(b + 6, U32At(b + 2), c);
    const float d = HalfAt(b);  // byte loads: see Q4_0
    SetScales(c, d, 16.0f * d);
  }
};
template <>
struct IntBlock<T::kQ5_1> {
  static constexpr bool kReadsPastFields = true, kHalfScales = false;
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int, IntChunk& c) {
    Q5Codes<S>(b + 8, U32At(b + 4), c);
    SetScales(c, HalfAt(b), -HalfAt(b + 2));  // byte loads: see Q4_0
  }
};
template <>
struct IntBlock<T::kIQ4_NL> {
  static constexpr bool kReadsPastFields = true, kHalfScales = false;
  template <LoadMode S = LoadMode::kCached, CodeOrder O = CodeOrder::kElements>
  __device__ static void Decode(const uint8_t* b, int, IntChunk& c) {
    uint32_t words[4];
    LoadWords<4, S>(b + 2, words);
    LookupNibbles<O>(words, iq::kValuesIq4nl, c);
    SetScales(c, HalfAt(b), 0.0f);  // byte loads: see Q4_0
  }
};
template <>
struct IntBlock<T::kMXFP4> {
  static constexpr bool kReadsPastFields = true, kHalfScales = false;
  template <LoadMode S = LoadMode::kCached, CodeOrder O = CodeOrder::kElements>
  __device__ static void Decode(const uint8_t* b, int, IntChunk& c) {
    uint32_t words[4];
    LoadWords<4, S>(b + 1, words);
    LookupNibbles<O>(words, iq::kValuesFp4, c);
    SetScales(c, E8m0Half(b[0]), 0.0f);
  }
};
template <>
struct IntBlock<T::kNVFP4> {
  static constexpr bool kReadsPastFields = false, kHalfScales = true;
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int chunk, IntChunk& c) {
    uint32_t table[4];
    PackTable16(iq::kValuesFp4, table);
    uint32_t words[4];
    LoadAligned<4, 4, S>(b + 4 + 16 * chunk, words);  // 36-byte blocks: 4-aligned
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      // Sub-block 2 * chunk + h: low nibbles are its values 0..7, high 8..15.
      const int2 first = Lookup16(words[2 * h], table), second = Lookup16(words[2 * h + 1], table);
      c.v[4 * h + 0] = first.x;
      c.v[4 * h + 1] = second.x;
      c.v[4 * h + 2] = first.y;
      c.v[4 * h + 3] = second.y;
      c.d[h] = Ue4m3Half(b[2 * chunk + h]);
      c.m[h] = 0.0f;
    }
  }
};
template <>
struct IntBlock<T::kQ2_0> {
  static constexpr bool kReadsPastFields = true, kHalfScales = false;
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int chunk, IntChunk& c) {
    uint32_t words[2];
    LoadWords<2, S>(b + 2 + 8 * chunk, words);
#pragma unroll
    for (int k = 0; k < 8; ++k) {
      const uint32_t byte = (words[k / 4] >> (8 * (k % 4))) & 0xFFu;
      c.v[k] = static_cast<int>((byte & 3u) | ((byte & 0x0Cu) << 6) | ((byte & 0x30u) << 12) | ((byte & 0xC0u) << 18));
    }
    const float d = AlignedHalfAt(b);
    SetScales(c, d, d);
  }
};
// Q1_0: a set bit is +d, a clear one -d: value 2d * bit - d.
template <>
struct IntBlock<T::kQ1_0> {
  static constexpr bool kReadsPastFields = true, kHalfScales = false;
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int chunk, IntChunk& c) {
    uint32_t bits;
    LoadWords<1, S>(b + 2 + 4 * chunk, &bits);
#pragma unroll
    for (int k = 0; k < 8; ++k) c.v[k] = static_cast<int>(BitsToBytes(bits >> (4 * k)));
    const float d = AlignedHalfAt(b);
    SetScales(c, 2.0f * d, d);
  }
};

}  // namespace vt::gpu
