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

using SimdFn = float (*)(const uint8_t*, const uint8_t*, int64_t);

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

SimdFn Avx512KernelFor(GgmlType type) {
  switch (type) {
    case GgmlType::kQ8_0: return avx512::VecDotQ8_0;
    case GgmlType::kQ4_0: return avx512::VecDotQ4_0;
    case GgmlType::kMXFP4: return avx512::VecDotMXFP4;
    default: return nullptr;
  }
}

SimdFn Avx2KernelFor(GgmlType type) {
  switch (type) {
    case GgmlType::kQ8_0: return avx2::VecDotQ8_0;
    case GgmlType::kQ4_0: return avx2::VecDotQ4_0;
    case GgmlType::kMXFP4: return avx2::VecDotMXFP4;
    case GgmlType::kQ4_K: return avx2::VecDotQ4_K;
    case GgmlType::kQ5_K: return avx2::VecDotQ5_K;
    case GgmlType::kQ6_K: return avx2::VecDotQ6_K;
    case GgmlType::kIQ4_XS: return avx2::VecDotIQ4_XS;
    case GgmlType::kIQ2_XXS: return avx2::VecDotIQ2_XXS;
    case GgmlType::kIQ1_S: return avx2::VecDotIQ1_S;
    default: return nullptr;
  }
}

SimdFn KernelFor(GgmlType type) {
  if (CpuHasAvx512Vnni()) {
    if (SimdFn fn = Avx512KernelFor(type)) return fn;
  }
  return CpuHasAvx2Fma() ? Avx2KernelFor(type) : nullptr;
}

}  // namespace

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
  const SimdFn simd = KernelFor(weight_type);
  const int64_t block = TraitsOf(weight_type).block_elements;
  const int64_t activation_block = TraitsOf(ActivationFormatFor(weight_type)).block_elements;
  if (simd == nullptr || k < 0 || k % block != 0 || k % activation_block != 0) {
    return VecDotReference(weight_type, weights, activations, k);
  }
  return simd(static_cast<const uint8_t*>(weights), static_cast<const uint8_t*>(activations), k / block);
}

const char* VecDotIsa(GgmlType type) {
  if (CpuHasAvx512Vnni() && Avx512KernelFor(type) != nullptr) return "avx512-vnni";
  return KernelFor(type) != nullptr ? "avx2" : "scalar";
}

}  // namespace vt::cpu
