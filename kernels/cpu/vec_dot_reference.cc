#include <cmath>
#include <limits>
#include <vector>

#include "vt/kernels/cpu/activation.h"
#include "vt/kernels/cpu/dequantize.h"
#include "vt/kernels/cpu/float_formats.h"
#include "vt/kernels/cpu/vec_dot.h"

namespace vt::cpu {
namespace {

// Q4_1 and Q5_1 against Q8_1: per block d_w * d_x * sum(q_w * q_x) + m_w * s_x,
// where s_x is the activation block's stored (f16) d_x * sum(q_x). The format
// defines the offset term through s_x, so it is used as stored.
double DotWithQ8_1(GgmlType weight_type, const uint8_t* w, const uint8_t* x, int64_t k) {
  const bool five_bit = weight_type == GgmlType::kQ5_1;
  const int block_bytes = five_bit ? 24 : 20;
  double sum = 0.0;
  for (int64_t b = 0; b < k / 32; ++b, w += block_bytes, x += 36) {
    const float d_w = LoadHalf(w);
    const float m_w = LoadHalf(w + 2);
    const float d_x = LoadHalf(x);
    const float s_x = LoadHalf(x + 2);
    const uint32_t qh = five_bit ? LoadU32(w + 4) : 0;
    const uint8_t* qs = w + (five_bit ? 8 : 4);
    const auto* q_x = reinterpret_cast<const int8_t*>(x + 4);
    int64_t sumi = 0;
    for (int j = 0; j < 16; ++j) {
      const int high0 = five_bit ? static_cast<int>(((qh >> j) << 4) & 0x10) : 0;
      const int high1 = five_bit ? static_cast<int>((qh >> (j + 12)) & 0x10) : 0;
      sumi += ((qs[j] & 0x0F) | high0) * q_x[j] + ((qs[j] >> 4) | high1) * q_x[j + 16];
    }
    sum += static_cast<double>(d_w) * d_x * static_cast<double>(sumi) + static_cast<double>(m_w) * s_x;
  }
  return sum;
}

}  // namespace

bool HasVecDot(GgmlType type) {
  // Every dequantizable type is a weight type, except the activation-only
  // formats Q8_1 and Q8_K.
  return HasDequantizer(type) && type != GgmlType::kQ8_1 && type != GgmlType::kQ8_K;
}

GgmlTypeSet CpuVecDotBlockTypes() {
  GgmlTypeSet types;
  for (GgmlType type : AllGgmlTypes()) {
    if (TraitsOf(type).quantized && HasVecDot(type)) types = types.With(type);
  }
  return types;
}

float VecDotReference(GgmlType weight_type, const void* weights, const void* activations, int64_t k) {
  const GgmlType format = ActivationFormatFor(weight_type);
  if (!HasVecDot(weight_type) || k < 0 || k % TraitsOf(weight_type).block_elements != 0 ||
      k % TraitsOf(format).block_elements != 0) {
    return std::numeric_limits<float>::quiet_NaN();
  }
  if (format == GgmlType::kQ8_1) {
    return static_cast<float>(DotWithQ8_1(weight_type, static_cast<const uint8_t*>(weights),
                                          static_cast<const uint8_t*>(activations), k));
  }
  thread_local std::vector<float> w;
  thread_local std::vector<float> x;
  w.resize(static_cast<size_t>(k));
  x.resize(static_cast<size_t>(k));
  DequantizeRow(weight_type, weights, w.data(), k);
  DequantizeRow(format, activations, x.data(), k);
  double sum = 0.0;
  for (size_t i = 0; i < static_cast<size_t>(k); ++i) sum += static_cast<double>(w[i]) * x[i];
  return static_cast<float>(sum);
}

}  // namespace vt::cpu
