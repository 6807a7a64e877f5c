// AVX-512 VNNI (256-bit, with AVX-512VL) vec_dot for the hot weight types:
// the shared x86 kernels with VNNI's fused integer dot products, vpdpbusd
// for each unsigned-by-signed byte dot and vpdpwssd for each scale-weighted
// sum (one instruction where AVX2 needs a multiply-add and an add).
// Compiled for AVX-512 and called only after the CPU reports it
// (vec_dot.cc).
#include <immintrin.h>

#include <cstring>

#include "iq_tables.h"
#include "vec_dot_simd.h"

namespace vt::cpu::avx512 {
namespace {

// Sum over 32 lanes of signed w * signed x, as 8 int32 partial sums.
inline __m256i DotI8(__m256i w, __m256i x) {
  return _mm256_dpbusd_epi32(_mm256_setzero_si256(), _mm256_sign_epi8(w, w), _mm256_sign_epi8(x, w));
}

// sums + the dot of unsigned codes (< 128) with signed x, each adjacent pair
// of products weighted by the matching int16 of `weights` (8 int32 sums).
inline __m256i AddWeightedDot(__m256i sums, __m256i codes, __m256i x, __m256i weights) {
  return _mm256_dpwssd_epi32(sums, _mm256_maddubs_epi16(codes, x), weights);
}

#include "vec_dot_x86_common.inc"
#include "vec_dot_x86_blocks.inc"
#include "vec_dot_x86_superblocks.inc"

}  // namespace

#include "vec_dot_x86_exports.inc"

}  // namespace vt::cpu::avx512
