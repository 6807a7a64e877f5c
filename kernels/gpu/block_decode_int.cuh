// Integer decoders for the keep-quant GEMV: a 32-value chunk of a block as
// 32 small integers (eight packed int8 words) under two affine maps, one per
// half of 16 values:
//   value[i] = d[i / 16] * v[i] - m[i / 16]
// so that a dot product with an int8-quantized activation is eight dp4a
// instructions plus two scale terms. Every block type has this form; the
// plain floats take the float path (block_decode.cuh).
#pragma once

#include "block_decode.cuh"

namespace vt::gpu {

struct IntChunk {
  int v[8];  // four int8 values each, in element order
  float d[2];
  float m[2];
};

// How a decoder reads its block. kCached and kStreaming (bulk loads marked
// read-once) may read up to 3 bytes past a field that ends unaligned, inside
// the same aligned word: harmless inside a tensor, so the GEMV uses kExact
// only for a tensor's last block.
enum class LoadMode { kCached, kStreaming, kExact };

template <class V, LoadMode kMode>
__device__ __forceinline__ V Load(const V* p) {
  if constexpr (kMode == LoadMode::kStreaming) {
    return LoadStreaming(p);
  } else {
    return *p;
  }
}

// `N` little-endian words starting at any byte address: aligned word loads,
// realigned with funnel shifts.
template <int N, LoadMode kMode = LoadMode::kCached>
__device__ __forceinline__ void LoadWords(const uint8_t* p, uint32_t* out) {
  const uintptr_t address = reinterpret_cast<uintptr_t>(p);
  const uint32_t* aligned = reinterpret_cast<const uint32_t*>(address & ~uintptr_t{3});
  const uint32_t offset = static_cast<uint32_t>(address & 3u);
  uint32_t words[N + 1];
#pragma unroll
  for (int i = 0; i < N; ++i) words[i] = Load<uint32_t, kMode>(aligned + i);
  if constexpr (kMode == LoadMode::kExact) {
    // Only the first `offset` bytes of the last word are wanted.
    const uint8_t* tail = reinterpret_cast<const uint8_t*>(aligned + N);
    words[N] = offset == 0 ? 0u
               : offset == 1 ? tail[0]
               : offset == 2 ? *reinterpret_cast<const uint16_t*>(tail)
                             : (*reinterpret_cast<const uint16_t*>(tail) | (static_cast<uint32_t>(tail[2]) << 16));
  } else {
    words[N] = offset == 0 ? 0u : Load<uint32_t, kMode>(aligned + N);
  }
#pragma unroll
  for (int i = 0; i < N; ++i) out[i] = FunnelRight(words[i], words[i + 1], 8 * offset);
}

// `N` words from an address known to be `Align`-byte aligned (16, 8 or 4):
// the widest loads that alignment allows.
template <int N, int Align, LoadMode kMode = LoadMode::kCached>
__device__ __forceinline__ void LoadAligned(const uint8_t* p, uint32_t* out) {
  static_assert(N % (Align / 4) == 0, "whole vectors");
  if constexpr (Align == 16) {
#pragma unroll
    for (int i = 0; i < N / 4; ++i) {
      const uint4 v = Load<uint4, kMode>(reinterpret_cast<const uint4*>(p) + i);
      out[4 * i] = v.x, out[4 * i + 1] = v.y, out[4 * i + 2] = v.z, out[4 * i + 3] = v.w;
    }
  } else if constexpr (Align == 8) {
#pragma unroll
    for (int i = 0; i < N / 2; ++i) {
      const uint2 v = Load<uint2, kMode>(reinterpret_cast<const uint2*>(p) + i);
      out[2 * i] = v.x, out[2 * i + 1] = v.y;
    }
  } else {
    static_assert(Align == 4, "16, 8 or 4");
#pragma unroll
    for (int i = 0; i < N; ++i) out[i] = Load<uint32_t, kMode>(reinterpret_cast<const uint32_t*>(p) + i);
  }
}

__device__ __forceinline__ void SetScales(IntChunk& c, float d, float m) {
  c.d[0] = c.d[1] = d;
  c.m[0] = c.m[1] = m;
}

// Four packed 4-bit codes per byte pair: the low nibbles of 16 bytes are
// elements 0..15, the high nibbles elements 16..31.
__device__ __forceinline__ void SplitNibbles(const uint32_t* words, IntChunk& c) {
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    c.v[k] = static_cast<int>(words[k] & 0x0F0F0F0Fu);
    c.v[k + 4] = static_cast<int>((words[k] >> 4) & 0x0F0F0F0Fu);
  }
}

// A 16-entry int8 table (as four words) looked up by the eight nibbles of
// `w`; .x holds the entries of the low nibbles, .y those of the high ones.
__device__ __forceinline__ int2 Lookup16(uint32_t w, const uint32_t* table) {
  const uint32_t pick_high = 0x32103210u | ((w & 0x88888888u) >> 1);
  uint32_t half[2];
#pragma unroll
  for (int i = 0; i < 2; ++i) {
    const uint32_t selector = w >> (16 * i);
    const uint32_t low = BytePerm(table[0], table[1], selector);
    const uint32_t high = BytePerm(table[2], table[3], selector);
    half[i] = BytePerm(low, high, pick_high >> (16 * i));
  }
  return make_int2(static_cast<int>(BytePerm(half[0], half[1], 0x6420)),
                   static_cast<int>(BytePerm(half[0], half[1], 0x7531)));
}

// Sixteen 4-bit table indices (16 bytes) to values.
__device__ __forceinline__ void LookupNibbles(const uint32_t* words, const int8_t* table_bytes, IntChunk& c) {
  uint32_t table[4];
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    table[i] = static_cast<uint8_t>(table_bytes[4 * i]) | (static_cast<uint8_t>(table_bytes[4 * i + 1]) << 8) |
               (static_cast<uint8_t>(table_bytes[4 * i + 2]) << 16) |
               (static_cast<uint32_t>(static_cast<uint8_t>(table_bytes[4 * i + 3])) << 24);
  }
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    const int2 values = Lookup16(words[k], table);
    c.v[k] = values.x;
    c.v[k + 4] = values.y;
  }
}

template <GgmlType T>
struct IntBlock;  // Decode<LoadMode>(block, chunk, IntChunk&)

template <>
struct IntBlock<T::kQ8_0> {
  // Reads whole words past its last field (LoadWords): the GEMV decodes a
  // tensor's last block of this type with LoadMode::kExact.
  static constexpr bool kReadsPastFields = true;
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int, IntChunk& c) {
    LoadWords<8, S>(b + 2, reinterpret_cast<uint32_t*>(c.v));
    SetScales(c, HalfAt(b), 0.0f);
  }
};
template <>
struct IntBlock<T::kQ8_1> {
  // Reads whole words past its last field (LoadWords): the GEMV decodes a
  // tensor's last block of this type with LoadMode::kExact.
  static constexpr bool kReadsPastFields = true;
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int, IntChunk& c) {
    LoadWords<8, S>(b + 4, reinterpret_cast<uint32_t*>(c.v));
    SetScales(c, HalfAt(b), 0.0f);
  }
};
template <>
struct IntBlock<T::kQ4_0> {
  // Reads whole words past its last field (LoadWords): the GEMV decodes a
  // tensor's last block of this type with LoadMode::kExact.
  static constexpr bool kReadsPastFields = true;
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int, IntChunk& c) {
    uint32_t words[4];
    LoadWords<4, S>(b + 2, words);
    SplitNibbles(words, c);
    const float d = HalfAt(b);
    SetScales(c, d, 8.0f * d);
  }
};
template <>
struct IntBlock<T::kQ4_1> {
  // Reads whole words past its last field (LoadWords): the GEMV decodes a
  // tensor's last block of this type with LoadMode::kExact.
  static constexpr bool kReadsPastFields = true;
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int, IntChunk& c) {
    uint32_t words[4];
    LoadWords<4, S>(b + 4, words);
    SplitNibbles(words, c);
    SetScales(c, HalfAt(b), -HalfAt(b + 2));
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
  // Reads whole words past its last field (LoadWords): the GEMV decodes a
  // tensor's last block of this type with LoadMode::kExact.
  static constexpr bool kReadsPastFields = true;
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int, IntChunk& c) {
    Q5Codes<S>(b + 6, U32At(b + 2), c);
    const float d = HalfAt(b);
    SetScales(c, d, 16.0f * d);
  }
};
template <>
struct IntBlock<T::kQ5_1> {
  // Reads whole words past its last field (LoadWords): the GEMV decodes a
  // tensor's last block of this type with LoadMode::kExact.
  static constexpr bool kReadsPastFields = true;
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int, IntChunk& c) {
    Q5Codes<S>(b + 8, U32At(b + 4), c);
    SetScales(c, HalfAt(b), -HalfAt(b + 2));
  }
};
template <>
struct IntBlock<T::kIQ4_NL> {
  // Reads whole words past its last field (LoadWords): the GEMV decodes a
  // tensor's last block of this type with LoadMode::kExact.
  static constexpr bool kReadsPastFields = true;
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int, IntChunk& c) {
    uint32_t words[4];
    LoadWords<4, S>(b + 2, words);
    LookupNibbles(words, iq::kValuesIq4nl, c);
    SetScales(c, HalfAt(b), 0.0f);
  }
};
template <>
struct IntBlock<T::kMXFP4> {
  // Reads whole words past its last field (LoadWords): the GEMV decodes a
  // tensor's last block of this type with LoadMode::kExact.
  static constexpr bool kReadsPastFields = true;
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int, IntChunk& c) {
    uint32_t words[4];
    LoadWords<4, S>(b + 1, words);
    LookupNibbles(words, iq::kValuesFp4, c);
    SetScales(c, E8m0Half(b[0]), 0.0f);
  }
};
// Q4_K / Q5_K: d, dmin (f16) and the 12 packed scale bytes, read as four
// aligned words; chunk j's 6-bit scale and min without a branch on j.
template <LoadMode S>
__device__ __forceinline__ void SetK4Scales(const uint8_t* b, int j, IntChunk& c) {
  uint32_t head[4];
  LoadAligned<4, 16, S>(b, head);
  const uint32_t words[3] = {head[1], head[2], head[3]};
  auto byte = [&](int i) { return static_cast<int>((words[i / 4] >> (8 * (i % 4))) & 0xFFu); };
  const int low = j & 3;
  const int scale = j < 4 ? (byte(low) & 63) : ((byte(low + 8) & 15) | ((byte(low) >> 6) << 4));
  const int min = j < 4 ? (byte(low + 4) & 63) : ((byte(low + 8) >> 4) | ((byte(low + 4) >> 6) << 4));
  const float d = HalfBitsToFloat(static_cast<uint16_t>(head[0] & 0xFFFFu));
  const float dmin = HalfBitsToFloat(static_cast<uint16_t>(head[0] >> 16));
  SetScales(c, d * F(scale), dmin * F(min));
}

template <>
struct IntBlock<T::kQ4_K> {
  static constexpr bool kReadsPastFields = false;
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
  static constexpr bool kReadsPastFields = false;
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
template <>
struct IntBlock<T::kQ6_K> {
  // Reads whole words past its last field (LoadWords): the GEMV decodes a
  // tensor's last block of this type with LoadMode::kExact.
  static constexpr bool kReadsPastFields = true;
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int chunk, IntChunk& c) {
    const int n = chunk / 4, quarter = chunk % 4;
    uint32_t low[8], high[8];
    LoadWords<8, S>(b + 64 * n + 32 * (quarter % 2), low);
    LoadWords<8, S>(b + 128 + 32 * n, high);
    const int low_shift = 4 * (quarter / 2), high_shift = 2 * quarter;
#pragma unroll
    for (int k = 0; k < 8; ++k) {
      c.v[k] = static_cast<int>(((low[k] >> low_shift) & 0x0F0F0F0Fu) | (((high[k] >> high_shift) & 0x03030303u) << 4));
    }
    const float d = HalfAt(b + 208);
    const int8_t* sc = reinterpret_cast<const int8_t*>(b + 192 + 8 * n + 2 * quarter);
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      c.d[h] = d * F(sc[h]);
      c.m[h] = 32.0f * c.d[h];
    }
  }
};
template <>
struct IntBlock<T::kIQ4_XS> {
  static constexpr bool kReadsPastFields = false;
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int chunk, IntChunk& c) {
    uint32_t words[4];
    LoadAligned<4, 8, S>(b + 8 + 16 * chunk, words);  // 136-byte blocks: 8-aligned
    LookupNibbles(words, iq::kValuesIq4nl, c);
    const int ls = ((b[4 + chunk / 2] >> (4 * (chunk % 2))) & 15) | (((U16At(b + 2) >> (2 * chunk)) & 3) << 4);
    SetScales(c, HalfAt(b) * F(ls - 32), 0.0f);
  }
};
template <>
struct IntBlock<T::kQ8_K> {
  static constexpr bool kReadsPastFields = false;
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int chunk, IntChunk& c) {
    LoadAligned<8, 4, S>(b + 4 + 32 * chunk, reinterpret_cast<uint32_t*>(c.v));  // 292-byte blocks
    SetScales(c, __uint_as_float(*reinterpret_cast<const uint32_t*>(b)), 0.0f);
  }
};

// Codebook groups: eight unsigned grid bytes, negated where the sign mask
// has a bit. Grid bytes are never 0 in the IQ2/IQ3 codebooks, so the
// byte-wise two's complement (x ^ 0xFF) + 1 never carries into a neighbour.
__device__ __forceinline__ void SignedGrid(uint64_t grid, uint8_t signs, int* out) {
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
  // Reads whole words past its last field (LoadWords): the GEMV decodes a
  // tensor's last block of this type with LoadMode::kExact.
  static constexpr bool kReadsPastFields = true;
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int ib, IntChunk& c) {
    uint32_t aux[2];
    LoadWords<2, S>(b + 2 + 8 * ib, aux);
#pragma unroll
    for (int l = 0; l < 4; ++l) {
      SignedGrid(iq::kIq2xxsGrid[(aux[0] >> (8 * l)) & 0xFF], iq::kSignsIq2xs[(aux[1] >> (7 * l)) & 127], c.v + 2 * l);
    }
    SetScales(c, HalfAt(b) * (0.5f + F(static_cast<int>(aux[1] >> 28))) * 0.25f, 0.0f);
  }
};
template <>
struct IntBlock<T::kIQ2_XS> {
  // Reads whole words past its last field (LoadWords): the GEMV decodes a
  // tensor's last block of this type with LoadMode::kExact.
  static constexpr bool kReadsPastFields = true;
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int ib, IntChunk& c) {
    uint32_t words[2];
    LoadWords<2, S>(b + 2 + 8 * ib, words);
#pragma unroll
    for (int l = 0; l < 4; ++l) {
      const uint32_t q = (words[l / 2] >> (16 * (l % 2))) & 0xFFFFu;
      SignedGrid(iq::kIq2xsGrid[q & 511], iq::kSignsIq2xs[q >> 9], c.v + 2 * l);
    }
    const float d = HalfAt(b);
    const uint8_t scales = b[66 + ib];
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      c.d[h] = d * (0.5f + F(h ? (scales >> 4) : (scales & 15))) * 0.25f;
      c.m[h] = 0.0f;
    }
  }
};
template <>
struct IntBlock<T::kIQ2_S> {
  static constexpr bool kReadsPastFields = false;
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int ib, IntChunk& c) {
    const uint8_t* qs = b + 2 + 4 * ib;
    const uint8_t* signs = b + 34 + 4 * ib;
    const uint8_t qh = b[66 + ib], scales = b[74 + ib];
#pragma unroll
    for (int l = 0; l < 4; ++l) {
      SignedGrid(iq::kIq2sGrid[qs[l] | ((qh << (8 - 2 * l)) & 0x300)], signs[l], c.v + 2 * l);
    }
    const float d = HalfAt(b);
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      c.d[h] = d * (0.5f + F(h ? (scales >> 4) : (scales & 15))) * 0.25f;
      c.m[h] = 0.0f;
    }
  }
};
template <>
struct IntBlock<T::kIQ3_XXS> {
  static constexpr bool kReadsPastFields = false;
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int ib, IntChunk& c) {
    const uint8_t* qs = b + 2 + 8 * ib;
    const uint32_t aux = U32At(b + 66 + 4 * ib);
#pragma unroll
    for (int l = 0; l < 4; ++l) {
      SignedGrid(Pair(iq::kIq3xxsGrid[qs[2 * l]], iq::kIq3xxsGrid[qs[2 * l + 1]]),
                 iq::kSignsIq2xs[(aux >> (7 * l)) & 127], c.v + 2 * l);
    }
    SetScales(c, HalfAt(b) * (0.5f + F(static_cast<int>(aux >> 28))) * 0.5f, 0.0f);
  }
};
template <>
struct IntBlock<T::kIQ3_S> {
  static constexpr bool kReadsPastFields = false;
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int ib, IntChunk& c) {
    const uint8_t* qs = b + 2 + 8 * ib;
    const uint8_t qh = b[66 + ib];
    const uint8_t* signs = b + 74 + 4 * ib;
#pragma unroll
    for (int l = 0; l < 4; ++l) {
      const uint32_t first = iq::kIq3sGrid[qs[2 * l] | ((qh << (8 - 2 * l)) & 256)];
      const uint32_t second = iq::kIq3sGrid[qs[2 * l + 1] | ((qh << (7 - 2 * l)) & 256)];
      SignedGrid(Pair(first, second), signs[l], c.v + 2 * l);
    }
    const uint8_t scales = b[106 + ib / 2];
    SetScales(c, HalfAt(b) * F(1 + 2 * ((ib % 2) ? (scales >> 4) : (scales & 15))), 0.0f);
  }
};
// IQ1_S: value dl * (grid + delta), grid bytes already signed (-1, 0, 1);
// the delta is the affine term, one per 32 values.
template <>
struct IntBlock<T::kIQ1_S> {
  static constexpr bool kReadsPastFields = false;
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int ib, IntChunk& c) {
    const uint8_t* qs = b + 2 + 4 * ib;
    const uint16_t qh = U16At(b + 34 + 2 * ib);
#pragma unroll
    for (int l = 0; l < 4; ++l) {
      const uint64_t grid = iq::kIq1sGrid[qs[l] | (((qh >> (3 * l)) & 7) << 8)];
      c.v[2 * l] = static_cast<int>(static_cast<uint32_t>(grid));
      c.v[2 * l + 1] = static_cast<int>(static_cast<uint32_t>(grid >> 32));
    }
    const float dl = HalfAt(b) * F(2 * ((qh >> 12) & 7) + 1);
    SetScales(c, dl, -dl * ((qh & 0x8000) ? -kIq1Delta : kIq1Delta));
  }
};

// --- The remaining block types.

// Bit i of the low byte of `bits` to byte i (0 or 1), i < 4.
__device__ __forceinline__ uint32_t BitsToBytes(uint32_t bits) { return ((bits & 15u) * 0x00204081u) & 0x01010101u; }

template <>
struct IntBlock<T::kQ2_K> {
  // Reads whole words past its last field (LoadWords): the GEMV decodes a
  // tensor's last block of this type with LoadMode::kExact.
  static constexpr bool kReadsPastFields = true;
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int chunk, IntChunk& c) {
    uint32_t words[8];
    LoadWords<8, S>(b + 16 + 32 * (chunk / 4), words);  // 84-byte blocks: 4-aligned
    const int shift = 2 * (chunk % 4);
#pragma unroll
    for (int k = 0; k < 8; ++k) c.v[k] = static_cast<int>((words[k] >> shift) & 0x03030303u);
    const float d = HalfAt(b + 80), dmin = HalfAt(b + 82);
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
  // Reads whole words past its last field (LoadWords): the GEMV decodes a
  // tensor's last block of this type with LoadMode::kExact.
  static constexpr bool kReadsPastFields = true;
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int chunk, IntChunk& c) {
    uint32_t low[8], high[8];
    LoadWords<8, S>(b + 32 + 32 * (chunk / 4), low);  // 110-byte blocks: 2-aligned
    LoadWords<8, S>(b, high);
    const int shift = 2 * (chunk % 4);
#pragma unroll
    for (int k = 0; k < 8; ++k) {
      c.v[k] = static_cast<int>(((low[k] >> shift) & 0x03030303u) | (((high[k] >> chunk) & 0x01010101u) << 2));
    }
    const float d = HalfAt(b + 108);
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      c.d[h] = d * F(Q3kScale(b + 96, 2 * chunk + h));
      c.m[h] = 4.0f * c.d[h];
    }
  }
};
template <>
struct IntBlock<T::kNVFP4> {
  static constexpr bool kReadsPastFields = false;
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int chunk, IntChunk& c) {
    uint32_t table[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      table[i] = static_cast<uint8_t>(iq::kValuesFp4[4 * i]) | (static_cast<uint8_t>(iq::kValuesFp4[4 * i + 1]) << 8) |
                 (static_cast<uint8_t>(iq::kValuesFp4[4 * i + 2]) << 16) |
                 (static_cast<uint32_t>(static_cast<uint8_t>(iq::kValuesFp4[4 * i + 3])) << 24);
    }
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
struct IntBlock<T::kTQ2_0> {
  // Reads whole words past its last field (LoadWords): the GEMV decodes a
  // tensor's last block of this type with LoadMode::kExact.
  static constexpr bool kReadsPastFields = true;
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int chunk, IntChunk& c) {
    uint32_t words[8];
    LoadWords<8, S>(b + 32 * (chunk / 4), words);  // 66-byte blocks: 2-aligned
    const int shift = 2 * (chunk % 4);
#pragma unroll
    for (int k = 0; k < 8; ++k) c.v[k] = static_cast<int>((words[k] >> shift) & 0x03030303u);
    const float d = HalfAt(b + 64);
    SetScales(c, d, d);
  }
};
template <>
struct IntBlock<T::kQ2_0> {
  // Reads whole words past its last field (LoadWords): the GEMV decodes a
  // tensor's last block of this type with LoadMode::kExact.
  static constexpr bool kReadsPastFields = true;
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int chunk, IntChunk& c) {
    uint32_t words[2];
    LoadWords<2, S>(b + 2 + 8 * chunk, words);
#pragma unroll
    for (int k = 0; k < 8; ++k) {
      const uint32_t byte = (words[k / 4] >> (8 * (k % 4))) & 0xFFu;
      c.v[k] = static_cast<int>((byte & 3u) | ((byte & 0x0Cu) << 6) | ((byte & 0x30u) << 12) | ((byte & 0xC0u) << 18));
    }
    const float d = HalfAt(b);
    SetScales(c, d, d);
  }
};
// Q1_0: a set bit is +d, a clear one -d: value 2d * bit - d.
template <>
struct IntBlock<T::kQ1_0> {
  // Reads whole words past its last field (LoadWords): the GEMV decodes a
  // tensor's last block of this type with LoadMode::kExact.
  static constexpr bool kReadsPastFields = true;
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int chunk, IntChunk& c) {
    uint32_t bits;
    LoadWords<1, S>(b + 2 + 4 * chunk, &bits);
#pragma unroll
    for (int k = 0; k < 8; ++k) c.v[k] = static_cast<int>(BitsToBytes(bits >> (4 * k)));
    const float d = HalfAt(b);
    SetScales(c, 2.0f * d, d);
  }
};
template <>
struct IntBlock<T::kTQ1_0> {
  static constexpr bool kReadsPastFields = false;
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int chunk, IntChunk& c) {
#pragma unroll
    for (int k = 0; k < 8; ++k) {
      uint32_t packed = 0;
#pragma unroll
      for (int i = 0; i < 4; ++i) packed |= static_cast<uint32_t>(Tq1TritAt(b, 32 * chunk + 4 * k + i)) << (8 * i);
      c.v[k] = static_cast<int>(packed);
    }
    const float d = HalfAt(b + 52);
    SetScales(c, d, d);
  }
};
// IQ1_M: value dl * (grid + delta) with delta = +-1/8 per eight values, so
// 8 * grid + 8 * delta (odd, within -9..9) under dl / 8 is exact.
template <>
struct IntBlock<T::kIQ1_M> {
  static constexpr bool kReadsPastFields = false;
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int ib, IntChunk& c) {
    uint16_t sc[4];
    const float d = Iq1mScales(b, sc);
    const uint8_t* qs = b + 4 * ib;
    const uint8_t* qh = b + 32 + 2 * ib;
#pragma unroll
    for (int l = 0; l < 4; ++l) {
      const uint8_t high = qh[l / 2];
      const int index = qs[l] | (((l % 2) ? (high << 4) : (high << 8)) & 0x700);
      const bool negative = (l % 2) ? (high & 0x80) : (high & 0x08);
      const uint64_t grid = iq::kIq1sGrid[index];
#pragma unroll
      for (int half = 0; half < 2; ++half) {
        const uint32_t g = static_cast<uint32_t>(grid >> (32 * half));
        // Per byte 8 * g + 8 * delta, within -9..9.
        uint32_t packed = 0;
#pragma unroll
        for (int i = 0; i < 4; ++i) {
          const int value = 8 * static_cast<int8_t>((g >> (8 * i)) & 0xFF) + (negative ? -1 : 1);
          packed |= static_cast<uint32_t>(value & 0xFF) << (8 * i);
        }
        c.v[2 * l + half] = static_cast<int>(packed);
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
