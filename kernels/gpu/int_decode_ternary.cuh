// Integer decoders for the ternary blocks TQ1_0 and TQ2_0: values -1, 0, 1
// times one scale.
#pragma once

#include "int_chunk.cuh"

namespace vt::gpu {

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

}  // namespace vt::gpu
