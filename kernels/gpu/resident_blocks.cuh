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

// `value` for the current device: known[device] where a positive answer is
// kept there, else query(device, value), kept where positive.
template <class Query>
cudaError_t AskOncePerDevice(std::atomic<int64_t> (&known)[kCachedDevices], int64_t& value, Query query) {
  int device = 0;
  cudaError_t error = cudaGetDevice(&device);
  if (error != cudaSuccess) return error;
  if (device < kCachedDevices && (value = known[device].load(std::memory_order_relaxed)) > 0) return cudaSuccess;
  error = query(device, value);
  if (error == cudaSuccess && value > 0 && device < kCachedDevices) {
    known[device].store(value, std::memory_order_relaxed);
  }
  return error;
}

// How many blocks of kKernel, launched with kThreads threads and
// kSharedBytes of dynamic shared memory, fit on the current device at once
// (SMs x blocks per SM; at least the SM count). With kSharedBytes it first
// allows kKernel that much dynamic shared memory on the device
// (cudaFuncAttributeMaxDynamicSharedMemorySize), which a launch of more
// than 48 KB needs: call it before such a launch.
template <auto kKernel, int kThreads, int kSharedBytes = 0>
cudaError_t ResidentBlocks(int64_t& resident) {
  static std::atomic<int64_t> known[kCachedDevices] = {};
  return AskOncePerDevice(known, resident, [](int device, int64_t& value) {
    int sms = 0, per_sm = 0;
    cudaError_t error = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (error == cudaSuccess && kSharedBytes > 0) {
      error = cudaFuncSetAttribute(kKernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes);
    }
    if (error == cudaSuccess) {
      error = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kKernel, kThreads, kSharedBytes);
    }
    value = static_cast<int64_t>(sms) * (per_sm > 0 ? per_sm : 1);
    return error;
  });
}

// The most blocks a thread block cluster holds here (the portable limit).
constexpr int kMaxClusterBlocks = 8;

// How many clusters of `cluster_blocks` blocks (2 to kMaxClusterBlocks) of
// kKernel, launched with kThreads threads and kSharedBytes of dynamic
// shared memory (allowed it first by ResidentBlocks), fit on the current
// device at once: fewer than its resident blocks / cluster_blocks where the
// SMs of a GPC, which hold a cluster's blocks, leave some over.
template <auto kKernel, int kThreads, int kSharedBytes = 0>
cudaError_t ResidentClusters(int cluster_blocks, int64_t& clusters) {
  static std::atomic<int64_t> known[kMaxClusterBlocks - 1][kCachedDevices] = {};  // by cluster size, from 2
  if (cluster_blocks < 2 || cluster_blocks > kMaxClusterBlocks) return cudaErrorInvalidValue;
  auto query = [cluster_blocks](int, int64_t& value) {
    cudaLaunchAttribute cluster = ClusterOf(static_cast<unsigned>(cluster_blocks));
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(static_cast<unsigned>(cluster_blocks));
    config.blockDim = dim3(kThreads);
    config.dynamicSmemBytes = kSharedBytes;
    config.attrs = &cluster;
    config.numAttrs = 1;
    int count = 0;
    const cudaError_t error = cudaOccupancyMaxActiveClusters(&count, reinterpret_cast<const void*>(kKernel), &config);
    value = count;
    return error;
  };
  return AskOncePerDevice(known[cluster_blocks - 2], clusters, query);
}

// Whether the current device launches thread block clusters (compute
// capability 9.0 and later).
inline cudaError_t LaunchesClusters(bool& clusters) {
  static std::atomic<int64_t> known[kCachedDevices] = {};  // 1: no, 2: yes
  int64_t answer = 0;
  const cudaError_t error = AskOncePerDevice(known, answer, [](int device, int64_t& value) {
    int launches = 0;
    const cudaError_t query = cudaDeviceGetAttribute(&launches, cudaDevAttrClusterLaunch, device);
    value = launches != 0 ? 2 : 1;
    return query;
  });
  clusters = answer == 2;
  return error;
}

}  // namespace vt::gpu

#endif
