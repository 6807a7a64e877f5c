// What vt's GPU kernels (vt::kernels_gpu) execute, as plain constants with no
// vendor include: the policy's CUDA and ROCm capability rows are tested
// against these (tests/pure/kernels_registry_test.cc), and the kernels are
// instantiated from these same lists, so a listed type without a decoder
// fails to compile.
#pragma once

#include <array>
#include <cstdint>

#include "vt/policy/device.h"
#include "vt/policy/ggml_type_set.h"

namespace vt::gpu {

// Every type with a device decoder: expanded to BF16 and run by the GEMV.
// The weight block types, the plain floats, and the activation formats
// Q8_1 and Q8_K (which the CPU kernels also dequantize).
inline constexpr std::array<GgmlType, 30> kDecodedTypes = {
    GgmlType::kF32,    GgmlType::kF16,     GgmlType::kBF16,   GgmlType::kQ4_0,   GgmlType::kQ4_1,
    GgmlType::kQ5_0,   GgmlType::kQ5_1,    GgmlType::kQ8_0,   GgmlType::kQ8_1,   GgmlType::kQ2_K,
    GgmlType::kQ3_K,   GgmlType::kQ4_K,    GgmlType::kQ5_K,   GgmlType::kQ6_K,   GgmlType::kQ8_K,
    GgmlType::kIQ2_XXS, GgmlType::kIQ2_XS, GgmlType::kIQ3_XXS, GgmlType::kIQ1_S, GgmlType::kIQ4_NL,
    GgmlType::kIQ3_S,  GgmlType::kIQ2_S,   GgmlType::kIQ4_XS, GgmlType::kIQ1_M,  GgmlType::kTQ1_0,
    GgmlType::kTQ2_0,  GgmlType::kMXFP4,   GgmlType::kNVFP4,  GgmlType::kQ1_0,   GgmlType::kQ2_0};

// The decoded types whose GEMV runs on integer codes against an int8
// activation (dp4a): every block type. F32, F16 and BF16 multiply floats.
inline constexpr std::array<GgmlType, 27> kIntegerGemvTypes = {
    GgmlType::kQ4_0,   GgmlType::kQ4_1,   GgmlType::kQ5_0,    GgmlType::kQ5_1,  GgmlType::kQ8_0,
    GgmlType::kQ8_1,   GgmlType::kQ2_K,   GgmlType::kQ3_K,    GgmlType::kQ4_K,  GgmlType::kQ5_K,
    GgmlType::kQ6_K,   GgmlType::kQ8_K,   GgmlType::kIQ2_XXS, GgmlType::kIQ2_XS, GgmlType::kIQ3_XXS,
    GgmlType::kIQ1_S,  GgmlType::kIQ4_NL, GgmlType::kIQ3_S,   GgmlType::kIQ2_S, GgmlType::kIQ4_XS,
    GgmlType::kIQ1_M,  GgmlType::kTQ1_0,  GgmlType::kTQ2_0,   GgmlType::kMXFP4, GgmlType::kNVFP4,
    GgmlType::kQ1_0,   GgmlType::kQ2_0};

template <size_t N>
constexpr GgmlTypeSet SetOf(const std::array<GgmlType, N>& types) {
  GgmlTypeSet set;
  for (GgmlType type : types) set = set.With(type);
  return set;
}

// The block types with a tensor-core (int8 mma) GEMV on CUDA: the GEMV from
// a batch chosen per type (1-5, gemv_tensor_core_tuning.cuh's TensorCoreMinBatch)
// and every batch of the GEMM run there. The kernels' fragment decoders
// must cover exactly these (a static_assert in gemv.cu).
inline constexpr std::array<GgmlType, 25> kTensorCoreGemvTypes = {
    GgmlType::kQ4_0,   GgmlType::kQ4_1,   GgmlType::kQ5_0,   GgmlType::kQ5_1,  GgmlType::kQ8_0,
    GgmlType::kQ2_K,   GgmlType::kQ3_K,   GgmlType::kQ4_K,   GgmlType::kQ5_K,  GgmlType::kQ6_K,
    GgmlType::kIQ2_XXS, GgmlType::kIQ2_XS, GgmlType::kIQ3_XXS, GgmlType::kIQ1_S, GgmlType::kIQ4_NL,
    GgmlType::kIQ3_S,  GgmlType::kIQ2_S,  GgmlType::kIQ4_XS,  GgmlType::kIQ1_M, GgmlType::kTQ1_0,
    GgmlType::kTQ2_0,  GgmlType::kMXFP4,  GgmlType::kNVFP4,   GgmlType::kQ1_0,  GgmlType::kQ2_0};

// The block types with one float scale a block (TQ1_0, TQ2_0, Q1_0, Q2_0:
// 64-256 values) or one and small integers under it (Q2_K's 4-bit scales
// and mins, Q3_K's 6-bit scales per 16 values; IQ2_XXS's, IQ3_XXS's and
// IQ3_S's odd scales per 32 values), whose tensor-core GEMV quantizes x per
// block to match: one int8 scale for each block's span of an activation
// instead of one per 32 values, so the GEMV sums a block's chunks in
// integers and scales them once. Their x is then coarser: ggml's CPU dot
// products of these types but Q1_0 and Q2_0 quantize it per 256 values
// (Q8_K) too. Everything else quantizes x per 32 values: every other type,
// the dp4a GEMV below the tensor cores, the expert GEMV (but TQ1_0's,
// Q2_0's and Q1_0's on the tensor cores) and the GEMM's passes of more
// than 8 activations (a pass of at most 8 runs the GEMV).
inline constexpr std::array<GgmlType, 9> kBlockScaledGemvTypes = {
    GgmlType::kTQ1_0, GgmlType::kTQ2_0,   GgmlType::kQ1_0,    GgmlType::kQ2_0, GgmlType::kQ2_K,
    GgmlType::kQ3_K,  GgmlType::kIQ2_XXS, GgmlType::kIQ3_XXS, GgmlType::kIQ3_S};

// Whether the GEMV of `type` runs on integer codes (kIntegerGemvTypes).
constexpr bool UsesIntegerGemv(GgmlType type) { return SetOf(kIntegerGemvTypes).Contains(type); }

// Values per block as the device kernels count them: the block size, or a
// run of 32 elements for the plain floats (which the kernels read 32 at a
// time); sizes given to the kernels are whole multiples of this.
constexpr int64_t KernelBlockValues(GgmlType type) {
  const int64_t block = TraitsOf(type).block_elements;
  return block < 32 ? 32 : block;
}
constexpr int64_t KernelBlockBytes(GgmlType type) {
  const GgmlTypeTraits& traits = TraitsOf(type);
  return static_cast<int64_t>(traits.block_bytes) * (KernelBlockValues(type) / traits.block_elements);
}

// Bytes of one row of `k` values (whole blocks) as the kernels lay it out.
constexpr int64_t RowBytes(GgmlType type, int64_t k) {
  return k / KernelBlockValues(type) * KernelBlockBytes(type);
}

// Types a GPU build expands to BF16 on the device.
constexpr GgmlTypeSet ExpandTypes() { return SetOf(kDecodedTypes); }

// Block types whose GEMV (and expert GEMV) reads the file's blocks on this
// kind of GPU: the decoded types less the plain floats and the two
// activation formats. CUDA and HIP build the same source; for any other
// device vt has no GPU kernel.
constexpr GgmlTypeSet KeepQuantGemvTypes(DeviceKind kind) {
  if (kind != DeviceKind::kCuda && kind != DeviceKind::kRocm) return {};
  return ExpandTypes()
      .Without(GgmlType::kF32)
      .Without(GgmlType::kF16)
      .Without(GgmlType::kBF16)
      .Without(GgmlType::kQ8_1)
      .Without(GgmlType::kQ8_K);
}

// Block types whose GEMM on this kind of GPU quantizes the activations to
// int8 per 32 values and passes over the weights once per eight of them on
// tensor cores (kTensorCoreGemvTypes, CUDA only: every block type). On
// CUDA, F16 and BF16 run on 16-bit float tensor cores and F32 decodes
// weight tiles to floats for TF32 tensor cores; on HIP every type takes
// that tile path, with FMAs.
constexpr GgmlTypeSet Int8GemmTypes(DeviceKind kind) {
  return kind == DeviceKind::kCuda ? SetOf(kTensorCoreGemvTypes) : GgmlTypeSet{};
}

}  // namespace vt::gpu
