// SIMD vec_dot kernels, one per (weight type, ISA): `blocks` weight blocks
// against the matching activation blocks. Internal to kernels/cpu.
#pragma once

#include <cstdint>

namespace vt::cpu::avx2 {
float VecDotQ8_0(const uint8_t* w, const uint8_t* x, int64_t blocks);
float VecDotQ4_0(const uint8_t* w, const uint8_t* x, int64_t blocks);
float VecDotMXFP4(const uint8_t* w, const uint8_t* x, int64_t blocks);
float VecDotQ4_K(const uint8_t* w, const uint8_t* x, int64_t blocks);
float VecDotQ5_K(const uint8_t* w, const uint8_t* x, int64_t blocks);
float VecDotQ6_K(const uint8_t* w, const uint8_t* x, int64_t blocks);
float VecDotIQ4_XS(const uint8_t* w, const uint8_t* x, int64_t blocks);
}  // namespace vt::cpu::avx2
