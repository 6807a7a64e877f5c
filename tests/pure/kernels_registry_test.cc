// The policy's CPU capability table against the CPU kernel registry: a type
// claimed without a kernel, or a kernel the table does not claim, fails.
#include <catch2/catch.hpp>

#include <cmath>

#include "vt/kernels/cpu/dequantize.h"
#include "vt/kernels/cpu/vec_dot.h"
#include "vt/policy/device_caps.h"

namespace vt {
namespace {

TEST_CASE("the CPU table claims exactly the block types the CPU kernels execute", "[kernels]") {
  const GgmlTypeSet executed = cpu::CpuVecDotBlockTypes();
  CHECK(CapsOf(DeviceKind::kCpu).keep_quant == executed);
  CHECK(CapsOf(DeviceKind::kCpu).quant_gather == executed);
  for (GgmlType type : AllGgmlTypes()) {
    CAPTURE(NameOf(type));
    // Gathering embedding rows on the CPU is dequantizing them.
    if (CapsOf(DeviceKind::kCpu).quant_gather.Contains(type)) CHECK(cpu::HasDequantizer(type));
  }
  CHECK(executed.size() == 25);
}

TEST_CASE("kernel entry points refuse what they cannot do", "[kernels]") {
  float out[32];
  const uint8_t block[34] = {};
  CHECK_FALSE(cpu::DequantizeRow(GgmlType::kI32, block, out, 8));
  CHECK_FALSE(cpu::DequantizeRow(GgmlType::kQ8_0, block, out, 31));  // not a whole block
  CHECK(cpu::DequantizeRow(GgmlType::kQ8_0, block, out, 32));
  CHECK(std::isnan(cpu::VecDot(GgmlType::kQ8_K, block, block, 256)));  // an activation format
  CHECK(std::isnan(cpu::VecDot(GgmlType::kQ4_K, block, block, 100)));
}

}  // namespace
}  // namespace vt
