// Integer decoders for the ternary blocks TQ1_0 and TQ2_0: values -1, 0, 1
// times one scale.
#pragma once

#include "int_chunk.cuh"

namespace vt::gpu {

template <>
struct IntBlock<T::kTQ2_0> {
  static constexpr bool kReadsPastFields = true, kHalfScales = false;
  template <LoadMode S = LoadMode::kCached>
  __device__ static void Decode(const uint8_t* b, int chunk, IntChunk& c) {
    uint32_t words[8];
    LoadWords<8, S>(b + 32 * (chunk / 4), words);  // 66-byte blocks: 2-aligned
    const int shift = 2 * (chunk % 4);
#pragma unroll
    for (int k = 0; k < 8; ++k) c.v[k] = static_cast<int>((words[k] >> shift) & 0x03030303u);
    const float d = HalfAt(b + 64);  // byte loads: see Q4_1 (int_decode_small.cuh)
    SetScales(c, d, d);
  }
};
// TQ1_0 (Tq1TritAt's layout) from the block's qs and qh, its first 52 bytes
// held as words. Value j of a chunk is trit n of a source byte:
//   chunks 0-4: byte qs[j], n = chunk;
//   chunks 5-6: byte qs[32 + j % 16], n = 2 (chunk - 5) + j / 16;
//   chunk 7:    byte qs[32 + j], n = 4 (j < 16); qh[j % 4], n = (j - 16) / 4.
// So each group of four values k has one source word and one n, picked by
// selects: every lane runs the same code whatever its chunk.
__device__ __forceinline__ void Tq1Chunk(const uint32_t (&words)[13], int chunk, IntChunk& c) {
#pragma unroll
  for (int k = 0; k < 8; ++k) {
    const uint32_t source = chunk < 5 ? words[k] : k < 4 ? words[8 + k] : chunk < 7 ? words[4 + k] : words[12];
    const int n = chunk < 5 ? chunk : chunk < 7 ? 2 * (chunk - 5) + k / 4 : k < 4 ? 4 : k - 4;
    const uint32_t pow3 = n == 0 ? 1u : n == 1 ? 3u : n == 2 ? 9u : n == 3 ? 27u : 81u;
    // Trit's arithmetic on two bytes at once, one per 16-bit lane: byte *
    // 3^n < 2^15 and (that mod 256) * 3 < 2^10 stay inside their lane.
    const uint32_t even = ((source & 0x00FF00FFu) * pow3) & 0x00FF00FFu;        // bytes 0 and 2
    const uint32_t odd = (((source >> 8) & 0x00FF00FFu) * pow3) & 0x00FF00FFu;  // bytes 1 and 3
    c.v[k] = static_cast<int>((((even * 3u) >> 8) & 0x00030003u) | ((odd * 3u) & 0x03000300u));
  }
}
template <>
struct IntBlock<T::kTQ1_0> {
  static constexpr bool kReadsPastFields = false, kHalfScales = false;
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
