// Staged host-to-device copies on a real GPU, through the production
// Backend::Copy: readback identical (xxHash) at every size that matters,
// counters proving which path each copy took, the paths that must never
// stage, a capture region, and two threads at once.
#include <catch2/catch.hpp>

#include <xxhash.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

#include "gpu_vendor.h"
#include "vt/runtime/backend.h"

namespace vt {
namespace {

constexpr uint64_t kChunk = 64ull << 20;

StagingConfig Config() {
  StagingConfig config;
  config.chunk_bytes = kChunk;
  config.buffers = 4;
  config.fill_threads = 8;
  return config;
}

// A pageable host buffer of pseudo-random bytes (fresh seed per call).
struct HostBuffer {
  explicit HostBuffer(uint64_t size) : bytes(size), data(static_cast<char*>(std::malloc(size ? size : 1))) {
    if (data == nullptr) throw std::bad_alloc();
  }
  ~HostBuffer() { std::free(data); }
  void Randomize(uint64_t seed) {
    uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
    uint64_t i = 0;
    for (; i + 8 <= bytes; i += 8) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      std::memcpy(data + i, &x, 8);
    }
    for (; i < bytes; ++i) data[i] = static_cast<char>(x >> (8 * (i % 8)));
  }
  uint64_t Hash() const { return XXH3_64bits(data, bytes); }
  uint64_t bytes;
  char* data;
};

// Uploads `source` with Copy, reads it back with Copy; true when the hashes
// match. Safe from any thread (no Catch2 assertion inside).
bool RoundTripMatches(Backend& backend, const HostBuffer& source, StreamHandle stream) {
  void* device = backend.Alloc(source.bytes ? source.bytes : 1);
  HostBuffer readback(source.bytes);
  std::memset(readback.data, 0x5A, source.bytes);  // poisoned before the copy back
  backend.Copy(device, source.data, source.bytes, stream);
  backend.Copy(readback.data, device, source.bytes, stream);
  backend.Synchronize(stream);
  backend.Free(device);
  return readback.Hash() == source.Hash();
}

void RoundTrip(Backend& backend, const HostBuffer& source, StreamHandle stream) {
  CHECK(RoundTripMatches(backend, source, stream));
}

TEST_CASE("readback is identical at every size, and large copies stage", "[device][staged]") {
  const uint64_t sizes[] = {0, 1, kChunk - 1, kChunk, kChunk + 1, 7 * kChunk / 2, 4ull << 30};
  for (uint64_t size : sizes) {
    CAPTURE(size);
    auto backend = MakeGpuBackend(0, Config());
    StreamHandle stream = backend->CreateStream();
    HostBuffer source(size);
    source.Randomize(size + 17);
    RoundTrip(*backend, source, stream);
    const StagedCopyStats stats = backend->Stats();
    const bool staged = size >= kChunk;
    CHECK(stats.staged_copies == (staged ? 1u : 0u));
    CHECK(stats.chunks == (staged ? (size + kChunk - 1) / kChunk : 0));
    CHECK(stats.max_chunk_bytes == (staged ? kChunk : 0));
    CHECK(stats.ring_bytes == (staged ? 4 * kChunk : 0));
    // The readback (device -> pageable host) and small uploads are direct.
    CHECK(stats.direct_copies == (size == 0 ? 0u : staged ? 1u : 2u));
    backend->DestroyStream(stream);
  }
}

TEST_CASE("pinned, device and managed endpoints never stage and never allocate the ring",
          "[device][staged]") {
  const uint64_t size = 2 * kChunk;
  HostBuffer source(size);
  source.Randomize(3);
  SECTION("a pinned source") {
    auto backend = MakeGpuBackend(0, Config());
    void* pinned = backend->AllocPinnedHost(size);
    std::memcpy(pinned, source.data, size);
    void* device = backend->Alloc(size);
    backend->Copy(device, pinned, size, nullptr);
    backend->Synchronize(nullptr);
    CHECK(backend->Stats().staged_copies == 0);
    CHECK(backend->Stats().ring_bytes == 0);
    backend->Free(device);
    backend->FreePinnedHost(pinned);
  }
  SECTION("a device source (device to device)") {
    auto backend = MakeGpuBackend(0, Config());
    void* a = backend->Alloc(size);
    void* b = backend->Alloc(size);
    backend->Copy(a, b, size, nullptr);
    backend->Synchronize(nullptr);
    CHECK(backend->Stats().staged_copies == 0);
    CHECK(backend->Stats().ring_bytes == 0);
    backend->Free(a);
    backend->Free(b);
  }
  SECTION("a managed destination") {
    auto backend = MakeGpuBackend(0, Config());
    void* managed = backend->AllocManaged(size);
    backend->Copy(managed, source.data, size, nullptr);
    backend->Synchronize(nullptr);
    CHECK(XXH3_64bits(managed, size) == source.Hash());
    CHECK(backend->Stats().staged_copies == 0);
    CHECK(backend->Stats().ring_bytes == 0);
    backend->Free(managed);
  }
  SECTION("the ring switched off (VT_PINNED_H2D_MIB=0)") {
    StagingConfig off = Config();
    off.chunk_bytes = 0;
    auto backend = MakeGpuBackend(0, off);
    RoundTrip(*backend, source, nullptr);
    CHECK(backend->Stats().staged_copies == 0);
    CHECK(backend->Stats().ring_bytes == 0);
  }
}

TEST_CASE("a copy inside a capture region does not stage", "[device][staged]") {
  auto backend = MakeGpuBackend(0, Config());
  StreamHandle stream = backend->CreateStream();
  void* device = backend->Alloc(2 * kChunk);
  HostBuffer source(2 * kChunk);
  source.Randomize(5);
  REQUIRE(cudaStreamBeginCapture(static_cast<cudaStream_t>(stream), cudaStreamCaptureModeRelaxed) ==
          cudaSuccess);
  // A pageable copy is not capturable: the driver may refuse it. Whether it
  // does or not, vt must not have staged it (nor built the ring).
  try {
    backend->Copy(device, source.data, 2 * kChunk, stream);
  } catch (const BackendError&) {
  }
  cudaGraph_t graph = nullptr;
  (void)cudaStreamEndCapture(static_cast<cudaStream_t>(stream), &graph);
  if (graph != nullptr) (void)cudaGraphDestroy(graph);
  (void)cudaGetLastError();
  CHECK(backend->Stats().staged_copies == 0);
  CHECK(backend->Stats().ring_bytes == 0);
  backend->Free(device);
  backend->DestroyStream(stream);
}

TEST_CASE("two threads copying at once stay correct", "[device][staged]") {
  auto backend = MakeGpuBackend(0, Config());
  const uint64_t size = 7 * kChunk / 2;
  std::atomic<int> matches{0};
  std::atomic<int> errors{0};
  auto worker = [&](uint64_t seed) {
    try {
      StreamHandle stream = backend->CreateStream();
      HostBuffer source(size);
      for (int round = 0; round < 4; ++round) {
        source.Randomize(seed * 100 + static_cast<uint64_t>(round));
        matches += RoundTripMatches(*backend, source, stream) ? 1 : 0;
      }
      backend->DestroyStream(stream);
    } catch (const std::exception&) {
      ++errors;
    }
  };
  std::thread a(worker, 1);
  std::thread b(worker, 2);
  a.join();
  b.join();
  CHECK(errors == 0);
  CHECK(matches == 8);
  CHECK(backend->Stats().staged_copies == 8);
  CHECK(backend->Stats().chunks == 8 * 4);
}

}  // namespace
}  // namespace vt
