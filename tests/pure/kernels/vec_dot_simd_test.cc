// SIMD vec_dot against the scalar reference on random blocks of many shapes,
// at unaligned addresses.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "vt/kernels/cpu/activation.h"
#include "vt/kernels/cpu/dequantize.h"
#include "vt/kernels/cpu/float_formats.h"
#include "vec_dot_simd.h"
#include "vt/kernels/cpu/vec_dot.h"

namespace vt {
namespace {

// Where each type keeps its f16 scales (offsets in a block), so random
// blocks get finite, moderate scales; MXFP4's E8M0 exponent is kept near 1.
struct ScaleLayout {
  GgmlType type;
  std::vector<int> half_offsets;
  int e8m0_offset;
};

const std::vector<ScaleLayout>& Layouts() {
  static const std::vector<ScaleLayout> layouts = {
      {GgmlType::kQ8_0, {0}, -1},   {GgmlType::kQ4_0, {0}, -1},    {GgmlType::kMXFP4, {}, 0},
      {GgmlType::kQ4_K, {0, 2}, -1}, {GgmlType::kQ5_K, {0, 2}, -1}, {GgmlType::kQ6_K, {208}, -1},
      {GgmlType::kIQ4_XS, {0}, -1}, {GgmlType::kIQ2_XXS, {0}, -1}, {GgmlType::kIQ1_S, {0}, -1}};
  return layouts;
}

uint16_t HalfOf(float value) {
  // Exact for the values used here: k / 1024 with small k.
  for (uint32_t h = 0; h < 0x7C00; ++h) {
    if (cpu::HalfToFloat(static_cast<uint16_t>(h)) == value) return static_cast<uint16_t>(h);
  }
  return 0x3C00;
}

struct X86Build {
  cpu::X86Isa isa;
  const char* name;
  bool supported;
};

std::vector<X86Build> X86Builds() {
  const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("f16c");
  const bool avx512 = avx2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                      __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vnni");
  return {{cpu::X86Isa::kAvx2, "avx2", avx2}, {cpu::X86Isa::kAvx512Vnni, "avx512-vnni", avx512}};
}

TEST_CASE("SIMD vec_dot agrees with the scalar reference on random blocks", "[kernels][simd]") {
  std::mt19937 random(1234);
  std::uniform_int_distribution<int> byte(0, 255);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<uint16_t> halves;
  for (int k = 1; k < 64; ++k) halves.push_back(HalfOf(static_cast<float>(k) / 1024.0f));
  int compared = 0;
  int builds_compared = 0;
  for (const ScaleLayout& layout : Layouts()) {
    const GgmlType type = layout.type;
    const GgmlTypeTraits& traits = TraitsOf(type);
    const GgmlType format = cpu::ActivationFormatFor(type);
    for (int64_t blocks_k : {1, 2, 3, 7, 16, 33}) {
      const int64_t k = 256 * blocks_k;  // a whole number of every block size here
      const size_t w_bytes = static_cast<size_t>(k / traits.block_elements * traits.block_bytes);
      const size_t x_bytes = static_cast<size_t>(k / TraitsOf(format).block_elements * TraitsOf(format).block_bytes);
      std::vector<uint8_t> w_storage(w_bytes + 1), x_storage(x_bytes + 3);
      uint8_t* w = w_storage.data() + 1;  // unaligned
      uint8_t* x = x_storage.data() + 3;
      for (size_t i = 0; i < w_bytes; ++i) w[i] = static_cast<uint8_t>(byte(random));
      for (int64_t b = 0; b < k / traits.block_elements; ++b) {
        uint8_t* block = w + b * traits.block_bytes;
        for (int offset : layout.half_offsets) {
          const uint16_t h = halves[static_cast<size_t>(byte(random)) % halves.size()];
          std::memcpy(block + offset, &h, 2);
        }
        if (layout.e8m0_offset >= 0) block[layout.e8m0_offset] = static_cast<uint8_t>(118 + byte(random) % 16);
      }
      std::vector<float> activations(static_cast<size_t>(k));
      for (float& v : activations) v = normal(random);
      REQUIRE(cpu::QuantizeActivation(format, activations.data(), x, k));

      std::vector<float> wf(static_cast<size_t>(k)), xf(static_cast<size_t>(k));
      REQUIRE(cpu::DequantizeRow(type, w, wf.data(), k));
      REQUIRE(cpu::DequantizeRow(format, x, xf.data(), k));
      double magnitude = 0.0;
      for (size_t i = 0; i < wf.size(); ++i) magnitude += std::fabs(static_cast<double>(wf[i]) * xf[i]);

      const float fast = cpu::VecDot(type, w, x, k);
      const float reference = cpu::VecDotReference(type, w, x, k);
      CAPTURE(NameOf(type), k, fast, reference, magnitude, cpu::VecDotIsa(type));
      CHECK(std::fabs(static_cast<double>(fast) - reference) <= 1e-5 * magnitude + 1e-30);
      // Every x86 build this CPU can run, not only the one VecDot chose.
      const int64_t blocks = k / traits.block_elements;
      for (const auto& [isa, name, supported] : X86Builds()) {
        if (!supported) continue;
        const cpu::SimdVecDot kernel = cpu::X86VecDot(isa, type);
        REQUIRE(kernel != nullptr);
        const float built = kernel(w, x, blocks);
        CAPTURE(name, built);
        CHECK(std::fabs(static_cast<double>(built) - reference) <= 1e-5 * magnitude + 1e-30);
        ++builds_compared;
      }
      ++compared;
    }
  }
  CHECK(compared == 9 * 6);
  INFO("x86 builds this CPU runs: " << builds_compared / compared);
  CHECK(builds_compared % compared == 0);
}

TEST_CASE("every hot type has a kernel in both x86 builds, and VecDot picks the widest the CPU runs",
          "[kernels][simd]") {
  for (const ScaleLayout& layout : Layouts()) {
    CAPTURE(NameOf(layout.type));
    CHECK(cpu::X86VecDot(cpu::X86Isa::kAvx2, layout.type) != nullptr);
    CHECK(cpu::X86VecDot(cpu::X86Isa::kAvx512Vnni, layout.type) != nullptr);
    const std::vector<X86Build> builds = X86Builds();
    const char* expected = builds[1].supported ? "avx512-vnni" : builds[0].supported ? "avx2" : "scalar";
    CHECK(std::string(cpu::VecDotIsa(layout.type)) == expected);
  }
  CHECK(cpu::X86VecDot(cpu::X86Isa::kAvx2, GgmlType::kIQ3_XXS) == nullptr);
  CHECK(std::string(cpu::VecDotIsa(GgmlType::kIQ3_XXS)) == "scalar");
}

}  // namespace
}  // namespace vt
