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
// Fetched once at load time: calling HalfToFloatTable() per block would pay
// its static's guard every time.
const float* const kHalfTable = HalfToFloatTable();

inline float LoadHalf(const uint8_t* p) {
  uint16_t h;
  std::memcpy(&h, p, 2);
  return kHalfTable[h];
}

inline uint16_t LoadU16(const uint8_t* p) {
  uint16_t v;
  std::memcpy(&v, p, 2);
  return v;
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

const float* const kE8m0HalfTable = E8m0HalfToFloatTable();

#include "vec_dot_x86_blocks.inc"


}  // namespace

float VecDotQ8_0(const uint8_t* w, const uint8_t* x, int64_t blocks) { return DotQ8_0Blocks(w, x, blocks); }
float VecDotQ4_0(const uint8_t* w, const uint8_t* x, int64_t blocks) { return DotQ4_0Blocks(w, x, blocks); }
float VecDotMXFP4(const uint8_t* w, const uint8_t* x, int64_t blocks) { return DotMXFP4Blocks(w, x, blocks); }

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

// Q4_K / Q5_K: the eight 6-bit scales and mins packed in 12 bytes, unpacked
// with word operations: bytes 0-7 of the result are the scales, 8-15 the mins.
inline void UnpackScalesMinsK4(const uint8_t* packed, uint32_t out[4]) {
  constexpr uint32_t kMask1 = 0x3f3f3f3f, kMask2 = 0x0f0f0f0f, kMask3 = 0x03030303;
  std::memcpy(out, packed, 12);
  out[3] = ((out[2] >> 4) & kMask2) | (((out[1] >> 6) & kMask3) << 4);
  const uint32_t mins_low = out[1] & kMask1;
  out[1] = (out[2] & kMask2) | (((out[0] >> 6) & kMask3) << 4);
  out[2] = mins_low;
  out[0] &= kMask1;
}

// sum over sub-blocks j of mins[j] * (sum of the 32 activations of j), from
// the activation's 16 block sums.
inline int MinTerm(const uint32_t scales_mins[4], const uint8_t* x) {
  const __m128i bsums_low = _mm_loadu_si128(reinterpret_cast<const __m128i*>(x + 260));
  const __m128i bsums_high = _mm_loadu_si128(reinterpret_cast<const __m128i*>(x + 276));
  const __m128i sums32 = _mm_hadd_epi16(bsums_low, bsums_high);  // 8 sums of 32
  const __m128i mins = _mm_cvtepu8_epi16(_mm_set_epi32(0, 0, static_cast<int>(scales_mins[3]),
                                                       static_cast<int>(scales_mins[2])));
  __m128i products = _mm_madd_epi16(mins, sums32);
  products = _mm_add_epi32(products, _mm_shuffle_epi32(products, _MM_SHUFFLE(1, 0, 3, 2)));
  products = _mm_add_epi32(products, _mm_shuffle_epi32(products, _MM_SHUFFLE(2, 3, 0, 1)));
  return _mm_cvtsi128_si32(products);
}

// maddubs(codes, x) weighted by a sub-block scale, as 8 int32 partial sums.
inline __m256i ScaledDot(__m256i codes, __m256i x, int scale) {
  return _mm256_madd_epi16(_mm256_maddubs_epi16(codes, x), _mm256_set1_epi16(static_cast<short>(scale)));
}
}  // namespace

// Q4_K and Q5_K share everything but their codes: `codes(w, j, low, high)`
// gives sub-blocks 2j and 2j+1 of a super-block as unsigned bytes.
template <int kBlockBytes, typename Codes>
float DotK4SuperBlocks(const uint8_t* w, const uint8_t* x, int64_t blocks, Codes codes) {
  __m256 acc = _mm256_setzero_ps();
  float mins_total = 0.0f;
  for (int64_t i = 0; i < blocks; ++i, w += kBlockBytes, x += 292) {
    uint32_t scales_mins[4];
    UnpackScalesMinsK4(w + 4, scales_mins);
    const auto* scales = reinterpret_cast<const uint8_t*>(scales_mins);
    const int8_t* xq = Q8KCodes(x);
    __m256i sums = _mm256_setzero_si256();
    for (int j = 0; j < 4; ++j, xq += 64) {
      __m256i low, high;
      codes(w, j, &low, &high);
      sums = _mm256_add_epi32(sums, ScaledDot(low, Load32(xq), scales[2 * j]));
      sums = _mm256_add_epi32(sums, ScaledDot(high, Load32(xq + 32), scales[2 * j + 1]));
    }
    const float dx = Q8KScale(x);
    acc = _mm256_fmadd_ps(_mm256_set1_ps(LoadHalf(w) * dx), _mm256_cvtepi32_ps(sums), acc);
    mins_total += LoadHalf(w + 2) * dx * static_cast<float>(MinTerm(scales_mins, x));
  }
  return HorizontalSum(acc) - mins_total;
}

float VecDotQ4_K(const uint8_t* w, const uint8_t* x, int64_t blocks) {
  const __m256i low_mask = _mm256_set1_epi8(0x0F);
  return DotK4SuperBlocks<144>(w, x, blocks, [&](const uint8_t* b, int j, __m256i* low, __m256i* high) {
    const __m256i bytes = Load32(b + 16 + 32 * j);
    *low = _mm256_and_si256(bytes, low_mask);
    *high = _mm256_and_si256(_mm256_srli_epi16(bytes, 4), low_mask);
  });
}

float VecDotQ5_K(const uint8_t* w, const uint8_t* x, int64_t blocks) {
  const __m256i low_mask = _mm256_set1_epi8(0x0F);
  const __m256i sixteen = _mm256_set1_epi8(16);
  return DotK4SuperBlocks<176>(w, x, blocks, [&](const uint8_t* b, int j, __m256i* low, __m256i* high) {
    const __m256i qh = Load32(b + 16);
    const __m256i bytes = Load32(b + 48 + 32 * j);
    // Fifth bits of sub-blocks 2j and 2j+1 are bits 2j and 2j+1 of qh.
    const __m256i bit_low = _mm256_set1_epi8(static_cast<char>(1 << (2 * j)));
    const __m256i bit_high = _mm256_set1_epi8(static_cast<char>(2 << (2 * j)));
    const __m256i add_low = _mm256_and_si256(_mm256_cmpeq_epi8(_mm256_and_si256(qh, bit_low), bit_low), sixteen);
    const __m256i add_high = _mm256_and_si256(_mm256_cmpeq_epi8(_mm256_and_si256(qh, bit_high), bit_high), sixteen);
    *low = _mm256_or_si256(_mm256_and_si256(bytes, low_mask), add_low);
    *high = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(bytes, 4), low_mask), add_high);
  });
}

// Q6_K: q = (ql nibble | two qh bits << 4) - 32; computed as the unsigned
// 6-bit code times x, less 32 * sum(x) from the activation's block sums.
float VecDotQ6_K(const uint8_t* w, const uint8_t* x, int64_t blocks) {
  __m256 acc = _mm256_setzero_ps();
  float offsets_total = 0.0f;
  const __m256i low_mask = _mm256_set1_epi8(0x0F);
  const __m256i two_bits = _mm256_set1_epi8(0x03);
  // Shuffles that spread int16 scales 2g and 2g+1 over the two halves of a
  // register (each half holds the 16 scales' 8 of one 128-bit lane).
  const __m256i spread[4] = {
      _mm256_set_epi8(3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0),
      _mm256_set_epi8(7, 6, 7, 6, 7, 6, 7, 6, 7, 6, 7, 6, 7, 6, 7, 6, 5, 4, 5, 4, 5, 4, 5, 4, 5, 4, 5, 4, 5, 4, 5, 4),
      _mm256_set_epi8(11, 10, 11, 10, 11, 10, 11, 10, 11, 10, 11, 10, 11, 10, 11, 10, 9, 8, 9, 8, 9, 8, 9, 8, 9, 8,
                      9, 8, 9, 8, 9, 8),
      _mm256_set_epi8(15, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15, 14, 13, 12, 13, 12, 13, 12, 13,
                      12, 13, 12, 13, 12, 13, 12, 13, 12)};
  for (int64_t i = 0; i < blocks; ++i, w += 210, x += 292) {
    const uint8_t* ql = w;
    const uint8_t* qh = w + 128;
    const int8_t* xq = Q8KCodes(x);
    const __m128i scales8 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(w + 192));
    const __m256i scales16 = _mm256_cvtepi8_epi16(scales8);  // 16 int16 scales
    __m256i sums = _mm256_setzero_si256();
    for (int half = 0; half < 2; ++half, ql += 64, qh += 32, xq += 128) {
      // Scales 8*half .. 8*half+7, both 128-bit lanes holding all eight.
      const __m256i half_scales = half == 0 ? _mm256_permute2x128_si256(scales16, scales16, 0x00)
                                            : _mm256_permute2x128_si256(scales16, scales16, 0x11);
      const __m256i l0 = Load32(ql);
      const __m256i l1 = Load32(ql + 32);
      const __m256i h = Load32(qh);
      const __m256i q[4] = {
          _mm256_or_si256(_mm256_and_si256(l0, low_mask), _mm256_slli_epi16(_mm256_and_si256(h, two_bits), 4)),
          _mm256_or_si256(_mm256_and_si256(l1, low_mask),
                          _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(h, 2), two_bits), 4)),
          _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(l0, 4), low_mask),
                          _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(h, 4), two_bits), 4)),
          _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(l1, 4), low_mask),
                          _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(h, 6), two_bits), 4))};
      for (int g = 0; g < 4; ++g) {
        const __m256i pairs = _mm256_maddubs_epi16(q[g], Load32(xq + 32 * g));
        sums = _mm256_add_epi32(sums, _mm256_madd_epi16(pairs, _mm256_shuffle_epi8(half_scales, spread[g])));
      }
    }
    // 32 * sum over the 16 sub-blocks of scale * (sum of its activations).
    const __m256i bsums = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x + 260));
    const int offset = HorizontalSumI32(_mm256_madd_epi16(scales16, bsums));
    const float d = LoadHalf(w + 208) * Q8KScale(x);
    acc = _mm256_fmadd_ps(_mm256_set1_ps(d), _mm256_cvtepi32_ps(sums), acc);
    offsets_total += d * static_cast<float>(32 * offset);
  }
  return HorizontalSum(acc) - offsets_total;
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
    __m256i sums = _mm256_setzero_si256();
    for (int ib = 0; ib < 8; ++ib, qs += 16, xq += 32) {
      const int ls = ((scales_l[ib / 2] >> (4 * (ib % 2))) & 0x0F) | (((scales_h >> (2 * ib)) & 3) << 4);
      const __m256i q = _mm256_shuffle_epi8(table, UnpackNibbles(qs));
      const __m256i x_signed = _mm256_sign_epi8(Load32(xq), q);
      sums = _mm256_add_epi32(sums, ScaledDot(_mm256_sign_epi8(q, q), x_signed, ls - 32));
    }
    sum += LoadHalf(w) * Q8KScale(x) * static_cast<float>(HorizontalSumI32(sums));
  }
  return sum;
}

namespace {

// Sign patterns of IQ2's 7-bit sign groups as bytes: +1 or -1 for each of 8
// weights. A plain array (no standard template instantiated in this file,
// which is built for AVX2).
struct SignTable {
  uint64_t bytes[128];
};

constexpr SignTable MakeSignTable() {
  SignTable table{};
  for (int s = 0; s < 128; ++s) {
    for (int j = 0; j < 8; ++j) {
      const bool negative = (iq::kSignsIq2xs[s] & iq::kMaskIq2xs[j]) != 0;
      table.bytes[s] |= static_cast<uint64_t>(negative ? 0xFF : 0x01) << (8 * j);
    }
  }
  return table;
}

constexpr SignTable kSignBytes = MakeSignTable();

}  // namespace

// IQ2_XXS against Q8_K: per 32 weights, four 8-byte grid entries times the
// activations with the group's signs applied, scaled by 2 * scale + 1; the
// block value is d * dx * sum / 8.
float VecDotIQ2_XXS(const uint8_t* w, const uint8_t* x, int64_t blocks) {
  const uint64_t* signs = kSignBytes.bytes;
  float sum = 0.0f;
  for (int64_t i = 0; i < blocks; ++i, w += 66, x += 292) {
    const int8_t* xq = Q8KCodes(x);
    __m256i sums = _mm256_setzero_si256();
    for (int ib = 0; ib < 8; ++ib, xq += 32) {
      uint32_t indices, signs_scale;
      std::memcpy(&indices, w + 2 + 8 * ib, 4);
      std::memcpy(&signs_scale, w + 2 + 8 * ib + 4, 4);
      const __m256i grid = _mm256_set_epi64x(
          static_cast<long long>(iq::kIq2xxsGrid[(indices >> 24) & 0xFF]),
          static_cast<long long>(iq::kIq2xxsGrid[(indices >> 16) & 0xFF]),
          static_cast<long long>(iq::kIq2xxsGrid[(indices >> 8) & 0xFF]),
          static_cast<long long>(iq::kIq2xxsGrid[indices & 0xFF]));
      const __m256i sign = _mm256_set_epi64x(static_cast<long long>(signs[(signs_scale >> 21) & 127]),
                                             static_cast<long long>(signs[(signs_scale >> 14) & 127]),
                                             static_cast<long long>(signs[(signs_scale >> 7) & 127]),
                                             static_cast<long long>(signs[signs_scale & 127]));
      const __m256i signed_x = _mm256_sign_epi8(Load32(xq), sign);
      sums = _mm256_add_epi32(sums, ScaledDot(grid, signed_x, 2 * static_cast<int>(signs_scale >> 28) + 1));
    }
    sum += LoadHalf(w) * Q8KScale(x) * 0.125f * static_cast<float>(HorizontalSumI32(sums));
  }
  return sum;
}

// IQ1_S against Q8_K: per 32 weights, grid values in {-1, 0, 1} plus a
// shared delta of +-1/8, scaled by 2 * scale + 1.
float VecDotIQ1_S(const uint8_t* w, const uint8_t* x, int64_t blocks) {
  float sum = 0.0f;
  for (int64_t i = 0; i < blocks; ++i, w += 50, x += 292) {
    const uint8_t* qs = w + 2;
    const int8_t* xq = Q8KCodes(x);
    int grid_total = 0;
    int delta_total = 0;
    for (int ib = 0; ib < 8; ++ib, qs += 4, xq += 32) {
      const uint16_t qh = LoadU16(w + 34 + 2 * ib);
      const __m256i grid = _mm256_set_epi64x(
          static_cast<long long>(iq::kIq1sGrid[qs[3] | (((qh >> 9) & 7) << 8)]),
          static_cast<long long>(iq::kIq1sGrid[qs[2] | (((qh >> 6) & 7) << 8)]),
          static_cast<long long>(iq::kIq1sGrid[qs[1] | (((qh >> 3) & 7) << 8)]),
          static_cast<long long>(iq::kIq1sGrid[qs[0] | ((qh & 7) << 8)]));
      const int scale = 2 * ((qh >> 12) & 7) + 1;
      const int block_sum = Q8KBlockSum(x, 2 * ib) + Q8KBlockSum(x, 2 * ib + 1);
      grid_total += scale * HorizontalSumI32(DotI8(grid, Load32(xq)));
      delta_total += scale * ((qh & 0x8000) ? -block_sum : block_sum);
    }
    sum += LoadHalf(w) * Q8KScale(x) *
           (static_cast<float>(grid_total) + 0.125f * static_cast<float>(delta_total));
  }
  return sum;
}

}  // namespace vt::cpu::avx2
