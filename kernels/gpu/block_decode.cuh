// Device decoders: one per GGUF block type, each turning 32 consecutive
// values (a "chunk") of one block into floats, in the order the CPU
// dequantizer writes them. Products and sums use the _rn intrinsics so nvcc
// cannot fuse them: every value equals the CPU kernels' (and so ggml's) bit
// for bit. The plain float types are read as chunks of 32 elements.
#pragma once

#include "gpu_dialect.h"
#include "iq_tables_device.h"
#include "vt/policy/ggml_type.h"

namespace vt::gpu {

inline constexpr int kChunk = 32;  // values one decoder call produces

__device__ __forceinline__ uint16_t U16At(const uint8_t* p) {
  return static_cast<uint16_t>(p[0] | (p[1] << 8));
}
__device__ __forceinline__ uint32_t U32At(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) |
         (static_cast<uint32_t>(p[2]) << 16) | (static_cast<uint32_t>(p[3]) << 24);
}
__device__ __forceinline__ float HalfAt(const uint8_t* p) { return HalfBitsToFloat(U16At(p)); }
__device__ __forceinline__ float Mul(float a, float b) { return __fmul_rn(a, b); }
// a * b + c rounded twice, as the CPU computes it.
__device__ __forceinline__ float MulAdd(float a, float b, float c) { return __fadd_rn(__fmul_rn(a, b), c); }
__device__ __forceinline__ float MulSub(float a, float b, float c) { return __fsub_rn(__fmul_rn(a, b), c); }
__device__ __forceinline__ float F(int v) { return static_cast<float>(v); }

// MXFP4's E8M0 exponent, halved (the values are stored doubled).
__device__ __forceinline__ float E8m0Half(uint8_t e) {
  return __uint_as_float(e < 2 ? (0x00200000u << e) : (static_cast<uint32_t>(e - 1) << 23));
}
// NVFP4's unsigned E4M3 sub-block scale, halved; 0 and 0x7F read as 0.
__device__ __forceinline__ float Ue4m3Half(uint8_t x) {
  if (x == 0 || x == 0x7F) return 0.0f;
  const int exponent = (x >> 3) & 0xF;
  const int mantissa = x & 7;
  if (exponent == 0) return F(mantissa) * 0x1p-10f;
  return F(8 + mantissa) * __uint_as_float(static_cast<uint32_t>(exponent - 11 + 127) << 23);
}

template <GgmlType T>
struct Block;  // kBytes, kValues, Decode(block, chunk, out[32])

using T = GgmlType;

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
// Eight 16-bit values from a 16-byte load, widened by `widen`.
template <class Widen>
__device__ __forceinline__ void Widen16(const uint8_t* b, float* v, Widen widen) {
#pragma unroll
  for (int q = 0; q < 4; ++q) {
    const uint4 x = reinterpret_cast<const uint4*>(b)[q];
    const uint32_t words[4] = {x.x, x.y, x.z, x.w};
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      v[8 * q + 2 * i] = widen(static_cast<uint16_t>(words[i] & 0xFFFFu));
      v[8 * q + 2 * i + 1] = widen(static_cast<uint16_t>(words[i] >> 16));
    }
  }
}
template <>
struct Block<T::kF16> {
  static constexpr int kBytes = 64, kValues = 32;
  __device__ static void Decode(const uint8_t* b, int, float* v) {
    Widen16(b, v, [](uint16_t h) { return HalfBitsToFloat(h); });
  }
};
template <>
struct Block<T::kBF16> {
  static constexpr int kBytes = 64, kValues = 32;
  __device__ static void Decode(const uint8_t* b, int, float* v) {
    Widen16(b, v, [](uint16_t h) { return __uint_as_float(static_cast<uint32_t>(h) << 16); });
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

// --- K-quants and IQ4_XS: 256-value super-blocks, eight chunks each.

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
template <>
struct Block<T::kQ4_K> {
  static constexpr int kBytes = 144, kValues = 256;
  __device__ static void Decode(const uint8_t* b, int chunk, float* v) {
    int sc = 0, m = 0;
    K4ScaleMin(b + 4, chunk, &sc, &m);
    const float dl = Mul(HalfAt(b), F(sc)), ml = Mul(HalfAt(b + 2), F(m));
    const uint8_t* q = b + 16 + 32 * (chunk / 2);
    const int shift = 4 * (chunk % 2);
    for (int l = 0; l < 32; ++l) v[l] = MulSub(dl, F((q[l] >> shift) & 15), ml);
  }
};
template <>
struct Block<T::kQ5_K> {
  static constexpr int kBytes = 176, kValues = 256;
  __device__ static void Decode(const uint8_t* b, int chunk, float* v) {
    int sc = 0, m = 0;
    K4ScaleMin(b + 4, chunk, &sc, &m);
    const float dl = Mul(HalfAt(b), F(sc)), ml = Mul(HalfAt(b + 2), F(m));
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

// --- Codebook I-quants: chunk `ib` is the 32-value group ib of the block.

// Eight grid magnitudes times `scale`, negated where `signs` has the bit.
__device__ __forceinline__ void GridTimes(uint64_t grid, uint8_t signs, float scale, float* v) {
  for (int j = 0; j < 8; ++j) {
    const float x = Mul(scale, F(static_cast<int>((grid >> (8 * j)) & 0xFF)));
    v[j] = (signs >> j) & 1 ? -x : x;
  }
}
__device__ __forceinline__ float IqScale(float d, int nibble, float tail) {
  return Mul(Mul(d, __fadd_rn(0.5f, F(nibble))), tail);
}

template <>
struct Block<T::kIQ2_XXS> {
  static constexpr int kBytes = 66, kValues = 256;
  __device__ static void Decode(const uint8_t* b, int ib, float* v) {
    const uint32_t indices = U32At(b + 2 + 8 * ib);
    const uint32_t signs_scale = U32At(b + 6 + 8 * ib);
    const float db = IqScale(HalfAt(b), static_cast<int>(signs_scale >> 28), 0.25f);
    for (int l = 0; l < 4; ++l) {
      GridTimes(iq::kIq2xxsGrid[(indices >> (8 * l)) & 0xFF], iq::kSignsIq2xs[(signs_scale >> (7 * l)) & 127], db,
                v + 8 * l);
    }
  }
};
template <>
struct Block<T::kIQ2_XS> {
  static constexpr int kBytes = 74, kValues = 256;
  __device__ static void Decode(const uint8_t* b, int ib, float* v) {
    const float d = HalfAt(b);
    const uint8_t scales = b[66 + ib];
    for (int l = 0; l < 4; ++l) {
      const uint16_t q = U16At(b + 2 + 2 * (4 * ib + l));
      const float db = IqScale(d, l < 2 ? (scales & 15) : (scales >> 4), 0.25f);
      GridTimes(iq::kIq2xsGrid[q & 511], iq::kSignsIq2xs[q >> 9], db, v + 8 * l);
    }
  }
};
template <>
struct Block<T::kIQ2_S> {
  static constexpr int kBytes = 82, kValues = 256;
  __device__ static void Decode(const uint8_t* b, int ib, float* v) {
    const float d = HalfAt(b);
    const uint8_t* qs = b + 2 + 4 * ib;
    const uint8_t* signs = b + 34 + 4 * ib;
    const uint8_t qh = b[66 + ib], scales = b[74 + ib];
    for (int l = 0; l < 4; ++l) {
      const int index = qs[l] | ((qh << (8 - 2 * l)) & 0x300);
      const float db = IqScale(d, l < 2 ? (scales & 15) : (scales >> 4), 0.25f);
      GridTimes(iq::kIq2sGrid[index], signs[l], db, v + 8 * l);
    }
  }
};
// Two 4-value grid entries as one 8-value group.
__device__ __forceinline__ uint64_t Pair(uint32_t first, uint32_t second) {
  return static_cast<uint64_t>(first) | (static_cast<uint64_t>(second) << 32);
}
template <>
struct Block<T::kIQ3_XXS> {
  static constexpr int kBytes = 98, kValues = 256;
  __device__ static void Decode(const uint8_t* b, int ib, float* v) {
    const uint8_t* qs = b + 2 + 8 * ib;
    const uint32_t aux = U32At(b + 66 + 4 * ib);
    const float db = IqScale(HalfAt(b), static_cast<int>(aux >> 28), 0.5f);
    for (int l = 0; l < 4; ++l) {
      GridTimes(Pair(iq::kIq3xxsGrid[qs[2 * l]], iq::kIq3xxsGrid[qs[2 * l + 1]]),
                iq::kSignsIq2xs[(aux >> (7 * l)) & 127], db, v + 8 * l);
    }
  }
};
template <>
struct Block<T::kIQ3_S> {
  static constexpr int kBytes = 110, kValues = 256;
  __device__ static void Decode(const uint8_t* b, int ib, float* v) {
    const uint8_t* qs = b + 2 + 8 * ib;
    const uint8_t qh = b[66 + ib];
    const uint8_t* signs = b + 74 + 4 * ib;
    const uint8_t scales = b[106 + ib / 2];
    const float db = Mul(HalfAt(b), F(1 + 2 * ((ib % 2) ? (scales >> 4) : (scales & 15))));
    for (int l = 0; l < 4; ++l) {
      const uint32_t first = iq::kIq3sGrid[qs[2 * l] | ((qh << (8 - 2 * l)) & 256)];
      const uint32_t second = iq::kIq3sGrid[qs[2 * l + 1] | ((qh << (7 - 2 * l)) & 256)];
      GridTimes(Pair(first, second), signs[l], db, v + 8 * l);
    }
  }
};
// IQ1 groups: scale * (grid + delta), the grid bytes signed (-1, 0, 1).
__device__ __forceinline__ void Iq1Group(uint64_t grid, float scale, float delta, float* v) {
  for (int j = 0; j < 8; ++j) {
    v[j] = Mul(scale, __fadd_rn(F(static_cast<int8_t>((grid >> (8 * j)) & 0xFF)), delta));
  }
}
inline constexpr float kIq1Delta = 0.125f;
template <>
struct Block<T::kIQ1_S> {
  static constexpr int kBytes = 50, kValues = 256;
  __device__ static void Decode(const uint8_t* b, int ib, float* v) {
    const uint8_t* qs = b + 2 + 4 * ib;
    const uint16_t qh = U16At(b + 34 + 2 * ib);
    const float dl = Mul(HalfAt(b), F(2 * ((qh >> 12) & 7) + 1));
    const float delta = (qh & 0x8000) ? -kIq1Delta : kIq1Delta;
    for (int l = 0; l < 4; ++l) Iq1Group(iq::kIq1sGrid[qs[l] | (((qh >> (3 * l)) & 7) << 8)], dl, delta, v + 8 * l);
  }
};
// IQ1_M's four u16 scale words (3-bit group scales) and its f16 super-scale,
// spread over their top nibbles.
__device__ __forceinline__ float Iq1mScales(const uint8_t* b, uint16_t* sc) {
  for (int i = 0; i < 4; ++i) sc[i] = U16At(b + 48 + 2 * i);
  return HalfBitsToFloat(
      static_cast<uint16_t>((sc[0] >> 12) | ((sc[1] >> 8) & 0x00F0) | ((sc[2] >> 4) & 0x0F00) | (sc[3] & 0xF000)));
}
template <>
struct Block<T::kIQ1_M> {
  static constexpr int kBytes = 56, kValues = 256;
  __device__ static void Decode(const uint8_t* b, int ib, float* v) {
    uint16_t sc[4];
    const float d = Iq1mScales(b, sc);
    const uint8_t* qs = b + 4 * ib;
    const uint8_t* qh = b + 32 + 2 * ib;
    for (int l = 0; l < 4; ++l) {
      const uint8_t high = qh[l / 2];
      const int index = qs[l] | (((l % 2) ? (high << 4) : (high << 8)) & 0x700);
      const bool negative = (l % 2) ? (high & 0x80) : (high & 0x08);
      const int scale3 = (sc[ib / 2] >> (6 * (ib % 2) + 3 * (l / 2))) & 7;
      Iq1Group(iq::kIq1sGrid[index], Mul(d, F(2 * scale3 + 1)), negative ? -kIq1Delta : kIq1Delta, v + 8 * l);
    }
  }
};

// --- Ternary.

// Trit n (0..4) of a byte of base-3 fixed-point digits: the top of
// (byte * 3^n mod 256) * 3. 3^n by selects, not a table (a table indexed at
// run time would live in local memory).
__device__ __forceinline__ int Trit(uint8_t byte, int n) {
  const int pow3 = n == 0 ? 1 : n == 1 ? 3 : n == 2 ? 9 : n == 3 ? 27 : 81;
  const uint8_t q = static_cast<uint8_t>(byte * pow3);
  return (static_cast<int>(q) * 3) >> 8;
}
// TQ1_0's value e (0..255) as a trit 0..2: five trits of each of qs[0..31]
// (values 0..159), five of qs[32..47] (160..239), four of qh[0..3].
__device__ __forceinline__ int Tq1TritAt(const uint8_t* b, int e) {
  if (e < 160) return Trit(b[e % 32], e / 32);
  if (e < 240) return Trit(b[32 + (e - 160) % 16], (e - 160) / 16);
  return Trit(b[48 + (e - 240) % 4], (e - 240) / 4);
}
template <>
struct Block<T::kTQ1_0> {
  static constexpr int kBytes = 54, kValues = 256;
  __device__ static void Decode(const uint8_t* b, int chunk, float* v) {
    const float d = HalfAt(b + 52);
    for (int j = 0; j < 32; ++j) v[j] = Mul(F(Tq1TritAt(b, 32 * chunk + j) - 1), d);
  }
};
template <>
struct Block<T::kTQ2_0> {
  static constexpr int kBytes = 66, kValues = 256;
  __device__ static void Decode(const uint8_t* b, int chunk, float* v) {
    const float d = HalfAt(b + 64);
    const uint8_t* q = b + 32 * (chunk / 4);
    const int shift = 2 * (chunk % 4);
    for (int m = 0; m < 32; ++m) v[m] = Mul(F(((q[m] >> shift) & 3) - 1), d);
  }
};

}  // namespace vt::gpu
