// One dequantizer per block type: `count` consecutive blocks from `blocks`
// to `count * block_elements` floats. Internal to kernels/cpu; callers use
// vt/kernels/cpu/dequantize.h.
#pragma once

#include <cstdint>

namespace vt::cpu::blocks {

using DequantizeFn = void (*)(const uint8_t* blocks, float* y, int64_t count);

// Plain and legacy 32-element blocks, and the small-block formats.
void F32(const uint8_t* b, float* y, int64_t count);
void F16(const uint8_t* b, float* y, int64_t count);
void BF16(const uint8_t* b, float* y, int64_t count);
void Q4_0(const uint8_t* b, float* y, int64_t count);
void Q4_1(const uint8_t* b, float* y, int64_t count);
void Q5_0(const uint8_t* b, float* y, int64_t count);
void Q5_1(const uint8_t* b, float* y, int64_t count);
void Q8_0(const uint8_t* b, float* y, int64_t count);
void Q8_1(const uint8_t* b, float* y, int64_t count);
void Q1_0(const uint8_t* b, float* y, int64_t count);
void Q2_0(const uint8_t* b, float* y, int64_t count);
void IQ4_NL(const uint8_t* b, float* y, int64_t count);
void MXFP4(const uint8_t* b, float* y, int64_t count);
void NVFP4(const uint8_t* b, float* y, int64_t count);
// K-quants (256-element super-blocks) and IQ4_XS.
void Q2_K(const uint8_t* b, float* y, int64_t count);
void Q3_K(const uint8_t* b, float* y, int64_t count);
void Q4_K(const uint8_t* b, float* y, int64_t count);
void Q5_K(const uint8_t* b, float* y, int64_t count);
void Q6_K(const uint8_t* b, float* y, int64_t count);
void Q8_K(const uint8_t* b, float* y, int64_t count);
void IQ4_XS(const uint8_t* b, float* y, int64_t count);
// Codebook I-quants.
void IQ1_S(const uint8_t* b, float* y, int64_t count);
void IQ1_M(const uint8_t* b, float* y, int64_t count);
void IQ2_XXS(const uint8_t* b, float* y, int64_t count);
void IQ2_XS(const uint8_t* b, float* y, int64_t count);
void IQ2_S(const uint8_t* b, float* y, int64_t count);
void IQ3_XXS(const uint8_t* b, float* y, int64_t count);
void IQ3_S(const uint8_t* b, float* y, int64_t count);
// Ternary.
void TQ1_0(const uint8_t* b, float* y, int64_t count);
void TQ2_0(const uint8_t* b, float* y, int64_t count);

}  // namespace vt::cpu::blocks
