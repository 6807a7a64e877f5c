#include "fill_pool.h"

#include <algorithm>
#include <cstring>

namespace vt {
namespace {
// Parts below this are not worth a thread's wake-up.
constexpr size_t kMinPartBytes = 1 << 20;
constexpr size_t kPartAlignment = 4096;
}  // namespace

FillPool::FillPool(uint32_t threads) {
  const uint32_t workers = threads > 1 ? threads - 1 : 0;
  workers_.reserve(workers);
  for (uint32_t i = 0; i < workers; ++i) workers_.emplace_back([this, i] { Work(i + 1); });
}

FillPool::~FillPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  start_.notify_all();
  for (std::thread& worker : workers_) worker.join();
}

std::vector<FillPool::Part> FillPool::Split(char* dst, const char* src, size_t n, size_t parts) {
  parts = std::max<size_t>(1, std::min(parts, n / kMinPartBytes));
  std::vector<Part> out;
  size_t per_part = (n + parts - 1) / parts;
  per_part = (per_part + kPartAlignment - 1) / kPartAlignment * kPartAlignment;
  for (size_t offset = 0; offset < n; offset += per_part) {
    out.push_back({dst + offset, src + offset, std::min(per_part, n - offset)});
  }
  return out;
}

void FillPool::Copy(void* dst, const void* src, size_t n) {
  if (n == 0) return;
  std::lock_guard<std::mutex> serial(copy_mutex_);
  std::vector<Part> parts =
      Split(static_cast<char*>(dst), static_cast<const char*>(src), n, threads());
  if (parts.size() <= 1 || workers_.empty()) {
    for (const Part& part : parts) std::memcpy(part.dst, part.src, part.n);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    parts_ = std::move(parts);
    pending_ = parts_.size() - 1;  // part 0 is the caller's
    ++generation_;
  }
  start_.notify_all();
  std::memcpy(parts_[0].dst, parts_[0].src, parts_[0].n);
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [this] { return pending_ == 0; });
}

void FillPool::Work(size_t worker) {
  uint64_t seen = 0;
  for (;;) {
    Part part{};
    {
      std::unique_lock<std::mutex> lock(mutex_);
      start_.wait(lock, [&] { return stopping_ || generation_ != seen; });
      if (stopping_) return;
      seen = generation_;
      if (worker >= parts_.size()) continue;  // fewer parts than threads this time
      part = parts_[worker];
    }
    std::memcpy(part.dst, part.src, part.n);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (--pending_ == 0) done_.notify_one();
    }
  }
}

}  // namespace vt
