// Plain types and 32/64/128-element blocks: a scale (and offset) per block
// and packed integer codes. Each block's layout is stated at its function.
#include <cstring>

#include "dequantize_blocks.h"
#include "iq_tables.h"
#include "vt/kernels/cpu/float_formats.h"

namespace vt::cpu::blocks {

void F32(const uint8_t* b, float* y, int64_t count) {
  std::memcpy(y, b, static_cast<size_t>(count) * 4);
}

void F16(const uint8_t* b, float* y, int64_t count) {
  for (int64_t i = 0; i < count; ++i) y[i] = LoadHalf(b + 2 * i);
}

void BF16(const uint8_t* b, float* y, int64_t count) {
  for (int64_t i = 0; i < count; ++i) y[i] = Bf16ToFloat(LoadU16(b + 2 * i));
}

// d (f16), qs[16]: element j is low nibble of qs[j], element j+16 the high
// nibble; value (q - 8) * d.
void Q4_0(const uint8_t* b, float* y, int64_t count) {
  for (int64_t i = 0; i < count; ++i, b += 18, y += 32) {
    const float d = LoadHalf(b);
    const uint8_t* qs = b + 2;
    for (int j = 0; j < 16; ++j) {
      y[j] = static_cast<float>((qs[j] & 0x0F) - 8) * d;
      y[j + 16] = static_cast<float>((qs[j] >> 4) - 8) * d;
    }
  }
}

// d, m (f16), qs[16]: value q * d + m.
void Q4_1(const uint8_t* b, float* y, int64_t count) {
  for (int64_t i = 0; i < count; ++i, b += 20, y += 32) {
    const float d = LoadHalf(b);
    const float m = LoadHalf(b + 2);
    const uint8_t* qs = b + 4;
    for (int j = 0; j < 16; ++j) {
      y[j] = static_cast<float>(qs[j] & 0x0F) * d + m;
      y[j + 16] = static_cast<float>(qs[j] >> 4) * d + m;
    }
  }
}

// d (f16), qh (32 fifth bits), qs[16]: value (q - 16) * d.
void Q5_0(const uint8_t* b, float* y, int64_t count) {
  for (int64_t i = 0; i < count; ++i, b += 22, y += 32) {
    const float d = LoadHalf(b);
    const uint32_t qh = LoadU32(b + 2);
    const uint8_t* qs = b + 6;
    for (int j = 0; j < 16; ++j) {
      const int high0 = static_cast<int>(((qh >> j) << 4) & 0x10);
      const int high1 = static_cast<int>((qh >> (j + 12)) & 0x10);
      y[j] = static_cast<float>(((qs[j] & 0x0F) | high0) - 16) * d;
      y[j + 16] = static_cast<float>(((qs[j] >> 4) | high1) - 16) * d;
    }
  }
}

// d, m (f16), qh, qs[16]: value q * d + m.
void Q5_1(const uint8_t* b, float* y, int64_t count) {
  for (int64_t i = 0; i < count; ++i, b += 24, y += 32) {
    const float d = LoadHalf(b);
    const float m = LoadHalf(b + 2);
    const uint32_t qh = LoadU32(b + 4);
    const uint8_t* qs = b + 8;
    for (int j = 0; j < 16; ++j) {
      const int high0 = static_cast<int>(((qh >> j) << 4) & 0x10);
      const int high1 = static_cast<int>((qh >> (j + 12)) & 0x10);
      y[j] = static_cast<float>((qs[j] & 0x0F) | high0) * d + m;
      y[j + 16] = static_cast<float>((qs[j] >> 4) | high1) * d + m;
    }
  }
}

// d (f16), qs[32] (int8): value q * d.
void Q8_0(const uint8_t* b, float* y, int64_t count) {
  for (int64_t i = 0; i < count; ++i, b += 34, y += 32) {
    const float d = LoadHalf(b);
    for (int j = 0; j < 32; ++j) y[j] = static_cast<float>(static_cast<int8_t>(b[2 + j])) * d;
  }
}

// d, s (f16; s = d * sum(qs), unused here), qs[32] (int8): value q * d.
void Q8_1(const uint8_t* b, float* y, int64_t count) {
  for (int64_t i = 0; i < count; ++i, b += 36, y += 32) {
    const float d = LoadHalf(b);
    for (int j = 0; j < 32; ++j) y[j] = static_cast<float>(static_cast<int8_t>(b[4 + j])) * d;
  }
}

// d (f16), 128 sign bits, least significant bit first: value +d or -d.
void Q1_0(const uint8_t* b, float* y, int64_t count) {
  for (int64_t i = 0; i < count; ++i, b += 18, y += 128) {
    const float d = LoadHalf(b);
    for (int j = 0; j < 128; ++j) y[j] = ((b[2 + j / 8] >> (j % 8)) & 1) ? d : -d;
  }
}

// d (f16), 64 two-bit codes, four per byte from the low bits: value (q - 1) * d.
void Q2_0(const uint8_t* b, float* y, int64_t count) {
  for (int64_t i = 0; i < count; ++i, b += 18, y += 64) {
    const float d = LoadHalf(b);
    for (int j = 0; j < 64; ++j) {
      const int q = (b[2 + j / 4] >> (2 * (j % 4))) & 3;
      y[j] = static_cast<float>(q - 1) * d;
    }
  }
}

// d (f16), qs[16]: nibbles index the IQ4 non-linear table; value d * table[q].
void IQ4_NL(const uint8_t* b, float* y, int64_t count) {
  for (int64_t i = 0; i < count; ++i, b += 18, y += 32) {
    const float d = LoadHalf(b);
    const uint8_t* qs = b + 2;
    for (int j = 0; j < 16; ++j) {
      y[j] = d * static_cast<float>(iq::kValuesIq4nl[qs[j] & 0x0F]);
      y[j + 16] = d * static_cast<float>(iq::kValuesIq4nl[qs[j] >> 4]);
    }
  }
}

// e (E8M0), qs[16]: nibbles index the doubled E2M1 table; value table[q] * 2^(e-127) / 2.
void MXFP4(const uint8_t* b, float* y, int64_t count) {
  for (int64_t i = 0; i < count; ++i, b += 17, y += 32) {
    const float d = E8m0ToFloatHalf(b[0]);
    const uint8_t* qs = b + 1;
    for (int j = 0; j < 16; ++j) {
      y[j] = static_cast<float>(iq::kValuesFp4[qs[j] & 0x0F]) * d;
      y[j + 16] = static_cast<float>(iq::kValuesFp4[qs[j] >> 4]) * d;
    }
  }
}

// d[4] (UE4M3, one per 16 elements), qs[32]: sub-block s holds the low
// nibbles of qs[8s..8s+7], then their high nibbles.
void NVFP4(const uint8_t* b, float* y, int64_t count) {
  for (int64_t i = 0; i < count; ++i, b += 36, y += 64) {
    for (int s = 0; s < 4; ++s) {
      const float d = Ue4m3ToFloatHalf(b[s]);
      const uint8_t* qs = b + 4 + 8 * s;
      for (int j = 0; j < 8; ++j) {
        y[16 * s + j] = d * static_cast<float>(iq::kValuesFp4[qs[j] & 0x0F]);
        y[16 * s + j + 8] = d * static_cast<float>(iq::kValuesFp4[qs[j] >> 4]);
      }
    }
  }
}

}  // namespace vt::cpu::blocks
