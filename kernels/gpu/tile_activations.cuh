// Where a step of the tensor-core kernel (tensor_core_step.cuh) reads its
// activations: straight from the quantizer's workspace (kMmaTiles and the
// other tile layouts of activation_q8.cuh), or from a copy of the step's
// part of it that the block's threads make in shared memory by cp.async,
// one step ahead, for a block whose warps take the same steps side by side
// (kTileGroup). CUDA only (sm_80 and later).
#pragma once

#include "gemv_params.cuh"
#include "span_stage.cuh"

namespace vt::gpu {

#if !defined(VT_HIP)

// A step's activations as one lane reads them: for chunk i of the step and
// tile c of 8 activations, the lane's 8 code bytes (B's column g) at
// codes[c * tile_pieces + i * kWarpSize] and the scale records of
// activations 2t and 2t + 1 from records[c * tile_records + i *
// kQ8TileColumns].
struct TileActivations {
  const uint2* codes;
  const float4* records;
  int64_t tile_pieces;
  int64_t tile_records;
};

// The activations of the step whose first chunk is `first`, in p's workspace.
__device__ __forceinline__ TileActivations WorkspaceActivations(const GemvParams& p, int first) {
  const int lane = static_cast<int>(threadIdx.x % kWarpSize);
  return {reinterpret_cast<const uint2*>(p.xq.codes) + static_cast<int64_t>(first) * kWarpSize + lane,
          p.xq.scales + static_cast<int64_t>(first) * kQ8TileColumns + 2 * (lane % 4),
          static_cast<int64_t>(p.chunks) * kWarpSize, static_cast<int64_t>(p.chunks) * kQ8TileColumns};
}

// A block's shared-memory copy of one step's activations, kStepChunks
// chunks of each of kTiles tiles: the codes of tile c, chunk i at piece
// (c kStepChunks + i) 16 (a chunk's 256 code bytes are 16 pieces of 16),
// then the records at kCodePieces + (c kStepChunks + i) 8 (one a piece).
template <int kTiles, int kStepChunks>
struct ActivationStage {
  static constexpr int kChunkCodePieces = kQ8TileColumns * 32 / 16;
  static constexpr int kCodePieces = kTiles * kStepChunks * kChunkCodePieces;
  static constexpr int kPieces = kCodePieces + kTiles * kStepChunks * kQ8TileColumns;
  static constexpr int kBytes = kPieces * 16;

  // The copy at `stage` as a lane reads it.
  __device__ static TileActivations View(const uint4* stage) {
    const int lane = static_cast<int>(threadIdx.x % kWarpSize);
    return {reinterpret_cast<const uint2*>(stage) + lane,
            reinterpret_cast<const float4*>(stage + kCodePieces) + 2 * (lane % 4), kStepChunks * kWarpSize,
            kStepChunks * kQ8TileColumns};
  }

  // Queues this thread's share (of the block's kThreads) of copying the
  // step from chunk `first` into `stage` by cp.async, then commits it as one
  // group. Chunks past the row's end and tiles past the batch are not
  // copied (nothing reads them). The caller waits for the group
  // (WaitForSpanCopies) and syncs the block before any thread reads it.
  template <int kThreads>
  __device__ static void Copy(const GemvParams& p, int first, uint4* stage) {
    constexpr int kTilePieces = kStepChunks * (kChunkCodePieces + kQ8TileColumns);
    const int chunks = min(kStepChunks, p.chunks - first);
    const int tiles = (p.batch + kQ8TileColumns - 1) / kQ8TileColumns;
    const uint4* codes = reinterpret_cast<const uint4*>(p.xq.codes);
#pragma unroll
    for (int j = 0; j < (kTiles * kTilePieces + kThreads - 1) / kThreads; ++j) {
      const int index = static_cast<int>(threadIdx.x) + kThreads * j;
      const int c = index / kTilePieces, in_tile = index % kTilePieces;
      if (index >= kTiles * kTilePieces || c >= tiles) continue;
      const int64_t tile_chunk = static_cast<int64_t>(c) * p.chunks + first;
      if (in_tile < kStepChunks * kChunkCodePieces) {
        if (in_tile / kChunkCodePieces >= chunks) continue;
        CopyPieceAsync(stage + c * kStepChunks * kChunkCodePieces + in_tile,
                       codes + tile_chunk * kChunkCodePieces + in_tile);
      } else {
        const int record = in_tile - kStepChunks * kChunkCodePieces;
        if (record / kQ8TileColumns >= chunks) continue;
        CopyPieceAsync(stage + kCodePieces + c * kStepChunks * kQ8TileColumns + record,
                       reinterpret_cast<const uint4*>(p.xq.scales + tile_chunk * kQ8TileColumns) + record);
      }
    }
    CommitSpanCopies();
  }
};

#endif

}  // namespace vt::gpu
