// Which activations of an F16/BF16 GEMM take the tiled kernel, and how many
// blocks of a cluster split k over each of its tiles (float_gemm.cu), as
// plain host code (no vendor include) so tests/pure holds them to a table
// on any machine. Where a choice "measured faster", docs/GPU_TUNING.md has
// the runs.
#pragma once

#include <cstdint>
#include <span>

namespace vt::gpu {

// Activations a tile of the tiled GEMM holds.
inline constexpr int kFloatTileBatch = 64;
// The most activations past the whole tiles that run on the 16-bit float
// GEMV's kernel (FloatMmaGemm); more take a last, partial tile.
inline constexpr int kFloatMmaGemmMost = 32;

// Of `batch` activations, how many the tiled GEMM takes (from the first):
// the whole tiles, and the rest too where more than kFloatMmaGemmMost are
// left.
inline int64_t TiledActivations(int64_t batch) {
  const int64_t rest = batch % kFloatTileBatch;
  return rest > kFloatMmaGemmMost ? batch : batch - rest;
}

// Fewest chunks of 32 values a block of a cluster that splits k keeps.
inline constexpr int kFloatTileMinBlockChunks = 16;
// What a block costs beyond its chunks, in steps of one chunk, when
// CheapestTileSplit weighs splits against each other: fitted to an H200's
// runs of every split, where 15 to 23 chose the fastest split measured at
// every batch.
inline constexpr int kFloatTileBlockOverhead = 18;

// The blocks of the cluster that owns each of `tiles` tiles of `chunks`
// chunks (1: no cluster). at_once[s - 1] is how many units of s blocks the
// device holds at once (s = 1: blocks without a cluster; a device without
// clusters passes one entry; an entry of 0 or less rules its size out).
// Of the sizes whose blocks keep at least kFloatTileMinBlockChunks chunks
// (and 1), the one that ends soonest by the count of waves of such units
// times a block's steps, its chunks and kFloatTileBlockOverhead; the
// smaller on a tie. So tiles too few to fill the device split k, and so do
// tiles whose last wave would leave it mostly idle.
inline int CheapestTileSplit(int64_t tiles, int chunks, std::span<const int64_t> at_once) {
  int split = 1;
  int64_t best = INT64_MAX;
  for (int blocks = 1; blocks <= static_cast<int>(at_once.size()); ++blocks) {
    if (blocks > 1 && chunks / blocks < kFloatTileMinBlockChunks) break;
    const int64_t units = at_once[static_cast<size_t>(blocks - 1)];
    if (units <= 0) continue;
    const int64_t cost = (tiles + units - 1) / units * ((chunks + blocks - 1) / blocks + kFloatTileBlockOverhead);
    if (cost < best) {
      best = cost;
      split = blocks;
    }
  }
  return split;
}

}  // namespace vt::gpu
