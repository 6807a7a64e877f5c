// GEMV and small-batch GEMM against per-row dot products computed here from
// dequantized weights and dequantized activations.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "vt/kernels/cpu/activation.h"
#include "vt/kernels/cpu/dequantize.h"
#include "vt/kernels/cpu/gemv.h"

namespace vt {
namespace {

// Weights made by quantizing random floats with the Q8_0 activation
// quantizer (a valid Q8_0 matrix), or F32 weights as they are.
TEST_CASE("GEMV and GEMM equal row-by-row dots of the dequantized operands", "[kernels][gemv]") {
  std::mt19937 random(5);
  std::normal_distribution<float> normal;
  for (GgmlType type : {GgmlType::kQ8_0, GgmlType::kF32}) {
    for (int64_t rows : {1, 7, 33, 200}) {
      for (int64_t batch : {1, 3, 8}) {
        const int64_t k = 512;
        std::vector<float> w_float(static_cast<size_t>(rows * k));
        for (float& v : w_float) v = normal(random);
        std::vector<uint8_t> w_bytes;
        if (type == GgmlType::kQ8_0) {
          w_bytes.resize(static_cast<size_t>(rows * k / 32 * 34));
          REQUIRE(cpu::QuantizeActivation(GgmlType::kQ8_0, w_float.data(), w_bytes.data(), rows * k));
        } else {
          w_bytes.resize(w_float.size() * 4);
          std::memcpy(w_bytes.data(), w_float.data(), w_bytes.size());
        }
        std::vector<float> x(static_cast<size_t>(batch * k));
        for (float& v : x) v = normal(random);
        std::vector<float> y(static_cast<size_t>(batch * rows), -1.0f);
        const cpu::MatrixView view{type, w_bytes.data(), rows, k};
        REQUIRE(cpu::Gemm(view, x.data(), batch, y.data(), 4));

        // Expectation: dequantize both operands (activations through their
        // format), sum products in double.
        std::vector<float> w_deq(static_cast<size_t>(rows * k));
        REQUIRE(cpu::DequantizeRow(type, w_bytes.data(), w_deq.data(), rows * k));
        const GgmlType format = cpu::ActivationFormatFor(type);
        for (int64_t b = 0; b < batch; ++b) {
          std::vector<float> x_deq(x.begin() + b * k, x.begin() + (b + 1) * k);
          if (TraitsOf(format).quantized) {
            std::vector<uint8_t> xq(static_cast<size_t>(k / 32 * 34));
            cpu::QuantizeActivation(format, x.data() + b * k, xq.data(), k);
            cpu::DequantizeRow(format, xq.data(), x_deq.data(), k);
          }
          for (int64_t r = 0; r < rows; ++r) {
            double want = 0.0, magnitude = 0.0;
            for (int64_t i = 0; i < k; ++i) {
              want += static_cast<double>(w_deq[static_cast<size_t>(r * k + i)]) * x_deq[static_cast<size_t>(i)];
              magnitude += std::fabs(static_cast<double>(w_deq[static_cast<size_t>(r * k + i)]) * x_deq[static_cast<size_t>(i)]);
            }
            const float got = y[static_cast<size_t>(b * rows + r)];
            CAPTURE(NameOf(type), rows, batch, b, r, got, want);
            CHECK(std::fabs(got - want) <= 1e-5 * magnitude);
          }
        }
        if (batch == 1) {
          std::vector<float> y1(static_cast<size_t>(rows));
          REQUIRE(cpu::Gemv(view, x.data(), y1.data()));
          CHECK(std::equal(y1.begin(), y1.end(), y.begin()));
        }
      }
    }
  }
  CHECK_FALSE(cpu::Gemv({GgmlType::kQ8_0, nullptr, 4, 100}, nullptr, nullptr));  // K not whole blocks
  CHECK_FALSE(cpu::Gemv({GgmlType::kI32, nullptr, 4, 64}, nullptr, nullptr));
}

}  // namespace
}  // namespace vt
