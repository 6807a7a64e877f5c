// Integer decoders for the 32-value legacy blocks (Q4_0 .. Q8_1, IQ4_NL,
// MXFP4) and the small-block formats (Q1_0, Q2_0, NVFP4).
// Where a choice here "measured faster", docs/GPU_TUNING.md has the runs.
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
// An 18-byte block of an f16 scale and 16 code bytes (Q4_0, IQ4_NL) read
// as an AlignedRun: the codes as four words, the scale as a float.
template <LoadMode S>
__device__ __forceinline__ float ScaleAndCodesFromRun(const uint8_t* b, uint32_t (&words)[4]) {
  const auto run = LoadRun<3, S>(b);  // 18-byte blocks: 2-aligned
  RunWords<4, 2>(run, words);
  return HalfBitsToFloat(RunHalf0(run));
}
// Q4_0, Q5_0 and MXFP4 read their blocks as AlignedRun (wide loads; these
// block sizes put every lane at a different offset), except a tensor's
// last block (LoadMode::kExact), read field by field. IQ4_NL, whose lookup
// leaves fewer instructions to spare, measured slower with them at cached
// loads and reads AlignedRun for its streaming loads only (below).
template <>
struct IntBlock<T::kQ4_0> {
  static constexpr bool kReadsPastFields = true, kHalfScales = false;
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int, IntChunk& c) {
    uint32_t words[4];
    float d;
    if constexpr (S == LoadMode::kExact) {
      LoadWords<4, S>(b + 2, words);
      d = HalfAt(b);
    } else {
      d = ScaleAndCodesFromRun<S>(b, words);
    }
    SplitNibbles(words, c);
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
    // Byte loads, not AlignedHalfAt: the single load measured slower for
    // Q4_0 (before its wide loads), as it did here and for IQ4_NL and TQ2_0,
    // which read theirs the same way.
    SetScales(c, HalfAt(b), -HalfAt(b + 2));
  }
};
// Bits j..j+3 of `bits` moved to bit 4 of bytes 0..3: one multiply places
// four copies of them 7 bits apart (no two overlap, so nothing carries), a
// mask keeps one bit of each; faster than moving each bit with its own mask
// and shift.
__device__ __forceinline__ int FifthBits(uint32_t bits, int j) {
  return static_cast<int>((((bits >> j) & 15u) * 0x02040810u) & 0x10101010u);
}
// Q5_0 / Q5_1: the 16 code bytes (`words`) and the fifth bits (qh).
__device__ __forceinline__ void Q5Codes(const uint32_t* words, uint32_t qh, IntChunk& c) {
  SplitNibbles(words, c);
#pragma unroll
  for (int k = 0; k < 8; ++k) c.v[k] |= FifthBits(qh, 4 * k);
}
template <>
struct IntBlock<T::kQ5_0> {
  static constexpr bool kReadsPastFields = true, kHalfScales = false;
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int, IntChunk& c) {
    uint32_t words[5];  // qh, then the codes
    float d;
    if constexpr (S == LoadMode::kExact) {
      LoadWords<4, S>(b + 6, words + 1);
      words[0] = U32At(b + 2);
      d = HalfAt(b);
    } else {
      const auto run = LoadRun<4, S>(b);  // 22-byte blocks: 2-aligned
      RunWords<5, 2>(run, words);
      d = HalfBitsToFloat(RunHalf0(run));
    }
    Q5Codes(words + 1, words[0], c);
    SetScales(c, d, 16.0f * d);
  }
};
// Q5_1's 24-byte blocks are 8-aligned (tensors are 16-aligned, rows whole
// blocks): three 8-byte loads, no realigning.
template <>
struct IntBlock<T::kQ5_1> {
  static constexpr bool kReadsPastFields = false, kHalfScales = false;
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int, IntChunk& c) {
    uint32_t words[6];  // d and m, qh, the codes
    LoadAligned<6, 8, S>(b, words);
    Q5Codes(words + 2, words[1], c);
    SetScales(c, HalfBitsToFloat(static_cast<uint16_t>(words[0] & 0xFFFFu)),
              -HalfBitsToFloat(static_cast<uint16_t>(words[0] >> 16)));
  }
};
// IQ4_NL reads its blocks as AlignedRun only with streaming loads (the
// expand's, and on HIP the GEMV's at batches 3-8), where that measured
// faster; its cached loads (the batch-1 GEMV's) measured slower with it.
template <>
struct IntBlock<T::kIQ4_NL> {
  static constexpr bool kReadsPastFields = true, kHalfScales = false;
  template <LoadMode S = LoadMode::kCached, CodeOrder O = CodeOrder::kElements>
  __device__ static void Decode(const uint8_t* b, int, IntChunk& c) {
    uint32_t words[4];
    float d;
    if constexpr (S == LoadMode::kStreaming) {
      d = ScaleAndCodesFromRun<S>(b, words);
    } else {
      LoadWords<4, S>(b + 2, words);
      d = HalfAt(b);  // byte loads: see Q4_1
    }
    LookupIq4nl<O>(words, c);
    SetScales(c, d, 0.0f);
  }
};
// MXFP4 in CodeOrder::kNibblePairs leaves each value plus kFp4PairOffset
// (12, so 0..24; see LookupFp4InNibbleOrder), with the offset in the min.
template <>
struct IntBlock<T::kMXFP4> {
  static constexpr bool kReadsPastFields = true, kHalfScales = false;
  template <LoadMode S = LoadMode::kCached, CodeOrder O = CodeOrder::kElements>
  __device__ static void Decode(const uint8_t* b, int, IntChunk& c) {
    uint32_t words[4];
    float d;
    if constexpr (S == LoadMode::kExact) {
      LoadWords<4, S>(b + 1, words);
      d = E8m0Half(b[0]);
    } else {
      const auto run = LoadRun<3, S>(b);  // 17-byte blocks: any alignment
      RunWords<4, 1>(run, words);
      d = E8m0Half(static_cast<uint8_t>(RunByte0(run)));
    }
    if constexpr (O == CodeOrder::kNibblePairs) {
      LookupNibblePairs(words, [](uint32_t w) { return LookupFp4InNibbleOrder<kFp4PairOffset>(w); }, c);
      SetScales(c, d, kFp4PairOffset * d);
    } else {
      LookupNibbles(words, iq::kValuesFp4, c);
      SetScales(c, d, 0.0f);
    }
  }
};
template <>
struct IntBlock<T::kNVFP4> {
  static constexpr bool kReadsPastFields = false, kHalfScales = true;
  template <LoadMode S = LoadMode::kCached, CodeOrder O = CodeOrder::kElements>
  __device__ static void Decode(const uint8_t* b, int chunk, IntChunk& c) {
    uint32_t words[4];
    LoadAligned<4, 4, S>(b + 4 + 16 * chunk, words);  // 36-byte blocks: 4-aligned
    if constexpr (O == CodeOrder::kSubBlockPairs) {
      // Each value plus kFp4PairOffset (LookupFp4InNibbleOrder: 9 integer
      // instructions a word against Lookup16's 15 or so), taken back through
      // the min.
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        const int2 values = LookupFp4InNibbleOrder<kFp4PairOffset>(words[k]);
        c.v[2 * k] = values.x;
        c.v[2 * k + 1] = values.y;
      }
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        c.d[h] = Ue4m3Half(b[2 * chunk + h]);
        c.m[h] = kFp4PairOffset * c.d[h];
      }
      return;
    }
    uint32_t table[4];
    PackTable16(iq::kValuesFp4, table);
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
