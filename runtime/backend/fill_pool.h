// A persistent pool of threads that copies one buffer in parallel: the fill
// of a pinned ring slot from a pageable source. One memcpy thread tops out
// near 10 GB/s, a fraction of the bus, so each chunk is split across threads.
// Internal to the runtime.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace vt {

class FillPool {
 public:
  // `threads` copy each buffer: the caller and threads - 1 workers.
  explicit FillPool(uint32_t threads);
  ~FillPool();
  FillPool(const FillPool&) = delete;
  FillPool& operator=(const FillPool&) = delete;

  // Copies n bytes; returns when all of them are copied. Serialized: one
  // Copy at a time.
  void Copy(void* dst, const void* src, size_t n);
  uint32_t threads() const { return static_cast<uint32_t>(workers_.size()) + 1; }

 private:
  struct Part {
    char* dst;
    const char* src;
    size_t n;
  };
  void Work(size_t worker);
  static std::vector<Part> Split(char* dst, const char* src, size_t n, size_t parts);

  std::mutex copy_mutex_;  // one Copy at a time
  std::mutex mutex_;
  std::condition_variable start_;
  std::condition_variable done_;
  std::vector<Part> parts_;
  uint64_t generation_ = 0;
  size_t pending_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace vt
