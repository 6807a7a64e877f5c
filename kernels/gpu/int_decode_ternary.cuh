// Integer decoders for the ternary blocks TQ1_0 and TQ2_0: values -1, 0, 1
// times one scale.
#pragma once

#include "int_chunk.cuh"

namespace vt::gpu {

template <>
struct IntBlock<T::kTQ2_0> {
  static constexpr bool kReadsPastFields = true;
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int chunk, IntChunk& c) {
    uint32_t words[8];
    LoadWords<8, S>(b + 32 * (chunk / 4), words);  // 66-byte blocks: 2-aligned
    const int shift = 2 * (chunk % 4);
#pragma unroll
    for (int k = 0; k < 8; ++k) c.v[k] = static_cast<int>((words[k] >> shift) & 0x03030303u);
    const float d = HalfAt(b + 64);  // byte loads: see Q4_0 (int_decode_small.cuh)
    SetScales(c, d, d);
  }
};
// TQ1_0 (Tq1TritAt's layout) from the block's qs and qh, its first 52 bytes
// held as words. Byte positions are compile-time (registers) and the trit
// position is a run-time value, so a warp's lanes (chunks 0..7) take one of
// three paths, not eight:
// chunks 0-4: trit `chunk` of qs[0..31];
// chunks 5-6: trits 2 (chunk - 5) + (j / 16) of qs[32 + j % 16];
// chunk 7: trit 4 of qs[32..47], then trits 0-3 of qh[0..3].
__device__ __forceinline__ uint8_t ByteOf(const uint32_t (&words)[13], int index) {
  return static_cast<uint8_t>(words[index / 4] >> (8 * (index % 4)));
}
__device__ __forceinline__ void Tq1Chunk(const uint32_t (&words)[13], int chunk, IntChunk& c) {
#pragma unroll
  for (int k = 0; k < 8; ++k) {
    uint32_t packed = 0;
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const int j = 4 * k + i;
      int trit;
      if (chunk < 5) {
        trit = Trit(ByteOf(words, j), chunk);
      } else if (chunk < 7) {
        trit = Trit(ByteOf(words, 32 + j % 16), 2 * (chunk - 5) + j / 16);
      } else {
        trit = j < 16 ? Trit(ByteOf(words, 32 + j), 4) : Trit(ByteOf(words, 48 + (j - 16) % 4), (j - 16) / 4);
      }
      packed |= static_cast<uint32_t>(trit) << (8 * i);
    }
    c.v[k] = static_cast<int>(packed);
  }
}
template <>
struct IntBlock<T::kTQ1_0> {
  static constexpr bool kReadsPastFields = false;
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int chunk, IntChunk& c) {
    uint32_t words[13];
    LoadWords<13, S>(b, words);  // 54-byte blocks: 2-aligned
    Tq1Chunk(words, chunk, c);
    const float d = AlignedHalfAt(b + 52);
    SetScales(c, d, d);
  }
};

}  // namespace vt::gpu
