// Ternary blocks: weights in {-1, 0, 1} times one f16 scale.
#include "dequantize_blocks.h"
#include "vt/kernels/cpu/float_formats.h"

namespace vt::cpu::blocks {
namespace {

constexpr uint8_t kPow3[6] = {1, 3, 9, 27, 81, 243};

// Trit n of a byte holding base-3 fixed-point digits.
int Trit(uint8_t byte, int n) {
  const uint8_t q = static_cast<uint8_t>(byte * kPow3[n]);
  return static_cast<int>((static_cast<uint16_t>(q) * 3) >> 8);
}

}  // namespace

// qs[48] (five trits per byte, base-3 fixed point), qh[4] (four trits per
// byte), d: trit t of a byte is the top of (byte * 3^t mod 256) * 3.
void TQ1_0(const uint8_t* b, float* y, int64_t count) {
  for (int64_t i = 0; i < count; ++i, b += 54) {
    const uint8_t* qs = b;
    const uint8_t* qh = b + 48;
    const float d = LoadHalf(b + 52);
    for (int n = 0; n < 5; ++n) {
      for (int m = 0; m < 32; ++m) *y++ = static_cast<float>(Trit(qs[m], n) - 1) * d;
    }
    for (int n = 0; n < 5; ++n) {
      for (int m = 0; m < 16; ++m) *y++ = static_cast<float>(Trit(qs[32 + m], n) - 1) * d;
    }
    for (int n = 0; n < 4; ++n) {
      for (int j = 0; j < 4; ++j) *y++ = static_cast<float>(Trit(qh[j], n) - 1) * d;
    }
  }
}

// qs[64] (four 2-bit codes per byte, interleaved by 32), d: value (q - 1) * d.
void TQ2_0(const uint8_t* b, float* y, int64_t count) {
  for (int64_t i = 0; i < count; ++i, b += 66) {
    const float d = LoadHalf(b + 64);
    for (int j = 0; j < 64; j += 32) {
      for (int l = 0; l < 4; ++l) {
        for (int m = 0; m < 32; ++m) {
          *y++ = static_cast<float>(((b[j + m] >> (2 * l)) & 3) - 1) * d;
        }
      }
    }
  }
}

}  // namespace vt::cpu::blocks
