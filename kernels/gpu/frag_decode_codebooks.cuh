// Fragment decoders (frag_decode.cuh's FragSlice contract) for the codebook
// I-quants: chunk j of a 256-value block, of which thread t decodes the
// four values 4t..4t+3 (lo) and 16+4t..16+4t+3 (hi). A codebook entry
// covers eight values (IQ2, IQ1) or four (IQ3), so a thread looks up the
// half (or the whole) of two entries: entry quad / 2, half quad % 2, for
// quads t and 4 + t.
// Where a choice here "measured faster", docs/GPU_TUNING.md has the runs.
#pragma once

#include "frag_decode.cuh"

namespace vt::gpu {

// Each decoder names its codebook as words (kCodebookWords of them, at
// Codebook()); the tensor-core kernel hands Decode a copy of them in shared
// memory (`grid`).
template <class V, size_t N>
__device__ __forceinline__ const uint32_t* CodebookWords(const V (&table)[N]) {
  return reinterpret_cast<const uint32_t*>(table);
}
template <class V, size_t N>
constexpr int WordsOf(const V (&)[N]) {
  return static_cast<int>(N * sizeof(V) / 4);
}

// Half `half` (values 4 half .. 4 half + 3) of eight-byte grid entry `index`.
__device__ __forceinline__ uint32_t GridHalf(const uint32_t* grid, uint32_t index, int half) {
  return grid[2 * index + half];
}

// Four unsigned grid bytes, negated where bit i of `signs` (0..15) is set.
// Grid bytes are never 0 in the IQ2 / IQ3 codebooks, so the byte-wise
// two's complement (x ^ 0xFF) + 1 never carries into a neighbour.
__device__ __forceinline__ int SignedGridQuad(uint32_t grid, uint32_t signs) {
  const uint32_t ones = ((signs & 15u) * 0x00204081u) & 0x01010101u;  // bit i to byte i
  return static_cast<int>((grid ^ (ones * 0xFFu)) + ones);
}

// Nibble `half` of the eight signs that a 7-bit ggml sign field stands for
// (IqSigns).
__device__ __forceinline__ uint32_t SignNibble(uint32_t seven, int half) {
  return (IqSigns(seven) >> (4 * half)) & 15u;
}

// IQ2_XXS, IQ3_XXS and IQ3_S: a chunk's scale is the block's d times an
// odd integer (2 s + 1) and a fixed factor; DecodeIntegerScale
// (kIntegerScales) leaves the two apart.
template <>
struct FragBlock<T::kIQ2_XXS> : FragDefaults {  // 66-byte blocks: 2-aligned
  static constexpr bool kSplitScales = false, kOffset = false, kIntegerScales = true;
  static constexpr int kCodebookWords = WordsOf(iq_constants::kIq2xxsGrid);
  __device__ static const uint32_t* Codebook() { return CodebookWords(iq::kIq2xxsGrid); }
  // lo and hi; returns the chunk's sign and scale word.
  template <LoadMode S>
  __device__ static uint32_t SignedCodes(const uint8_t* b, int j, int t, const uint32_t* grid, FragSlice& f) {
    const uint32_t indices = WordAt2<S>(b + 2 + 8 * j), signs = WordAt2<S>(b + 6 + 8 * j);
    const int half = t % 2;
    auto quad = [&](int l) {
      return SignedGridQuad(GridHalf(grid, (indices >> (8 * l)) & 0xFFu, half),
                            SignNibble((signs >> (7 * l)) & 127u, half));
    };
    f.lo = quad(t / 2);
    f.hi = quad(2 + t / 2);
    return signs;
  }
  template <LoadMode S>
  __device__ static void Decode(const uint8_t* b, int j, int t, const uint32_t* grid, FragSlice& f) {
    const uint32_t signs = SignedCodes<S>(b, j, t, grid, f);
    f.d[0] = AlignedHalfAt(b) * (0.5f + F(static_cast<int>(signs >> 28))) * 0.25f;
  }
  template <LoadMode S>
  __device__ static void DecodeIntegerScale(const uint8_t* b, int j, int t, const uint32_t* grid, FragSlice& f) {
    IntegerScale(b, SignedCodes<S>(b, j, t, grid, f), f);
  }
  // The chunk's integer scale and the block's factor, from its sign and
  // scale word.
  __device__ static void IntegerScale(const uint8_t* b, uint32_t signs, FragSlice& f) {
    f.iscale = static_cast<int>(2 * (signs >> 28) + 1);
    f.d[0] = AlignedHalfAt(b) * 0.125f;
  }
};
// IQ2_XXS for the tensor-core GEMV (kWholeEntries): thread t takes entry t
// of the chunk whole, so each entry's index and signs are worked out once
// instead of by two threads for half of it each (IQ1_S's, below, the same).
// IQ3_XXS and IQ3_S gained nothing that way, and the types with a scale per
// 16 values (IQ2_XS, IQ2_S, IQ1_M) cannot take it: a thread's lo must lie
// in the chunk's first 16 values.
template <>
struct WholeEntriesFrag<T::kIQ2_XXS> : FragBlock<T::kIQ2_XXS> {
  static constexpr bool kWholeEntries = true;
  template <LoadMode S>
  __device__ static void DecodeIntegerScale(const uint8_t* b, int j, int t, const uint32_t* grid, FragSlice& f) {
    const uint32_t indices = WordAt2<S>(b + 2 + 8 * j), signs = WordAt2<S>(b + 6 + 8 * j);
    const uint2 entry = reinterpret_cast<const uint2*>(grid)[(indices >> (8 * t)) & 0xFFu];
    const uint32_t eight = IqSigns((signs >> (7 * t)) & 127u);
    f.lo = SignedGridQuad(entry.x, eight);
    f.hi = SignedGridQuad(entry.y, eight >> 4);
    IntegerScale(b, signs, f);
  }
};
// IQ2_XS / IQ2_S: one 4-bit scale per half of the chunk, d (0.5 + s) / 4.
__device__ __forceinline__ void SetIq2HalfScales(float d, uint32_t scales, FragSlice& f) {
  f.d[0] = d * (0.5f + F(static_cast<int>(scales & 15u))) * 0.25f;
  f.d[1] = d * (0.5f + F(static_cast<int>((scales >> 4) & 15u))) * 0.25f;
}
template <>
struct FragBlock<T::kIQ2_XS> : FragDefaults {  // 74-byte blocks: 2-aligned
  static constexpr bool kSplitScales = true, kOffset = false;
  static constexpr int kCodebookWords = WordsOf(iq_constants::kIq2xsGrid);
  __device__ static const uint32_t* Codebook() { return CodebookWords(iq::kIq2xsGrid); }
  template <LoadMode S>
  __device__ static void Decode(const uint8_t* b, int j, int t, const uint32_t* grid, FragSlice& f) {
    const int half = t % 2;
    auto quad = [&](int l) {  // entry l: a 9-bit grid index and 7 sign bits
      const uint32_t q = AlignedU16At(b + 2 + 8 * j + 2 * l);
      return SignedGridQuad(GridHalf(grid, q & 511u, half), SignNibble(q >> 9, half));
    };
    f.lo = quad(t / 2);
    f.hi = quad(2 + t / 2);
    SetIq2HalfScales(AlignedHalfAt(b), b[66 + j], f);
  }
};
template <>
struct FragBlock<T::kIQ2_S> : FragDefaults {  // 82-byte blocks: 2-aligned
  static constexpr bool kSplitScales = true, kOffset = false;
  static constexpr int kCodebookWords = WordsOf(iq_constants::kIq2sGrid);
  __device__ static const uint32_t* Codebook() { return CodebookWords(iq::kIq2sGrid); }
  template <LoadMode S>
  __device__ static void Decode(const uint8_t* b, int j, int t, const uint32_t* grid, FragSlice& f) {
    const int half = t % 2;
    const uint32_t qh = b[66 + j];
    auto quad = [&](int l) {  // entry l: 8 + 2 index bits, 8 sign bits
      const uint32_t index = b[2 + 4 * j + l] | ((qh << (8 - 2 * l)) & 0x300u);
      return SignedGridQuad(GridHalf(grid, index, half), b[34 + 4 * j + l] >> (4 * half));
    };
    f.lo = quad(t / 2);
    f.hi = quad(2 + t / 2);
    SetIq2HalfScales(AlignedHalfAt(b), b[74 + j], f);
  }
};
// IQ3: four-value entries, so quad e is entry e, its signs nibble e % 2 of
// sign field e / 2.
template <>
struct FragBlock<T::kIQ3_XXS> : FragDefaults {  // 98-byte blocks: 2-aligned
  static constexpr bool kSplitScales = false, kOffset = false, kIntegerScales = true;
  static constexpr int kCodebookWords = WordsOf(iq_constants::kIq3xxsGrid);
  __device__ static const uint32_t* Codebook() { return CodebookWords(iq::kIq3xxsGrid); }
  // lo and hi; returns the chunk's sign and scale word.
  template <LoadMode S>
  __device__ static uint32_t SignedCodes(const uint8_t* b, int j, int t, const uint32_t* grid, FragSlice& f) {
    const uint32_t aux = WordAt2<S>(b + 66 + 4 * j);  // four 7-bit sign fields, then the scale
    auto quad = [&](int e) {
      return SignedGridQuad(grid[b[2 + 8 * j + e]], SignNibble((aux >> (7 * (e / 2))) & 127u, e % 2));
    };
    f.lo = quad(t);
    f.hi = quad(4 + t);
    return aux;
  }
  template <LoadMode S>
  __device__ static void Decode(const uint8_t* b, int j, int t, const uint32_t* grid, FragSlice& f) {
    const uint32_t aux = SignedCodes<S>(b, j, t, grid, f);
    f.d[0] = AlignedHalfAt(b) * (0.5f + F(static_cast<int>(aux >> 28))) * 0.5f;
  }
  template <LoadMode S>
  __device__ static void DecodeIntegerScale(const uint8_t* b, int j, int t, const uint32_t* grid, FragSlice& f) {
    f.iscale = static_cast<int>(2 * (SignedCodes<S>(b, j, t, grid, f) >> 28) + 1);
    f.d[0] = AlignedHalfAt(b) * 0.25f;
  }
};
template <>
struct FragBlock<T::kIQ3_S> : FragDefaults {  // 110-byte blocks: 2-aligned
  static constexpr bool kSplitScales = false, kOffset = false, kIntegerScales = true;
  static constexpr int kCodebookWords = WordsOf(iq_constants::kIq3sGrid);
  __device__ static const uint32_t* Codebook() { return CodebookWords(iq::kIq3sGrid); }
  // lo and hi; returns the chunk's scale, 1 + 2 s.
  template <LoadMode S>
  __device__ static int SignedCodes(const uint8_t* b, int j, int t, const uint32_t* grid, FragSlice& f) {
    const uint32_t qh = b[66 + j];  // bit e: entry e's ninth index bit
    auto quad = [&](int e) {
      const uint32_t index = b[2 + 8 * j + e] | ((qh << (8 - e)) & 256u);
      return SignedGridQuad(grid[index], b[74 + 4 * j + e / 2] >> (4 * (e % 2)));
    };
    f.lo = quad(t);
    f.hi = quad(4 + t);
    return static_cast<int>(1 + 2 * ((b[106 + j / 2] >> (4 * (j % 2))) & 15u));
  }
  template <LoadMode S>
  __device__ static void Decode(const uint8_t* b, int j, int t, const uint32_t* grid, FragSlice& f) {
    f.d[0] = AlignedHalfAt(b) * F(SignedCodes<S>(b, j, t, grid, f));
  }
  template <LoadMode S>
  __device__ static void DecodeIntegerScale(const uint8_t* b, int j, int t, const uint32_t* grid, FragSlice& f) {
    f.iscale = SignedCodes<S>(b, j, t, grid, f);
    f.d[0] = AlignedHalfAt(b);
  }
};
// IQ1_S: value dl (grid + delta), grid bytes already signed (-1, 0, 1); the
// delta is the offset term, one per chunk.
template <>
struct FragBlock<T::kIQ1_S> : FragDefaults {  // 50-byte blocks: 2-aligned
  static constexpr bool kSplitScales = false, kOffset = true;
  static constexpr int kCodebookWords = WordsOf(iq_constants::kIq1sGrid);
  __device__ static const uint32_t* Codebook() { return CodebookWords(iq::kIq1sGrid); }
  template <LoadMode S>
  __device__ static void Decode(const uint8_t* b, int j, int t, const uint32_t* grid, FragSlice& f) {
    const int half = t % 2;
    const uint32_t qh = AlignedU16At(b + 34 + 2 * j);
    auto quad = [&](int l) {
      return static_cast<int>(GridHalf(grid, b[2 + 4 * j + l] | (((qh >> (3 * l)) & 7u) << 8), half));
    };
    f.lo = quad(t / 2);
    f.hi = quad(2 + t / 2);
    Scale(b, qh, f);
  }
  // The chunk's scale and min, from its 16-bit qh word.
  __device__ static void Scale(const uint8_t* b, uint32_t qh, FragSlice& f) {
    const float dl = AlignedHalfAt(b) * F(static_cast<int>(2 * ((qh >> 12) & 7u) + 1));
    f.d[0] = dl;
    f.m[0] = (qh & 0x8000u) ? dl * kIq1Delta : -dl * kIq1Delta;
  }
};
// IQ1_S for the tensor-core GEMV (kWholeEntries, as IQ2_XXS's).
template <>
struct WholeEntriesFrag<T::kIQ1_S> : FragBlock<T::kIQ1_S> {
  static constexpr bool kWholeEntries = true;
  template <LoadMode S>
  __device__ static void Decode(const uint8_t* b, int j, int t, const uint32_t* grid, FragSlice& f) {
    const uint32_t qh = AlignedU16At(b + 34 + 2 * j);
    const uint2 entry = reinterpret_cast<const uint2*>(grid)[b[2 + 4 * j + t] | (((qh >> (3 * t)) & 7u) << 8)];
    f.lo = static_cast<int>(entry.x);
    f.hi = static_cast<int>(entry.y);
    Scale(b, qh, f);
  }
};
// IQ1_M: per entry 8 grid + 8 delta (delta +-1/8 per entry, so odd codes in
// -9..9) under scale dl / 8; one 3-bit scale per half of the chunk, and the
// block's f16 scale spread over the top nibbles of its four scale words.
// Its GEMV shares the scales (IQ1_M's TileFrag); its GEMM decodes each
// chunk's own, which measured faster there.
template <>
struct FragBlock<T::kIQ1_M> : FragDefaults {  // 56-byte blocks: 8-aligned
  static constexpr bool kSplitScales = true, kOffset = false;
  static constexpr int kCodebookWords = WordsOf(iq_constants::kIq1sGrid);
  __device__ static const uint32_t* Codebook() { return CodebookWords(iq::kIq1sGrid); }
  template <LoadMode S>
  __device__ static void Codes(const uint8_t* b, int j, int t, const uint32_t* grid, FragSlice& f) {
    const int half = t % 2;
    auto quad = [&](int l) {
      const uint32_t high = b[32 + 2 * j + l / 2];
      const uint32_t index = b[4 * j + l] | (((l % 2) ? (high << 4) : (high << 8)) & 0x700u);
      const bool negative = (l % 2) ? (high & 0x80u) : (high & 0x08u);
      const uint32_t delta = negative ? 0xFFFFFFFFu : 0x01010101u;  // 8 delta per byte
      // 8 g is (g & 0x1F) << 3 in its byte for g in {-1, 0, 1}; the bytes
      // add without carries between them (IntBlock<kIQ1_M>).
      const uint32_t eight_g = (GridHalf(grid, index, half) & 0x1F1F1F1Fu) << 3;
      return static_cast<int>(((eight_g & 0x7F7F7F7Fu) + (delta & 0x7F7F7F7Fu)) ^ ((eight_g ^ delta) & 0x80808080u));
    };
    f.lo = quad(t / 2);
    f.hi = quad(2 + t / 2);
  }
  template <LoadMode S>
  __device__ static void Scales(const uint8_t* b, int j, FragSlice& f) {
    uint32_t sc[2];  // the four u16 scale words
    LoadAligned<2, 8, S>(b + 48, sc);
    const uint32_t d_bits = ((sc[0] >> 12) & 0x000Fu) | ((sc[0] >> 24) & 0x00F0u) | ((sc[1] >> 4) & 0x0F00u) |
                            ((sc[1] >> 16) & 0xF000u);
    const float d = HalfBitsToFloat(static_cast<uint16_t>(d_bits)) * 0.125f;
    const uint32_t word = (sc[j / 4] >> (16 * ((j / 2) % 2))) >> (6 * (j % 2));  // u16 scale word j / 2
    f.d[0] = d * F(static_cast<int>(2 * (word & 7u) + 1));
    f.d[1] = d * F(static_cast<int>(2 * ((word >> 3) & 7u) + 1));
  }
  template <LoadMode S>
  __device__ static void Decode(const uint8_t* b, int j, int t, const uint32_t* grid, FragSlice& f) {
    Codes<S>(b, j, t, grid, f);
    Scales<S>(b, j, f);
  }
};

}  // namespace vt::gpu
