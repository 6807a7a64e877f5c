// The capability table, pinned: the ROCm row the seeds start from, and the
// relations between rows that routing relies on.
#include <catch2/catch.hpp>

#include "vt/policy/device_caps.h"

namespace vt {
namespace {

TEST_CASE("ROCm keeps exactly Q8_0, Q4_K, Q5_K, Q6_K and no F16", "[policy][caps]") {
  constexpr DeviceCaps rocm = CapsOf(DeviceKind::kRocm);
  STATIC_REQUIRE(rocm.keep_quant ==
                 GgmlTypeSet{GgmlType::kQ8_0, GgmlType::kQ4_K, GgmlType::kQ5_K, GgmlType::kQ6_K});
  STATIC_REQUIRE_FALSE(rocm.keep_f16);
  STATIC_REQUIRE_FALSE(rocm.keep_quant.Contains(GgmlType::kIQ1_S));
  STATIC_REQUIRE_FALSE(rocm.keep_quant.Contains(GgmlType::kIQ2_XXS));
}

TEST_CASE("the host keeps every weight block type the unsloth and gpt-oss mixes use",
          "[policy][caps]") {
  constexpr DeviceCaps cpu = CapsOf(DeviceKind::kCpu);
  for (GgmlType type : {GgmlType::kIQ1_S, GgmlType::kIQ1_M, GgmlType::kIQ2_XXS, GgmlType::kIQ3_XXS,
                        GgmlType::kQ4_K, GgmlType::kQ6_K, GgmlType::kQ8_0, GgmlType::kMXFP4}) {
    CAPTURE(NameOf(type));
    CHECK(cpu.keep_quant.Contains(type));
    CHECK(cpu.quant_gather.Contains(type));
  }
  CHECK(cpu.keep_f16);
}

TEST_CASE("no device keeps a non-block type or an activation format as blocks", "[policy][caps]") {
  for (DeviceKind kind : kAllDeviceKinds) {
    const DeviceCaps caps = CapsOf(kind);
    CAPTURE(NameOf(kind));
    CHECK(caps.kind == kind);
    for (GgmlType type : AllGgmlTypes()) {
      CAPTURE(NameOf(type));
      if (!TraitsOf(type).quantized || type == GgmlType::kQ8_1 || type == GgmlType::kQ8_K) {
        CHECK_FALSE(caps.keep_quant.Contains(type));
        CHECK_FALSE(caps.quant_gather.Contains(type));
      }
    }
  }
}

TEST_CASE("type sets behave as sets", "[policy][caps]") {
  constexpr GgmlTypeSet set{GgmlType::kQ4_0, GgmlType::kQ2_0};
  STATIC_REQUIRE(set.size() == 2);
  STATIC_REQUIRE(set.Contains(GgmlType::kQ2_0));
  STATIC_REQUIRE_FALSE(set.Contains(GgmlType::kQ1_0));
  STATIC_REQUIRE(set.With(GgmlType::kQ1_0).size() == 3);
  STATIC_REQUIRE(set.Without(GgmlType::kQ4_0) == GgmlTypeSet{GgmlType::kQ2_0});
  STATIC_REQUIRE(GgmlTypeSet{}.empty());
}

}  // namespace
}  // namespace vt
