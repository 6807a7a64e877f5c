// Codebook I-quants: groups of 4 or 8 weights are an index into a fixed grid
// (iq_tables.h) plus sign bits, under small per-group scales.
#include <cstring>

#include "dequantize_blocks.h"
#include "iq_tables.h"
#include "vt/kernels/cpu/float_formats.h"

namespace vt::cpu::blocks {
namespace {

constexpr float kIq1sDelta = 0.125f;

// Byte k of a grid entry (the grids pack 8 or 4 unsigned magnitudes).
inline uint8_t GridByte(uint64_t entry, int k) { return static_cast<uint8_t>(entry >> (8 * k)); }

inline float Sign(uint8_t signs, int j) { return (signs & iq::kMaskIq2xs[j]) ? -1.0f : 1.0f; }

}  // namespace

// d, qs[32] as 8 pairs of u32: four grid indices (bytes of the first) and
// four 7-bit sign groups plus a 4-bit scale (the second).
void IQ2_XXS(const uint8_t* b, float* y, int64_t count) {
  for (int64_t i = 0; i < count; ++i, b += 66) {
    const float d = LoadHalf(b);
    for (int ib = 0; ib < 8; ++ib) {
      const uint32_t indices = LoadU32(b + 2 + 8 * ib);
      const uint32_t signs_scale = LoadU32(b + 2 + 8 * ib + 4);
      const float db = d * (0.5f + static_cast<float>(signs_scale >> 28)) * 0.25f;
      for (int l = 0; l < 4; ++l, y += 8) {
        const uint64_t grid = iq::kIq2xxsGrid[(indices >> (8 * l)) & 0xFF];
        const uint8_t signs = iq::kSignsIq2xs[(signs_scale >> (7 * l)) & 127];
        for (int j = 0; j < 8; ++j) y[j] = db * static_cast<float>(GridByte(grid, j)) * Sign(signs, j);
      }
    }
  }
}

// d, qs[32] u16 (9-bit grid index | 7-bit sign group), scales[8] (two 4-bit).
void IQ2_XS(const uint8_t* b, float* y, int64_t count) {
  for (int64_t i = 0; i < count; ++i, b += 74) {
    const float d = LoadHalf(b);
    const uint8_t* scales = b + 66;
    for (int ib = 0; ib < 8; ++ib) {
      const float db[2] = {d * (0.5f + static_cast<float>(scales[ib] & 0x0F)) * 0.25f,
                           d * (0.5f + static_cast<float>(scales[ib] >> 4)) * 0.25f};
      for (int l = 0; l < 4; ++l, y += 8) {
        const uint16_t q = LoadU16(b + 2 + 2 * (4 * ib + l));
        const uint64_t grid = iq::kIq2xsGrid[q & 511];
        const uint8_t signs = iq::kSignsIq2xs[q >> 9];
        for (int j = 0; j < 8; ++j) {
          y[j] = db[l / 2] * static_cast<float>(GridByte(grid, j)) * Sign(signs, j);
        }
      }
    }
  }
}

// d, qs[64] (32 low index bytes, then 32 sign bytes), qh[8] (2 high index
// bits x 4), scales[8].
void IQ2_S(const uint8_t* b, float* y, int64_t count) {
  for (int64_t i = 0; i < count; ++i, b += 82) {
    const float d = LoadHalf(b);
    const uint8_t* qs = b + 2;
    const uint8_t* signs = b + 2 + 32;
    const uint8_t* qh = b + 66;
    const uint8_t* scales = b + 74;
    for (int ib = 0; ib < 8; ++ib, qs += 4, signs += 4) {
      const float db[2] = {d * (0.5f + static_cast<float>(scales[ib] & 0x0F)) * 0.25f,
                           d * (0.5f + static_cast<float>(scales[ib] >> 4)) * 0.25f};
      for (int l = 0; l < 4; ++l, y += 8) {
        const int index = qs[l] | ((qh[ib] << (8 - 2 * l)) & 0x300);
        const uint64_t grid = iq::kIq2sGrid[index];
        for (int j = 0; j < 8; ++j) {
          y[j] = db[l / 2] * static_cast<float>(GridByte(grid, j)) * Sign(signs[l], j);
        }
      }
    }
  }
}

// d, qs[64] (grid indices of 4 weights each), then 8 u32 of four 7-bit sign
// groups and a 4-bit scale.
void IQ3_XXS(const uint8_t* b, float* y, int64_t count) {
  for (int64_t i = 0; i < count; ++i, b += 98) {
    const float d = LoadHalf(b);
    const uint8_t* qs = b + 2;
    const uint8_t* scales_and_signs = b + 2 + 64;
    for (int ib = 0; ib < 8; ++ib, qs += 8) {
      const uint32_t aux = LoadU32(scales_and_signs + 4 * ib);
      const float db = d * (0.5f + static_cast<float>(aux >> 28)) * 0.5f;
      for (int l = 0; l < 4; ++l, y += 8) {
        const uint8_t signs = iq::kSignsIq2xs[(aux >> (7 * l)) & 127];
        const uint32_t grid1 = iq::kIq3xxsGrid[qs[2 * l + 0]];
        const uint32_t grid2 = iq::kIq3xxsGrid[qs[2 * l + 1]];
        for (int j = 0; j < 4; ++j) {
          y[j + 0] = db * static_cast<float>(GridByte(grid1, j)) * Sign(signs, j);
          y[j + 4] = db * static_cast<float>(GridByte(grid2, j)) * Sign(signs, j + 4);
        }
      }
    }
  }
}

// d, qs[64] (low index bytes), qh[8] (ninth index bits), signs[32], scales[4].
void IQ3_S(const uint8_t* b, float* y, int64_t count) {
  for (int64_t i = 0; i < count; ++i, b += 110) {
    const float d = LoadHalf(b);
    const uint8_t* qs = b + 2;
    const uint8_t* qh = b + 66;
    const uint8_t* signs = b + 74;
    const uint8_t* scales = b + 106;
    for (int ib = 0; ib < 8; ib += 2, qh += 2) {
      const float db[2] = {d * static_cast<float>(1 + 2 * (scales[ib / 2] & 0x0F)),
                           d * static_cast<float>(1 + 2 * (scales[ib / 2] >> 4))};
      for (int half = 0; half < 2; ++half, qs += 8, signs += 4) {
        for (int l = 0; l < 4; ++l, y += 8) {
          const uint32_t grid1 = iq::kIq3sGrid[qs[2 * l + 0] | ((qh[half] << (8 - 2 * l)) & 256)];
          const uint32_t grid2 = iq::kIq3sGrid[qs[2 * l + 1] | ((qh[half] << (7 - 2 * l)) & 256)];
          for (int j = 0; j < 4; ++j) {
            y[j + 0] = db[half] * static_cast<float>(GridByte(grid1, j)) * Sign(signs[l], j);
            y[j + 4] = db[half] * static_cast<float>(GridByte(grid2, j)) * Sign(signs[l], j + 4);
          }
        }
      }
    }
  }
}

// d, qs[32] (low index bytes), qh[8] u16 (3 high index bits x 4, a 3-bit
// scale, the delta's sign): value d * (2 * scale + 1) * (grid + delta), the
// grid holding signed values -1, 0, 1.
void IQ1_S(const uint8_t* b, float* y, int64_t count) {
  for (int64_t i = 0; i < count; ++i, b += 50) {
    const float d = LoadHalf(b);
    const uint8_t* qs = b + 2;
    for (int ib = 0; ib < 8; ++ib, qs += 4) {
      const uint16_t qh = LoadU16(b + 34 + 2 * ib);
      const float dl = d * static_cast<float>(2 * ((qh >> 12) & 7) + 1);
      const float delta = (qh & 0x8000) ? -kIq1sDelta : kIq1sDelta;
      for (int l = 0; l < 4; ++l, y += 8) {
        const uint64_t grid = iq::kIq1sGrid[qs[l] | (((qh >> (3 * l)) & 7) << 8)];
        for (int j = 0; j < 8; ++j) {
          y[j] = dl * (static_cast<float>(static_cast<int8_t>(GridByte(grid, j))) + delta);
        }
      }
    }
  }
}

// qs[32], qh[16] (3 high index bits and a delta sign per 8 weights),
// scales[8] as four u16: 3-bit group scales, and the f16 super-scale spread
// over their top nibbles.
void IQ1_M(const uint8_t* b, float* y, int64_t count) {
  for (int64_t i = 0; i < count; ++i, b += 56) {
    const uint8_t* qs = b;
    const uint8_t* qh = b + 32;
    uint16_t sc[4];
    std::memcpy(sc, b + 48, 8);
    const uint16_t scale_bits = static_cast<uint16_t>((sc[0] >> 12) | ((sc[1] >> 8) & 0x00F0) |
                                                      ((sc[2] >> 4) & 0x0F00) | (sc[3] & 0xF000));
    const float d = HalfToFloat(scale_bits);
    for (int ib = 0; ib < 8; ++ib, qs += 4, qh += 2) {
      const float dl1 = d * static_cast<float>(2 * ((sc[ib / 2] >> (6 * (ib % 2) + 0)) & 7) + 1);
      const float dl2 = d * static_cast<float>(2 * ((sc[ib / 2] >> (6 * (ib % 2) + 3)) & 7) + 1);
      const int index[4] = {qs[0] | ((qh[0] << 8) & 0x700), qs[1] | ((qh[0] << 4) & 0x700),
                            qs[2] | ((qh[1] << 8) & 0x700), qs[3] | ((qh[1] << 4) & 0x700)};
      const float delta[4] = {(qh[0] & 0x08) ? -kIq1sDelta : kIq1sDelta,
                              (qh[0] & 0x80) ? -kIq1sDelta : kIq1sDelta,
                              (qh[1] & 0x08) ? -kIq1sDelta : kIq1sDelta,
                              (qh[1] & 0x80) ? -kIq1sDelta : kIq1sDelta};
      for (int l = 0; l < 4; ++l, y += 8) {
        const uint64_t grid = iq::kIq1sGrid[index[l]];
        const float dl = l < 2 ? dl1 : dl2;
        for (int j = 0; j < 8; ++j) {
          y[j] = dl * (static_cast<float>(static_cast<int8_t>(GridByte(grid, j))) + delta[l]);
        }
      }
    }
  }
}

}  // namespace vt::cpu::blocks
