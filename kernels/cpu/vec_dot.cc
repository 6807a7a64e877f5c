// VecDot: the SIMD kernel for the type when the CPU has its instruction set,
// the scalar reference otherwise. The CPU is asked once.
#include "vt/kernels/cpu/vec_dot.h"

#include <cmath>
#include <limits>
#include <vector>

#include "vec_dot_simd.h"
#include "vt/kernels/cpu/activation.h"
#include "vt/kernels/cpu/float_formats.h"

namespace vt::cpu {
namespace {

bool CpuHasAvx2Fma() {
  static const bool has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
                          __builtin_cpu_supports("f16c");
  return has;
}

bool CpuHasAvx512Vnni() {
  static const bool has = CpuHasAvx2Fma() && __builtin_cpu_supports("avx512f") &&
                          __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") &&
                          __builtin_cpu_supports("avx512vnni");
  return has;
}

SimdVecDot KernelFor(GgmlType type) {
  if (CpuHasAvx512Vnni()) return X86VecDot(X86Isa::kAvx512Vnni, type);
  return CpuHasAvx2Fma() ? X86VecDot(X86Isa::kAvx2, type) : nullptr;
}

}  // namespace

SimdVecDot X86VecDot(X86Isa isa, GgmlType type) {
  const X86Kernels& kernels = isa == X86Isa::kAvx512Vnni ? avx512::kKernels : avx2::kKernels;
  switch (type) {
    case GgmlType::kQ8_0: return kernels.q8_0;
    case GgmlType::kQ4_0: return kernels.q4_0;
    case GgmlType::kMXFP4: return kernels.mxfp4;
    case GgmlType::kQ4_K: return kernels.q4_k;
    case GgmlType::kQ5_K: return kernels.q5_k;
    case GgmlType::kQ6_K: return kernels.q6_k;
    case GgmlType::kIQ4_XS: return kernels.iq4_xs;
    case GgmlType::kIQ2_XXS: return kernels.iq2_xxs;
    case GgmlType::kIQ1_S: return kernels.iq1_s;
    default: return nullptr;
  }
}

const float* HalfToFloatTable() {
  static const std::vector<float> table = [] {
    std::vector<float> values(65536);
    for (uint32_t h = 0; h < 65536; ++h) values[h] = HalfToFloat(static_cast<uint16_t>(h));
    return values;
  }();
  return table.data();
}

const float* E8m0HalfToFloatTable() {
  static const std::vector<float> table = [] {
    std::vector<float> values(256);
    for (uint32_t e = 0; e < 256; ++e) values[e] = E8m0ToFloatHalf(static_cast<uint8_t>(e));
    return values;
  }();
  return table.data();
}

float VecDot(GgmlType weight_type, const void* weights, const void* activations, int64_t k) {
  const SimdVecDot simd = KernelFor(weight_type);
  const int64_t block = TraitsOf(weight_type).block_elements;
  const int64_t activation_block = TraitsOf(ActivationFormatFor(weight_type)).block_elements;
  if (simd == nullptr || k < 0 || k % block != 0 || k % activation_block != 0) {
    return VecDotReference(weight_type, weights, activations, k);
  }
  return simd(static_cast<const uint8_t*>(weights), static_cast<const uint8_t*>(activations), k / block);
}

const char* VecDotIsa(GgmlType type) {
  if (KernelFor(type) == nullptr) return "scalar";
  return CpuHasAvx512Vnni() ? "avx512-vnni" : "avx2";
}

}  // namespace vt::cpu
