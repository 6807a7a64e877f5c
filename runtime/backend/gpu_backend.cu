// The CUDA and HIP backend, one source: CUDA dialect, mapped to HIP by
// gpu_vendor.h when compiled with VT_HIP.
//
// Copy() feeds every term of the staged-copy decision (vt/policy/staged_h2d.h)
// from the runtime's own answers: both pointers classified, the stream's
// capture probed (a failed probe counts as capturing). The ring is asked for
// only after the free terms pass; a failed ring allocation falls back to the
// direct call and says so once.
#include <cstdio>
#include <cstring>
#include <mutex>
#include <vector>

#include "fill_pool.h"
#include "gpu_vendor.h"
#include "vt/runtime/backend.h"

namespace vt {
namespace {

[[noreturn]] void Fail(const char* call, cudaError_t error) {
  throw BackendError(std::string(VT_GPU_KIND) + ": " + call + " failed: " + cudaGetErrorString(error));
}

void Check(cudaError_t error, const char* call) {
  if (error != cudaSuccess) Fail(call, error);
}

class GpuBackend final : public Backend {
 public:
  GpuBackend(int index, const StagingConfig& config)
      : index_(index), config_(config), ring_state_(config.buffers) {
    Check(cudaSetDevice(index_), "cudaSetDevice");
  }

  ~GpuBackend() override { ReleaseRing(); }

  DeviceId device() const override {
#if defined(VT_HIP)
    return {DeviceKind::kRocm, static_cast<uint8_t>(index_)};
#else
    return {DeviceKind::kCuda, static_cast<uint8_t>(index_)};
#endif
  }
  std::string name() const override { return std::string(VT_GPU_KIND) + ":" + std::to_string(index_); }

  void* Alloc(uint64_t bytes) override {
    Select();
    void* ptr = nullptr;
    Check(cudaMalloc(&ptr, bytes), "cudaMalloc");
    return ptr;
  }
  void Free(void* ptr) override {
    if (ptr != nullptr) Check(cudaFree(ptr), "cudaFree");
  }
  void* AllocPinnedHost(uint64_t bytes) override {
    void* ptr = nullptr;
    Check(cudaMallocHost(&ptr, bytes), "cudaMallocHost");
    return ptr;
  }
  void FreePinnedHost(void* ptr) override {
    if (ptr != nullptr) Check(cudaFreeHost(ptr), "cudaFreeHost");
  }
  void* AllocManaged(uint64_t bytes) override {
    Select();
    void* ptr = nullptr;
    Check(cudaMallocManaged(&ptr, bytes), "cudaMallocManaged");
    return ptr;
  }

  StreamHandle CreateStream() override {
    Select();
    cudaStream_t stream = nullptr;
    Check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
    return stream;
  }
  void DestroyStream(StreamHandle stream) override {
    if (stream != nullptr) Check(cudaStreamDestroy(static_cast<cudaStream_t>(stream)), "cudaStreamDestroy");
  }
  void Synchronize(StreamHandle stream) override {
    Check(cudaStreamSynchronize(static_cast<cudaStream_t>(stream)), "cudaStreamSynchronize");
  }
  EventHandle CreateEvent() override {
    cudaEvent_t event = nullptr;
    Check(cudaEventCreateWithFlags(&event, cudaEventDisableTiming), "cudaEventCreateWithFlags");
    return event;
  }
  void DestroyEvent(EventHandle event) override {
    if (event != nullptr) Check(cudaEventDestroy(static_cast<cudaEvent_t>(event)), "cudaEventDestroy");
  }
  void RecordEvent(EventHandle event, StreamHandle stream) override {
    Check(cudaEventRecord(static_cast<cudaEvent_t>(event), static_cast<cudaStream_t>(stream)),
          "cudaEventRecord");
  }
  void WaitEvent(EventHandle event) override {
    Check(cudaEventSynchronize(static_cast<cudaEvent_t>(event)), "cudaEventSynchronize");
  }

  void Copy(void* dst, const void* src, uint64_t bytes, StreamHandle stream) override {
    if (bytes == 0) return;
    Select();
    StagedH2DInputs in;
    in.chunk_bytes = config_.chunk_bytes;
    in.stream_capturing = IsCapturing(stream);
    in.dst = ClassifyPointer(QueryPointer(dst));
    in.src = ClassifyPointer(QueryPointer(src));
    in.bytes = bytes;
    DispatchH2D(
        in, [&] { return EnsureRing(); },
        [&] { StagedCopy(static_cast<char*>(dst), static_cast<const char*>(src), bytes, stream); },
        [&] { DirectCopy(dst, src, bytes, stream); });
  }

  StagedCopyStats Stats() const override {
    std::lock_guard<std::mutex> lock(stats_mutex_);
    return stats_;
  }

 private:
  struct Slot {
    void* buffer = nullptr;
    cudaEvent_t event = nullptr;
  };

  void Select() const { Check(cudaSetDevice(index_), "cudaSetDevice"); }

  // A failed probe counts as capturing: never stage into a region we cannot see.
  static bool IsCapturing(StreamHandle stream) {
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    if (cudaStreamIsCapturing(static_cast<cudaStream_t>(stream), &status) != cudaSuccess) {
      (void)cudaGetLastError();
      return true;
    }
    return status != cudaStreamCaptureStatusNone;
  }

  void DirectCopy(void* dst, const void* src, uint64_t bytes, StreamHandle stream) {
    Check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, static_cast<cudaStream_t>(stream)),
          "cudaMemcpyAsync");
    std::lock_guard<std::mutex> lock(stats_mutex_);
    ++stats_.direct_copies;
  }

  // Allocates the ring on first use; true when it exists. A failure releases
  // what was allocated, says so once, and is not retried.
  bool EnsureRing() {
    std::lock_guard<std::mutex> lock(ring_mutex_);
    if (!slots_.empty()) return true;
    if (ring_failed_) return false;
    std::vector<Slot> slots(config_.buffers);
    for (Slot& slot : slots) {
      const cudaError_t buffer = cudaMallocHost(&slot.buffer, config_.chunk_bytes);
      const cudaError_t event = buffer == cudaSuccess
                                    ? cudaEventCreateWithFlags(&slot.event, cudaEventDisableTiming)
                                    : buffer;
      if (buffer != cudaSuccess || event != cudaSuccess) {
        (void)cudaGetLastError();
        if (buffer != cudaSuccess) slot.buffer = nullptr;
        for (Slot& done : slots) {
          if (done.event != nullptr) (void)cudaEventDestroy(done.event);
          if (done.buffer != nullptr) (void)cudaFreeHost(done.buffer);
        }
        ring_failed_ = true;
        std::fprintf(stderr,
                     "vt: %s: cannot allocate the %u x %llu-byte pinned ring (%s); pageable "
                     "uploads go to the driver in one call\n",
                     name().c_str(), config_.buffers,
                     static_cast<unsigned long long>(config_.chunk_bytes),
                     cudaGetErrorString(buffer != cudaSuccess ? buffer : event));
        return false;
      }
    }
    slots_ = std::move(slots);
    fill_pool_ = std::make_unique<FillPool>(config_.fill_threads);
    std::lock_guard<std::mutex> stats_lock(stats_mutex_);
    stats_.ring_bytes = config_.chunk_bytes * config_.buffers;
    return true;
  }

  void StagedCopy(char* dst, const char* src, uint64_t bytes, StreamHandle stream) {
    std::lock_guard<std::mutex> lock(ring_mutex_);  // one staged copy at a time owns the ring
    uint64_t largest = 0;
    const uint64_t chunks = RunStagedH2D(
        ring_state_, dst, src, bytes, config_.chunk_bytes,
        [&](uint32_t slot) { Check(cudaEventSynchronize(slots_[slot].event), "cudaEventSynchronize"); },
        [&](uint32_t slot, const char* from, uint64_t n) {
          fill_pool_->Copy(slots_[slot].buffer, from, static_cast<size_t>(n));
          largest = std::max(largest, n);
        },
        [&](uint32_t slot, char* to, uint64_t n) {
          Check(cudaMemcpyAsync(to, slots_[slot].buffer, n, cudaMemcpyHostToDevice,
                                static_cast<cudaStream_t>(stream)),
                "cudaMemcpyAsync");
          Check(cudaEventRecord(slots_[slot].event, static_cast<cudaStream_t>(stream)),
                "cudaEventRecord");
        });
    std::lock_guard<std::mutex> stats_lock(stats_mutex_);
    ++stats_.staged_copies;
    stats_.chunks += chunks;
    stats_.max_chunk_bytes = std::max(stats_.max_chunk_bytes, largest);
  }

  void ReleaseRing() noexcept {
    std::lock_guard<std::mutex> lock(ring_mutex_);
    for (Slot& slot : slots_) {
      (void)cudaEventSynchronize(slot.event);
      (void)cudaEventDestroy(slot.event);
      (void)cudaFreeHost(slot.buffer);
    }
    slots_.clear();
  }

  int index_;
  StagingConfig config_;
  std::mutex ring_mutex_;
  RingState ring_state_;
  std::vector<Slot> slots_;
  bool ring_failed_ = false;
  std::unique_ptr<FillPool> fill_pool_;
  mutable std::mutex stats_mutex_;
  StagedCopyStats stats_;
};

}  // namespace

std::unique_ptr<Backend> MakeGpuBackend(int index, const StagingConfig& config) {
  const int count = GpuDeviceCount();
  if (index < 0 || index >= count) {
    throw BackendError(std::string(VT_GPU_KIND) + ": no device " + std::to_string(index) + " (" +
                       std::to_string(count) + " present)");
  }
  return std::make_unique<GpuBackend>(index, config);
}

int GpuDeviceCount() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return count;
}

const char* GpuBuildKind() { return VT_GPU_KIND; }

}  // namespace vt
