// Host-to-device bandwidth through Backend::Copy: one driver call from a
// pageable source (the ring switched off) against the pinned ring (fill
// threads, chunk size and buffer count varied) against a pinned source, for
// a pageable heap and an mmap'd tmpfs file with a warm page cache.
//
// Counters: GB/s (decimal, bytes / wall time including the final stream
// synchronize) and the ring's pinned bytes. Needs a GPU; skips otherwise.
#include <benchmark/benchmark.h>

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <thread>

#include "vt/runtime/backend.h"

namespace {

constexpr uint64_t kCopyBytes = 2ull << 30;  // per iteration, far beyond any cache

enum class Source { kHeap, kMmapFile, kPinned };

// Sources live for the whole run: making 2 GiB is slower than copying it.
struct Sources {
  char* heap = nullptr;
  char* mapped = nullptr;
  char* pinned = nullptr;
  const char* mapped_path = "";
  std::unique_ptr<vt::Backend> owner;  // allocated the pinned source
};

Sources& SharedSources() {
  static Sources sources = [] {
    Sources s;
    s.owner = vt::MakeGpuBackend(0, vt::StagingConfig{});
    s.heap = static_cast<char*>(std::malloc(kCopyBytes));
    for (uint64_t i = 0; i < kCopyBytes; i += 4096) s.heap[i] = static_cast<char>(i >> 12);  // fault in
    // tmpfs first; a disk-backed /tmp file with a warm page cache if /dev/shm is small.
    for (const char* path : {"/dev/shm/vt-h2d-bench.bin", "/tmp/vt-h2d-bench.bin"}) {
      const int fd = ::open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
      if (fd < 0) continue;
      bool written = ::ftruncate(fd, static_cast<off_t>(kCopyBytes)) == 0;
      for (uint64_t done = 0; written && done < kCopyBytes;) {
        const ssize_t n = ::write(fd, s.heap + done, kCopyBytes - done);
        written = n > 0;
        done += written ? static_cast<uint64_t>(n) : 0;
      }
      if (written) {
        void* map = ::mmap(nullptr, kCopyBytes, PROT_READ, MAP_SHARED, fd, 0);
        if (map != MAP_FAILED) {
          s.mapped = static_cast<char*>(map);
          s.mapped_path = path;
          char sink = 0;
          for (uint64_t i = 0; i < kCopyBytes; i += 4096) sink = static_cast<char>(sink ^ s.mapped[i]);
          benchmark::DoNotOptimize(sink);
        }
      }
      ::close(fd);
      ::unlink(path);  // the mapping keeps the pages alive
      if (s.mapped != nullptr) break;
    }
    s.pinned = static_cast<char*>(s.owner->AllocPinnedHost(kCopyBytes));
    std::memcpy(s.pinned, s.heap, kCopyBytes);
    return s;
  }();
  return sources;
}

void CopyToDevice(benchmark::State& state, Source source, uint64_t chunk_mib, uint32_t buffers,
                  uint32_t threads) {
  if (vt::GpuDeviceCount() == 0) {
    state.SkipWithError("no GPU");
    return;
  }
  Sources& sources = SharedSources();
  const char* src = source == Source::kHeap ? sources.heap
                    : source == Source::kMmapFile ? sources.mapped
                                                  : sources.pinned;
  if (src == nullptr) {
    state.SkipWithError("source unavailable (tmpfs?)");
    return;
  }
  vt::StagingConfig config;
  config.chunk_bytes = chunk_mib << 20;
  config.buffers = buffers;
  config.fill_threads = threads;
  auto backend = vt::MakeGpuBackend(0, config);
  void* device = backend->Alloc(kCopyBytes);
  vt::StreamHandle stream = backend->CreateStream();
  backend->Copy(device, src, kCopyBytes, stream);  // warm-up; allocates the ring when staged
  backend->Synchronize(stream);
  for (auto _ : state) {
    backend->Copy(device, src, kCopyBytes, stream);
    backend->Synchronize(stream);
  }
  const vt::StagedCopyStats stats = backend->Stats();
  state.counters["GB/s"] = benchmark::Counter(static_cast<double>(kCopyBytes) / 1e9,
                                              benchmark::Counter::kIsIterationInvariantRate);
  state.counters["ring_MiB"] = static_cast<double>(stats.ring_bytes >> 20);
  state.counters["staged"] = static_cast<double>(stats.staged_copies);
  if (source == Source::kMmapFile) state.SetLabel(sources.mapped_path);
  backend->DestroyStream(stream);
  backend->Free(device);
}

void RegisterAll() {
  const std::map<Source, std::string> names = {{Source::kHeap, "heap"}, {Source::kMmapFile, "mmap"}};
  const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
  const vt::StagingConfig defaults = vt::ReadStagingConfigFromEnvironment();
  for (const auto& [source, name] : names) {
    benchmark::RegisterBenchmark((name + "/driver_one_call").c_str(), CopyToDevice, source, 0, 4, 1)
        ->UseRealTime()->Unit(benchmark::kMillisecond)->MinTime(1.0);
    benchmark::RegisterBenchmark((name + "/ring/defaults").c_str(), CopyToDevice, source,
                                 defaults.chunk_bytes >> 20, defaults.buffers, defaults.fill_threads)
        ->UseRealTime()->Unit(benchmark::kMillisecond)->MinTime(1.0);
    for (uint32_t threads : {1u, 8u, hardware}) {
      for (uint64_t chunk : {4u, 16u, 64u}) {
        for (uint32_t buffers : {2u, 4u}) {
          const std::string label = name + "/ring/threads:" + std::to_string(threads) +
                                    "/chunk_MiB:" + std::to_string(chunk) +
                                    "/buffers:" + std::to_string(buffers);
          benchmark::RegisterBenchmark(label.c_str(), CopyToDevice, source, chunk, buffers, threads)
              ->UseRealTime()->Unit(benchmark::kMillisecond)->MinTime(1.0);
        }
      }
    }
  }
  benchmark::RegisterBenchmark("pinned/driver_one_call", CopyToDevice, Source::kPinned, 0, 4, 1)
      ->UseRealTime()->Unit(benchmark::kMillisecond)->MinTime(1.0);
}

}  // namespace

int main(int argc, char** argv) {
  RegisterAll();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
