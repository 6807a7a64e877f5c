// What the launch code asks of the current device to size a grid: how many
// blocks of a kernel fit on it at once, and whether it launches thread block
// clusters. Each answer is asked of the runtime once per device (and
// kernel), not on every launch of a decode loop. CUDA only.
#pragma once

#include <atomic>
#include <cstdint>

#include "gpu_dialect.h"

#if !defined(VT_HIP)

namespace vt::gpu {

// The most devices whose answers are kept; a device past them is asked on
// every launch.
constexpr int kCachedDevices = 64;

// How many blocks of kKernel, launched with kThreads threads and no dynamic
// shared memory, fit on the current device at once (SMs x blocks per SM; at
// least the SM count).
template <auto kKernel, int kThreads>
cudaError_t ResidentBlocks(int64_t& resident) {
  static std::atomic<int64_t> known[kCachedDevices] = {};  // 0: not asked yet
  int device = 0, sms = 0, per_sm = 0;
  cudaError_t error = cudaGetDevice(&device);
  if (error != cudaSuccess) return error;
  if (device < kCachedDevices && (resident = known[device].load(std::memory_order_relaxed)) > 0) return cudaSuccess;
  error = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  if (error == cudaSuccess) error = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kKernel, kThreads, 0);
  if (error != cudaSuccess) return error;
  resident = static_cast<int64_t>(sms) * (per_sm > 0 ? per_sm : 1);
  if (device < kCachedDevices) known[device].store(resident, std::memory_order_relaxed);
  return cudaSuccess;
}

// How many clusters of `cluster_blocks` blocks (2, 4 or 8) of kKernel,
// launched with kThreads threads and no dynamic shared memory, fit on the
// current device at once: fewer than its resident blocks / cluster_blocks
// where the SMs of a GPC, which hold a cluster's blocks, leave some over.
template <auto kKernel, int kThreads>
cudaError_t ResidentClusters(int cluster_blocks, int64_t& clusters) {
  static std::atomic<int64_t> known[kCachedDevices][3] = {};  // by log2(cluster_blocks) - 1; 0: not asked yet
  const int size_index = cluster_blocks == 2 ? 0 : cluster_blocks == 4 ? 1 : 2;
  int device = 0, count = 0;
  cudaError_t error = cudaGetDevice(&device);
  if (error != cudaSuccess) return error;
  if (device < kCachedDevices && (clusters = known[device][size_index].load(std::memory_order_relaxed)) > 0) {
    return cudaSuccess;
  }
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(static_cast<unsigned>(cluster_blocks));
  config.blockDim = dim3(kThreads);
  cudaLaunchAttribute cluster{};
  cluster.id = cudaLaunchAttributeClusterDimension;
  cluster.val.clusterDim.x = static_cast<unsigned>(cluster_blocks);
  cluster.val.clusterDim.y = 1;
  cluster.val.clusterDim.z = 1;
  config.attrs = &cluster;
  config.numAttrs = 1;
  error = cudaOccupancyMaxActiveClusters(&count, reinterpret_cast<const void*>(kKernel), &config);
  if (error != cudaSuccess) return error;
  clusters = count;
  if (device < kCachedDevices && count > 0) known[device][size_index].store(count, std::memory_order_relaxed);
  return cudaSuccess;
}

// Whether the current device launches thread block clusters (compute
// capability 9.0 and later).
inline cudaError_t LaunchesClusters(bool& clusters) {
  static std::atomic<int> known[kCachedDevices] = {};  // 0: not asked yet, 1: no, 2: yes
  int device = 0, value = 0;
  cudaError_t error = cudaGetDevice(&device);
  if (error != cudaSuccess) return error;
  if (device < kCachedDevices && (value = known[device].load(std::memory_order_relaxed)) != 0) {
    clusters = value == 2;
    return cudaSuccess;
  }
  error = cudaDeviceGetAttribute(&value, cudaDevAttrClusterLaunch, device);
  if (error != cudaSuccess) return error;
  clusters = value != 0;
  if (device < kCachedDevices) known[device].store(clusters ? 2 : 1, std::memory_order_relaxed);
  return cudaSuccess;
}

}  // namespace vt::gpu

#endif
