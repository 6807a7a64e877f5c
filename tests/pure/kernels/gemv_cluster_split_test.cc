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

}  // namespace
}  // namespace vt::gpu
