// The GPU entry points' argument checks (kernels/gpu/launch_checks.h), run
// on the host: each refusal names the entry point, the argument and its
// value; valid arguments pass.
#include <catch2/catch.hpp>

#include <string>

#include "launch_checks.h"

namespace vt::gpu {
namespace {

// A fake device address with the given alignment (never dereferenced).
const void* At(uintptr_t address) { return reinterpret_cast<const void*>(address); }

TEST_CASE("ExpandToBf16 refuses what it cannot expand", "[kernels][gpu]") {
  const void* aligned = At(0x10000);
  CHECK(CheckExpand(GgmlType::kQ4_K, aligned, aligned, 512).empty());
  CHECK(CheckExpand(GgmlType::kF16, aligned, aligned, 64).empty());
  CHECK(CheckExpand(GgmlType::kI32, aligned, aligned, 64) == "ExpandToBf16: type i32 has no GPU kernel");
  CHECK(CheckExpand(static_cast<GgmlType>(77), aligned, aligned, 64) == "ExpandToBf16: type id 77 is not a ggml type");
  CHECK(CheckExpand(GgmlType::kQ4_K, aligned, aligned, 100) ==
        "ExpandToBf16: n = 100 is not a positive multiple of 256 (q4_K values per block)");
  CHECK(CheckExpand(GgmlType::kF16, aligned, aligned, 48) ==
        "ExpandToBf16: n = 48 is not a positive multiple of 32 (f16 values per block)");
  CHECK(CheckExpand(GgmlType::kQ8_0, aligned, aligned, 0) ==
        "ExpandToBf16: n = 0 is not a positive multiple of 32 (q8_0 values per block)");
  CHECK(CheckExpand(GgmlType::kQ8_0, nullptr, aligned, 32) == "ExpandToBf16: blocks is null");
  CHECK(CheckExpand(GgmlType::kQ8_0, aligned, At(0x10008), 32) == "ExpandToBf16: out is not 16-byte aligned");
}

GemvArgs ValidGemv() {
  GemvArgs a;
  a.type = GgmlType::kQ4_K;
  a.weights = At(0x20000);
  a.rows = 4096;
  a.k = 4096;
  a.x = static_cast<const float*>(At(0x30000));
  a.batch = 2;
  a.y = static_cast<float*>(const_cast<void*>(At(0x40004)));  // y needs no alignment
  return a;
}

TEST_CASE("Gemv refuses bad shapes, pointers and workspaces", "[kernels][gpu]") {
  const void* workspace = At(0x50000);
  const size_t enough = GemvWorkspaceBytes(4096, 2);
  // Batches 1 to 8 take the room of 8 activations (the tensor-core layout).
  CHECK(enough == 4096 * 8 + 4096 * 8 / 32 * 16);
  CHECK(GemvWorkspaceBytes(4096, 1) == 4096 * 8 + 4096 * 8 / 32 * 16);
  CHECK(GemvWorkspaceBytes(4096, 3) == 4096 * 8 + 4096 * 8 / 32 * 16);
  CHECK(GemvWorkspaceBytes(4096, 8) == 4096 * 8 + 4096 * 8 / 32 * 16);
  CHECK(GemvWorkspaceBytes(4096, 9) == 4096 * 9 + 4096 * 9 / 32 * 16);
  CHECK(CheckGemv(ValidGemv(), workspace, enough).empty());

  GemvArgs a = ValidGemv();
  a.batch = 9;
  CHECK(CheckGemv(a, workspace, enough) == "Gemv: batch = 9 is outside 1..8");
  a = ValidGemv();
  a.k = 4000;
  CHECK(CheckGemv(a, workspace, enough) == "Gemv: k = 4000 is not a positive multiple of 256 (q4_K values per block)");
  a = ValidGemv();
  a.rows = 0;
  CHECK(CheckGemv(a, workspace, enough) == "Gemv: rows = 0 is out of range");
  a = ValidGemv();
  a.weights = At(0x20002);
  CHECK(CheckGemv(a, workspace, enough) == "Gemv: weights is not 16-byte aligned");
  CHECK(CheckGemv(ValidGemv(), workspace, enough - 1) ==
        "Gemv: workspace holds " + std::to_string(enough - 1) + " bytes, needs " + std::to_string(enough) +
            " (GemvWorkspaceBytes)");
  CHECK_FALSE(CheckGemv(ValidGemv(), nullptr, enough).empty());
  // The float path needs no workspace.
  a = ValidGemv();
  a.type = GgmlType::kBF16;
  CHECK(CheckGemv(a, nullptr, 0).empty());
  // QuantizeActivations takes Gemv's arguments and checks, under its own name.
  a = ValidGemv();
  a.x = nullptr;
  CHECK(CheckGemv(a, workspace, enough, "QuantizeActivations") == "QuantizeActivations: x is null");
  CHECK(CheckGemv(ValidGemv(), workspace, enough - 16, "QuantizeActivations") ==
        "QuantizeActivations: workspace holds " + std::to_string(enough - 16) + " bytes, needs " +
            std::to_string(enough) + " (GemvWorkspaceBytes)");
  a = ValidGemv();
  a.x_quantized = true;
  CHECK(CheckGemv(a, workspace, enough).empty());
}

TEST_CASE("Gemm takes any batch and refuses bad shapes and workspaces", "[kernels][gpu]") {
  const void* workspace = At(0x50000);
  // Block types need the room of a pass's 64 quantized activations: int8
  // codes plus a 16-byte record per 32 values.
  const size_t enough = GemmWorkspaceBytes(4096);
  CHECK(enough == 4096 * 64 + 4096 * 64 / 32 * 16);
  GemmArgs a = ValidGemv();
  a.batch = 512;
  CHECK(CheckGemm(a, workspace, enough).empty());
  a.batch = 0;
  CHECK(CheckGemm(a, workspace, enough) == "Gemm: batch = 0 is outside 1..2097120");
  a = ValidGemv();
  a.type = GgmlType::kIQ2_XXS;
  a.k = 4000;
  CHECK(CheckGemm(a, workspace, enough) ==
        "Gemm: k = 4000 is not a positive multiple of 256 (iq2_xxs values per block)");
  a = ValidGemv();
  a.x = static_cast<const float*>(At(0x30004));
  CHECK(CheckGemm(a, workspace, enough) == "Gemm: x is not 16-byte aligned");
  CHECK(CheckGemm(ValidGemv(), workspace, enough - 1) ==
        "Gemm: workspace holds " + std::to_string(enough - 1) + " bytes, needs " + std::to_string(enough) +
            " (GemmWorkspaceBytes)");
  CHECK(CheckGemm(ValidGemv(), nullptr, 0) ==
        "Gemm: workspace holds 0 bytes, needs " + std::to_string(enough) + " (GemmWorkspaceBytes)");
  CHECK(CheckGemm(ValidGemv(), At(0x50008), enough) == "Gemm: workspace is not 16-byte aligned");
  // Plain floats need none.
  a = ValidGemv();
  a.type = GgmlType::kF16;
  CHECK(CheckGemm(a, nullptr, 0).empty());
  // Only Gemv reads x quantized ahead (QuantizeActivations).
  a = ValidGemv();
  a.x_quantized = true;
  CHECK(CheckGemm(a, workspace, enough) == "Gemm: x_quantized is true, but only Gemv reads x quantized ahead");
}

TEST_CASE("ExpertGemv refuses bad counts and towers", "[kernels][gpu]") {
  ExpertGemvArgs a;
  a.type = GgmlType::kMXFP4;
  a.tower = At(0x20000);
  a.experts = 256;
  a.rows = 2048;
  a.k = 7168;
  a.ids = static_cast<const int32_t*>(At(0x60000));
  a.count = 8;
  a.x = static_cast<const float*>(At(0x30000));
  a.y = static_cast<float*>(const_cast<void*>(At(0x40000)));
  const void* workspace = At(0x50000);
  CHECK(CheckExpertGemv(a, workspace, GemvWorkspaceBytes(7168, 1)).empty());
  a.shared_x = false;  // one activation per slot: nine slots need more than the room of eight
  a.count = 9;
  CHECK_FALSE(CheckExpertGemv(a, workspace, GemvWorkspaceBytes(7168, 8)).empty());
  CHECK(CheckExpertGemv(a, workspace, GemvWorkspaceBytes(7168, 9)).empty());
  a.count = 0;
  CHECK(CheckExpertGemv(a, workspace, GemvWorkspaceBytes(7168, 8)) == "ExpertGemv: count = 0 is outside 1..65535");
  a.count = 8;
  a.experts = 0;
  CHECK(CheckExpertGemv(a, workspace, GemvWorkspaceBytes(7168, 8)) == "ExpertGemv: experts = 0 is not positive");
  a.experts = 256;
  a.ids = nullptr;
  CHECK(CheckExpertGemv(a, workspace, GemvWorkspaceBytes(7168, 8)) == "ExpertGemv: ids is null");
  // QuantizeExpertActivations takes the same checks under its own name.
  CHECK(CheckExpertGemv(a, workspace, GemvWorkspaceBytes(7168, 8), "QuantizeExpertActivations") ==
        "QuantizeExpertActivations: ids is null");
}

}  // namespace
}  // namespace vt::gpu
