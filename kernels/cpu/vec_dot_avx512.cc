// AVX-512 VNNI (256-bit, with AVX-512VL) vec_dot for the 32-value block
// types: the shared block kernels of vec_dot_x86_blocks.inc with vpdpbusd
// doing each unsigned-by-signed byte dot in one instruction. Compiled for
// AVX-512 and called only after the CPU reports it (vec_dot.cc).
#include <immintrin.h>

#include <cstring>

#include "iq_tables.h"
#include "vec_dot_simd.h"

namespace vt::cpu::avx512 {
namespace {

const float* const kHalfTable = HalfToFloatTable();
const float* const kE8m0HalfTable = E8m0HalfToFloatTable();

inline float HorizontalSum(__m256 v) {
  __m128 lo = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  lo = _mm_add_ps(lo, _mm_movehl_ps(lo, lo));
  lo = _mm_add_ss(lo, _mm_movehdup_ps(lo));
  return _mm_cvtss_f32(lo);
}

// Sum over 32 lanes of signed w * signed x, as 8 int32 partial sums.
inline __m256i DotI8(__m256i w, __m256i x) {
  return _mm256_dpbusd_epi32(_mm256_setzero_si256(), _mm256_sign_epi8(w, w), _mm256_sign_epi8(x, w));
}

#include "vec_dot_x86_blocks.inc"

}  // namespace

float VecDotQ8_0(const uint8_t* w, const uint8_t* x, int64_t blocks) { return DotQ8_0Blocks(w, x, blocks); }
float VecDotQ4_0(const uint8_t* w, const uint8_t* x, int64_t blocks) { return DotQ4_0Blocks(w, x, blocks); }
float VecDotMXFP4(const uint8_t* w, const uint8_t* x, int64_t blocks) { return DotMXFP4Blocks(w, x, blocks); }

}  // namespace vt::cpu::avx512
