// The float conversions against the hardware's own (F16C) on every half and
// on many floats, and the constants of the 8-bit formats.
#include <catch2/catch.hpp>

#include <immintrin.h>

#include <bit>
#include <cmath>
#include <random>

#include "vt/kernels/cpu/float_formats.h"

namespace vt {
namespace {

__attribute__((target("f16c"))) float HardwareHalfToFloat(uint16_t h) { return _cvtsh_ss(h); }
__attribute__((target("f16c"))) uint16_t HardwareFloatToHalf(float f) {
  return static_cast<uint16_t>(_cvtss_sh(f, _MM_FROUND_TO_NEAREST_INT));
}

TEST_CASE("half conversions equal F16C's, both ways", "[kernels][float]") {
  if (!__builtin_cpu_supports("f16c")) return;
  for (uint32_t h = 0; h < 65536; ++h) {
    const float mine = cpu::HalfToFloat(static_cast<uint16_t>(h));
    const float theirs = HardwareHalfToFloat(static_cast<uint16_t>(h));
    if (std::isnan(theirs)) {
      CHECK(std::isnan(mine));
    } else if (std::bit_cast<uint32_t>(mine) != std::bit_cast<uint32_t>(theirs)) {
      CAPTURE(h);
      CHECK(std::bit_cast<uint32_t>(mine) == std::bit_cast<uint32_t>(theirs));
    }
  }
  std::mt19937 random(99);
  int mismatches = 0;
  for (int i = 0; i < 2000000; ++i) {
    const float f = std::bit_cast<float>(static_cast<uint32_t>(random()));
    if (std::isnan(f)) continue;
    mismatches += cpu::FloatToHalfBits(f) != HardwareFloatToHalf(f) ? 1 : 0;
  }
  for (float f : {0.0f, -0.0f, 65504.0f, 65520.0f, 1e-8f, 5.96e-8f, 2.98e-8f, 6.1e-5f, -3.0e-6f}) {
    CAPTURE(f);
    CHECK(cpu::FloatToHalfBits(f) == HardwareFloatToHalf(f));
  }
  CHECK(mismatches == 0);
}

TEST_CASE("BF16 and the FP4 scale formats", "[kernels][float]") {
  STATIC_REQUIRE(cpu::FloatToBf16(1.0f) == 0x3F80);
  STATIC_REQUIRE(cpu::Bf16ToFloat(0x3F80) == 1.0f);
  CHECK(cpu::FloatToBf16(std::bit_cast<float>(0x3F808000u)) == 0x3F80);  // tie to even
  CHECK(cpu::FloatToBf16(std::bit_cast<float>(0x3F818000u)) == 0x3F82);
  STATIC_REQUIRE(cpu::E8m0ToFloatHalf(127) == 0.5f);  // 2^0 / 2
  STATIC_REQUIRE(cpu::E8m0ToFloatHalf(128) == 1.0f);
  STATIC_REQUIRE(cpu::Ue4m3ToFloatHalf(0x38) == 0.5f);  // exponent 7, mantissa 0: 1.0 / 2
  STATIC_REQUIRE(cpu::Ue4m3ToFloatHalf(0x7F) == 0.0f);
  STATIC_REQUIRE(cpu::Ue4m3ToFloatHalf(0x01) == 1.0f / 512.0f / 2.0f);
}

}  // namespace
}  // namespace vt
