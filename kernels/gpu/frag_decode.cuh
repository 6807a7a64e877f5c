// Fragment decoders for the tensor-core GEMV (gemv_tensor_core.cuh): the
// quarter of a 32-value chunk that one thread feeds an int8 mma. Thread t
// (0..3) of a four-lane group gets the codes of elements 4t..4t+3 (lo) and
// 16+4t..16+4t+3 (hi), the column layout of mma.m16n8k32's A operand, and
// the chunk's affine terms in IntChunk's form:
//   value[i] = d[i / 16] * code[i] - m[i / 16]
// Types whose two halves share one scale (kSplitScales false) fill d[0] and
// m[0] only (m[1] too with kSplitMins, FragDefaults below); types whose values
// need no offset (kOffset false: m is always 0), or whose min is a fixed
// multiple of the scale (kMinPerScale), leave m unset. A decoder
// fills a FragSlice with Decode, or, where it shares its scales
// (kShareScales), with Codes (lo, hi) and Scales (d, m); a codebook
// decoder (frag_decode_codebooks.cuh) takes its table as an argument of
// Decode. The decoders read blocks staged in shared memory, which has
// slack past every block, so MXFP4's word reads (Fp4CodeWord) may read a
// little past its block.
// Where a choice here "measured faster", docs/GPU_TUNING.md has the runs.
#pragma once

#include <type_traits>

#include "block_decode_int.cuh"

namespace vt::gpu {

struct FragSlice {
  int lo, hi;
  float d[2], m[2];
  int iscale, iscale_hi;  // DecodeIntegerScale only (kIntegerScales; iscale_hi with kSplitScales)
};

// A little-endian word at a 4-byte aligned address.
template <LoadMode S>
__device__ __forceinline__ uint32_t WordAt(const uint8_t* p) {
  return Load<uint32_t, S>(reinterpret_cast<const uint32_t*>(p));
}
// The same at a 2-byte aligned address, as two 16-bit loads.
template <LoadMode S>
__device__ __forceinline__ uint32_t WordAt2(const uint8_t* p) {
  const uint16_t* half = reinterpret_cast<const uint16_t*>(p);
  return static_cast<uint32_t>(Load<uint16_t, S>(half)) | (static_cast<uint32_t>(Load<uint16_t, S>(half + 1)) << 16);
}

__device__ __forceinline__ void SplitNibbleWord(uint32_t w, FragSlice& f) {
  f.lo = static_cast<int>(w & 0x0F0F0F0Fu);
  f.hi = static_cast<int>((w >> 4) & 0x0F0F0F0Fu);
}
// IQ4_NL's and MXFP4's 16-entry value tables as four little-endian words,
// at compile time (scalars, so device code folds them into immediates).
// kIq4nlCarriesPaired: see LookupNibbleWord.
enum class NibbleTable { kIq4nl, kFp4, kIq4nlCarriesPaired };
template <NibbleTable K, int I>
inline constexpr uint32_t kTableWord =
    OffsetTableWord(K == NibbleTable::kIq4nl ? iq_constants::kValuesIq4nl : iq_constants::kValuesFp4, 0, 4 * I);

// kIq4nlCarriesPaired: IQ4_NL's values from LookupIq4nlInNibbleOrder
// (fewer integer instructions than Lookup16's pick), left in nibble order
// (FragDefaults' kPairedCodes).
template <NibbleTable K>
__device__ __forceinline__ void LookupNibbleWord(uint32_t w, FragSlice& f) {
  if constexpr (K == NibbleTable::kIq4nlCarriesPaired) {
    const int2 values = LookupIq4nlInNibbleOrder(w);
    f.lo = values.x;
    f.hi = values.y;
  } else {
    const uint32_t words[4] = {kTableWord<K, 0>, kTableWord<K, 1>, kTableWord<K, 2>, kTableWord<K, 3>};
    const int2 values = Lookup16(w, words);
    f.lo = values.x;
    f.hi = values.y;
  }
}

// What every decoder inherits, and overrides where it does otherwise:
// - kShareScales: it splits into Codes and Scales, whose scales cost enough
//   that the four threads of a group each work out those of one chunk in
//   four and trade them (ChunkScaledStep); taken where that measured faster
//   than each thread decoding its own.
// - kSplitMins: with one scale per chunk (kSplitScales false) it still
//   gives each half its own min (m[0], m[1]).
// - kCodebookWords: the words of its codebook (frag_decode_codebooks.cuh),
//   0 for none.
// - kPairedCodes: it leaves a thread's values in the order a word's nibbles
//   come in (Lookup16InNibbleOrder): lo holds elements 4t, 16+4t, 4t+1,
//   16+4t+1 and hi 4t+2, 16+4t+2, 4t+3, 16+4t+3. The mma sums over k in any
//   order, so it pairs them with activations whose codes lie in the same
//   order (Q8Layout::kMmaTilePairs) and saves sorting them.
// - kWholeEntries: thread t gets elements 8t..8t+3 in lo and 8t+4..8t+7
//   in hi, one eight-value codebook entry, paired with activations in the
//   same order (Q8Layout::kMmaTileOctets).
// - kBlockWords: thread t takes word t of the block's 16 code bytes, and
//   for chunk j field 2j of each of its bytes in lo and field 2j + 1 in
//   hi, paired with activations in the same order
//   (Q8Layout::kMmaTileBlockWords), so its chunks share one word; for a
//   GEMV that sums a block's chunks in integers under one activation scale
//   (gemv_tensor_core_tuning.cuh's kTensorCoreGroupRuns).
// - kAlignedStagedWords: its Decode also takes its block's address modulo
//   4, which the tensor-core kernel knows when compiled as it stages each
//   row from a 4-byte boundary, and reads aligned words only (MXFP4's
//   17-byte blocks: fewer instructions than reading each word from the two
//   aligned words around it at an offset worked out at run time).
// - kIntegerMins: it also has DecodeIntegerMins and BlockMins, for a GEMV
//   that sums a block's chunks in integers (tensor_core_step.cuh's
//   BlockSummedStep): DecodeIntegerMins leaves the codes as Decode does,
//   the block's d in d[0] and its dmin in m[0]; BlockMins(b, t) gives the
//   integer mins of the block's 16-value groups 4t..4t+3, one a byte
//   (value = d code - dmin min).
// - kIntegerScales: it also has DecodeIntegerScale (a codebook decoder's
//   signature), for BlockSummedStep: the codes as Decode leaves them, the
//   chunk's scale as an integer in iscale (with kSplitScales, its halves'
//   in iscale and iscale_hi) and the block's factor in d[0] (d[0] iscale is
//   Decode's d[0]).
// - kMinPerScale: with one scale per chunk and an offset, a min that is
//   always this multiple of the scale (m = kMinPerScale d; 0: none): the
//   decoder leaves m unset, and TileProduct works out the activation's part
//   of the offset term once for both rows. The types whose values are their
//   codes less one take 1 instead of signed codes (frag_decode_fields.cuh),
//   but TQ2_0, which measured slower that way.
// - kOffsetInBias: with kSplitScales, its values are each plus
//   kFp4PairOffset, in the order Q8Layout::kMmaTileSubBlockPairs gives
//   the activations, whose records carry each half's offset term in the
//   form of the mma's C operand (TileProduct); it leaves m unset.
struct FragDefaults {
  static constexpr bool kDefined = true, kShareScales = false, kSplitMins = false, kPairedCodes = false,
                        kAlignedStagedWords = false, kIntegerMins = false, kIntegerScales = false,
                        kWholeEntries = false, kBlockWords = false, kOffsetInBias = false;
  static constexpr int kCodebookWords = 0;
  static constexpr float kMinPerScale = 0.0f;
};

template <GgmlType T>
struct FragBlock {
  static constexpr bool kDefined = false;
};

// The 32-value legacy blocks: the low nibbles of the 16 code bytes are
// elements 0..15 and the high nibbles 16..31, so word t is this thread's.
template <>
struct FragBlock<T::kQ4_0> : FragDefaults {
  static constexpr bool kSplitScales = false, kOffset = true;
  static constexpr float kMinPerScale = 8.0f;
  template <LoadMode S>
  __device__ static void Decode(const uint8_t* b, int, int t, FragSlice& f) {
    SplitNibbleWord(WordAt2<S>(b + 2 + 4 * t), f);
    f.d[0] = AlignedHalfAt(b);
  }
};
template <>
struct FragBlock<T::kQ4_1> : FragDefaults {
  static constexpr bool kSplitScales = false, kOffset = true;
  template <LoadMode S>
  __device__ static void Decode(const uint8_t* b, int, int t, FragSlice& f) {
    SplitNibbleWord(WordAt<S>(b + 4 + 4 * t), f);
    f.d[0] = AlignedHalfAt(b), f.m[0] = -AlignedHalfAt(b + 2);
  }
};
template <>
struct FragBlock<T::kQ5_0> : FragDefaults {
  static constexpr bool kSplitScales = false, kOffset = true;
  static constexpr float kMinPerScale = 16.0f;
  template <LoadMode S>
  __device__ static void Decode(const uint8_t* b, int, int t, FragSlice& f) {
    SplitNibbleWord(WordAt2<S>(b + 6 + 4 * t), f);
    const uint32_t qh = WordAt2<S>(b + 2);
    f.lo |= FifthBits(qh, 4 * t);
    f.hi |= FifthBits(qh, 16 + 4 * t);
    f.d[0] = AlignedHalfAt(b);
  }
};
template <>
struct FragBlock<T::kQ5_1> : FragDefaults {
  static constexpr bool kSplitScales = false, kOffset = true;
  template <LoadMode S>
  __device__ static void Decode(const uint8_t* b, int, int t, FragSlice& f) {
    SplitNibbleWord(WordAt<S>(b + 8 + 4 * t), f);
    const uint32_t qh = WordAt<S>(b + 4);
    f.lo |= FifthBits(qh, 4 * t);
    f.hi |= FifthBits(qh, 16 + 4 * t);
    f.d[0] = AlignedHalfAt(b), f.m[0] = -AlignedHalfAt(b + 2);
  }
};
template <>
struct FragBlock<T::kQ8_0> : FragDefaults {
  static constexpr bool kSplitScales = false, kOffset = false;
  template <LoadMode S>
  __device__ static void Decode(const uint8_t* b, int, int t, FragSlice& f) {
    f.lo = static_cast<int>(WordAt2<S>(b + 2 + 4 * t));
    f.hi = static_cast<int>(WordAt2<S>(b + 18 + 4 * t));
    f.d[0] = AlignedHalfAt(b);
  }
};
template <>
struct FragBlock<T::kIQ4_NL> : FragDefaults {
  static constexpr bool kSplitScales = false, kOffset = false;
  template <LoadMode S, NibbleTable K = NibbleTable::kIq4nl>
  __device__ static void Decode(const uint8_t* b, int, int t, FragSlice& f) {
    LookupNibbleWord<K>(WordAt2<S>(b + 2 + 4 * t), f);
    f.d[0] = AlignedHalfAt(b);
  }
};
// The little-endian word at p, p's address being p_mod4 modulo 4 (a
// constant once the caller's loop is unrolled): one aligned load, or two
// and a shift by a constant.
template <LoadMode S>
__device__ __forceinline__ uint32_t WordAtMod4(const uint8_t* p, int p_mod4) {
  const uint32_t* word = reinterpret_cast<const uint32_t*>(p - p_mod4);
  const uint32_t low = Load<uint32_t, S>(word);
  return p_mod4 == 0 ? low : FunnelRight(low, Load<uint32_t, S>(word + 1), 8 * p_mod4);
}
// MXFP4's code word t of block b, b's address being b_mod4 modulo 4.
template <LoadMode S>
__device__ __forceinline__ uint32_t Fp4CodeWord(const uint8_t* b, int t, int b_mod4) {
  return WordAtMod4<S>(b + 1 + 4 * t, (b_mod4 + 1) % 4);
}
template <>
struct FragBlock<T::kMXFP4> : FragDefaults {  // 17-byte blocks: any alignment
  static constexpr bool kSplitScales = false, kOffset = false, kAlignedStagedWords = true;
  template <LoadMode S>
  __device__ static void Decode(const uint8_t* b, int, int t, int b_mod4, FragSlice& f) {
    LookupNibbleWord<NibbleTable::kFp4>(Fp4CodeWord<S>(b, t, b_mod4), f);
    f.d[0] = E8m0Half(b[0]);
  }
};
// MXFP4 for the tensor-core GEMV (one tile of activations): its values plus
// kFp4PairOffset (LookupFp4InNibbleOrder, fewer integer instructions), in
// nibble order (kPairedCodes), with the offset in the min. The GEMM (eight
// tiles, so eight offset terms per decoded chunk) measured slower with it
// and keeps FragBlock.
struct Fp4OffsetFrag : FragDefaults {
  static constexpr bool kSplitScales = false, kOffset = true, kPairedCodes = true, kAlignedStagedWords = true;
  static constexpr float kMinPerScale = kFp4PairOffset;
  template <LoadMode S>
  __device__ static void Decode(const uint8_t* b, int, int t, int b_mod4, FragSlice& f) {
    const int2 values = LookupFp4InNibbleOrder<kFp4PairOffset>(Fp4CodeWord<S>(b, t, b_mod4));
    f.lo = values.x;
    f.hi = values.y;
    f.d[0] = E8m0Half(b[0]);
  }
};

// The K-quants and IQ4_XS: chunk j of a 256-value super-block.
template <>
struct FragBlock<T::kQ4_K> : FragDefaults {
  static constexpr bool kSplitScales = false, kOffset = true, kShareScales = true;
  template <LoadMode S>
  __device__ static void Codes(const uint8_t* b, int j, int t, FragSlice& f) {
    const uint8_t* qs = b + 16 + 32 * (j / 2) + 4 * t;
    const int shift = 4 * (j % 2);
    f.lo = static_cast<int>((WordAt<S>(qs) >> shift) & 0x0F0F0F0Fu);
    f.hi = static_cast<int>((WordAt<S>(qs + 16) >> shift) & 0x0F0F0F0Fu);
  }
  template <LoadMode S>
  __device__ static void Scales(const uint8_t* b, int j, FragSlice& f) {
    const float2 s = K4Scales<S>(b, j);
    f.d[0] = s.x, f.m[0] = s.y;
  }
};
template <>
struct FragBlock<T::kQ5_K> : FragDefaults {
  static constexpr bool kSplitScales = false, kOffset = true;
  template <LoadMode S>
  __device__ static void Decode(const uint8_t* b, int j, int t, FragSlice& f) {
    const uint8_t* qs = b + 48 + 32 * (j / 2) + 4 * t;
    const uint8_t* qh = b + 16 + 4 * t;
    const int shift = 4 * (j % 2);
    f.lo = static_cast<int>(((WordAt<S>(qs) >> shift) & 0x0F0F0F0Fu) | (((WordAt<S>(qh) >> j) & 0x01010101u) << 4));
    f.hi = static_cast<int>(((WordAt<S>(qs + 16) >> shift) & 0x0F0F0F0Fu) |
                            (((WordAt<S>(qh + 16) >> j) & 0x01010101u) << 4));
    const float2 s = K4Scales<S>(b, j);
    f.d[0] = s.x, f.m[0] = s.y;
  }
};
// Q6_K's codes as signed bytes 4 (q - 32): the 6-bit code placed at bits
// 2..7 with its top bit flipped, so the mma needs no offset term; the
// scales carry the 1/4.
template <>
struct FragBlock<T::kQ6_K> : FragDefaults {  // 210-byte blocks: 2-aligned
  static constexpr bool kSplitScales = true, kOffset = false;
  template <LoadMode S>
  __device__ static void Decode(const uint8_t* b, int j, int t, FragSlice& f) {
    const int n = j / 4, quarter = j % 4;
    const uint8_t* ql = b + 64 * n + 32 * (quarter % 2) + 4 * t;
    const uint8_t* qh = b + 128 + 32 * n + 4 * t;
    const int high_up = 6 - 2 * quarter;  // qh's field to bits 6..7
    auto code = [&](int offset) {
      const uint32_t low = WordAt2<S>(ql + offset);
      const uint32_t low_at_2 = quarter / 2 == 0 ? low << 2 : low >> 2;  // the nibble to bits 2..5
      const uint32_t high_at_6 = WordAt2<S>(qh + offset) << high_up;
      return static_cast<int>(((low_at_2 & 0x3C3C3C3Cu) | (high_at_6 & 0xC0C0C0C0u)) ^ 0x80808080u);
    };
    f.lo = code(0);
    f.hi = code(16);
    float m[2];
    Q6kScales(b, j, f.d, m);
    f.d[0] *= 0.25f, f.d[1] *= 0.25f;
  }
};
template <>
struct FragBlock<T::kIQ4_XS> : FragDefaults {  // 136-byte blocks: 8-aligned
  static constexpr bool kSplitScales = false, kOffset = false, kShareScales = true;
  template <LoadMode S, NibbleTable K = NibbleTable::kIq4nl>
  __device__ static void Codes(const uint8_t* b, int j, int t, FragSlice& f) {
    LookupNibbleWord<K>(WordAt<S>(b + 8 + 16 * j + 4 * t), f);
  }
  template <LoadMode S>
  __device__ static void Scales(const uint8_t* b, int j, FragSlice& f) {
    uint32_t head[2];
    LoadAligned<2, 8, S>(b, head);
    f.d[0] = Iq4XsScale(head, j);
  }
};

template <GgmlType T>
constexpr bool kHasFragDecoder = FragBlock<T>::kDefined;

// IQ4_NL's or IQ4_XS's FragBlock with LookupIq4nlInNibbleOrder, in nibble
// order (kPairedCodes). IQ4_XS's GEMM (eight tiles) measured slower with
// it, so only the GEMV's kernel takes it.
template <GgmlType T>
struct Iq4CarriesFrag : FragBlock<T> {
  static constexpr bool kPairedCodes = true;
  template <LoadMode S>  // IQ4_NL
  __device__ static void Decode(const uint8_t* b, int j, int t, FragSlice& f) {
    FragBlock<T>::template Decode<S, NibbleTable::kIq4nlCarriesPaired>(b, j, t, f);
  }
  template <LoadMode S>  // IQ4_XS, which shares its scales
  __device__ static void Codes(const uint8_t* b, int j, int t, FragSlice& f) {
    FragBlock<T>::template Codes<S, NibbleTable::kIq4nlCarriesPaired>(b, j, t, f);
  }
};

// A decoder with Codes and Scales as well as Decode, sharing its scales.
template <class Frag>
struct SharedScalesFrag : Frag {
  static constexpr bool kShareScales = true;
};

// T's decoder with kWholeEntries for the GEMV (beside FragBlock<T>).
template <GgmlType T>
struct WholeEntriesFrag;
// T's decoder with kBlockWords for the GEMV (beside FragBlock<T>).
template <GgmlType T>
struct BlockWordsFrag;
struct Q3kSignedFrag;
struct Nvfp4OffsetFrag;

// The decoder of a tensor-core kernel of type T with kTiles tiles of 8
// activations: FragBlock<T>, but for the GEMV's (one tile) Fp4OffsetFrag
// for MXFP4, Iq4CarriesFrag for IQ4_NL and IQ4_XS, BlockWordsFrag for
// Q2_0 and Q1_0, WholeEntriesFrag for IQ2_XXS and IQ1_S, Q3kSignedFrag for
// Q3_K, Nvfp4OffsetFrag for NVFP4, and IQ1_M's sharing its scales. The
// specializations of FragBlock (frag_decoders.cuh) must all be declared
// before a kernel names a TileFrag.
template <GgmlType T>
constexpr bool kSharesScalesInGemv = T == GgmlType::kIQ1_M;
template <GgmlType T, int kTiles>
using TileFrag = std::conditional_t<
    kTiles == 1 && T == GgmlType::kMXFP4, Fp4OffsetFrag,
    std::conditional_t<
        kTiles == 1 && (T == GgmlType::kIQ4_NL || T == GgmlType::kIQ4_XS), Iq4CarriesFrag<T>,
        std::conditional_t<
            kTiles == 1 && (T == GgmlType::kQ2_0 || T == GgmlType::kQ1_0), BlockWordsFrag<T>,
            std::conditional_t<
                kTiles == 1 && (T == GgmlType::kIQ2_XXS || T == GgmlType::kIQ1_S), WholeEntriesFrag<T>,
                std::conditional_t<
                    kTiles == 1 && T == GgmlType::kQ3_K, Q3kSignedFrag,
                    std::conditional_t<kTiles == 1 && T == GgmlType::kNVFP4, Nvfp4OffsetFrag,
                                       std::conditional_t<kTiles == 1 && kSharesScalesInGemv<T>,
                                                          SharedScalesFrag<FragBlock<T>>, FragBlock<T>>>>>>>>;

}  // namespace vt::gpu
