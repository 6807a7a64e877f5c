// What each kind of device can hold and run without converting a tensor:
// the GGUF block types whose matmuls it executes from the file's blocks
// (keep-quant), whether it runs F16 weights as F16 (keep-F16), and the block
// types whose embedding rows it gathers without expanding the table
// (quantized gather). One table for every decision that asks.
//
// CPU and CUDA list what vt's own kernels (kernels/cpu, kernels/gpu) are
// built to execute; a test holds each list against its kernel registry once
// that registry exists. ROCm starts at the four types its kernels serve.
// Metal, Vulkan, XPU and Tenstorrent carry the matrix their public ggml /
// tt-metal backends document.
#pragma once

#include "vt/policy/device.h"
#include "vt/policy/ggml_type_set.h"

namespace vt {

struct DeviceCaps {
  DeviceKind kind = DeviceKind::kCpu;
  GgmlTypeSet keep_quant;    // block types whose GEMV/GEMM runs on the blocks
  bool keep_f16 = false;     // F16 weights run as F16 (else they become BF16)
  GgmlTypeSet quant_gather;  // block types whose embedding rows are gathered
};

namespace device_caps_detail {
using T = GgmlType;

// Every block type that stores weights (activation formats Q8_1 and Q8_K
// are not weights).
inline constexpr GgmlTypeSet kAllWeightBlockTypes = {
    T::kQ4_0,   T::kQ4_1,   T::kQ5_0,   T::kQ5_1,    T::kQ8_0,   T::kQ2_K,  T::kQ3_K,
    T::kQ4_K,   T::kQ5_K,   T::kQ6_K,   T::kIQ1_S,   T::kIQ1_M,  T::kIQ2_XXS, T::kIQ2_XS,
    T::kIQ2_S,  T::kIQ3_XXS, T::kIQ3_S, T::kIQ4_NL,  T::kIQ4_XS, T::kTQ1_0, T::kTQ2_0,
    T::kMXFP4,  T::kNVFP4,  T::kQ1_0,   T::kQ2_0};

inline constexpr GgmlTypeSet kRocmKeepQuant = {T::kQ8_0, T::kQ4_K, T::kQ5_K, T::kQ6_K};

// ggml-metal and ggml-vulkan: legacy quants, K-quants, I-quants and MXFP4.
inline constexpr GgmlTypeSet kMetalVulkanKeepQuant = {
    T::kQ4_0,  T::kQ4_1,  T::kQ5_0,   T::kQ5_1,  T::kQ8_0,    T::kQ2_K,   T::kQ3_K,
    T::kQ4_K,  T::kQ5_K,  T::kQ6_K,   T::kIQ1_S, T::kIQ1_M,   T::kIQ2_XXS, T::kIQ2_XS,
    T::kIQ2_S, T::kIQ3_XXS, T::kIQ3_S, T::kIQ4_NL, T::kIQ4_XS, T::kMXFP4};

// ggml-sycl: the same without MXFP4; its get_rows serves the legacy quants.
inline constexpr GgmlTypeSet kXpuKeepQuant = kMetalVulkanKeepQuant.Without(T::kMXFP4);
inline constexpr GgmlTypeSet kXpuGather = {T::kQ4_0, T::kQ4_1, T::kQ5_0, T::kQ5_1, T::kQ8_0};
}  // namespace device_caps_detail

// The capability of one kind of device. Total over DeviceKind: a new kind
// without a row fails to compile (no default).
constexpr DeviceCaps CapsOf(DeviceKind kind) {
  using namespace device_caps_detail;
  switch (kind) {
    case DeviceKind::kCpu:
      return {kind, kAllWeightBlockTypes, true, kAllWeightBlockTypes};
    case DeviceKind::kCuda:
      return {kind, kAllWeightBlockTypes, true, kAllWeightBlockTypes};
    case DeviceKind::kRocm:
      return {kind, kRocmKeepQuant, false, kRocmKeepQuant};
    case DeviceKind::kMetal:
    case DeviceKind::kVulkan:
      return {kind, kMetalVulkanKeepQuant, true, kMetalVulkanKeepQuant};
    case DeviceKind::kXpu:
      return {kind, kXpuKeepQuant, true, kXpuGather};
    case DeviceKind::kTenstorrent:
      // tt-metal converts weights to its own block-float formats at load.
      return {kind, {}, false, {}};
  }
  return {};
}

}  // namespace vt
