// Device decoders for the plain floats, the 32-value legacy blocks (Q4_0 ..
// Q8_1, IQ4_NL, MXFP4) and the small-block formats (Q1_0, Q2_0, NVFP4).
#pragma once

#include "block_format.cuh"

namespace vt::gpu {

// The plain floats: a chunk is 32 consecutive elements, 16-byte aligned
// (the kernels require aligned tensors), read with vector loads.
template <>
struct Block<T::kF32> {
  static constexpr int kBytes = 128, kValues = 32;
  __device__ static void Decode(const uint8_t* b, int, float* v) {
#pragma unroll
    for (int q = 0; q < 8; ++q) {
      const float4 x = reinterpret_cast<const float4*>(b)[q];
      v[4 * q] = x.x, v[4 * q + 1] = x.y, v[4 * q + 2] = x.z, v[4 * q + 3] = x.w;
    }
  }
};
// An F16 or BF16 value's bits as a float (exact).
template <GgmlType T>
__device__ __forceinline__ float Widen16Bits(uint16_t bits) {
  static_assert(T == GgmlType::kF16 || T == GgmlType::kBF16, "a 16-bit float type");
  if constexpr (T == GgmlType::kF16) {
    return HalfBitsToFloat(bits);
  } else {
    return __uint_as_float(static_cast<uint32_t>(bits) << 16);
  }
}
// The eight 16-bit values of a 16-byte piece, widened.
template <GgmlType T>
__device__ __forceinline__ void WidenPiece(uint4 piece, float* v) {
  const uint32_t words[4] = {piece.x, piece.y, piece.z, piece.w};
#pragma unroll
  for (int i = 0; i < 8; ++i) v[i] = Widen16Bits<T>(static_cast<uint16_t>(words[i / 2] >> (16 * (i % 2))));
}
template <>
struct Block<T::kF16> {
  static constexpr int kBytes = 64, kValues = 32;
  __device__ static void Decode(const uint8_t* b, int, float* v) {
#pragma unroll
    for (int q = 0; q < 4; ++q) WidenPiece<T::kF16>(reinterpret_cast<const uint4*>(b)[q], v + 8 * q);
  }
};
template <>
struct Block<T::kBF16> {
  static constexpr int kBytes = 64, kValues = 32;
  __device__ static void Decode(const uint8_t* b, int, float* v) {
#pragma unroll
    for (int q = 0; q < 4; ++q) WidenPiece<T::kBF16>(reinterpret_cast<const uint4*>(b)[q], v + 8 * q);
  }
};

template <>
struct Block<T::kQ4_0> {
  static constexpr int kBytes = 18, kValues = 32;
  __device__ static void Decode(const uint8_t* b, int, float* v) {
    const float d = HalfAt(b);
    for (int j = 0; j < 16; ++j) {
      v[j] = Mul(F((b[2 + j] & 15) - 8), d);
      v[j + 16] = Mul(F((b[2 + j] >> 4) - 8), d);
    }
  }
};
template <>
struct Block<T::kQ4_1> {
  static constexpr int kBytes = 20, kValues = 32;
  __device__ static void Decode(const uint8_t* b, int, float* v) {
    const float d = HalfAt(b), m = HalfAt(b + 2);
    for (int j = 0; j < 16; ++j) {
      v[j] = MulAdd(F(b[4 + j] & 15), d, m);
      v[j + 16] = MulAdd(F(b[4 + j] >> 4), d, m);
    }
  }
};
// The fifth bits of Q5_0 / Q5_1: element j takes bit j of qh.
__device__ __forceinline__ int Q5Code(const uint8_t* qs, uint32_t qh, int j) {
  const int low = j < 16 ? (qs[j] & 15) : (qs[j - 16] >> 4);
  return low | static_cast<int>(((qh >> j) & 1u) << 4);
}
template <>
struct Block<T::kQ5_0> {
  static constexpr int kBytes = 22, kValues = 32;
  __device__ static void Decode(const uint8_t* b, int, float* v) {
    const float d = HalfAt(b);
    const uint32_t qh = U32At(b + 2);
    for (int j = 0; j < 32; ++j) v[j] = Mul(F(Q5Code(b + 6, qh, j) - 16), d);
  }
};
template <>
struct Block<T::kQ5_1> {
  static constexpr int kBytes = 24, kValues = 32;
  __device__ static void Decode(const uint8_t* b, int, float* v) {
    const float d = HalfAt(b), m = HalfAt(b + 2);
    const uint32_t qh = U32At(b + 4);
    for (int j = 0; j < 32; ++j) v[j] = MulAdd(F(Q5Code(b + 8, qh, j)), d, m);
  }
};
template <>
struct Block<T::kQ8_0> {
  static constexpr int kBytes = 34, kValues = 32;
  __device__ static void Decode(const uint8_t* b, int, float* v) {
    const float d = HalfAt(b);
    for (int j = 0; j < 32; ++j) v[j] = Mul(F(static_cast<int8_t>(b[2 + j])), d);
  }
};
template <>
struct Block<T::kQ8_1> {
  static constexpr int kBytes = 36, kValues = 32;
  __device__ static void Decode(const uint8_t* b, int, float* v) {
    const float d = HalfAt(b);
    for (int j = 0; j < 32; ++j) v[j] = Mul(F(static_cast<int8_t>(b[4 + j])), d);
  }
};
template <>
struct Block<T::kQ1_0> {
  static constexpr int kBytes = 18, kValues = 128;
  __device__ static void Decode(const uint8_t* b, int chunk, float* v) {
    const float d = HalfAt(b);
    const uint32_t bits = U32At(b + 2 + 4 * chunk);
    for (int j = 0; j < 32; ++j) v[j] = ((bits >> j) & 1u) ? d : -d;
  }
};
template <>
struct Block<T::kQ2_0> {
  static constexpr int kBytes = 18, kValues = 64;
  __device__ static void Decode(const uint8_t* b, int chunk, float* v) {
    const float d = HalfAt(b);
    const uint8_t* q = b + 2 + 8 * chunk;
    for (int j = 0; j < 32; ++j) v[j] = Mul(F(((q[j / 4] >> (2 * (j % 4))) & 3) - 1), d);
  }
};
template <>
struct Block<T::kIQ4_NL> {
  static constexpr int kBytes = 18, kValues = 32;
  __device__ static void Decode(const uint8_t* b, int, float* v) {
    const float d = HalfAt(b);
    for (int j = 0; j < 16; ++j) {
      v[j] = Mul(d, F(iq::kValuesIq4nl[b[2 + j] & 15]));
      v[j + 16] = Mul(d, F(iq::kValuesIq4nl[b[2 + j] >> 4]));
    }
  }
};
template <>
struct Block<T::kMXFP4> {
  static constexpr int kBytes = 17, kValues = 32;
  __device__ static void Decode(const uint8_t* b, int, float* v) {
    const float d = E8m0Half(b[0]);
    for (int j = 0; j < 16; ++j) {
      v[j] = Mul(F(iq::kValuesFp4[b[1 + j] & 15]), d);
      v[j + 16] = Mul(F(iq::kValuesFp4[b[1 + j] >> 4]), d);
    }
  }
};
template <>
struct Block<T::kNVFP4> {
  static constexpr int kBytes = 36, kValues = 64;
  __device__ static void Decode(const uint8_t* b, int chunk, float* v) {
    for (int half = 0; half < 2; ++half) {
      const int s = 2 * chunk + half;
      const float d = Ue4m3Half(b[s]);
      const uint8_t* qs = b + 4 + 8 * s;
      for (int j = 0; j < 8; ++j) {
        v[16 * half + j] = Mul(d, F(iq::kValuesFp4[qs[j] & 15]));
        v[16 * half + j + 8] = Mul(d, F(iq::kValuesFp4[qs[j] >> 4]));
      }
    }
  }
};

}  // namespace vt::gpu
