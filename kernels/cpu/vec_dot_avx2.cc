// AVX2 + FMA vec_dot for the hot weight types. Compiled with -mavx2 -mfma
// -mf16c and only called after the CPU reports AVX2 and FMA (vec_dot.cc).
// The kernels themselves are the shared x86 sources; this file supplies
// AVX2's integer dot products.
#include <immintrin.h>

#include <cstring>

#include "iq_tables.h"
#include "vec_dot_simd.h"

namespace vt::cpu::avx2 {
namespace {

// Sum over 32 lanes of signed w * signed x, as 8 int32 partial sums.
inline __m256i DotI8(__m256i w, __m256i x) {
  const __m256i abs_w = _mm256_sign_epi8(w, w);
  const __m256i signed_x = _mm256_sign_epi8(x, w);
  const __m256i pairs = _mm256_maddubs_epi16(abs_w, signed_x);
  return _mm256_madd_epi16(pairs, _mm256_set1_epi16(1));
}

// sums + the dot of unsigned codes (< 128) with signed x, each adjacent pair
// of products weighted by the matching int16 of `weights` (8 int32 sums).
inline __m256i AddWeightedDot(__m256i sums, __m256i codes, __m256i x, __m256i weights) {
  return _mm256_add_epi32(sums, _mm256_madd_epi16(_mm256_maddubs_epi16(codes, x), weights));
}

#include "vec_dot_x86_common.inc"
#include "vec_dot_x86_blocks.inc"
#include "vec_dot_x86_superblocks.inc"

}  // namespace

#include "vec_dot_x86_exports.inc"

}  // namespace vt::cpu::avx2
