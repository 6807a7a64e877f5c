// The GPU kernels against ggml's goldens (../shared/oracle, through
// VT_ORACLE_GOLDEN or the test paths): each type's blocks expanded must
// give ggml's dequantized values rounded to BF16, and its GEMV must meet
// ggml's reference dot within the GEMV's bound. Skips without the file.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "device_array.h"
#include "gpu_test_support.h"
#include "kernel_reference.h"
#include "test_paths.h"
#include "vt/kernels/gpu/kernels.h"
#include "vt/runtime/gguf_file.h"

namespace vt::testing {
namespace {

// ggml's goldens: `<type>.q` expanded must give `<type>.deq` rounded to
// BF16; the GEMV of `<type>.q` with `x` must meet `<type>.refdot`.
TEST_CASE("the GPU kernels reproduce ggml's .deq and .refdot goldens", "[gpu][oracle]") {
  const auto golden = OracleGoldenFile();
  if (!golden) {
    WARN("skipped: no golden file");
    return;
  }
  const GgufFile file = GgufFile::Open(*golden);
  const int64_t rows = static_cast<int64_t>(file.metadata().GetU64("oracle.rows"));
  const int64_t k = static_cast<int64_t>(file.metadata().GetU64("oracle.k"));
  const GgufTensorInfo* x_info = file.FindTensor("x");
  REQUIRE(x_info != nullptr);
  std::vector<float> x(static_cast<size_t>(k));
  std::memcpy(x.data(), file.TensorBytes(*x_info).data(), static_cast<size_t>(k) * 4);
  DeviceArray<float> device_x(x);
  int checked = 0;
  for (std::string_view name : file.metadata().GetArray("oracle.types").strings) {
    CAPTURE(name);
    const GgmlType type = GgmlTypeFromName(name).value();
    const GgufTensorInfo* q = file.FindTensor(std::string(name) + ".q");
    const GgufTensorInfo* deq = file.FindTensor(std::string(name) + ".deq");
    const GgufTensorInfo* refdot = file.FindTensor(std::string(name) + ".refdot");
    REQUIRE((q && deq && refdot));
    const auto q_bytes = file.TensorBytes(*q);
    std::vector<float> deq_values(static_cast<size_t>(rows * k));
    std::vector<float> refdot_values(static_cast<size_t>(rows));
    std::memcpy(deq_values.data(), file.TensorBytes(*deq).data(), deq_values.size() * 4);
    std::memcpy(refdot_values.data(), file.TensorBytes(*refdot).data(), refdot_values.size() * 4);

    std::vector<uint8_t> q_copy(q_bytes.size());
    std::memcpy(q_copy.data(), q_bytes.data(), q_bytes.size());
    DeviceArray<uint8_t> device_q(q_copy);
    DeviceArray<uint16_t> expanded(static_cast<size_t>(rows * k));
    expanded.Poison(kPoisonByte);
    REQUIRE(gpu::ExpandToBf16(type, device_q.get(), expanded.get(), rows * k, nullptr).ok());
    const std::vector<uint16_t> bf16 = expanded.Download();
    int64_t expand_mismatches = 0;
    for (size_t i = 0; i < bf16.size(); ++i) expand_mismatches += bf16[i] == cpu::FloatToBf16(deq_values[i]) ? 0 : 1;
    CHECK(expand_mismatches == 0);

    DeviceArray<float> y(static_cast<size_t>(rows));
    y.Poison(kPoisonByte);
    DeviceArray<uint8_t> workspace(gpu::GemvWorkspaceBytes(k, 1));
    const gpu::GemvArgs args = Matmul(type, device_q.get(), rows, k, device_x.get(), 1, y.get());
    REQUIRE(gpu::Gemv(args, workspace.get(), workspace.Bytes(), nullptr).ok());
    const std::vector<float> got = y.Download();
    int failures = 0;
    for (int64_t r = 0; r < rows; ++r) {
      const Expected e =
          ExpectedDot(deq_values.data() + r * k, x.data(), k, gpu::UsesIntegerGemv(type),
                               ActivationRun(type));
      // ggml's refdot is itself a float sum, within the same rounding term.
      failures += std::fabs(got[static_cast<size_t>(r)] - refdot_values[static_cast<size_t>(r)]) <= 2 * e.tolerance ? 0 : 1;
    }
    CHECK(failures == 0);
    ++checked;
  }
  CHECK(checked == static_cast<int>(file.metadata().GetArray("oracle.types").strings.size()));
}

}  // namespace
}  // namespace vt::testing
