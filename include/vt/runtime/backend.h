// A device's memory, streams, events and copies: one interface with CPU,
// CUDA and HIP implementations (the last two from one source).
//
// Copy() classifies both pointers, probes stream capture, and feeds every
// term to the staged-copy predicate (vt/policy/staged_h2d.h): a pageable
// host source of at least one chunk bound for device memory goes through a
// pinned ring, allocated on first such copy and filled by a small thread
// pool; everything else is one driver call. Copy() may be called from
// several threads at once. Every failure throws BackendError naming the call
// and the driver's message; nothing allocated by a failed call is leaked.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "vt/policy/device.h"
#include "vt/policy/staged_h2d.h"

namespace vt {

class BackendError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

using StreamHandle = void*;  // the native stream (cudaStream_t / hipStream_t); nullptr: default
using EventHandle = void*;

// How Copy() stages: from VT_PINNED_H2D_MIB / _BUFFERS / _THREADS, parsed by
// the policy's knob parsers. ReadStagingConfigFromEnvironment() is the only
// place vt reads them.
struct StagingConfig {
  uint64_t chunk_bytes = kDefaultPinnedChunkMiB << 20;  // 0: never stage
  uint32_t buffers = kDefaultPinnedBuffers;
  uint32_t fill_threads = 8;
};
StagingConfig ReadStagingConfigFromEnvironment();

class Backend {
 public:
  virtual ~Backend() = default;

  virtual DeviceId device() const = 0;
  virtual std::string name() const = 0;

  virtual void* Alloc(uint64_t bytes) = 0;  // device memory
  virtual void Free(void* ptr) = 0;
  virtual void* AllocPinnedHost(uint64_t bytes) = 0;
  virtual void FreePinnedHost(void* ptr) = 0;
  virtual void* AllocManaged(uint64_t bytes) = 0;

  virtual StreamHandle CreateStream() = 0;
  virtual void DestroyStream(StreamHandle stream) = 0;
  virtual void Synchronize(StreamHandle stream) = 0;
  virtual EventHandle CreateEvent() = 0;
  virtual void DestroyEvent(EventHandle event) = 0;
  virtual void RecordEvent(EventHandle event, StreamHandle stream) = 0;
  virtual void WaitEvent(EventHandle event) = 0;  // the host waits

  // Copies `bytes` from src to dst, in stream order. Returns once src may be
  // reused (a staged copy has read all of it); the device side completes in
  // stream order.
  virtual void Copy(void* dst, const void* src, uint64_t bytes, StreamHandle stream) = 0;

  virtual StagedCopyStats Stats() const = 0;
};

// The host as a device: Alloc is aligned host memory, Copy is memcpy.
std::unique_ptr<Backend> MakeCpuBackend();

// The GPU backend this build has (CUDA or HIP), for device `index`. Throws
// BackendError when the build has none or no such device is present.
std::unique_ptr<Backend> MakeGpuBackend(int index, const StagingConfig& config);
// Devices the GPU runtime sees; 0 without a GPU build or a device. Never throws.
int GpuDeviceCount();
// "cuda", "hip" or "none": what this build was compiled with.
const char* GpuBuildKind();

}  // namespace vt
