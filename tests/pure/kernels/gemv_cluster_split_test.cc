// The GEMV's cluster split (kernels/gpu/gemv_cluster_split.h): how many
// blocks of a cluster split k over a launch's rows, the largest of every
// size or of powers of two, or the one of fewest steps a block, against
// hand-worked counts of what a device holds at once.
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

TEST_CASE("Steps of the longest run", "[kernels][gpu]") {
  CHECK(StepsOfLongestRun({256, 32}, 1) == 8);
  CHECK(StepsOfLongestRun({256, 32}, 2) == 4);
  CHECK(StepsOfLongestRun({256, 32}, 3) == 3);  // runs of 85 and 86 chunks
  CHECK(StepsOfLongestRun({256, 64}, 3) == 2);
  CHECK(StepsOfLongestRun({512, 32}, 5) == 4);  // runs of 102 and 103
  CHECK(StepsOfLongestRun({16, 1}, 5) == 4);
  CHECK(StepsOfLongestRun({1, 64}, 1) == 1);
}

TEST_CASE("The fewest-steps split takes the smallest cluster of the fewest steps that fits", "[kernels][gpu]") {
  // kDevice holds 215 clusters of 3 and 162 of 4.
  CHECK(FewestStepsClusterSplit(660, 8, kDevice, {256, 32}) == 1);  // the rows fill the device
  CHECK(FewestStepsClusterSplit(192, 8, kDevice, {256, 32}) == 3);  // 3 steps; 4 does not fit
  CHECK(FewestStepsClusterSplit(192, 8, kDevice, {256, 64}) == 2);  // 2 steps of 64 either way
  CHECK(FewestStepsClusterSplit(160, 8, kDevice, {512, 32}) == 4);  // 4 steps
  CHECK(FewestStepsClusterSplit(128, 8, kDevice, {512, 32}) == 4);  // 5 fits, but 4 steps too
  CHECK(FewestStepsClusterSplit(127, 8, kDevice, {640, 32}) == 5);  // 4 steps against 5 of 4
  CHECK(FewestStepsClusterSplit(128, 8, kDevice, {640, 32}) == 4);  // 128 of 5 fill every place
  CHECK(FewestStepsClusterSplit(64, 8, kDevice, {4096, 32}) == 8);
  CHECK(FewestStepsClusterSplit(64, 3, kDevice, {4096, 32}) == 3);  // up to `most`
  CHECK(FewestStepsClusterSplit(64, 8, kDevice, {32, 32}) == 1);    // one step whole
  // A size the device holds none of is passed over; no clusters at all.
  CHECK(FewestStepsClusterSplit(150, 8, std::vector<int64_t>{660, 330, 0, 162}, {768, 32}) == 4);
  CHECK(FewestStepsClusterSplit(100, 8, std::vector<int64_t>{660}, {4096, 32}) == 1);
  CHECK(FewestStepsClusterSplit(100, 8, std::vector<int64_t>{}, {4096, 32}) == 1);
}

TEST_CASE("The block types' split on an H200's counts", "[kernels][gpu]") {
  // The launches' own blocks and least runs of k there, each with the size
  // measured faster between powers of two and the largest size that fits
  // (LargestClusterSplit), where the two differ. Q4_0 walks a pass of 32
  // chunks a step; Q5_0, NVFP4 and IQ4_NL unroll theirs by two.
  constexpr ClusterSizes kAny = ClusterSizes::kAny;
  // 256 blocks of 3072 rows at k = 8192, Q4_0: 3 by 2-6%.
  CHECK(LargestClusterSplit(256, 4, kH200Block, kAny) == 3);
  CHECK(FewestStepsClusterSplit(256, 4, kH200Block, {256, 32}) == 3);
  // 299 of 3584 rows at k = 18944, Q4_0: 3 by 17%.
  CHECK(FewestStepsClusterSplit(299, 9, kH200Block, {592, 32}) == 3);
  // 320 of 2560 rows at k = 9728, Q5_0 and NVFP4: 3 by 17-26%.
  CHECK(FewestStepsClusterSplit(320, 4, kH200Block, {304, 64}) == 3);
  // 171 of 2048 rows at k = 28672, Q4_0: 5 by 8%, every split forced (3%
  // as CUDA graphs, which time these short calls steadily).
  CHECK(FewestStepsClusterSplit(171, 14, kH200Block, {896, 32}) == 5);
  // The same rows of IQ4_XS, whose kernels the device holds fewer of: 171
  // clusters of 5 fill every place, and 4 read 1.12x 5's default call.
  const std::vector<int64_t> kH200Iq4xs = {924, 462, 287, 216, 171, 141, 124, 107};
  CHECK(FewestStepsClusterSplit(171, 14, kH200Iq4xs, {896, 64}) == 4);
  // 256 of 2048 rows at k = 8192, Q5_0 and NVFP4: 2, as 3 (the largest)
  // saves no step: as CUDA graphs 3 read level for Q5_0 and 4% slower for
  // NVFP4 (a fifth slower in the stream, whose figures here moved up to 2x).
  CHECK(LargestClusterSplit(256, 4, kH200Block, kAny) == 3);
  CHECK(FewestStepsClusterSplit(256, 4, kH200Block, {256, 64}) == 2);
  // 171 of 2048 rows at k = 16384, Q4_0: 4, as 5 (the largest) saves no
  // step and lost by a twentieth (8% as CUDA graphs).
  CHECK(LargestClusterSplit(171, 8, kH200Block, kAny) == 5);
  CHECK(FewestStepsClusterSplit(171, 8, kH200Block, {512, 32}) == 4);
  // The same either way: 342 blocks of 4096 rows at k = 14336, 214 of 2560
  // rows at k = 9728, 640 of 5120 rows at k = 13824 (not even clusters of 2
  // fit), and 1024 of 8192 rows, which fill the device.
  CHECK(FewestStepsClusterSplit(342, 7, kH200Block, {448, 32}) == 2);
  CHECK(FewestStepsClusterSplit(214, 4, kH200Block, {304, 32}) == 4);
  CHECK(FewestStepsClusterSplit(640, 6, kH200Block, {432, 32}) == 1);
  CHECK(FewestStepsClusterSplit(1024, 4, kH200Block, {256, 32}) == 1);
}

}  // namespace
}  // namespace vt::gpu
