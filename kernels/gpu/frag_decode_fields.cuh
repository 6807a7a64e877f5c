// Fragment decoders (frag_decode.cuh's FragSlice contract) for the types
// whose codes are 1-3 bit fields or trits: Q2_K, Q3_K, TQ1_0, TQ2_0, Q1_0,
// Q2_0, and NVFP4's 4-bit codes under 16-value scales. Thread t decodes
// values 4t..4t+3 (lo) and 16+4t..16+4t+3 (hi) of chunk j of its block.
// Where a type's values are its codes less one (TQ1_0, Q1_0, Q2_0), the
// codes go to the mma as they are, and the one comes back through the
// offset term (kMinPerScale 1, frag_decode.cuh); TQ2_0's come out signed
// (ToSigned), so its mma needs no offset term.
// Where a choice here "measured faster", docs/GPU_TUNING.md has the runs.
#pragma once

#include "frag_decode.cuh"

namespace vt::gpu {

// Four unsigned byte codes 0..kMax, each less kMinus (kMax + 0x80 - kMinus
// within a byte, so nothing carries), as signed bytes.
template <uint32_t kMinus, uint32_t kMax>
__device__ __forceinline__ int ToSigned(uint32_t codes) {
  static_assert(kMinus <= 0x80 && kMax + 0x80 - kMinus <= 0xFF, "no carries between bytes");
  return static_cast<int>((codes + (0x80u - kMinus) * 0x01010101u) ^ 0x80808080u);
}

// 2-bit field `field` (bits 2 field and 2 field + 1) of each byte of word.
__device__ __forceinline__ uint32_t TwoBitField(uint32_t word, int field) {
  return (word >> (2 * field)) & 0x03030303u;
}
// Chunk j's 2-bit codes in a word of Q2_K's, Q3_K's or TQ2_0's qs (four
// fields a byte, 32-byte halves of four chunks each): field j % 4 of each
// byte.
__device__ __forceinline__ uint32_t TwoBitCodes(uint32_t word, int j) { return TwoBitField(word, j % 4); }

// Q2_K: 2-bit codes under a 4-bit scale and min per 16 values (value d sc
// q - dmin m): chunk j's codes are bits 2 (j % 4) of the 32 bytes of half
// j / 4 of qs.
// Each half's codes come out multiplied by its scale (at most 3 * 15 = 45,
// so one multiply per word carries nothing between bytes): the chunk has
// one scale, d, and two mins (kSplitMins).
template <>
struct FragBlock<T::kQ2_K> : FragDefaults {  // 84-byte blocks: 4-aligned
  static constexpr bool kSplitScales = false, kOffset = true, kSplitMins = true, kIntegerMins = true;
  template <LoadMode S>
  __device__ static uint32_t ScaledCodes(const uint8_t* b, int j, int t, FragSlice& f) {
    const uint8_t* qs = b + 16 + 32 * (j / 4) + 4 * t;
    const uint32_t scales = AlignedU16At(b + 2 * j);  // the two halves' scale bytes
    f.lo = static_cast<int>(TwoBitCodes(WordAt<S>(qs), j) * (scales & 15u));
    f.hi = static_cast<int>(TwoBitCodes(WordAt<S>(qs + 16), j) * ((scales >> 8) & 15u));
    f.d[0] = AlignedHalfAt(b + 80);
    return scales;
  }
  template <LoadMode S>
  __device__ static void Decode(const uint8_t* b, int j, int t, FragSlice& f) {
    const uint32_t scales = ScaledCodes<S>(b, j, t, f);
    const float dmin = AlignedHalfAt(b + 82);
    f.m[0] = dmin * F(static_cast<int>((scales >> 4) & 15u));
    f.m[1] = dmin * F(static_cast<int>((scales >> 12) & 15u));
  }
  template <LoadMode S>
  __device__ static void DecodeIntegerMins(const uint8_t* b, int j, int t, FragSlice& f) {
    ScaledCodes<S>(b, j, t, f);
    f.m[0] = AlignedHalfAt(b + 82);
  }
  template <LoadMode S>
  __device__ static int BlockMins(const uint8_t* b, int t) {
    return static_cast<int>((WordAt<S>(b + 4 * t) >> 4) & 0x0F0F0F0Fu);
  }
};
// Q3_K: code low + 4 high stands for low + 4 high - 4, which is low where
// the high bit is set and low | 0xFC (low - 4) where it is clear. Its
// scales are shared (kShareScales). The GEMV takes Q3kSignedFrag instead;
// the GEMM keeps this one.
template <>
struct FragBlock<T::kQ3_K> : FragDefaults {  // 110-byte blocks: 2-aligned
  static constexpr bool kSplitScales = true, kOffset = false, kShareScales = true;
  template <LoadMode S>
  __device__ static void Codes(const uint8_t* b, int j, int t, FragSlice& f) {
    const uint8_t* qs = b + 32 + 32 * (j / 4) + 4 * t;
    auto codes = [&](int offset) {
      const uint32_t low = TwoBitCodes(WordAt2<S>(qs + offset), j);
      const uint32_t clear = ~(WordAt2<S>(b + 4 * t + offset) >> j) & 0x01010101u;  // hmask bit j clear
      return static_cast<int>(low | (clear * 0xFCu));
    };
    f.lo = codes(0);
    f.hi = codes(16);
  }
  template <LoadMode S>
  __device__ static void Scales(const uint8_t* b, int j, FragSlice& f) {
    const float d = AlignedHalfAt(b + 108);
    f.d[0] = d * F(Q3kScale(b + 96, 2 * j));
    f.d[1] = d * F(Q3kScale(b + 96, 2 * j + 1));
  }
};
// Q3_K for the tensor-core GEMV, which sums its blocks in integers
// (BlockSummedStep, kIntegerScales): each code as the signed byte
// 32 (code - 4), its 3-bit field at bits 5..7 with the top bit flipped (as
// Q6_K's codes), and each scale as the signed byte 4 (s - 32), its 6-bit
// field at bits 2..7 with the top bit flipped; d carries the 1 / 128. A
// chunk's codes take two shifts and two logic instructions a word in the
// SASS (the flip folded into the hmask's complement), and its two scales
// one byte permute each, out of four scale words each thread works out
// once a block. A block's sum stays inside int32: 16 halves of at most
// 16 * 128 * 127, each times at most 128.
struct Q3kSignedFrag : FragDefaults {
  static constexpr bool kSplitScales = true, kOffset = false, kIntegerScales = true;
  // Scales 4i..4i+3 of the block at b as the signed bytes 4 (s - 32): the
  // low nibbles of packed bytes 0..7 (i < 2) or their high nibbles (i >= 2),
  // and the 2-bit fields i of packed bytes 8..11 (as ggml unpacks them).
  template <LoadMode S>
  __device__ static uint32_t ScaleWord(const uint8_t* b, int i) {
    const uint32_t low = WordAt2<S>(b + 96 + 4 * (i % 2));
    const uint32_t low_at_2 = i < 2 ? low << 2 : low >> 2;
    // Each 2-bit field's top bit flipped, once for the block's four words.
    const uint32_t flipped_high_at_6 = (WordAt2<S>(b + 104) ^ 0xAAAAAAAAu) << (6 - 2 * i);
    return (low_at_2 & 0x3C3C3C3Cu) | (flipped_high_at_6 & 0xC0C0C0C0u);
  }
  template <LoadMode S>
  __device__ static void DecodeIntegerScale(const uint8_t* b, int j, int t, const uint32_t*, FragSlice& f) {
    const uint8_t* qs = b + 32 + 32 * (j / 4) + 4 * t;
    const int low_up = 5 - 2 * (j % 4);  // field j % 4 of qs to bits 5..6
    auto codes = [&](int offset) {
      const uint32_t low = WordAt2<S>(qs + offset);
      const uint32_t low_at_5 = low_up >= 0 ? low << low_up : low >> -low_up;
      // hmask bit j flipped (the code's top bit) to bit 7.
      const uint32_t clear_at_7 = ~WordAt2<S>(b + 4 * t + offset) << (7 - j);
      return static_cast<int>((low_at_5 & 0x60606060u) | (clear_at_7 & 0x80808080u));
    };
    f.lo = codes(0);
    f.hi = codes(16);
    const uint32_t scales = ScaleWord<S>(b, j / 2);
    const uint32_t k = 2 * (j % 2);  // scale 2j's byte
    f.iscale = static_cast<int>(BytePermSigned(scales, 0u, 0x8880u + 0x1111u * k));  // byte k, sign-extended
    f.iscale_hi = static_cast<int>(BytePermSigned(scales, 0u, 0x8880u + 0x1111u * (k + 1)));
    f.d[0] = AlignedHalfAt(b + 108) * (1.0f / 128.0f);
  }
};
// TQ2_0: 2-bit codes 0..2 for -1, 0, 1, laid out as Q2_K's.
template <>
struct FragBlock<T::kTQ2_0> : FragDefaults {  // 66-byte blocks: 2-aligned
  static constexpr bool kSplitScales = false, kOffset = false;
  template <LoadMode S>
  __device__ static void Decode(const uint8_t* b, int j, int t, FragSlice& f) {
    const uint8_t* qs = b + 32 * (j / 4) + 4 * t;
    f.lo = ToSigned<1, 3>(TwoBitCodes(WordAt2<S>(qs), j));
    f.hi = ToSigned<1, 3>(TwoBitCodes(WordAt2<S>(qs + 16), j));
    f.d[0] = AlignedHalfAt(b + 64);
  }
};
// TQ1_0: quad k of chunk j (Tq1Chunk's layout, int_decode_ternary.cuh) is
// trit n of the four bytes of one source word: codes 0..2 for -1, 0, 1.
__device__ __forceinline__ int Tq1Quad(const uint8_t* b, int j, int k) {
  const int source = j < 5 ? 4 * k : j < 7 || k < 4 ? 32 + 4 * (k % 4) : 48;
  const int n = j < 5 ? j : j < 7 ? 2 * (j - 5) + k / 4 : k < 4 ? 4 : k - 4;
  const uint32_t pow3 = n == 0 ? 1u : n == 1 ? 3u : n == 2 ? 9u : n == 3 ? 27u : 81u;
  const uint32_t word = WordAt2<LoadMode::kCached>(b + source);
  // Two bytes at once, one per 16-bit lane (see Tq1Chunk).
  const uint32_t even = ((word & 0x00FF00FFu) * pow3) & 0x00FF00FFu;
  const uint32_t odd = (((word >> 8) & 0x00FF00FFu) * pow3) & 0x00FF00FFu;
  return static_cast<int>((((even * 3u) >> 8) & 0x00030003u) | ((odd * 3u) & 0x03000300u));
}
template <>
struct FragBlock<T::kTQ1_0> : FragDefaults {  // 54-byte blocks: 2-aligned
  static constexpr bool kSplitScales = false, kOffset = true;
  static constexpr float kMinPerScale = 1.0f;
  template <LoadMode>
  __device__ static void Decode(const uint8_t* b, int j, int t, FragSlice& f) {
    f.lo = Tq1Quad(b, j, t);
    f.hi = Tq1Quad(b, j, 4 + t);
    f.d[0] = AlignedHalfAt(b + 52);
  }
};
// Q1_0: bit i of the chunk's word is value i, +d where set, -d where clear.
template <>
struct FragBlock<T::kQ1_0> : FragDefaults {  // 18-byte blocks of 128 values: 2-aligned
  static constexpr bool kSplitScales = false, kOffset = true;
  static constexpr float kMinPerScale = 1.0f;
  template <LoadMode S>
  __device__ static void Decode(const uint8_t* b, int j, int t, FragSlice& f) {
    const uint32_t bits = WordAt2<S>(b + 2 + 4 * j);
    f.lo = static_cast<int>(2 * BitsToBytes(bits >> (4 * t)));
    f.hi = static_cast<int>(2 * BitsToBytes(bits >> (16 + 4 * t)));
    f.d[0] = AlignedHalfAt(b);
  }
};
// Q2_0: byte i of the chunk holds values 4i..4i+3 as 2-bit codes for -1..2.
__device__ __forceinline__ int Q2_0Quad(uint32_t byte) {
  return static_cast<int>((byte & 3u) | ((byte & 0x0Cu) << 6) | ((byte & 0x30u) << 12) | ((byte & 0xC0u) << 18));
}
template <>
struct FragBlock<T::kQ2_0> : FragDefaults {  // 18-byte blocks of 64 values: 2-aligned
  static constexpr bool kSplitScales = false, kOffset = true;
  static constexpr float kMinPerScale = 1.0f;
  template <LoadMode>
  __device__ static void Decode(const uint8_t* b, int j, int t, FragSlice& f) {
    f.lo = Q2_0Quad(b[2 + 8 * j + t]);
    f.hi = Q2_0Quad(b[6 + 8 * j + t]);
    f.d[0] = AlignedHalfAt(b);
  }
};
// Q2_0 and Q1_0 for the tensor-core GEMV in block-word order (kBlockWords):
// each byte of thread t's word of the block's 16 code bytes holds a field
// of every chunk of the block (2 * chunks fields of kBits), so one word
// serves all the block's chunks, each chunk's codes being one shift and
// one mask of it. Read as aligned words (kAlignedStagedWords).
template <GgmlType T, int kBits>
struct BlockWordsCodes : FragBlock<T> {
  static_assert(Block<T>::kValues == 64 || Block<T>::kValues == 128,
                "kMmaTileBlockWords takes blocks of two or four chunks");
  static constexpr bool kAlignedStagedWords = true, kBlockWords = true;
  template <LoadMode S>
  __device__ static void Decode(const uint8_t* b, int j, int t, int b_mod4, FragSlice& f) {
    constexpr uint32_t kMask = kBits == 2 ? 0x03030303u : 0x01010101u;
    const uint32_t word = WordAtMod4<S>(b + 2 + 4 * t, (b_mod4 + 2) % 4);
    f.lo = static_cast<int>((word >> (2 * kBits * j)) & kMask);
    f.hi = static_cast<int>((word >> (2 * kBits * j + kBits)) & kMask);
    f.d[0] = AlignedHalfAt(b);
  }
};
template <>
struct BlockWordsFrag<T::kQ2_0> : BlockWordsCodes<T::kQ2_0, 2> {};
// Q1_0's codes are its bits (0 or 1) under twice the scale, so the min is
// half of that (value 2 d bit - d).
template <>
struct BlockWordsFrag<T::kQ1_0> : BlockWordsCodes<T::kQ1_0, 1> {
  static constexpr float kMinPerScale = 0.5f;
  template <LoadMode S>
  __device__ static void Decode(const uint8_t* b, int j, int t, int b_mod4, FragSlice& f) {
    BlockWordsCodes<T::kQ1_0, 1>::template Decode<S>(b, j, t, b_mod4, f);
    f.d[0] *= 2.0f;
  }
};
// FP4 table values (iq::kValuesFp4) of the nibbles at bits 4h..4h+3 of the
// four bytes of w, in byte order: the four codes packed into one 16-bit
// selector, looked up among entries 0-7 and 8-15, and picked by bit 3
// (fewer instructions than looking up both nibbles of each word and keeping
// half).
__device__ __forceinline__ int Fp4Quad(uint32_t w, int h) {
  const uint32_t codes = (w >> (4 * h)) & 0x0F0F0F0Fu;
  const uint32_t selector = BytePerm(codes | (codes >> 4), 0u, 0x0020u);  // nibble i: code i
  const uint32_t low = BytePerm(kTableWord<NibbleTable::kFp4, 0>, kTableWord<NibbleTable::kFp4, 1>, selector);
  const uint32_t high = BytePerm(kTableWord<NibbleTable::kFp4, 2>, kTableWord<NibbleTable::kFp4, 3>, selector);
  return static_cast<int>(BytePerm(low, high, 0x3210u | ((selector & 0x8888u) >> 1)));
}
// NVFP4: chunk j is sub-blocks 2j (lo) and 2j + 1 (hi), each eight code
// bytes whose low nibbles are its values 0..7 and high nibbles 8..15; so
// values 4t.. are the low (t < 2) or high nibbles of word t % 2.
template <>
struct FragBlock<T::kNVFP4> : FragDefaults {  // 36-byte blocks of 64 values: 4-aligned
  static constexpr bool kSplitScales = true, kOffset = false;
  template <LoadMode S>
  __device__ static void Codes(const uint8_t* b, int j, int t, FragSlice& f) {
    const uint8_t* qs = b + 4 + 16 * j + 4 * (t % 2);
    f.lo = Fp4Quad(WordAt<S>(qs), t / 2);
    f.hi = Fp4Quad(WordAt<S>(qs + 8), t / 2);
  }
  template <LoadMode S>
  __device__ static void Scales(const uint8_t* b, int j, FragSlice& f) {
    f.d[0] = Ue4m3Half(b[2 * j]);
    f.d[1] = Ue4m3Half(b[2 * j + 1]);
  }
  template <LoadMode S>
  __device__ static void Decode(const uint8_t* b, int j, int t, FragSlice& f) {
    Codes<S>(b, j, t, f);
    Scales<S>(b, j, f);
  }
};
// NVFP4 for the tensor-core GEMV (one tile of activations): thread t takes
// bytes 2t and 2t + 1 of sub-blocks 2j (lo) and 2j + 1 (hi), each value
// plus kFp4PairOffset (LookupFp4InNibbleOrder: 9 integer instructions a
// word against Fp4Quad's 10 or so for half of one), with the offset taken
// back in the mma's C operand (kOffsetInBias), so the epilogue is
// FragBlock's. The four threads of a group share their scales, as
// FragBlock's did in this kernel. The GEMM (eight tiles) keeps FragBlock.
struct Nvfp4OffsetFrag : FragDefaults {
  static constexpr bool kSplitScales = true, kOffset = false, kShareScales = true, kOffsetInBias = true;
  template <LoadMode S>
  __device__ static void Codes(const uint8_t* b, int j, int t, FragSlice& f) {
    const uint8_t* word = b + 4 + 16 * j + 4 * (t / 2);
    const uint32_t pair = BytePerm(WordAt<S>(word), WordAt<S>(word + 8), t % 2 == 0 ? 0x5410u : 0x7632u);
    const int2 values = LookupFp4InNibbleOrder<kFp4PairOffset>(pair);
    f.lo = values.x;
    f.hi = values.y;
  }
  template <LoadMode S>
  __device__ static void Scales(const uint8_t* b, int j, FragSlice& f) {
    FragBlock<T::kNVFP4>::Scales<S>(b, j, f);
  }
};

}  // namespace vt::gpu
