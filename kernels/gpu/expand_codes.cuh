// Expanding a chunk from the GEMV's integer decoders (block_decode_int.cuh)
// instead of the float decoders: word loads, and a few instructions a value
// instead of a byte load and a conversion each. Only for the types whose
// codes and scales give back the CPU kernels' values bit for bit (NaNs
// aside), through one of two formulas that round as the CPU's do:
//   kScaled:         value = d * (code - offset), one rounding: the CPU's
//                    d * (q - offset) (Q4_0, Q6_K, the codebook types, ...);
//   kScaledMinusMin: value = d * code - m, rounded twice: the CPU's
//                    dl * q - ml, or d * q + min with m = -min (Q4_1, Q4_K).
// IQ1_S (dl * (grid + delta), one rounding, which d * code - m is not) and
// Q1_0 (+-d: with d = -0, 2d * 1 - d is +0 where the CPU gives -0) keep the
// float decoders. For expand.cu only.
#pragma once

#include "block_decode_int.cuh"

namespace vt::gpu {

// 32 floats as 16 words of two BF16 values, one conversion instruction each.
__device__ __forceinline__ void PackChunkBf16(const float (&v)[32], uint32_t (&packed)[16]) {
#pragma unroll
  for (int i = 0; i < 16; ++i) packed[i] = PackBf16(v[2 * i], v[2 * i + 1]);
}

enum class CodeForm { kNone, kScaled, kScaledMinusMin };

template <GgmlType T>
constexpr CodeForm kExpandCodeForm =
    T == T::kQ4_1 || T == T::kQ5_1 || T == T::kQ2_K || T == T::kQ4_K || T == T::kQ5_K ? CodeForm::kScaledMinusMin
    : T == T::kQ4_0 || T == T::kQ5_0 || T == T::kQ8_0 || T == T::kQ8_1 || T == T::kQ3_K || T == T::kQ6_K ||
            T == T::kQ8_K || T == T::kIQ2_XXS || T == T::kIQ2_XS || T == T::kIQ2_S || T == T::kIQ3_XXS ||
            T == T::kIQ3_S || T == T::kIQ1_M || T == T::kIQ4_NL || T == T::kIQ4_XS || T == T::kTQ1_0 ||
            T == T::kTQ2_0 || T == T::kMXFP4 || T == T::kNVFP4 || T == T::kQ2_0
        ? CodeForm::kScaled
        : CodeForm::kNone;

// kScaled's offset: what the code of value 0 is (the CPU's q - offset).
template <GgmlType T>
constexpr int kCodeOffset = T == T::kQ4_0   ? 8
                            : T == T::kQ5_0 ? 16
                            : T == T::kQ3_K ? 4
                            : T == T::kQ6_K ? 32
                            : T == T::kTQ1_0 || T == T::kTQ2_0 || T == T::kQ2_0 ? 1
                                                                                  : 0;

// Chunk `chunk` of the block at `b` as 16 words of two BF16 values each, in
// element order, read with `kMode` loads (kStreaming from global memory,
// kCached from shared). `exact_loads`: the block is the tensor's last, so
// the decoder must not read past its fields.
template <GgmlType T, LoadMode kMode>
__device__ __forceinline__ void ExpandChunkFromCodes(const uint8_t* b, int chunk, bool exact_loads,
                                                     uint32_t (&packed)[16]) {
  constexpr CodeForm kForm = kExpandCodeForm<T>;
  static_assert(kForm != CodeForm::kNone, "a type whose codes expand exactly");
  IntChunk c;
  if (IntBlock<T>::kReadsPastFields && exact_loads) {
    IntBlock<T>::template Decode<LoadMode::kExact>(b, chunk, c);
  } else {
    IntBlock<T>::template Decode<kMode>(b, chunk, c);
  }
  // A signed code byte s as a float: 2^23 + (s + 128) placed under a float's
  // exponent, minus 2^23 + 128 (+ the offset); exact.
  constexpr float kBias = 8388608.0f + 128.0f + static_cast<float>(kForm == CodeForm::kScaled ? kCodeOffset<T> : 0);
  float values[32];
#pragma unroll
  for (int k = 0; k < 8; ++k) {
    const uint32_t biased = static_cast<uint32_t>(c.v[k]) ^ 0x80808080u;
    const float d = c.d[k / 4], m = c.m[k / 4];
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const float code = __uint_as_float(BytePerm(biased, 0x4B000000u, 0x7440u | i)) - kBias;
      values[4 * k + i] = kForm == CodeForm::kScaled ? __fmul_rn(d, code) : __fsub_rn(__fmul_rn(d, code), m);
    }
  }
  PackChunkBf16(values, packed);
}

}  // namespace vt::gpu
