// AVX2 + FMA vec_dot for the hot weight types. Compiled with -mavx2 -mfma
// -mf16c and only called after the CPU reports AVX2 and FMA (vec_dot.cc).
//
// Each kernel computes, per block, the integer dot of the weight codes with
// the int8 activation codes, then scales it by the blocks' float scales, as
// the formats define; the per-block integer sums are exact, the float
// accumulation is in block order across 8 lanes.
#include <immintrin.h>

#include <cstring>

#include "iq_tables.h"
#include "vec_dot_simd.h"

namespace vt::cpu::avx2 {
namespace {

// This file is compiled for AVX2; it must not define or instantiate any
// inline function that other files also use (the linker could keep the AVX2
// copy for everyone). So its few scalar helpers are its own, with internal
// linkage, rather than float_formats.h's.
inline float LoadHalf(const uint8_t* p) {
  uint16_t h;
  std::memcpy(&h, p, 2);
  return _cvtsh_ss(h);
}

inline uint16_t LoadU16(const uint8_t* p) {
  uint16_t v;
  std::memcpy(&v, p, 2);
  return v;
}

// MXFP4's E8M0 exponent as a float, halved (same definition as
// float_formats.h's E8m0ToFloatHalf).
inline float E8m0ToFloatHalf(uint8_t e) {
  const uint32_t bits = e < 2 ? (0x00200000u << e) : (static_cast<uint32_t>(e - 1) << 23);
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

inline float HorizontalSum(__m256 v) {
  __m128 lo = _mm256_castps256_ps128(v);
  const __m128 hi = _mm256_extractf128_ps(v, 1);
  lo = _mm_add_ps(lo, hi);
  lo = _mm_add_ps(lo, _mm_movehl_ps(lo, lo));
  lo = _mm_add_ss(lo, _mm_movehdup_ps(lo));
  return _mm_cvtss_f32(lo);
}

inline int HorizontalSumI32(__m256i v) {
  __m128i lo = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  lo = _mm_add_epi32(lo, _mm_shuffle_epi32(lo, _MM_SHUFFLE(1, 0, 3, 2)));
  lo = _mm_add_epi32(lo, _mm_shuffle_epi32(lo, _MM_SHUFFLE(2, 3, 0, 1)));
  return _mm_cvtsi128_si32(lo);
}

// Sum over 32 lanes of signed w * signed x, as 8 int32 partial sums.
inline __m256i DotI8(__m256i w, __m256i x) {
  const __m256i abs_w = _mm256_sign_epi8(w, w);
  const __m256i signed_x = _mm256_sign_epi8(x, w);
  const __m256i pairs = _mm256_maddubs_epi16(abs_w, signed_x);
  return _mm256_madd_epi16(pairs, _mm256_set1_epi16(1));
}

// Sum over 32 lanes of unsigned u (< 128) * signed x, as 8 int32 partial sums.
inline __m256i DotU8I8(__m256i u, __m256i x) {
  return _mm256_madd_epi16(_mm256_maddubs_epi16(u, x), _mm256_set1_epi16(1));
}

// 16 bytes of nibbles -> 32 bytes: the low nibbles, then the high nibbles.
inline __m256i UnpackNibbles(const uint8_t* p) {
  const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  const __m128i mask = _mm_set1_epi8(0x0F);
  const __m128i low = _mm_and_si128(bytes, mask);
  const __m128i high = _mm_and_si128(_mm_srli_epi16(bytes, 4), mask);
  return _mm256_set_m128i(high, low);
}

inline __m256i Load32(const void* p) { return _mm256_loadu_si256(static_cast<const __m256i*>(p)); }

}  // namespace

float VecDotQ8_0(const uint8_t* w, const uint8_t* x, int64_t blocks) {
  __m256 acc = _mm256_setzero_ps();
  for (int64_t i = 0; i < blocks; ++i, w += 34, x += 34) {
    const __m256i dot = DotI8(Load32(w + 2), Load32(x + 2));
    const __m256 scale = _mm256_set1_ps(LoadHalf(w) * LoadHalf(x));
    acc = _mm256_fmadd_ps(scale, _mm256_cvtepi32_ps(dot), acc);
  }
  return HorizontalSum(acc);
}

float VecDotQ4_0(const uint8_t* w, const uint8_t* x, int64_t blocks) {
  __m256 acc = _mm256_setzero_ps();
  const __m256i eight = _mm256_set1_epi8(8);
  for (int64_t i = 0; i < blocks; ++i, w += 18, x += 34) {
    const __m256i q = _mm256_sub_epi8(UnpackNibbles(w + 2), eight);
    const __m256i dot = DotI8(q, Load32(x + 2));
    const __m256 scale = _mm256_set1_ps(LoadHalf(w) * LoadHalf(x));
    acc = _mm256_fmadd_ps(scale, _mm256_cvtepi32_ps(dot), acc);
  }
  return HorizontalSum(acc);
}

float VecDotMXFP4(const uint8_t* w, const uint8_t* x, int64_t blocks) {
  __m256 acc = _mm256_setzero_ps();
  const __m256i table = _mm256_broadcastsi128_si256(
      _mm_loadu_si128(reinterpret_cast<const __m128i*>(iq::kValuesFp4)));
  for (int64_t i = 0; i < blocks; ++i, w += 17, x += 34) {
    const __m256i q = _mm256_shuffle_epi8(table, UnpackNibbles(w + 1));
    const __m256i dot = DotI8(q, Load32(x + 2));
    const __m256 scale = _mm256_set1_ps(E8m0ToFloatHalf(w[0]) * LoadHalf(x));
    acc = _mm256_fmadd_ps(scale, _mm256_cvtepi32_ps(dot), acc);
  }
  return HorizontalSum(acc);
}

// Q8_K activation layout: d (f32), qs[256], bsums[16] (int16 sums of 16).
namespace {
inline float Q8KScale(const uint8_t* x) {
  float d;
  std::memcpy(&d, x, 4);
  return d;
}
inline const int8_t* Q8KCodes(const uint8_t* x) { return reinterpret_cast<const int8_t*>(x + 4); }
inline int16_t Q8KBlockSum(const uint8_t* x, int j) {
  int16_t v;
  std::memcpy(&v, x + 260 + 2 * j, 2);
  return v;
}

void ScalesMinsK4(const uint8_t* packed, uint8_t* scales, uint8_t* mins) {
  for (int j = 0; j < 8; ++j) {
    if (j < 4) {
      scales[j] = packed[j] & 63;
      mins[j] = packed[j + 4] & 63;
    } else {
      scales[j] = static_cast<uint8_t>((packed[j + 4] & 0x0F) | ((packed[j - 4] >> 6) << 4));
      mins[j] = static_cast<uint8_t>((packed[j + 4] >> 4) | ((packed[j] >> 6) << 4));
    }
  }
}
}  // namespace

float VecDotQ4_K(const uint8_t* w, const uint8_t* x, int64_t blocks) {
  float sum = 0.0f;
  const __m256i low_mask = _mm256_set1_epi8(0x0F);
  for (int64_t i = 0; i < blocks; ++i, w += 144, x += 292) {
    uint8_t scales[8], mins[8];
    ScalesMinsK4(w + 4, scales, mins);
    const uint8_t* q = w + 16;
    const int8_t* xq = Q8KCodes(x);
    __m256i acc = _mm256_setzero_si256();
    for (int j = 0; j < 4; ++j, q += 32, xq += 64) {
      const __m256i bytes = Load32(q);
      const __m256i low = _mm256_and_si256(bytes, low_mask);
      const __m256i high = _mm256_and_si256(_mm256_srli_epi16(bytes, 4), low_mask);
      const __m256i dot_low = DotU8I8(low, Load32(xq));
      const __m256i dot_high = DotU8I8(high, Load32(xq + 32));
      acc = _mm256_add_epi32(acc, _mm256_mullo_epi32(dot_low, _mm256_set1_epi32(scales[2 * j])));
      acc = _mm256_add_epi32(acc, _mm256_mullo_epi32(dot_high, _mm256_set1_epi32(scales[2 * j + 1])));
    }
    int min_sum = 0;
    for (int j = 0; j < 8; ++j) min_sum += mins[j] * (Q8KBlockSum(x, 2 * j) + Q8KBlockSum(x, 2 * j + 1));
    const float d = LoadHalf(w) * Q8KScale(x);
    const float dmin = LoadHalf(w + 2) * Q8KScale(x);
    sum += d * static_cast<float>(HorizontalSumI32(acc)) - dmin * static_cast<float>(min_sum);
  }
  return sum;
}

float VecDotQ5_K(const uint8_t* w, const uint8_t* x, int64_t blocks) {
  float sum = 0.0f;
  const __m256i low_mask = _mm256_set1_epi8(0x0F);
  const __m256i sixteen = _mm256_set1_epi8(16);
  for (int64_t i = 0; i < blocks; ++i, w += 176, x += 292) {
    uint8_t scales[8], mins[8];
    ScalesMinsK4(w + 4, scales, mins);
    const __m256i qh = Load32(w + 16);
    const uint8_t* ql = w + 48;
    const int8_t* xq = Q8KCodes(x);
    __m256i acc = _mm256_setzero_si256();
    for (int j = 0; j < 4; ++j, ql += 32, xq += 64) {
      const __m256i bytes = Load32(ql);
      // Fifth bits of sub-blocks 2j and 2j+1 are bits 2j and 2j+1 of qh.
      const __m256i bit_low = _mm256_and_si256(_mm256_set1_epi8(static_cast<char>(1 << (2 * j))), qh);
      const __m256i bit_high = _mm256_and_si256(_mm256_set1_epi8(static_cast<char>(2 << (2 * j))), qh);
      const __m256i add_low = _mm256_and_si256(
          _mm256_cmpeq_epi8(bit_low, _mm256_set1_epi8(static_cast<char>(1 << (2 * j)))), sixteen);
      const __m256i add_high = _mm256_and_si256(
          _mm256_cmpeq_epi8(bit_high, _mm256_set1_epi8(static_cast<char>(2 << (2 * j)))), sixteen);
      const __m256i low = _mm256_or_si256(_mm256_and_si256(bytes, low_mask), add_low);
      const __m256i high =
          _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(bytes, 4), low_mask), add_high);
      const __m256i dot_low = DotU8I8(low, Load32(xq));
      const __m256i dot_high = DotU8I8(high, Load32(xq + 32));
      acc = _mm256_add_epi32(acc, _mm256_mullo_epi32(dot_low, _mm256_set1_epi32(scales[2 * j])));
      acc = _mm256_add_epi32(acc, _mm256_mullo_epi32(dot_high, _mm256_set1_epi32(scales[2 * j + 1])));
    }
    int min_sum = 0;
    for (int j = 0; j < 8; ++j) min_sum += mins[j] * (Q8KBlockSum(x, 2 * j) + Q8KBlockSum(x, 2 * j + 1));
    const float d = LoadHalf(w) * Q8KScale(x);
    const float dmin = LoadHalf(w + 2) * Q8KScale(x);
    sum += d * static_cast<float>(HorizontalSumI32(acc)) - dmin * static_cast<float>(min_sum);
  }
  return sum;
}

// Q6_K: q = (ql nibble | two qh bits << 4) - 32; computed as the unsigned
// 6-bit code times x, less 32 * sum(x) from the activation's block sums.
float VecDotQ6_K(const uint8_t* w, const uint8_t* x, int64_t blocks) {
  float sum = 0.0f;
  const __m256i low_mask = _mm256_set1_epi8(0x0F);
  const __m256i two_bits = _mm256_set1_epi8(0x03);
  for (int64_t i = 0; i < blocks; ++i, w += 210, x += 292) {
    const uint8_t* ql = w;
    const uint8_t* qh = w + 128;
    const auto* sc = reinterpret_cast<const int8_t*>(w + 192);
    const int8_t* xq = Q8KCodes(x);
    int total = 0;
    for (int half = 0; half < 2; ++half, ql += 64, qh += 32, sc += 8, xq += 128) {
      const __m256i l0 = Load32(ql);
      const __m256i l1 = Load32(ql + 32);
      const __m256i h = Load32(qh);
      const __m256i q[4] = {
          _mm256_or_si256(_mm256_and_si256(l0, low_mask),
                          _mm256_slli_epi16(_mm256_and_si256(h, two_bits), 4)),
          _mm256_or_si256(_mm256_and_si256(l1, low_mask),
                          _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(h, 2), two_bits), 4)),
          _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(l0, 4), low_mask),
                          _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(h, 4), two_bits), 4)),
          _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(l1, 4), low_mask),
                          _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(h, 6), two_bits), 4))};
      for (int g = 0; g < 4; ++g) {
        // Each 32-lane group spans two 16-element sub-blocks with their own scales.
        const __m256i pairs = _mm256_maddubs_epi16(q[g], Load32(xq + 32 * g));
        const __m256i weights = _mm256_set_m128i(_mm_set1_epi16(sc[2 * g + 1]), _mm_set1_epi16(sc[2 * g]));
        total += HorizontalSumI32(_mm256_madd_epi16(pairs, weights));
      }
    }
    int offset = 0;
    for (int j = 0; j < 16; ++j) offset += static_cast<int8_t>(w[192 + j]) * Q8KBlockSum(x, j);
    sum += LoadHalf(w + 208) * Q8KScale(x) * static_cast<float>(total - 32 * offset);
  }
  return sum;
}

float VecDotIQ4_XS(const uint8_t* w, const uint8_t* x, int64_t blocks) {
  float sum = 0.0f;
  const __m256i table = _mm256_broadcastsi128_si256(
      _mm_loadu_si128(reinterpret_cast<const __m128i*>(iq::kValuesIq4nl)));
  for (int64_t i = 0; i < blocks; ++i, w += 136, x += 292) {
    const uint16_t scales_h = LoadU16(w + 2);
    const uint8_t* scales_l = w + 4;
    const uint8_t* qs = w + 8;
    const int8_t* xq = Q8KCodes(x);
    int total = 0;
    for (int ib = 0; ib < 8; ++ib, qs += 16, xq += 32) {
      const int ls = ((scales_l[ib / 2] >> (4 * (ib % 2))) & 0x0F) | (((scales_h >> (2 * ib)) & 3) << 4);
      const __m256i q = _mm256_shuffle_epi8(table, UnpackNibbles(qs));
      total += (ls - 32) * HorizontalSumI32(DotI8(q, Load32(xq)));
    }
    sum += LoadHalf(w) * Q8KScale(x) * static_cast<float>(total);
  }
  return sum;
}

}  // namespace vt::cpu::avx2
