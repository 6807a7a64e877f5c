// Test data and references for the GPU kernels, built on the CPU kernels
// (the reference) and written independently of the device code: random
// blocks that decode to finite, moderate values; a float64 dot; and the
// error bound a GEMV result must meet.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "vt/kernels/cpu/dequantize.h"
#include "vt/kernels/cpu/float_formats.h"
#include "vt/kernels/gpu/registry.h"

namespace vt::testing {

inline bool IsFloatType(GgmlType type) {
  return type == GgmlType::kF32 || type == GgmlType::kF16 || type == GgmlType::kBF16;
}

// `values` values of `type` (whole blocks) whose every decoded value is
// finite and at most 1e3 in magnitude, with some block value above 1e-3:
// random bytes, a block redrawn until it qualifies. Float types are drawn
// from a normal distribution.
inline std::vector<uint8_t> RandomBlocks(GgmlType type, int64_t values, std::mt19937_64& rng) {
  const GgmlTypeTraits& traits = TraitsOf(type);
  const int64_t blocks = values / traits.block_elements;
  std::vector<uint8_t> out(static_cast<size_t>(blocks * traits.block_bytes));
  if (IsFloatType(type)) {
    std::normal_distribution<float> normal(0.0f, 1.0f);
    for (int64_t i = 0; i < values; ++i) {
      const float v = normal(rng);
      uint8_t* p = out.data() + i * traits.block_bytes;
      if (type == GgmlType::kF32) {
        std::memcpy(p, &v, 4);
      } else {
        const uint16_t bits = type == GgmlType::kF16 ? cpu::FloatToHalfBits(v) : cpu::FloatToBf16(v);
        std::memcpy(p, &bits, 2);
      }
    }
    return out;
  }
  std::vector<float> decoded(traits.block_elements);
  for (int64_t b = 0; b < blocks; ++b) {
    uint8_t* block = out.data() + b * traits.block_bytes;
    for (int attempt = 0;; ++attempt) {
      if (attempt == 100000) throw std::runtime_error("no qualifying random block for " + std::string(NameOf(type)));
      for (uint32_t i = 0; i < traits.block_bytes; ++i) block[i] = static_cast<uint8_t>(rng());
      cpu::DequantizeRow(type, block, decoded.data(), traits.block_elements);
      float largest = 0.0f;
      bool finite = true;
      for (float v : decoded) {
        finite = finite && std::isfinite(v);
        largest = std::fmax(largest, std::fabs(v));
      }
      if (finite && largest <= 1e3f && largest >= 1e-3f) break;
    }
  }
  return out;
}

inline std::vector<float> RandomFloats(size_t count, std::mt19937_64& rng) {
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<float> out(count);
  for (float& v : out) v = normal(rng);
  return out;
}

// `batch` activations of k random values in which each run of 32 values
// of each activation has its own magnitude, from 1e-30 to 1e30, and every
// fifth run mixes values 1e6 apart.
inline std::vector<float> SpreadMagnitudes(int64_t k, int batch, std::mt19937_64& rng) {
  std::vector<float> x = RandomFloats(static_cast<size_t>(k * batch), rng);
  for (int b = 0; b < batch; ++b) {
    for (int64_t i = 0; i < k; ++i) {
      const int64_t run = i / 32;
      const int exponent = static_cast<int>((run * 7 + b * 5) % 61) - 30;
      const int spread = run % 5 == 0 && i % 2 == 0 ? -6 : 0;
      x[static_cast<size_t>(b * k + i)] *= std::pow(10.0f, static_cast<float>(exponent + spread));
    }
  }
  return x;
}

// The rows of a matrix of `type`, dequantized by the CPU kernels.
inline std::vector<float> Dequantized(GgmlType type, const std::vector<uint8_t>& blocks, int64_t values) {
  std::vector<float> out(static_cast<size_t>(values));
  if (!cpu::DequantizeRow(type, blocks.data(), out.data(), values)) throw std::runtime_error("CPU dequantize refused");
  return out;
}

// A GEMV result's reference and the distance allowed from it.
struct Expected {
  double value = 0;
  double tolerance = 0;
};

// sum_i w[i] * x[i] in float64, and its bound: float rounding (1e-5 of
// sum |w x| for the float path; 1e-4 of sum (|w| + max|w| of the run of
// 32) |x| for the integer path, whose affine terms can cancel) plus, on the
// integer path, the int8 quantization of x: each value is off by at most
// max|x| / 127 / 2, the max over the `x_run` values (a multiple of 32) that
// share its scale.
inline Expected ExpectedDot(const float* w, const float* x, int64_t k, bool integer_path, int64_t x_run = 32) {
  Expected e;
  double rounding = 0, quantization = 0, x_max = 0;
  for (int64_t run = 0; run < k; run += 32) {
    if (run % x_run == 0) {
      x_max = 0;
      for (int64_t i = run; i < run + x_run && i < k; ++i) x_max = std::fmax(x_max, std::fabs(x[i]));
    }
    double w_max = 0;
    for (int64_t i = run; i < run + 32; ++i) w_max = std::fmax(w_max, std::fabs(w[i]));
    for (int64_t i = run; i < run + 32; ++i) {
      e.value += static_cast<double>(w[i]) * x[i];
      if (integer_path) {
        rounding += (std::fabs(w[i]) + w_max) * std::fabs(x[i]);
        quantization += std::fabs(w[i]) * x_max / 127.0 / 2.0;
      } else {
        rounding += std::fabs(static_cast<double>(w[i]) * x[i]);
      }
    }
  }
  e.tolerance = (integer_path ? 1e-4 : 1e-5) * rounding + quantization * 1.0001 + 1e-30;
  return e;
}

// The values of x a GEMV or GEMM of `type` may quantize under one int8
// scale: a block for kBlockScaledGemvTypes (registry.h), else 32.
inline int64_t ActivationRun(GgmlType type) {
  return gpu::SetOf(gpu::kBlockScaledGemvTypes).Contains(type) ? gpu::KernelBlockValues(type) : 32;
}

// sum_i |w[i] x[i]| in float64: the scale of a dot product's rounding.
inline double AbsDot(const float* w, const float* x, int64_t k) {
  double sum = 0;
  for (int64_t i = 0; i < k; ++i) sum += std::fabs(static_cast<double>(w[i]) * x[i]);
  return sum;
}

}  // namespace vt::testing
