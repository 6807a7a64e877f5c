// The GEMV's cluster split (kernels/gpu/gemv_cluster_split.h): how many
// blocks of a cluster split k over a launch's rows, of every size or of
// powers of two, against hand-worked counts of what a device holds at once.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "gemv_cluster_split.h"

namespace vt::gpu {
namespace {

// A device that holds 660 blocks at once (five a SM on 132 SMs), and
// fewer clusters than 660 / size where a cluster's blocks must share a GPC.
const std::vector<int64_t> kDevice = {660, 330, 215, 162, 128, 105, 90, 80};

TEST_CASE("Rows that fill the device take no cluster", "[kernels][gpu]") {
  CHECK(LargestClusterSplit(660, 8, kDevice, ClusterSizes::kAny) == 1);
  CHECK(LargestClusterSplit(2000, 8, kDevice, ClusterSizes::kAny) == 1);
  CHECK(LargestClusterSplit(331, 8, kDevice, ClusterSizes::kAny) == 1);  // not even 331 clusters of 2 fit
}

TEST_CASE("Rows too few take the largest cluster the device holds one of a block at once", "[kernels][gpu]") {
  CHECK(LargestClusterSplit(330, 8, kDevice, ClusterSizes::kAny) == 2);
  CHECK(LargestClusterSplit(256, 8, kDevice, ClusterSizes::kAny) == 2);
  CHECK(LargestClusterSplit(192, 8, kDevice, ClusterSizes::kAny) == 3);  // 215 of 3 fit, 162 of 4 do not
  CHECK(LargestClusterSplit(160, 8, kDevice, ClusterSizes::kAny) == 4);
  CHECK(LargestClusterSplit(128, 8, kDevice, ClusterSizes::kAny) == 5);
  CHECK(LargestClusterSplit(96, 8, kDevice, ClusterSizes::kAny) == 6);
  CHECK(LargestClusterSplit(91, 8, kDevice, ClusterSizes::kAny) == 6);
  CHECK(LargestClusterSplit(90, 8, kDevice, ClusterSizes::kAny) == 7);
  CHECK(LargestClusterSplit(64, 8, kDevice, ClusterSizes::kAny) == 8);
  CHECK(LargestClusterSplit(1, 8, kDevice, ClusterSizes::kAny) == 8);
}

TEST_CASE("The cluster split keeps to the blocks' least run of k and the device's sizes", "[kernels][gpu]") {
  CHECK(LargestClusterSplit(64, 4, kDevice, ClusterSizes::kAny) == 4);
  CHECK(LargestClusterSplit(64, 3, kDevice, ClusterSizes::kAny) == 3);
  CHECK(LargestClusterSplit(64, 1, kDevice, ClusterSizes::kAny) == 1);
  CHECK(LargestClusterSplit(64, 0, kDevice, ClusterSizes::kAny) == 1);
  // Fewer sizes passed (a launch that asks only up to `most`).
  CHECK(LargestClusterSplit(64, 8, std::vector<int64_t>{660, 330, 215}, ClusterSizes::kAny) == 3);
  // A device without clusters, and none passed at all.
  CHECK(LargestClusterSplit(100, 8, std::vector<int64_t>{660}, ClusterSizes::kAny) == 1);
  CHECK(LargestClusterSplit(100, 8, std::vector<int64_t>{}, ClusterSizes::kAny) == 1);
  // A size the device holds none of is passed over, not a stop.
  CHECK(LargestClusterSplit(150, 8, std::vector<int64_t>{660, 330, 0, 162}, ClusterSizes::kAny) == 4);
  CHECK(LargestClusterSplit(150, 8, std::vector<int64_t>{660, 330, 100, 162, 140}, ClusterSizes::kAny) == 4);
}

TEST_CASE("Powers of two only skip the sizes between them", "[kernels][gpu]") {
  constexpr ClusterSizes kPowers = ClusterSizes::kPowersOfTwo;
  CHECK(LargestClusterSplit(660, 8, kDevice, kPowers) == 1);
  CHECK(LargestClusterSplit(256, 8, kDevice, kPowers) == 2);
  CHECK(LargestClusterSplit(192, 8, kDevice, kPowers) == 2);  // 3 would fit
  CHECK(LargestClusterSplit(128, 8, kDevice, kPowers) == 4);  // 5 would fit
  CHECK(LargestClusterSplit(90, 8, kDevice, kPowers) == 4);   // 7 would fit
  CHECK(LargestClusterSplit(64, 8, kDevice, kPowers) == 8);
  CHECK(LargestClusterSplit(64, 7, kDevice, kPowers) == 4);
  CHECK(LargestClusterSplit(64, 3, kDevice, kPowers) == 2);
  CHECK(LargestClusterSplit(150, 8, std::vector<int64_t>{660, 0, 200, 162}, kPowers) == 4);
}

// An H200's counts, as the launches asked them there: blocks of the 16-bit
// float GEMV's kernel without clusters, then clusters of 2 to 8 of its
// cluster kernel; and the same of the block types' batch-1 kernel at one
// of its row counts a warp.
const std::vector<int64_t> kH200Float = {660, 330, 203, 154, 124, 101, 84, 77};
const std::vector<int64_t> kH200Block = {1056, 528, 327, 248, 193, 163, 139, 124};

TEST_CASE("The float GEMV's split is the fastest an H200 measured at a model's shapes", "[kernels][gpu]") {
  // Every split forced at batches 2 and 8 (GPU_TUNING.md's table): 2048,
  // 3072 and 1536 rows at k = 8192 or 8960 (256 or 280 chunks, so up to 8
  // a cluster), and 4096 x 4096 (128 chunks, up to 4). At 1536 rows BF16
  // read 5 faster by 1-3%; the rest read the split here fastest.
  CHECK(LargestClusterSplit(128, 8, kH200Float, ClusterSizes::kAny) == 4);
  CHECK(LargestClusterSplit(192, 8, kH200Float, ClusterSizes::kAny) == 3);
  CHECK(LargestClusterSplit(96, 8, kH200Float, ClusterSizes::kAny) == 6);
  CHECK(LargestClusterSplit(256, 4, kH200Float, ClusterSizes::kAny) == 2);
}

TEST_CASE("The block types' split on an H200's counts", "[kernels][gpu]") {
  // The launches' own choices printed there: 171 blocks of 2048 rows at
  // k = 28672 (up to 14), 256 of 3072 rows at k = 8192 (up to 4, where
  // every size would take 3), 342 of 4096 rows at k = 14336 (up to 7), and
  // 1024 of 8192 rows, which fill the device.
  constexpr ClusterSizes kPowers = ClusterSizes::kPowersOfTwo;
  CHECK(LargestClusterSplit(171, 14, kH200Block, kPowers) == 4);
  CHECK(LargestClusterSplit(256, 4, kH200Block, kPowers) == 2);
  CHECK(LargestClusterSplit(256, 4, kH200Block, ClusterSizes::kAny) == 3);
  CHECK(LargestClusterSplit(342, 7, kH200Block, kPowers) == 2);
  CHECK(LargestClusterSplit(1024, 4, kH200Block, kPowers) == 1);
}

}  // namespace
}  // namespace vt::gpu
