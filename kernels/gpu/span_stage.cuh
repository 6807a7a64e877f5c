// Staging a warp's span of weight bytes through shared memory. Blocks of 17,
// 18, 34 or 210 bytes make per-lane loads straddle cache lines; instead the
// warp reads the span as whole 16-byte pieces (every load instruction
// covering contiguous lines), parks them in shared memory, and each lane
// then decodes its block from there. The copy keeps each byte's address
// modulo 16, so alignment facts about blocks still hold in the copy.
#pragma once

#include "gpu_dialect.h"

namespace vt::gpu {

// Pieces each lane holds for a span of at most `kSpanBytes` bytes that may
// start anywhere within a 16-byte piece.
template <int kSpanBytes>
inline constexpr int kPiecesPerLane = ((kSpanBytes + 30) / 16 + kWarpSize - 1) / kWarpSize;

// Shared-memory bytes one staged span takes (with slack so decoders may read
// whole words past the span's last byte).
template <int kSpanBytes>
inline constexpr int kStagedBytes = kPiecesPerLane<kSpanBytes> * kWarpSize * 16 + 16;

// The bytes of a 16-byte piece before `limit`, read one by one; zero after.
__device__ __forceinline__ uint4 PieceUpTo(const uint8_t* piece, const uint8_t* limit) {
  uint32_t words[4] = {0, 0, 0, 0};
  for (int i = 0; piece + i < limit && i < 16; ++i) words[i / 4] |= static_cast<uint32_t>(piece[i]) << (8 * (i % 4));
  return make_uint4(words[0], words[1], words[2], words[3]);
}

// Calls take(j, index, piece) for this lane's pieces of [begin, begin +
// bytes): the 16-byte pieces from begin rounded down to 16, piece `index`
// = lane + 32 j of them.
template <int kPerLane, class Take>
__device__ __forceinline__ void ForEachLanePiece(const uint8_t* begin, int bytes, Take take) {
  const int lane = static_cast<int>(threadIdx.x % kWarpSize);
  const uintptr_t first = reinterpret_cast<uintptr_t>(begin) & ~uintptr_t{15};
  const int count = static_cast<int>((reinterpret_cast<uintptr_t>(begin) + bytes + 15 - first) / 16);
#pragma unroll
  for (int j = 0; j < kPerLane; ++j) {
    const int index = lane + kWarpSize * j;
    if (index < count) take(j, index, reinterpret_cast<const uint8_t*>(first) + 16 * index);
  }
}

// This lane's pieces of [begin, begin + bytes), read with streaming loads;
// `limit` is one past the last byte that may be read (the tensor's end): a
// piece that crosses it is read byte by byte, up to it.
template <int kPerLane>
__device__ __forceinline__ void LoadSpan(const uint8_t* begin, int bytes, const uint8_t* limit, uint4 (&pieces)[kPerLane]) {
  ForEachLanePiece<kPerLane>(begin, bytes, [&](int j, int, const uint8_t* piece) {
    pieces[j] = piece + 16 <= limit ? LoadStreaming(reinterpret_cast<const uint4*>(piece)) : PieceUpTo(piece, limit);
  });
}

// Where byte 0 of a span starting at `begin` lands in its staged copy.
__device__ __forceinline__ const uint8_t* StagedStart(const uint8_t* begin, const uint4* staged) {
  return reinterpret_cast<const uint8_t*>(staged) + (reinterpret_cast<uintptr_t>(begin) & 15);
}

// Writes the pieces to `staged` (16-byte aligned shared memory). Byte b of
// the span lands at staged + (begin % 16) + b; returns that start.
template <int kPerLane>
__device__ __forceinline__ const uint8_t* StoreSpan(const uint8_t* begin, const uint4 (&pieces)[kPerLane],
                                                    uint4* staged) {
  const int lane = static_cast<int>(threadIdx.x % kWarpSize);
#pragma unroll
  for (int j = 0; j < kPerLane; ++j) staged[lane + kWarpSize * j] = pieces[j];
  return StagedStart(begin, staged);
}

// One 16-byte piece (both addresses 16-byte aligned) copied into shared
// memory by cp.async (elsewhere a plain copy); see CopySpanAsync for what
// the caller then owes.
__device__ __forceinline__ void CopyPieceAsync(uint4* staged, const void* piece) {
#if !defined(VT_HIP) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(static_cast<unsigned>(__cvta_generic_to_shared(staged))),
               "l"(piece)
               : "memory");
#else
  *staged = *static_cast<const uint4*>(piece);
#endif
}

// The same pieces copied into `staged` (placed as StoreSpan places them) by
// cp.async, which writes shared memory without passing through registers
// (CUDA, sm_80 and later; elsewhere a plain copy); a piece that crosses
// `limit` is read byte by byte and stored directly. The caller commits a
// span's copies as one group (CommitSpanCopies) and waits for the group
// (WaitForSpanCopies), then syncs the warp, before any lane reads them.
// The copies write shared memory behind the compiler's back, so each of
// these asm statements clobbers memory: no shared access moves across it.
template <int kPerLane>
__device__ __forceinline__ void CopySpanAsync(const uint8_t* begin, int bytes, const uint8_t* limit, uint4* staged) {
  ForEachLanePiece<kPerLane>(begin, bytes, [&](int, int index, const uint8_t* piece) {
    if (piece + 16 <= limit) {
      CopyPieceAsync(staged + index, piece);
    } else {
      staged[index] = PieceUpTo(piece, limit);
    }
  });
}
__device__ __forceinline__ void CommitSpanCopies() {
#if !defined(VT_HIP) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}
// Waits until at most kPending of this lane's latest committed groups are
// still in flight.
template <int kPending>
__device__ __forceinline__ void WaitForSpanCopies() {
#if !defined(VT_HIP) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending) : "memory");
#endif
}

}  // namespace vt::gpu
