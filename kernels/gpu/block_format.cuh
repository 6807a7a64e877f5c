// What every device block decoder shares: byte readers, the rounding-exact
// arithmetic and the scale formats, and the primary template Block<T>
// (kBytes, kValues, Decode(block, chunk, out[32])) the decoders specialize.
// Internal to kernels/gpu; callers include block_decode.cuh.
// Where a choice here "measured faster", docs/GPU_TUNING.md has the runs.
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
// NVFP4's unsigned E4M3 sub-block scale (its low seven bits), halved; 0x7F
// reads as 0. Those seven bits placed under an FP16's exponent and
// mantissa fields make an FP16 of the scale's value over 2^8, subnormals
// included, so the halved scale is that FP16 times 2^7: no branches, which
// measured faster than working it out field by field.
__device__ __forceinline__ float Ue4m3Half(uint8_t x) {
  const float value = HalfBitsToFloat(static_cast<uint16_t>((x & 0x7Fu) << 7)) * 128.0f;
  return x == 0x7F ? 0.0f : value;
}

template <GgmlType T>
struct Block;  // kBytes, kValues, Decode(block, chunk, out[32])

using T = GgmlType;

}  // namespace vt::gpu
