// What every device block decoder shares: byte readers, the rounding-exact
// arithmetic and the scale formats, and the primary template Block<T>
// (kBytes, kValues, Decode(block, chunk, out[32])) the decoders specialize.
// Internal to kernels/gpu; callers include block_decode.cuh.
#pragma once

#include "gpu_dialect.h"
#include "iq_tables_device.h"
#include "vt/policy/ggml_type.h"

namespace vt::gpu {

__device__ __forceinline__ uint16_t U16At(const uint8_t* p) {
  return static_cast<uint16_t>(p[0] | (p[1] << 8));
}
__device__ __forceinline__ uint32_t U32At(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) |
         (static_cast<uint32_t>(p[2]) << 16) | (static_cast<uint32_t>(p[3]) << 24);
}
__device__ __forceinline__ float HalfAt(const uint8_t* p) { return HalfBitsToFloat(U16At(p)); }
// The same from a 2-byte aligned address, in one load. Every f16 or u16
// field of a block whose size is even sits at an even offset, and tensors
// are 16-byte aligned (launch_checks.h), so the integer decoders use these.
__device__ __forceinline__ uint16_t AlignedU16At(const uint8_t* p) { return *reinterpret_cast<const uint16_t*>(p); }
__device__ __forceinline__ float AlignedHalfAt(const uint8_t* p) { return HalfBitsToFloat(AlignedU16At(p)); }
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

}  // namespace vt::gpu
