// Integer decoders for the K-quants and IQ4_XS: 256-value super-blocks of
// sub-block scales, eight chunks each.
#pragma once

#include "int_chunk.cuh"

namespace vt::gpu {

// Q4_K / Q5_K: d, dmin (f16) and the 12 packed scale bytes, read as four
// aligned words; chunk j's scale and min {d * scale, dmin * min} (6 bits
// each). The twelve bytes are first spread into eight scale bytes and eight
// min bytes (the same for every chunk of the block, so a caller decoding
// several chunks of one block computes them once), then byte j of each is
// read as a float by placing it under a float's exponent.
template <LoadMode S>
__device__ __forceinline__ float2 K4Scales(const uint8_t* b, int j) {
  uint32_t head[4];
  LoadAligned<4, 16, S>(b, head);
  const uint32_t scales[2] = {head[1] & 0x3F3F3F3Fu, (head[3] & 0x0F0F0F0Fu) | (((head[1] >> 6) & 0x03030303u) << 4)};
  const uint32_t mins[2] = {head[2] & 0x3F3F3F3Fu,
                            ((head[3] >> 4) & 0x0F0F0F0Fu) | (((head[2] >> 6) & 0x03030303u) << 4)};
  const uint32_t pick = 0x7540u | static_cast<uint32_t>(j & 3);  // byte j & 3, zeros, then 0x4B: 2^23 + byte
  const float scale = __uint_as_float(BytePerm(j < 4 ? scales[0] : scales[1], 0x4B000000u, pick)) - 8388608.0f;
  const float min = __uint_as_float(BytePerm(j < 4 ? mins[0] : mins[1], 0x4B000000u, pick)) - 8388608.0f;
  const float d = HalfBitsToFloat(static_cast<uint16_t>(head[0] & 0xFFFFu));
  const float dmin = HalfBitsToFloat(static_cast<uint16_t>(head[0] >> 16));
  return make_float2(d * scale, dmin * min);
}
template <LoadMode S>
__device__ __forceinline__ void SetK4Scales(const uint8_t* b, int j, IntChunk& c) {
  const float2 s = K4Scales<S>(b, j);
  SetScales(c, s.x, s.y);
}

// IQ4_XS: chunk j's scale from the block's first 8 bytes (d, scales_h,
// scales_l) read as two words. The 6-bit ls becomes ls - 32 by placing it
// under a float's exponent (2^23 + ls) and subtracting 2^23 + 32.
__device__ __forceinline__ float Iq4XsScale(const uint32_t (&head)[2], int j) {
  const uint32_t ls = ((head[1] >> (4 * j)) & 15u) | (((head[0] >> (16 + 2 * j)) & 3u) << 4);
  return HalfBitsToFloat(static_cast<uint16_t>(head[0] & 0xFFFFu)) * (__uint_as_float(0x4B000000u | ls) - 8388640.0f);
}

template <>
struct IntBlock<T::kQ4_K> {
  static constexpr bool kReadsPastFields = false, kHalfScales = false;
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int chunk, IntChunk& c) {
    uint32_t words[8];
    LoadAligned<8, 16, S>(b + 16 + 32 * (chunk / 2), words);  // 144-byte blocks: 16-aligned
    const int shift = 4 * (chunk % 2);
#pragma unroll
    for (int k = 0; k < 8; ++k) c.v[k] = static_cast<int>((words[k] >> shift) & 0x0F0F0F0Fu);
    SetK4Scales<S>(b, chunk, c);
  }
};
template <>
struct IntBlock<T::kQ5_K> {
  static constexpr bool kReadsPastFields = false, kHalfScales = false;
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int chunk, IntChunk& c) {
    uint32_t low[8], high[8];
    LoadAligned<8, 16, S>(b + 48 + 32 * (chunk / 2), low);  // 176-byte blocks: 16-aligned
    LoadAligned<8, 16, S>(b + 16, high);
    const int shift = 4 * (chunk % 2);
#pragma unroll
    for (int k = 0; k < 8; ++k) {
      c.v[k] = static_cast<int>(((low[k] >> shift) & 0x0F0F0F0Fu) | (((high[k] >> chunk) & 0x01010101u) << 4));
    }
    SetK4Scales<S>(b, chunk, c);
  }
};
// Q6_K: the affine terms of chunk j's two halves (code 32 stands for 0).
// Its two int8 scales are one 2-aligned pair, each read as a float by
// placing it, plus 128, under a float's exponent (2^23 + 128 + scale).
__device__ __forceinline__ void Q6kScales(const uint8_t* b, int j, float (&d)[2], float (&m)[2]) {
  const float scale = AlignedHalfAt(b + 208);
  const uint32_t pair = AlignedU16At(b + 192 + 2 * j) ^ 0x8080u;
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    d[h] = scale * (__uint_as_float(BytePerm(pair, 0x4B000000u, 0x7540u | static_cast<uint32_t>(h))) - 8388736.0f);
    m[h] = 32.0f * d[h];
  }
}
template <>
struct IntBlock<T::kQ6_K> {
  static constexpr bool kReadsPastFields = true, kHalfScales = true;
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int chunk, IntChunk& c) {
    const int n = chunk / 4, quarter = chunk % 4;
    uint32_t low[8], high[8];  // each byte's field of this chunk at bit 0
    LoadWords<8, S>(b + 64 * n + 32 * (quarter % 2), low, 4 * (quarter / 2));
    LoadWords<8, S>(b + 128 + 32 * n, high, 2 * quarter);
#pragma unroll
    for (int k = 0; k < 8; ++k) c.v[k] = static_cast<int>((low[k] & 0x0F0F0F0Fu) | ((high[k] & 0x03030303u) << 4));
    Q6kScales(b, chunk, c.d, c.m);
  }
};
template <>
struct IntBlock<T::kIQ4_XS> {
  static constexpr bool kReadsPastFields = false, kHalfScales = false;
  template <LoadMode S = LoadMode::kCached, CodeOrder O = CodeOrder::kElements>
  __device__ static void Decode(const uint8_t* b, int chunk, IntChunk& c) {
    uint32_t words[4], head[2];  // head: d, scales_h (16 bits each), then scales_l (4 bytes)
    LoadAligned<4, 8, S>(b + 8 + 16 * chunk, words);  // 136-byte blocks: 8-aligned
    LoadAligned<2, 8, S>(b, head);
    LookupIq4nl<O>(words, c);
    SetScales(c, Iq4XsScale(head, chunk), 0.0f);
  }
};
template <>
struct IntBlock<T::kQ8_K> {
  static constexpr bool kReadsPastFields = false, kHalfScales = false;
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int chunk, IntChunk& c) {
    LoadAligned<8, 4, S>(b + 4 + 32 * chunk, reinterpret_cast<uint32_t*>(c.v));  // 292-byte blocks
    SetScales(c, __uint_as_float(*reinterpret_cast<const uint32_t*>(b)), 0.0f);
  }
};

template <>
struct IntBlock<T::kQ2_K> {
  static constexpr bool kReadsPastFields = true, kHalfScales = true;
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int chunk, IntChunk& c) {
    uint32_t words[8];  // 84-byte blocks: 4-aligned; each byte's field of this chunk at bit 0
    LoadWords<8, S>(b + 16 + 32 * (chunk / 4), words, 2 * (chunk % 4));
#pragma unroll
    for (int k = 0; k < 8; ++k) c.v[k] = static_cast<int>(words[k] & 0x03030303u);
    const float d = AlignedHalfAt(b + 80), dmin = AlignedHalfAt(b + 82);
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const uint8_t sc = b[2 * chunk + h];
      c.d[h] = d * F(sc & 15);
      c.m[h] = dmin * F(sc >> 4);
    }
  }
};
// Q3_K: code low + 4 * high in 0..7 stands for value code - 4.
template <>
struct IntBlock<T::kQ3_K> {
  static constexpr bool kReadsPastFields = true, kHalfScales = true;
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int chunk, IntChunk& c) {
    uint32_t low[8], high[8];  // 110-byte blocks: 2-aligned; each byte's field of this chunk at bit 0
    LoadWords<8, S>(b + 32 + 32 * (chunk / 4), low, 2 * (chunk % 4));
    LoadWords<8, S>(b, high, chunk);
#pragma unroll
    for (int k = 0; k < 8; ++k) c.v[k] = static_cast<int>((low[k] & 0x03030303u) | ((high[k] & 0x01010101u) << 2));
    const float d = AlignedHalfAt(b + 108);
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      c.d[h] = d * F(Q3kScale(b + 96, 2 * chunk + h));
      c.m[h] = 4.0f * c.d[h];
    }
  }
};

}  // namespace vt::gpu
