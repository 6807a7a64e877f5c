// What every integer decoder shares: the IntChunk they fill, how they load
// (LoadMode, LoadWords, LoadAligned), nibble and table helpers, and the
// primary template IntBlock<T> they specialize. Internal to kernels/gpu;
// callers include block_decode_int.cuh.
// Where a choice here "measured faster", docs/GPU_TUNING.md has the runs.
#pragma once

#include "block_decode.cuh"

namespace vt::gpu {

struct IntChunk {
  int v[8];  // four int8 values each, in element order
  float d[2];
  float m[2];
};

// How a decoder reads its block. kCached and kStreaming (bulk loads marked
// read-once) may read up to 3 bytes past a field that ends unaligned, inside
// the same aligned word: harmless inside a tensor, so the GEMV uses kExact
// only for a tensor's last block.
enum class LoadMode { kCached, kStreaming, kExact };

template <class V, LoadMode kMode>
__device__ __forceinline__ V Load(const V* p) {
  if constexpr (kMode == LoadMode::kStreaming) {
    return LoadStreaming(p);
  } else {
    return *p;
  }
}

// `N` little-endian words starting at any byte address: aligned word loads,
// realigned with funnel shifts. With `then_shift` (0-7 bits) each word
// comes out shifted right by that much more in the same funnel shift, its
// top bits taken from the bytes that follow it (zero past the last word
// read): what the caller's per-byte masks keep of each byte is exact.
template <int N, LoadMode kMode = LoadMode::kCached>
__device__ __forceinline__ void LoadWords(const uint8_t* p, uint32_t* out, uint32_t then_shift = 0) {
  const uint32_t offset = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(p) & 3u);
  // Stepping back from `p` (no integer-to-pointer cast) keeps the pointer's
  // memory space known to the compiler: shared copies are read with shared
  // loads and global blocks with global ones, not generic loads.
  const uint32_t* aligned = reinterpret_cast<const uint32_t*>(p - offset);
  uint32_t words[N + 1];
#pragma unroll
  for (int i = 0; i < N; ++i) words[i] = Load<uint32_t, kMode>(aligned + i);
  if constexpr (kMode == LoadMode::kExact) {
    // Only the first `offset` bytes of the last word are wanted.
    const uint8_t* tail = reinterpret_cast<const uint8_t*>(aligned + N);
    words[N] = offset == 0 ? 0u
               : offset == 1 ? tail[0]
               : offset == 2 ? *reinterpret_cast<const uint16_t*>(tail)
                             : (*reinterpret_cast<const uint16_t*>(tail) | (static_cast<uint32_t>(tail[2]) << 16));
  } else {
    words[N] = offset == 0 ? 0u : Load<uint32_t, kMode>(aligned + N);
  }
#pragma unroll
  for (int i = 0; i < N; ++i) out[i] = FunnelRight(words[i], words[i + 1], 8 * offset + then_shift);
}

// `N` words from an address known to be `Align`-byte aligned (16, 8 or 4):
// the widest loads that alignment allows.
template <int N, int Align, LoadMode kMode = LoadMode::kCached>
__device__ __forceinline__ void LoadAligned(const uint8_t* p, uint32_t* out) {
  static_assert(N % (Align / 4) == 0, "whole vectors");
  if constexpr (Align == 16) {
#pragma unroll
    for (int i = 0; i < N / 4; ++i) {
      const uint4 v = Load<uint4, kMode>(reinterpret_cast<const uint4*>(p) + i);
      out[4 * i] = v.x, out[4 * i + 1] = v.y, out[4 * i + 2] = v.z, out[4 * i + 3] = v.w;
    }
  } else if constexpr (Align == 8) {
#pragma unroll
    for (int i = 0; i < N / 2; ++i) {
      const uint2 v = Load<uint2, kMode>(reinterpret_cast<const uint2*>(p) + i);
      out[2 * i] = v.x, out[2 * i + 1] = v.y;
    }
  } else {
    static_assert(Align == 4, "16, 8 or 4");
#pragma unroll
    for (int i = 0; i < N; ++i) out[i] = Load<uint32_t, kMode>(reinterpret_cast<const uint32_t*>(p) + i);
  }
}

// A block's bytes read as the 8-byte aligned pairs of words that cover
// them: fewer, wider load instructions than LoadWords (a warp-wide load of
// lanes 17-22 bytes apart passes once over every line it touches, whatever
// its width). `start` is the block's offset in w (0-7). kLoads pairs cover
// kLoads * 8 - 7 bytes from any address, so a run may read up to 7 bytes
// past them: not for LoadMode::kExact.
template <int kLoads>
struct AlignedRun {
  uint32_t w[2 * kLoads + 1];  // the last is 0, only ever shifted in by 0 bits
  uint32_t start;
};
template <int kLoads, LoadMode kMode>
__device__ __forceinline__ AlignedRun<kLoads> LoadRun(const uint8_t* p) {
  static_assert(kMode != LoadMode::kExact, "reads past the block");
  AlignedRun<kLoads> run;
  run.start = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(p) & 7u);
  const uint2* aligned = reinterpret_cast<const uint2*>(p - run.start);
#pragma unroll
  for (int i = 0; i < kLoads; ++i) {
    const uint2 pair = Load<uint2, kMode>(aligned + i);
    run.w[2 * i] = pair.x, run.w[2 * i + 1] = pair.y;
  }
  run.w[2 * kLoads] = 0;
  return run;
}
// N words of the block's bytes kOffset .. kOffset + 4N - 1.
template <int N, int kOffset, int kLoads>
__device__ __forceinline__ void RunWords(const AlignedRun<kLoads>& run, uint32_t* out) {
  constexpr int kMinSkip = kOffset / 4, kMaxSkip = (kOffset + 7) / 4;
  static_assert(N + kMaxSkip <= 2 * kLoads, "the run covers the words");
  const uint32_t first = run.start + kOffset, skip = first >> 2, bits = 8 * (first & 3);
  uint32_t v[N + 1];
#pragma unroll
  for (int i = 0; i <= N; ++i) {
    v[i] = run.w[i + kMaxSkip];
#pragma unroll
    for (int k = kMaxSkip - 1; k >= kMinSkip; --k) v[i] = skip == static_cast<uint32_t>(k) ? run.w[i + k] : v[i];
  }
#pragma unroll
  for (int i = 0; i < N; ++i) out[i] = FunnelRight(v[i], v[i + 1], bits);
}
// The block's first byte, and its first 16 bits when it is 2-aligned.
template <int kLoads>
__device__ __forceinline__ uint32_t RunByte0(const AlignedRun<kLoads>& run) {
  return BytePerm(run.w[0], run.w[1], run.start) & 0xFFu;
}
template <int kLoads>
__device__ __forceinline__ uint16_t RunHalf0(const AlignedRun<kLoads>& run) {
  return static_cast<uint16_t>(BytePerm(run.w[0], run.w[1], run.start * 0x11u + 0x10u));
}

// A dot product of int8 codes as a float, exactly, without the slower
// conversion instruction: kFloatBias + dot, read as a float, is 1.5 * 2^23 +
// dot (|dot| < 2^22: at most 32 products of 127 * 128), and BiasedDot
// subtracts 1.5 * 2^23. The bias is added with an integer add, or by the
// tensor cores' accumulator.
inline constexpr int kFloatBias = 0x4B400000;
__device__ __forceinline__ float BiasedDot(int biased) { return __int_as_float(biased) - 12582912.0f; }

__device__ __forceinline__ void SetScales(IntChunk& c, float d, float m) {
  c.d[0] = c.d[1] = d;
  c.m[0] = c.m[1] = m;
}

// Four packed 4-bit codes per byte pair: the low nibbles of 16 bytes are
// elements 0..15, the high nibbles elements 16..31.
__device__ __forceinline__ void SplitNibbles(const uint32_t* words, IntChunk& c) {
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    c.v[k] = static_cast<int>(words[k] & 0x0F0F0F0Fu);
    c.v[k + 4] = static_cast<int>((words[k] >> 4) & 0x0F0F0F0Fu);
  }
}

// The entries of a 16-entry int8 table (as four words) for the eight
// nibbles of `w`, in nibble order: .x holds those of nibbles 0-3 (byte 0's
// low and high, then byte 1's), .y those of nibbles 4-7.
__device__ __forceinline__ int2 Lookup16InNibbleOrder(uint32_t w, const uint32_t* table) {
  const uint32_t pick_high = 0x32103210u | ((w & 0x88888888u) >> 1);
  uint32_t half[2];
#pragma unroll
  for (int i = 0; i < 2; ++i) {
    const uint32_t selector = w >> (16 * i);
    const uint32_t low = BytePerm(table[0], table[1], selector);
    const uint32_t high = BytePerm(table[2], table[3], selector);
    half[i] = BytePerm(low, high, pick_high >> (16 * i));
  }
  return make_int2(static_cast<int>(half[0]), static_cast<int>(half[1]));
}

// A word's eight values in nibble order (as Lookup16InNibbleOrder leaves
// them) sorted: .x holds those of the four low nibbles, .y those of the
// high ones.
__device__ __forceinline__ int2 SortNibbleOrder(int2 in_order) {
  return make_int2(static_cast<int>(BytePerm(in_order.x, in_order.y, 0x6420)),
                   static_cast<int>(BytePerm(in_order.x, in_order.y, 0x7531)));
}

// The same as Lookup16InNibbleOrder, sorted.
__device__ __forceinline__ int2 Lookup16(uint32_t w, const uint32_t* table) {
  return SortNibbleOrder(Lookup16InNibbleOrder(w, table));
}

// A 16-entry int8 table as the four words Lookup16 takes.
__device__ __forceinline__ void PackTable16(const int8_t* table_bytes, uint32_t (&table)[4]) {
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    table[i] = static_cast<uint8_t>(table_bytes[4 * i]) | (static_cast<uint8_t>(table_bytes[4 * i + 1]) << 8) |
               (static_cast<uint8_t>(table_bytes[4 * i + 2]) << 16) |
               (static_cast<uint32_t>(static_cast<uint8_t>(table_bytes[4 * i + 3])) << 24);
  }
}

// The order a decoder leaves a chunk's values in: kElements, element order
// (v[0] holds elements 0-3); kNibblePairs, for the 16 code bytes whose low
// nibbles are elements 0-15 and high nibbles 16-31, each byte's two values
// side by side (v[0] holds elements 0, 16, 1, 17; v[1] 2, 18, 3, 19; v[2]
// 4, 20, ...), which saves sorting them. A GEMV reading kNibblePairs pairs
// them with activations quantized in the same order (Q8Layout::kNibblePairs).
// kSubBlockPairs: the same for two 16-value sub-blocks of 8 code bytes,
// byte i of sub-block h holding elements 16h + i (low nibble) and 16h + 8
// + i (high): v[4h .. 4h + 3] hold sub-block h's values, each byte's two
// side by side (v[0] holds elements 0, 8, 1, 9; v[1] 2, 10, 3, 11; v[2] 4,
// 12, ...), paired with Q8Layout::kSubBlockPairs.
enum class CodeOrder { kElements, kNibblePairs, kSubBlockPairs };

// Types whose decoders can leave their values as kNibblePairs.
template <GgmlType T>
inline constexpr bool kHasNibblePairOrder = T == GgmlType::kIQ4_NL || T == GgmlType::kIQ4_XS || T == GgmlType::kMXFP4;

// Sixteen 4-bit table indices (16 bytes) to values, in element order.
__device__ __forceinline__ void LookupNibbles(const uint32_t* words, const int8_t* table_bytes, IntChunk& c) {
  uint32_t table[4];
  PackTable16(table_bytes, table);
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    const int2 values = Lookup16(words[k], table);
    c.v[k] = values.x;
    c.v[k + 4] = values.y;
  }
}

// Four entries of a 16-entry int8 table from `first`, each plus `offset`,
// as a little-endian word.
constexpr uint32_t OffsetTableWord(const int8_t (&table)[16], int offset, int first) {
  uint32_t word = 0;
  for (int i = 0; i < 4; ++i) word |= static_cast<uint32_t>(static_cast<uint8_t>(table[first + i] + offset)) << (8 * i);
  return word;
}
template <int kOffset, int kFirst>
inline constexpr uint32_t kFp4OffsetWord = OffsetTableWord(iq_constants::kValuesFp4, kOffset, kFirst);

// The offset the integer decoders give MXFP4's values in nibble order
// (LookupFp4InNibbleOrder), taken back through the chunk's min.
inline constexpr int kFp4PairOffset = 12;

// A word's eight 4-bit FP4 codes to kOffset + their table values
// (iq::kValuesFp4), in the order of Lookup16InNibbleOrder: .x holds those
// of nibbles 0-3, .y those of nibbles 4-7. The caller takes kOffset back
// through the chunk's min. Two 8-entry lookups with sign replication
// (BytePermSigned), no picking: codes 0-7 looked up among entries 0-7 give
// 0 where a code's bit 3 is set (every entry plus kOffset is non-negative),
// codes with bit 3 flipped looked up among entries 8-15 give 0 where it was
// clear. The two are joined with an add (no byte carries, as one of each
// pair of bytes is 0), which the compiler may issue on the FMA pipe (an OR
// keeps it all on the integer pipe, and measured slower). Against
// Lookup16InNibbleOrder this is 9 integer instructions per word instead of
// about 15.
template <int kOffset>
__device__ __forceinline__ int2 LookupFp4InNibbleOrder(uint32_t w) {
  static_assert(kOffset >= 12 && kOffset <= 115, "every entry plus kOffset in [0, 127]");
  constexpr uint32_t kClear0 = kFp4OffsetWord<kOffset, 0>, kClear1 = kFp4OffsetWord<kOffset, 4>;
  constexpr uint32_t kSet0 = kFp4OffsetWord<kOffset, 8>, kSet1 = kFp4OffsetWord<kOffset, 12>;
  const uint32_t flipped = w ^ 0x88888888u;
  return make_int2(static_cast<int>(BytePermSigned(kClear0, kClear1, w) + BytePermSigned(kSet0, kSet1, flipped)),
                   static_cast<int>(BytePermSigned(kClear0, kClear1, w >> 16) +
                                    BytePermSigned(kSet0, kSet1, flipped >> 16)));
}

// Whether a 16-entry table's entries 0-7 are negative and 8-15 plus one
// lie in [1, 127] (LookupIq4nlInNibbleOrder's assumption).
constexpr bool NegativeThenPositive(const int8_t (&table)[16]) {
  for (int i = 0; i < 16; ++i) {
    if (i < 8 ? table[i] >= 0 : table[i] < 0 || table[i] > 126) return false;
  }
  return true;
}

// A word's eight 4-bit IQ4_NL codes to their table values
// (iq::kValuesIq4nl), ordered as Lookup16InNibbleOrder orders them, from
// three lookups with sign replication and two adds instead of three
// lookups and a pick. Entries 0-7 are negative and 8-15 positive: codes
// looked up among entries 0-7 give the value where bit 3 is clear and -1
// (0xFF) where it is set; codes with bit 3 flipped among entries 8-15 plus
// one give 0 where it was clear and the value plus one where it was set.
// Their sum is each value, except that every set byte also carries 1 into
// the next byte, which a third lookup (1 where bit 3 is set) takes back;
// the adds may issue on the FMA pipe (see LookupFp4InNibbleOrder).
__device__ __forceinline__ int2 LookupIq4nlInNibbleOrder(uint32_t w) {
  static_assert(NegativeThenPositive(iq_constants::kValuesIq4nl), "entries 0-7 negative, 8-15 plus one in [1, 127]");
  constexpr uint32_t kClear0 = OffsetTableWord(iq_constants::kValuesIq4nl, 0, 0);
  constexpr uint32_t kClear1 = OffsetTableWord(iq_constants::kValuesIq4nl, 0, 4);
  constexpr uint32_t kSet0 = OffsetTableWord(iq_constants::kValuesIq4nl, 1, 8);
  constexpr uint32_t kSet1 = OffsetTableWord(iq_constants::kValuesIq4nl, 1, 12);
  constexpr uint32_t kOnes = 0x01010101u;
  const uint32_t flipped = w ^ 0x88888888u;
  auto half = [&](uint32_t codes, uint32_t flipped_codes) {
    const uint32_t carries = BytePermSigned(kOnes, kOnes, flipped_codes);
    return static_cast<int>(BytePermSigned(kClear0, kClear1, codes) + BytePermSigned(kSet0, kSet1, flipped_codes) -
                            carries * 256u);
  };
  return make_int2(half(w, flipped), half(w >> 16, flipped >> 16));
}

// Sixteen 4-bit codes (16 bytes) in CodeOrder::kNibblePairs, each word
// through `lookup` (LookupFp4InNibbleOrder or LookupIq4nlInNibbleOrder).
template <class WordLookup>
__device__ __forceinline__ void LookupNibblePairs(const uint32_t* words, WordLookup lookup, IntChunk& c) {
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    const int2 values = lookup(words[k]);
    c.v[2 * k] = values.x;
    c.v[2 * k + 1] = values.y;
  }
}

// IQ4_NL's 16-entry table for sixteen codes, in order O (IQ4_NL, IQ4_XS).
template <CodeOrder O>
__device__ __forceinline__ void LookupIq4nl(const uint32_t* words, IntChunk& c) {
  if constexpr (O == CodeOrder::kNibblePairs) {
    LookupNibblePairs(words, [](uint32_t w) { return LookupIq4nlInNibbleOrder(w); }, c);
  } else {
    LookupNibbles(words, iq::kValuesIq4nl, c);
  }
}

// Bit i of the low byte of `bits` to byte i (0 or 1), i < 4.
__device__ __forceinline__ uint32_t BitsToBytes(uint32_t bits) { return ((bits & 15u) * 0x00204081u) & 0x01010101u; }

// Decode<LoadMode>(block, chunk, IntChunk&) fills the chunk in element
// order; the kHasNibblePairOrder types also take Decode<LoadMode,
// CodeOrder>. kReadsPastFields: true when a read (LoadWords, LoadRun) may
// end past the block, so the GEMV decodes a tensor's last block with
// LoadMode::kExact.
// kHalfScales: true when the two halves of a chunk may have different
// scales or mins; when false the decoder fills d[0] == d[1] and m[0] ==
// m[1] (SetScales), and the GEMV may sum all 32 products as one integer
// (kSummedChunkDot).
template <GgmlType T>
struct IntBlock;

}  // namespace vt::gpu
