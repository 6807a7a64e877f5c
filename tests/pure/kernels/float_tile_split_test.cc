// The F16/BF16 tiled GEMM's host decisions (kernels/gpu/float_tile_split.h):
// which activations take the tiles, and how many blocks of a cluster split
// k, against the splits an H200 measured fastest (GPU_TUNING.md's table,
// every split forced at every batch) and against hand-worked cases.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "float_tile_split.h"

namespace vt::gpu {
namespace {

TEST_CASE("The tiled GEMM takes whole tiles, and a partial one past 32 left", "[kernels][gpu]") {
  CHECK(TiledActivations(64) == 64);
  CHECK(TiledActivations(200) == 192);  // 8 left: the GEMV's kernel
  CHECK(TiledActivations(96) == 64);    // 32 left: still the GEMV's kernel
  CHECK(TiledActivations(97) == 97);    // 33 left: a partial tile
  CHECK(TiledActivations(100) == 100);
  CHECK(TiledActivations(32) == 0);
  CHECK(TiledActivations(33) == 33);
  CHECK(TiledActivations(1) == 0);
}

// An H200's units held at once of this kernel (82 KB of shared memory, two
// blocks a SM): 264 blocks, then clusters of 2 to 8 blocks.
const std::vector<int64_t> kH200 = {264, 132, 79, 62, 47, 39, 32, 30};

TEST_CASE("The tile split is the fastest an H200 measured at k = 8192", "[kernels][gpu]") {
  // 9600 rows (75 tiles of 128) times batch / 64 tiles of activations, 256
  // chunks: the split measured fastest at each batch (at 128, 3 and 8 were
  // level; at 1024, 1 and 2).
  struct Row {
    int batch, fastest;
  };
  for (const Row row : {Row{64, 3}, Row{128, 3}, Row{192, 1}, Row{256, 4}, Row{384, 1}, Row{512, 2}, Row{768, 2},
                        Row{1024, 1}, Row{2048, 1}}) {
    CAPTURE(row.batch);
    CHECK(CheapestTileSplit(75 * (row.batch / 64), 256, kH200) == row.fastest);
  }
}

TEST_CASE("The tile split keeps each block's run of k and the device's limits", "[kernels][gpu]") {
  // Two tiles fill no device: the largest split whose blocks keep 16 chunks.
  CHECK(CheapestTileSplit(2, 64, kH200) == 4);
  CHECK(CheapestTileSplit(2, 50, kH200) == 3);
  CHECK(CheapestTileSplit(2, 113, kH200) == 7);
  CHECK(CheapestTileSplit(2, 263, kH200) == 8);
  CHECK(CheapestTileSplit(2, 31, kH200) == 1);  // two blocks would keep 15
  // A device without clusters, or one that holds none of a size.
  CHECK(CheapestTileSplit(2, 256, std::vector<int64_t>{264}) == 1);
  CHECK(CheapestTileSplit(2, 256, std::vector<int64_t>{264, 132, 79, 62, 47, 39, 32, 0}) == 7);
  // On a tie the smaller split: 3 tiles of 36 chunks, 2 blocks at once
  // (two waves of 36 + 18 steps) or 1 cluster of 2 (three of 18 + 18).
  CHECK(CheapestTileSplit(3, 36, std::vector<int64_t>{2, 1}) == 1);
  CHECK(CheapestTileSplit(3, 36, std::vector<int64_t>{2, 2}) == 2);  // two waves of 36: cheaper
  // 4 tiles of 40 chunks: 4 blocks at once cost 58 steps; clusters of 2,
  // two at once, 2 x (20 + 18) = 76: 1. With 4 clusters of 2 at once, 38: 2.
  CHECK(CheapestTileSplit(4, 40, std::vector<int64_t>{4, 2}) == 1);
  CHECK(CheapestTileSplit(4, 40, std::vector<int64_t>{4, 4}) == 2);
}

}  // namespace
}  // namespace vt::gpu
