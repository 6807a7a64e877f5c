// Every `<type>.deq` in ggml's quantization goldens reproduced bit for bit
// from `<type>.q`. The test walks whatever types and shapes the file lists
// (oracle.types, oracle.rows, oracle.k), so another golden file runs through
// it unchanged.
#include <catch2/catch.hpp>

#include <bit>
#include <cstring>
#include <vector>

#include "test_paths.h"
#include "vt/kernels/cpu/activation.h"
#include "vt/kernels/cpu/dequantize.h"
#include "vt/kernels/cpu/vec_dot.h"

#include <cmath>
#include "vt/kernels/cpu/float_formats.h"
#include "vt/runtime/gguf_file.h"

namespace vt {
namespace {

TEST_CASE("dequantization reproduces ggml's .deq bit for bit, every type", "[oracle][dequantize]") {
  const auto golden = testing::OracleGoldenFile();
  if (!golden) return;
  const GgufFile file = GgufFile::Open(*golden);
  const GgufArray& types = file.metadata().GetArray("oracle.types");
  const int64_t rows = static_cast<int64_t>(file.metadata().GetU64("oracle.rows"));
  const int64_t k = static_cast<int64_t>(file.metadata().GetU64("oracle.k"));
  int checked_types = 0;
  for (std::string_view name : types.strings) {
    CAPTURE(name);
    const auto type = GgmlTypeFromName(name);
    REQUIRE(type.has_value());
    REQUIRE(cpu::HasDequantizer(*type));
    const GgufTensorInfo* q = file.FindTensor(std::string(name) + ".q");
    const GgufTensorInfo* deq = file.FindTensor(std::string(name) + ".deq");
    REQUIRE(q != nullptr);
    REQUIRE(deq != nullptr);
    REQUIRE(deq->type == GgmlType::kF32);
    const auto q_bytes = file.TensorBytes(*q);
    const auto deq_bytes = file.TensorBytes(*deq);
    const uint64_t row_bytes = q->bytes / static_cast<uint64_t>(rows);
    std::vector<float> want(static_cast<size_t>(k));
    std::vector<float> got(static_cast<size_t>(k));
    std::vector<uint16_t> got_bf16(static_cast<size_t>(k));
    int64_t mismatches = 0;
    int64_t first_bad = -1;
    for (int64_t r = 0; r < rows; ++r) {
      std::memcpy(want.data(), deq_bytes.data() + r * k * 4, static_cast<size_t>(k) * 4);
      std::fill(got.begin(), got.end(), -12345.0f);  // poisoned
      REQUIRE(cpu::DequantizeRow(*type, q_bytes.data() + r * row_bytes, got.data(), k));
      REQUIRE(cpu::DequantizeRowBf16(*type, q_bytes.data() + r * row_bytes, got_bf16.data(), k));
      for (int64_t i = 0; i < k; ++i) {
        const auto w = std::bit_cast<uint32_t>(want[static_cast<size_t>(i)]);
        const auto g = std::bit_cast<uint32_t>(got[static_cast<size_t>(i)]);
        if (w != g && first_bad < 0) first_bad = r * k + i;
        mismatches += w != g ? 1 : 0;
        if (got_bf16[static_cast<size_t>(i)] != cpu::FloatToBf16(want[static_cast<size_t>(i)])) {
          ++mismatches;
        }
      }
    }
    CAPTURE(first_bad);
    if (first_bad >= 0) {
      std::memcpy(want.data(), deq_bytes.data() + (first_bad / k) * k * 4, static_cast<size_t>(k) * 4);
      cpu::DequantizeRow(*type, q_bytes.data() + (first_bad / k) * row_bytes, got.data(), k);
      CAPTURE(want[static_cast<size_t>(first_bad % k)], got[static_cast<size_t>(first_bad % k)]);
      CHECK(mismatches == 0);
    }
    CHECK(mismatches == 0);
    ++checked_types;
  }
  CHECK(checked_types == static_cast<int>(types.count));
}

}  // namespace
}  // namespace vt

namespace vt {
namespace {

TEST_CASE("activation quantizers reproduce ggml's .xq byte for byte", "[oracle][quantize]") {
  const auto golden = testing::OracleGoldenFile();
  if (!golden) return;
  const GgufFile file = GgufFile::Open(*golden);
  const GgufTensorInfo* x_info = file.FindTensor("x");
  REQUIRE(x_info != nullptr);
  const int64_t k = x_info->ne[0];
  std::vector<float> x(static_cast<size_t>(k));
  std::memcpy(x.data(), file.TensorBytes(*x_info).data(), static_cast<size_t>(k) * 4);
  int checked = 0;
  for (std::string_view name : file.metadata().GetArray("oracle.types").strings) {
    const std::string format_name(file.metadata().GetString("oracle." + std::string(name) + ".vec_dot_type"));
    const auto weight = GgmlTypeFromName(name);
    const auto format = GgmlTypeFromName(format_name);
    CAPTURE(name, format_name);
    REQUIRE(weight.has_value());
    REQUIRE(format.has_value());
    CHECK(cpu::ActivationFormatFor(*weight) == *format);  // our pairing equals ggml's
    if (!TraitsOf(*format).quantized) continue;            // float activations: nothing to quantize
    const GgufTensorInfo* xq = file.FindTensor(std::string(name) + ".xq");
    REQUIRE(xq != nullptr);
    REQUIRE(xq->type == *format);
    std::vector<uint8_t> got(xq->bytes, 0xCD);
    REQUIRE(cpu::QuantizeActivation(*format, x.data(), got.data(), k));
    const auto want = file.TensorBytes(*xq);
    size_t first_diff = got.size();
    for (size_t i = 0; i < got.size(); ++i) {
      if (got[i] != static_cast<uint8_t>(want[i])) {
        first_diff = i;
        break;
      }
    }
    CAPTURE(first_diff);
    CHECK(first_diff == got.size());
    ++checked;
  }
  CHECK(checked > 20);
}

}  // namespace
}  // namespace vt

namespace vt {
namespace {

// Bound on |vt - ggml| for vec_dot, relative to sum |w_i * x_i| of the row:
// vt sums exact products in double; ggml sums in float, block by block, so
// its rounding error grows with the number of blocks (32 to 1024 here).
constexpr double kVecDotRelativeBound = 5e-6;  // measured worst: 9.2e-7 (tq2_0)

TEST_CASE("vec_dot reproduces ggml's .dot within the stated bound", "[oracle][vec_dot]") {
  const auto golden = testing::OracleGoldenFile();
  if (!golden) return;
  const GgufFile file = GgufFile::Open(*golden);
  const int64_t rows = static_cast<int64_t>(file.metadata().GetU64("oracle.rows"));
  const int64_t k = static_cast<int64_t>(file.metadata().GetU64("oracle.k"));
  double worst = 0.0;
  std::string worst_type;
  for (std::string_view name : file.metadata().GetArray("oracle.types").strings) {
    CAPTURE(name);
    const GgmlType type = *GgmlTypeFromName(name);
    REQUIRE(cpu::HasVecDot(type));
    const GgufTensorInfo* q = file.FindTensor(std::string(name) + ".q");
    const GgufTensorInfo* xq = file.FindTensor(std::string(name) + ".xq");
    const GgufTensorInfo* dot = file.FindTensor(std::string(name) + ".dot");
    const GgufTensorInfo* deq = file.FindTensor(std::string(name) + ".deq");
    REQUIRE((q && xq && dot && deq));
    const auto q_bytes = file.TensorBytes(*q);
    const uint64_t row_bytes = q->bytes / static_cast<uint64_t>(rows);
    std::vector<float> w(static_cast<size_t>(k));
    std::vector<float> x(static_cast<size_t>(k));
    REQUIRE(cpu::DequantizeRow(xq->type, file.TensorBytes(*xq).data(), x.data(), k));
    for (int64_t r = 0; r < rows; ++r) {
      float want;
      std::memcpy(&want, file.TensorBytes(*dot).data() + r * 4, 4);
      const float got = cpu::VecDot(type, q_bytes.data() + r * row_bytes, file.TensorBytes(*xq).data(), k);
      std::memcpy(w.data(), file.TensorBytes(*deq).data() + r * k * 4, static_cast<size_t>(k) * 4);
      double magnitude = 0.0;
      for (int64_t i = 0; i < k; ++i) magnitude += std::fabs(static_cast<double>(w[i]) * x[i]);
      const double error = std::fabs(static_cast<double>(got) - want) / std::max(magnitude, 1e-30);
      if (error > worst) {
        worst = error;
        worst_type = std::string(name);
      }
      CAPTURE(r, want, got, error);
      CHECK(error <= kVecDotRelativeBound);
    }
  }
  WARN("largest vec_dot difference from ggml: " << worst << " of sum|w*x| (" << worst_type << ")");
}

}  // namespace
}  // namespace vt
