// SIMD vec_dot kernels, one per (weight type, ISA): `blocks` weight blocks
// against the matching activation blocks. Internal to kernels/cpu.
#pragma once

#include <cstdint>

namespace vt::cpu {
// Every f16 bit pattern's float value (256 KiB, built on first use): the SIMD
// kernels read block scales through it, a load instead of a conversion on the
// shuffle port.
const float* HalfToFloatTable();
// Every E8M0 exponent's value, halved (MXFP4's scale convention).
const float* E8m0HalfToFloatTable();
}  // namespace vt::cpu

namespace vt::cpu::avx2 {
float VecDotQ8_0(const uint8_t* w, const uint8_t* x, int64_t blocks);
float VecDotQ4_0(const uint8_t* w, const uint8_t* x, int64_t blocks);
float VecDotMXFP4(const uint8_t* w, const uint8_t* x, int64_t blocks);
float VecDotQ4_K(const uint8_t* w, const uint8_t* x, int64_t blocks);
float VecDotQ5_K(const uint8_t* w, const uint8_t* x, int64_t blocks);
float VecDotQ6_K(const uint8_t* w, const uint8_t* x, int64_t blocks);
float VecDotIQ4_XS(const uint8_t* w, const uint8_t* x, int64_t blocks);
float VecDotIQ2_XXS(const uint8_t* w, const uint8_t* x, int64_t blocks);
float VecDotIQ1_S(const uint8_t* w, const uint8_t* x, int64_t blocks);
}  // namespace vt::cpu::avx2

namespace vt::cpu::avx512 {
float VecDotQ8_0(const uint8_t* w, const uint8_t* x, int64_t blocks);
float VecDotQ4_0(const uint8_t* w, const uint8_t* x, int64_t blocks);
float VecDotMXFP4(const uint8_t* w, const uint8_t* x, int64_t blocks);
}  // namespace vt::cpu::avx512
