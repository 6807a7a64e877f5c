// The policy's CPU capability table against the CPU kernel registry: a type
// claimed without a kernel, or a kernel the table does not claim, fails.
#include <catch2/catch.hpp>

#include <cmath>

#include "vt/kernels/cpu/dequantize.h"
#include "vt/kernels/cpu/vec_dot.h"
#include "vt/kernels/gpu/registry.h"
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

TEST_CASE("the CUDA and ROCm tables claim only what the GPU kernels execute", "[kernels]") {
  // CUDA: exactly the kernels' keep-quant set.
  CHECK(CapsOf(DeviceKind::kCuda).keep_quant == gpu::KeepQuantGemvTypes(DeviceKind::kCuda));
  CHECK(gpu::KeepQuantGemvTypes(DeviceKind::kCuda).size() == 25);
  // ROCm: the same source compiles every kernel; the table may serve fewer
  // types (a decision), never one without a kernel.
  const GgmlTypeSet rocm_claimed = CapsOf(DeviceKind::kRocm).keep_quant;
  const GgmlTypeSet rocm_kernels = gpu::KeepQuantGemvTypes(DeviceKind::kRocm);
  CHECK((rocm_claimed.mask() & ~rocm_kernels.mask()) == 0);
  for (DeviceKind kind : {DeviceKind::kCuda, DeviceKind::kRocm}) {
    CAPTURE(NameOf(kind));
    for (GgmlType type : AllGgmlTypes()) {
      CAPTURE(NameOf(type));
      // A GPU gathers embedding rows by expanding them.
      if (CapsOf(kind).quant_gather.Contains(type)) CHECK(gpu::ExpandTypes().Contains(type));
    }
  }
  // No GPU kernels for the other device kinds.
  for (DeviceKind kind : {DeviceKind::kCpu, DeviceKind::kMetal, DeviceKind::kVulkan, DeviceKind::kXpu}) {
    CHECK(gpu::KeepQuantGemvTypes(kind).empty());
    CHECK(gpu::Int8GemmTypes(kind).empty());
  }
  // The int8 tensor-core GEMM: every keep-quant block type on CUDA (the
  // plain floats and the activation formats have no fragment decoder),
  // none on ROCm (no AMD GPU to measure an MFMA kernel on).
  const GgmlTypeSet int8_gemm = gpu::Int8GemmTypes(DeviceKind::kCuda);
  CHECK(int8_gemm == gpu::KeepQuantGemvTypes(DeviceKind::kCuda));
  CHECK(int8_gemm.size() == 25);
  CHECK(int8_gemm.Contains(GgmlType::kIQ2_XXS));
  CHECK_FALSE(int8_gemm.Contains(GgmlType::kBF16));
  CHECK_FALSE(int8_gemm.Contains(GgmlType::kQ8_K));
  CHECK(gpu::Int8GemmTypes(DeviceKind::kRocm).empty());
}

TEST_CASE("the GPU expands exactly the types the CPU kernels dequantize", "[kernels]") {
  for (GgmlType type : AllGgmlTypes()) {
    CAPTURE(NameOf(type));
    CHECK(gpu::ExpandTypes().Contains(type) == cpu::HasDequantizer(type));
  }
  // Every block type takes the integer GEMV path; the plain floats do not.
  const GgmlTypeSet integer = gpu::SetOf(gpu::kIntegerGemvTypes);
  CHECK(integer == gpu::ExpandTypes().Without(GgmlType::kF32).Without(GgmlType::kF16).Without(GgmlType::kBF16));
}

}  // namespace
}  // namespace vt
