// Device decoders for the K-quants and IQ4_XS: 256-value super-blocks of
// sub-block scales, eight chunks each.
#pragma once

#include "block_format.cuh"

namespace vt::gpu {

template <>
struct Block<T::kQ2_K> {
  static constexpr int kBytes = 84, kValues = 256;
  __device__ static void Decode(const uint8_t* b, int chunk, float* v) {
    const float d = HalfAt(b + 80), dmin = HalfAt(b + 82);
    const uint8_t* q = b + 16 + 32 * (chunk / 4);
    const int shift = 2 * (chunk % 4);
    for (int half = 0; half < 2; ++half) {
      const uint8_t sc = b[2 * chunk + half];
      const float dl = Mul(d, F(sc & 15)), ml = Mul(dmin, F(sc >> 4));
      for (int l = 0; l < 16; ++l) v[16 * half + l] = MulSub(dl, F((q[16 * half + l] >> shift) & 3), ml);
    }
  }
};

// Q3_K's sixteen 6-bit scales (bias 32), unpacked from 12 bytes.
__device__ __forceinline__ int Q3kScale(const uint8_t* packed, int is) {
  const int low = is < 8 ? (packed[is] & 15) : (packed[is - 8] >> 4);
  const int high = (packed[8 + is % 4] >> (2 * (is / 4))) & 3;
  return (low | (high << 4)) - 32;
}
template <>
struct Block<T::kQ3_K> {
  static constexpr int kBytes = 110, kValues = 256;
  __device__ static void Decode(const uint8_t* b, int chunk, float* v) {
    const float d = HalfAt(b + 108);
    const uint8_t* hmask = b;
    const uint8_t* q = b + 32 + 32 * (chunk / 4);
    const int shift = 2 * (chunk % 4);
    for (int half = 0; half < 2; ++half) {
      const float dl = Mul(d, F(Q3kScale(b + 96, 2 * chunk + half)));
      for (int l = 0; l < 16; ++l) {
        const int i = 16 * half + l;
        const int low = (q[i] >> shift) & 3;
        const int high = ((hmask[i] >> chunk) & 1) ? 0 : 4;
        v[i] = Mul(dl, F(low - high));
      }
    }
  }
};

// Q4_K / Q5_K: eight 6-bit scales and mins packed in 12 bytes.
__device__ __forceinline__ void K4ScaleMin(const uint8_t* q, int j, int* scale, int* min) {
  if (j < 4) {
    *scale = q[j] & 63;
    *min = q[j + 4] & 63;
  } else {
    *scale = (q[j + 4] & 15) | ((q[j - 4] >> 6) << 4);
    *min = (q[j + 4] >> 4) | ((q[j] >> 6) << 4);
  }
}
// Chunk j's d * scale and dmin * min of a Q4_K / Q5_K block.
__device__ __forceinline__ void K4ChunkScales(const uint8_t* b, int j, float* dl, float* ml) {
  int sc = 0, m = 0;
  K4ScaleMin(b + 4, j, &sc, &m);
  *dl = Mul(HalfAt(b), F(sc));
  *ml = Mul(HalfAt(b + 2), F(m));
}
template <>
struct Block<T::kQ4_K> {
  static constexpr int kBytes = 144, kValues = 256;
  __device__ static void Decode(const uint8_t* b, int chunk, float* v) {
    float dl = 0.0f, ml = 0.0f;
    K4ChunkScales(b, chunk, &dl, &ml);
    const uint8_t* q = b + 16 + 32 * (chunk / 2);
    const int shift = 4 * (chunk % 2);
    for (int l = 0; l < 32; ++l) v[l] = MulSub(dl, F((q[l] >> shift) & 15), ml);
  }
};
template <>
struct Block<T::kQ5_K> {
  static constexpr int kBytes = 176, kValues = 256;
  __device__ static void Decode(const uint8_t* b, int chunk, float* v) {
    float dl = 0.0f, ml = 0.0f;
    K4ChunkScales(b, chunk, &dl, &ml);
    const uint8_t* qh = b + 16;
    const uint8_t* q = b + 48 + 32 * (chunk / 2);
    const int shift = 4 * (chunk % 2);
    for (int l = 0; l < 32; ++l) {
      const int code = ((q[l] >> shift) & 15) | (((qh[l] >> chunk) & 1) << 4);
      v[l] = MulSub(dl, F(code), ml);
    }
  }
};
template <>
struct Block<T::kQ6_K> {
  static constexpr int kBytes = 210, kValues = 256;
  __device__ static void Decode(const uint8_t* b, int chunk, float* v) {
    const float d = HalfAt(b + 208);
    const int n = chunk / 4, quarter = chunk % 4;
    const uint8_t* ql = b + 64 * n + 32 * (quarter % 2);
    const uint8_t* qh = b + 128 + 32 * n;
    const int8_t* sc = reinterpret_cast<const int8_t*>(b + 192 + 8 * n + 2 * quarter);
    const int low_shift = 4 * (quarter / 2), high_shift = 2 * quarter;
    for (int l = 0; l < 32; ++l) {
      const int code = (((ql[l] >> low_shift) & 15) | (((qh[l] >> high_shift) & 3) << 4)) - 32;
      v[l] = Mul(Mul(d, F(sc[l / 16])), F(code));
    }
  }
};
template <>
struct Block<T::kQ8_K> {
  static constexpr int kBytes = 292, kValues = 256;
  __device__ static void Decode(const uint8_t* b, int chunk, float* v) {
    const float d = __uint_as_float(U32At(b));
    for (int j = 0; j < 32; ++j) v[j] = Mul(d, F(static_cast<int8_t>(b[4 + 32 * chunk + j])));
  }
};
template <>
struct Block<T::kIQ4_XS> {
  static constexpr int kBytes = 136, kValues = 256;
  __device__ static void Decode(const uint8_t* b, int chunk, float* v) {
    const int ls = ((b[4 + chunk / 2] >> (4 * (chunk % 2))) & 15) | (((U16At(b + 2) >> (2 * chunk)) & 3) << 4);
    const float dl = Mul(HalfAt(b), F(ls - 32));
    const uint8_t* qs = b + 8 + 16 * chunk;
    for (int j = 0; j < 16; ++j) {
      v[j] = Mul(dl, F(iq::kValuesIq4nl[qs[j] & 15]));
      v[j + 16] = Mul(dl, F(iq::kValuesIq4nl[qs[j] >> 4]));
    }
  }
};

}  // namespace vt::gpu
