// Splitting k between the blocks of a thread block cluster (Hopper):
// where a GEMV's rows are too few to fill the device, a cluster of 2 to 8
// consecutive blocks along x owns one block's rows, each block a run of k,
// and the blocks add their sums through each other's shared memory, so y
// is still written once, in a fixed order. The kernel's side
// (ThisClusterPlace, SyncCluster, InClusterBlock) and the launch's
// (ChooseClusterSplit, CUDA only, by gemv_cluster_split.h's rule; on HIP,
// and before sm_90, a block is a cluster of one).
#pragma once

#include "gemv_cluster_split.h"
#include "gpu_dialect.h"
#include "resident_blocks.cuh"

#if !defined(VT_HIP)
#include <cooperative_groups.h>
#endif

namespace vt::gpu {

// This block's cluster: its blocks, this block's rank among them and the
// cluster's index along x; without kClustered (or before sm_90) a cluster of
// this block alone.
struct ClusterPlace {
  int blocks, rank, index;
};
template <bool kClustered>
__device__ __forceinline__ ClusterPlace ThisClusterPlace() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  if constexpr (kClustered) {
    uint32_t blocks, rank, index;
    asm("mov.u32 %0, %%cluster_nctarank;\n" : "=r"(blocks));
    asm("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(rank));
    asm("mov.u32 %0, %%clusterid.x;\n" : "=r"(index));
    return {static_cast<int>(blocks), static_cast<int>(rank), static_cast<int>(index)};
  }
#endif
  return {1, 0, static_cast<int>(blockIdx.x)};
}
// Waits until every thread of the cluster's blocks has arrived here (with
// their shared memory writes before it visible to all of them).
__device__ __forceinline__ void SyncCluster() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  cooperative_groups::this_cluster().sync();
#endif
}
// `shared` (a __shared__ variable's address) in block `rank` of the cluster.
__device__ __forceinline__ const float* InClusterBlock(const float* shared, int rank) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  return cooperative_groups::this_cluster().map_shared_rank(shared, rank);
#else
  (void)rank;
  return shared;
#endif
}

// The run of `chunks` that block `rank` of `blocks` takes.
__device__ __forceinline__ int RunStart(int chunks, int rank, int blocks) {
  return static_cast<int>(static_cast<int64_t>(chunks) * rank / blocks);
}

#if !defined(VT_HIP)

// The most blocks a cluster that splits k holds.
constexpr int kMaxClusterSplit = kMaxClusterBlocks;

// What the device holds at once, as LargestClusterSplit and
// CheapestTileSplit read it: at_once[0] blocks of kWhole (the kernel
// without clusters), and at_once[s - 1] clusters of s blocks of kSplit (its
// cluster kernel) for s = 2 .. `sizes` (at most kMaxClusterSplit); both of
// kThreads threads and kSharedBytes of dynamic shared memory, which asking
// also allows each of them (ResidentBlocks). `count` is how many entries
// hold answers: 1 on a device without clusters, else `sizes`.
template <auto kWhole, auto kSplit, int kThreads, int kSharedBytes = 0>
cudaError_t UnitsAtOnce(int sizes, int64_t (&at_once)[kMaxClusterSplit], int& count) {
  count = 1;
  if (const cudaError_t error = ResidentBlocks<kWhole, kThreads, kSharedBytes>(at_once[0]); error != cudaSuccess) {
    return error;
  }
  if constexpr (kSharedBytes > 0) {
    int64_t split_blocks = 0;
    if (const cudaError_t error = ResidentBlocks<kSplit, kThreads, kSharedBytes>(split_blocks); error != cudaSuccess) {
      return error;
    }
  }
  bool clusters = false;
  if (const cudaError_t error = LaunchesClusters(clusters); error != cudaSuccess || !clusters) return error;
  const int wanted = sizes < kMaxClusterSplit ? sizes : kMaxClusterSplit;
  for (int size = 2; size <= wanted; ++size) {
    if (const cudaError_t error = ResidentClusters<kSplit, kThreads, kSharedBytes>(size, at_once[size - 1]);
        error != cudaSuccess) {
      return error;
    }
  }
  count = wanted > 1 ? wanted : 1;
  return cudaSuccess;
}

// The blocks of the cluster that owns each of a launch's `blocks` blocks'
// rows, as `rule` chooses it (LargestClusterSplit or
// FewestStepsClusterSplit, gemv_cluster_split.h, called with what the
// device holds at once, UnitsAtOnce's std::span<const int64_t>) among
// kSplit's clusters of up to `most` blocks; 1 without asking where the
// rows' blocks of kWhole alone fill the device.
template <auto kWhole, auto kSplit, int kThreads, class Rule>
cudaError_t ChooseClusterSplit(int64_t blocks, int most, const Rule& rule, int& split) {
  split = 1;
  int64_t whole = 0;
  if (const cudaError_t error = ResidentBlocks<kWhole, kThreads>(whole); error != cudaSuccess) return error;
  // Rows that fill the device alone take no cluster, and a decode loop's
  // launches of them ask the runtime nothing about clusters (a size it
  // holds none of would be asked again on every launch).
  if (blocks >= whole) return cudaSuccess;
  int64_t at_once[kMaxClusterSplit] = {};
  int count = 1;
  if (const cudaError_t error = UnitsAtOnce<kWhole, kSplit, kThreads>(most, at_once, count); error != cudaSuccess) {
    return error;
  }
  split = rule(std::span<const int64_t>(at_once, static_cast<size_t>(count)));
  return cudaSuccess;
}

#endif

}  // namespace vt::gpu
