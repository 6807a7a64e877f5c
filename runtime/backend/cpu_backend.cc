// The host as a backend: memory is aligned host memory, copies are memcpy,
// streams and events are placeholders (every operation completes in order).
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "vt/runtime/backend.h"

namespace vt {
namespace {

constexpr size_t kAlignment = 64;

void* AlignedAlloc(uint64_t bytes) {
  const size_t rounded = (static_cast<size_t>(bytes) + kAlignment - 1) / kAlignment * kAlignment;
  void* ptr = std::aligned_alloc(kAlignment, rounded == 0 ? kAlignment : rounded);
  if (ptr == nullptr) {
    throw BackendError("cpu: cannot allocate " + std::to_string(bytes) + " bytes");
  }
  return ptr;
}

class CpuBackend final : public Backend {
 public:
  DeviceId device() const override { return kHostDevice; }
  std::string name() const override { return "cpu"; }
  void* Alloc(uint64_t bytes) override { return AlignedAlloc(bytes); }
  void Free(void* ptr) override { std::free(ptr); }
  void* AllocPinnedHost(uint64_t bytes) override { return AlignedAlloc(bytes); }
  void FreePinnedHost(void* ptr) override { std::free(ptr); }
  void* AllocManaged(uint64_t bytes) override { return AlignedAlloc(bytes); }
  StreamHandle CreateStream() override { return nullptr; }
  void DestroyStream(StreamHandle) override {}
  void Synchronize(StreamHandle) override {}
  EventHandle CreateEvent() override { return nullptr; }
  void DestroyEvent(EventHandle) override {}
  void RecordEvent(EventHandle, StreamHandle) override {}
  void WaitEvent(EventHandle) override {}

  void Copy(void* dst, const void* src, uint64_t bytes, StreamHandle) override {
    if (bytes > 0) std::memmove(dst, src, static_cast<size_t>(bytes));
    std::lock_guard<std::mutex> lock(mutex_);
    ++stats_.direct_copies;
  }

  StagedCopyStats Stats() const override {
    std::lock_guard<std::mutex> lock(mutex_);
    return stats_;
  }

 private:
  mutable std::mutex mutex_;
  StagedCopyStats stats_;
};

}  // namespace

std::unique_ptr<Backend> MakeCpuBackend() { return std::make_unique<CpuBackend>(); }

}  // namespace vt
