// The small float formats GGUF blocks store, converted exactly to float:
// IEEE half, bfloat16, E8M0 (MXFP4's shared exponent) and unsigned E4M3
// (NVFP4's sub-block scale). Pure and constexpr.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

namespace vt::cpu {

// IEEE 754 binary16 to binary32, exact for every input (subnormals, inf, NaN).
constexpr float HalfToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  uint32_t exponent = (h >> 10) & 0x1Fu;
  uint32_t mantissa = h & 0x3FFu;
  uint32_t bits = 0;
  if (exponent == 0x1F) {
    bits = sign | 0x7F800000u | (mantissa << 13);  // inf or NaN
  } else if (exponent != 0) {
    bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
  } else if (mantissa == 0) {
    bits = sign;  // signed zero
  } else {
    // Subnormal: shift the mantissa up until its leading 1 is implicit.
    exponent = 113;
    while ((mantissa & 0x400u) == 0) {
      mantissa <<= 1;
      --exponent;
    }
    bits = sign | (exponent << 23) | ((mantissa & 0x3FFu) << 13);
  }
  return std::bit_cast<float>(bits);
}

constexpr float Bf16ToFloat(uint16_t b) { return std::bit_cast<float>(static_cast<uint32_t>(b) << 16); }

// float to bfloat16, rounding to nearest even; NaN stays a (quiet) NaN.
constexpr uint16_t FloatToBf16(float f) {
  const uint32_t bits = std::bit_cast<uint32_t>(f);
  if ((bits & 0x7FFFFFFFu) > 0x7F800000u) return static_cast<uint16_t>((bits >> 16) | 0x40u);
  return static_cast<uint16_t>((bits + 0x7FFFu + ((bits >> 16) & 1u)) >> 16);
}

inline uint16_t FloatToBf16Bits(float f) { return FloatToBf16(f); }

// float to IEEE half, rounding to nearest even; overflow gives inf, NaN a
// quiet NaN.
inline uint16_t FloatToHalfBits(float f) {
  const uint32_t x = std::bit_cast<uint32_t>(f);
  const uint32_t sign = (x >> 16) & 0x8000u;
  const uint32_t abs = x & 0x7FFFFFFFu;
  if (abs > 0x7F800000u) return static_cast<uint16_t>(sign | 0x7E00u);
  if (abs >= 0x477FF000u) return static_cast<uint16_t>(sign | 0x7C00u);
  if (abs < 0x38800000u) {  // a half subnormal (or zero): round on the 2^-24 grid
    const uint32_t mantissa = (abs & 0x7FFFFFu) | 0x800000u;
    const int shift = 126 - static_cast<int>(abs >> 23);  // 14 .. 24+
    if (shift > 24) return static_cast<uint16_t>(sign);
    const uint32_t half_ulp = 1u << (shift - 1);
    const uint32_t rest = mantissa & ((1u << shift) - 1);
    uint32_t result = mantissa >> shift;
    if (rest > half_ulp || (rest == half_ulp && (result & 1u))) ++result;
    return static_cast<uint16_t>(sign | result);
  }
  const uint32_t rounded = abs + 0xFFFu + ((abs >> 13) & 1u);
  return static_cast<uint16_t>(sign | ((rounded - 0x38000000u) >> 13));
}

// E8M0 exponent to float, halved: MXFP4 stores its values doubled (E2M1 x 2
// as integers), so the block scale carries the factor 1/2.
constexpr float E8m0ToFloatHalf(uint8_t e) {
  const uint32_t bits = e < 2 ? (0x00200000u << e) : (static_cast<uint32_t>(e - 1) << 23);
  return std::bit_cast<float>(bits);
}

// Unsigned E4M3 (bias 7) to float, halved for the same doubled-value
// convention; 0 and 0x7F (NaN) read as 0.
constexpr float Ue4m3ToFloatHalf(uint8_t x) {
  if (x == 0 || x == 0x7F) return 0.0f;
  const int exponent = (x >> 3) & 0xF;
  const float mantissa = static_cast<float>(x & 0x7);
  float value = 0.0f;
  if (exponent == 0) {
    value = mantissa / 512.0f;  // 2^-9 per step
  } else {
    float power = 1.0f;
    for (int i = 7; i < exponent; ++i) power *= 2.0f;
    for (int i = exponent; i < 7; ++i) power *= 0.5f;
    value = (1.0f + mantissa / 8.0f) * power;
  }
  return value * 0.5f;
}

inline uint16_t LoadU16(const uint8_t* p) {
  uint16_t v;
  std::memcpy(&v, p, 2);
  return v;
}
inline uint32_t LoadU32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
inline float LoadHalf(const uint8_t* p) { return HalfToFloat(LoadU16(p)); }

}  // namespace vt::cpu
