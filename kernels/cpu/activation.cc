// Activation quantizers, matching ggml's CPU backend byte for byte (checked
// against the goldens' `<type>.xq`).
#include "vt/kernels/cpu/activation.h"

#include <bit>
#include <cmath>
#include <cstring>

#include "vt/kernels/cpu/float_formats.h"

namespace vt::cpu {
namespace {

int RoundEven(float v) { return static_cast<int>(std::nearbyint(v)); }

void StoreHalf(uint8_t* p, float f) {
  const uint16_t h = FloatToHalfBits(f);
  std::memcpy(p, &h, 2);
}

// The 8-bit codes of 32 values: round(x * 127 / amax), ties to even; writes
// them to `codes`, returns d = amax / 127 and (through `sum`) their sum.
float QuantizeBlockOf32(const float* x, uint8_t* codes, int* sum) {
  float amax = 0.0f;
  for (int j = 0; j < 32; ++j) amax = std::fmax(amax, std::fabs(x[j]));
  const float id = amax != 0.0f ? 127.0f / amax : 0.0f;
  *sum = 0;
  for (int j = 0; j < 32; ++j) {
    const int q = RoundEven(x[j] * id);
    codes[j] = static_cast<uint8_t>(static_cast<int8_t>(q));
    *sum += q;
  }
  return amax / 127.0f;
}

// Q8_0: d (f16), qs[32].
void QuantizeQ8_0(const float* x, uint8_t* out, int64_t blocks) {
  for (int64_t i = 0; i < blocks; ++i, x += 32, out += 34) {
    int sum = 0;
    StoreHalf(out, QuantizeBlockOf32(x, out + 2, &sum));
  }
}

// Q8_1: d (f16), s (f16) = d * sum(qs), qs[32].
void QuantizeQ8_1(const float* x, uint8_t* out, int64_t blocks) {
  for (int64_t i = 0; i < blocks; ++i, x += 32, out += 36) {
    int sum = 0;
    const float d = QuantizeBlockOf32(x, out + 4, &sum);
    StoreHalf(out, d);
    StoreHalf(out + 2, static_cast<float>(sum) * d);
  }
}

// Q8_K: d (f32) = 1 / iscale with iscale = -127 / (the value of largest
// magnitude); qs = min(127, round(iscale * x)); bsums = sums of 16.
void QuantizeQ8_K(const float* x, uint8_t* out, int64_t blocks) {
  for (int64_t i = 0; i < blocks; ++i, x += 256, out += 292) {
    float amax = 0.0f;
    float max = 0.0f;
    for (int j = 0; j < 256; ++j) {
      const float ax = std::fabs(x[j]);
      if (ax > amax) {
        amax = ax;
        max = x[j];
      }
    }
    int8_t qs[256] = {};
    int16_t bsums[16] = {};
    float d = 0.0f;
    if (amax != 0.0f) {
      const float iscale = -127.0f / max;
      for (int j = 0; j < 256; ++j) {
        const int v = RoundEven(iscale * x[j]);
        qs[j] = static_cast<int8_t>(v < 127 ? v : 127);
      }
      for (int j = 0; j < 16; ++j) {
        int sum = 0;
        for (int l = 0; l < 16; ++l) sum += qs[16 * j + l];
        bsums[j] = static_cast<int16_t>(sum);
      }
      d = 1.0f / iscale;
    }
    std::memcpy(out, &d, 4);
    std::memcpy(out + 4, qs, 256);
    std::memcpy(out + 260, bsums, 32);
  }
}

}  // namespace

GgmlType ActivationFormatFor(GgmlType weight_type) {
  switch (weight_type) {
    case GgmlType::kF32:
    case GgmlType::kF16:
    case GgmlType::kBF16:
      return weight_type;
    case GgmlType::kQ4_1:
    case GgmlType::kQ5_1:
      return GgmlType::kQ8_1;
    case GgmlType::kQ4_0:
    case GgmlType::kQ5_0:
    case GgmlType::kQ8_0:
    case GgmlType::kIQ4_NL:
    case GgmlType::kMXFP4:
    case GgmlType::kNVFP4:
    case GgmlType::kQ1_0:
    case GgmlType::kQ2_0:
      return GgmlType::kQ8_0;
    default:
      return GgmlType::kQ8_K;  // K-quants, codebook I-quants, IQ4_XS, ternary
  }
}

bool QuantizeActivation(GgmlType format, const float* x, void* out, int64_t n) {
  const int64_t block = TraitsOf(format).block_elements;
  if (n < 0 || n % block != 0) return false;
  auto* bytes = static_cast<uint8_t*>(out);
  switch (format) {
    case GgmlType::kQ8_0: QuantizeQ8_0(x, bytes, n / 32); return true;
    case GgmlType::kQ8_1: QuantizeQ8_1(x, bytes, n / 32); return true;
    case GgmlType::kQ8_K: QuantizeQ8_K(x, bytes, n / 256); return true;
    default: return false;
  }
}

}  // namespace vt::cpu
