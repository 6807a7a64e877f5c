// K-quants: 256-element super-blocks of 16 or 8 sub-blocks, each with a
// quantized scale (and min) under a super-block f16 scale; and IQ4_XS, which
// shares their sub-block scale scheme with IQ4_NL's value table.
#include <cstring>

#include "dequantize_blocks.h"
#include "iq_tables.h"
#include "vt/kernels/cpu/float_formats.h"

namespace vt::cpu::blocks {
namespace {

// Q4_K / Q5_K pack eight 6-bit scales and eight 6-bit mins in 12 bytes.
void ScaleMinK4(int j, const uint8_t* q, uint8_t* scale, uint8_t* min) {
  if (j < 4) {
    *scale = q[j] & 63;
    *min = q[j + 4] & 63;
  } else {
    *scale = static_cast<uint8_t>((q[j + 4] & 0x0F) | ((q[j - 4] >> 6) << 4));
    *min = static_cast<uint8_t>((q[j + 4] >> 4) | ((q[j] >> 6) << 4));
  }
}

// Scales and mins of sub-blocks `is` and `is + 1`, times the super-block's
// d and dmin.
struct SubBlockPair {
  float d1, m1, d2, m2;
};

SubBlockPair ScalesOfPair(int is, const uint8_t* packed, float d, float dmin) {
  uint8_t sc = 0, m = 0;
  SubBlockPair pair{};
  ScaleMinK4(is, packed, &sc, &m);
  pair.d1 = d * static_cast<float>(sc);
  pair.m1 = dmin * static_cast<float>(m);
  ScaleMinK4(is + 1, packed, &sc, &m);
  pair.d2 = d * static_cast<float>(sc);
  pair.m2 = dmin * static_cast<float>(m);
  return pair;
}

}  // namespace

// scales[16] (4-bit scale | 4-bit min), qs[64], d, dmin: value
// d * scale * q - dmin * min, q two bits.
void Q2_K(const uint8_t* b, float* y, int64_t count) {
  for (int64_t i = 0; i < count; ++i, b += 84) {
    const uint8_t* scales = b;
    const uint8_t* q = b + 16;
    const float d = LoadHalf(b + 80);
    const float dmin = LoadHalf(b + 82);
    int is = 0;
    for (int n = 0; n < 256; n += 128) {
      for (int shift = 0; shift < 8; shift += 2) {
        for (int half = 0; half < 2; ++half) {
          const uint8_t sc = scales[is++];
          const float dl = d * static_cast<float>(sc & 0x0F);
          const float ml = dmin * static_cast<float>(sc >> 4);
          for (int l = 0; l < 16; ++l) {
            *y++ = dl * static_cast<float>((q[l + 16 * half] >> shift) & 3) - ml;
          }
        }
      }
      q += 32;
    }
  }
}

// hmask[32] (third bits), qs[64] (low two bits), scales[12] (sixteen 6-bit
// scales), d: value d * (scale - 32) * (q - (high bit ? 0 : 4)).
void Q3_K(const uint8_t* b, float* y, int64_t count) {
  constexpr uint32_t kMask1 = 0x03030303;
  constexpr uint32_t kMask2 = 0x0f0f0f0f;
  for (int64_t i = 0; i < count; ++i, b += 110) {
    const uint8_t* hmask = b;
    const uint8_t* q = b + 32;
    const float d_all = LoadHalf(b + 108);
    uint32_t aux[4];
    std::memcpy(aux, b + 96, 12);
    const uint32_t tmp = aux[2];
    aux[2] = ((aux[0] >> 4) & kMask2) | (((tmp >> 4) & kMask1) << 4);
    aux[3] = ((aux[1] >> 4) & kMask2) | (((tmp >> 6) & kMask1) << 4);
    aux[0] = (aux[0] & kMask2) | (((tmp >> 0) & kMask1) << 4);
    aux[1] = (aux[1] & kMask2) | (((tmp >> 2) & kMask1) << 4);
    int8_t scales[16];
    std::memcpy(scales, aux, 16);
    int is = 0;
    uint8_t m = 1;
    for (int n = 0; n < 256; n += 128) {
      for (int shift = 0; shift < 8; shift += 2) {
        for (int half = 0; half < 2; ++half) {
          const float dl = d_all * static_cast<float>(scales[is++] - 32);
          for (int l = 0; l < 16; ++l) {
            const int low = (q[l + 16 * half] >> shift) & 3;
            const int high = (hmask[l + 16 * half] & m) ? 0 : 4;
            *y++ = dl * static_cast<float>(low - high);
          }
        }
        m = static_cast<uint8_t>(m << 1);
      }
      q += 32;
    }
  }
}

// d, dmin, scales[12], qs[128]: value d * scale * q - dmin * min, q four bits.
void Q4_K(const uint8_t* b, float* y, int64_t count) {
  for (int64_t i = 0; i < count; ++i, b += 144) {
    const float d = LoadHalf(b);
    const float dmin = LoadHalf(b + 2);
    const uint8_t* scales = b + 4;
    const uint8_t* q = b + 16;
    for (int j = 0, is = 0; j < 256; j += 64, is += 2, q += 32) {
      const SubBlockPair s = ScalesOfPair(is, scales, d, dmin);
      for (int l = 0; l < 32; ++l) *y++ = s.d1 * static_cast<float>(q[l] & 0x0F) - s.m1;
      for (int l = 0; l < 32; ++l) *y++ = s.d2 * static_cast<float>(q[l] >> 4) - s.m2;
    }
  }
}

// d, dmin, scales[12], qh[32] (fifth bits), qs[128].
void Q5_K(const uint8_t* b, float* y, int64_t count) {
  for (int64_t i = 0; i < count; ++i, b += 176) {
    const float d = LoadHalf(b);
    const float dmin = LoadHalf(b + 2);
    const uint8_t* scales = b + 4;
    const uint8_t* qh = b + 16;
    const uint8_t* ql = b + 48;
    uint8_t u1 = 1, u2 = 2;
    for (int j = 0, is = 0; j < 256; j += 64, is += 2, ql += 32) {
      const SubBlockPair s = ScalesOfPair(is, scales, d, dmin);
      for (int l = 0; l < 32; ++l) {
        *y++ = s.d1 * static_cast<float>((ql[l] & 0x0F) + (qh[l] & u1 ? 16 : 0)) - s.m1;
      }
      for (int l = 0; l < 32; ++l) {
        *y++ = s.d2 * static_cast<float>((ql[l] >> 4) + (qh[l] & u2 ? 16 : 0)) - s.m2;
      }
      u1 = static_cast<uint8_t>(u1 << 2);
      u2 = static_cast<uint8_t>(u2 << 2);
    }
  }
}

// ql[128] (low four bits), qh[64] (high two bits), scales[16] (int8), d:
// value d * scale * (q - 32).
void Q6_K(const uint8_t* b, float* y, int64_t count) {
  for (int64_t i = 0; i < count; ++i, b += 210) {
    const uint8_t* ql = b;
    const uint8_t* qh = b + 128;
    const int8_t* sc = reinterpret_cast<const int8_t*>(b + 192);
    const float d = LoadHalf(b + 208);
    for (int n = 0; n < 256; n += 128, y += 128, ql += 64, qh += 32, sc += 8) {
      for (int l = 0; l < 32; ++l) {
        const int is = l / 16;
        const int q1 = ((ql[l] & 0x0F) | (((qh[l] >> 0) & 3) << 4)) - 32;
        const int q2 = ((ql[l + 32] & 0x0F) | (((qh[l] >> 2) & 3) << 4)) - 32;
        const int q3 = ((ql[l] >> 4) | (((qh[l] >> 4) & 3) << 4)) - 32;
        const int q4 = ((ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4)) - 32;
        y[l + 0] = d * static_cast<float>(sc[is + 0]) * static_cast<float>(q1);
        y[l + 32] = d * static_cast<float>(sc[is + 2]) * static_cast<float>(q2);
        y[l + 64] = d * static_cast<float>(sc[is + 4]) * static_cast<float>(q3);
        y[l + 96] = d * static_cast<float>(sc[is + 6]) * static_cast<float>(q4);
      }
    }
  }
}

// d (f32), qs[256] (int8), bsums[16]: value d * q.
void Q8_K(const uint8_t* b, float* y, int64_t count) {
  for (int64_t i = 0; i < count; ++i, b += 292, y += 256) {
    float d;
    std::memcpy(&d, b, 4);
    for (int j = 0; j < 256; ++j) y[j] = d * static_cast<float>(static_cast<int8_t>(b[4 + j]));
  }
}

// d, scales_h (2 high bits x 8), scales_l[4] (4 low bits x 8), qs[128]:
// value d * (scale - 32) * table[q].
void IQ4_XS(const uint8_t* b, float* y, int64_t count) {
  for (int64_t i = 0; i < count; ++i, b += 136) {
    const float d = LoadHalf(b);
    const uint16_t scales_h = LoadU16(b + 2);
    const uint8_t* scales_l = b + 4;
    const uint8_t* qs = b + 8;
    for (int ib = 0; ib < 8; ++ib, qs += 16, y += 32) {
      const int ls = ((scales_l[ib / 2] >> (4 * (ib % 2))) & 0x0F) | (((scales_h >> (2 * ib)) & 3) << 4);
      const float dl = d * static_cast<float>(ls - 32);
      for (int j = 0; j < 16; ++j) {
        y[j] = dl * static_cast<float>(iq::kValuesIq4nl[qs[j] & 0x0F]);
        y[j + 16] = dl * static_cast<float>(iq::kValuesIq4nl[qs[j] >> 4]);
      }
    }
  }
}

}  // namespace vt::cpu::blocks
