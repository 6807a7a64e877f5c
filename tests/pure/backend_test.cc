// The host side of the backends, testable without a GPU: the parallel fill
// pool, the CPU backend, the staging knobs read from the environment, and a
// GPU-less build's answers.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <numeric>
#include <vector>

#include "fill_pool.h"
#include "vt/runtime/backend.h"

namespace vt {
namespace {

TEST_CASE("the fill pool copies every byte, whatever the size, alignment and threads",
          "[backend]") {
  std::vector<unsigned char> source((7u << 20) + 123);
  for (size_t i = 0; i < source.size(); ++i) source[i] = static_cast<unsigned char>(i * 131 + 7);
  for (uint32_t threads : {1u, 2u, 3u, 8u}) {
    FillPool pool(threads);
    CHECK(pool.threads() == threads);
    for (size_t size : {size_t{0}, size_t{1}, size_t{4095}, size_t{1} << 20, (size_t{7} << 20) - 5}) {
      for (size_t misalign : {size_t{0}, size_t{3}}) {
        CAPTURE(threads, size, misalign);
        std::vector<unsigned char> dst(size + 8, 0xEE);
        pool.Copy(dst.data() + misalign, source.data() + 1, size);
        CHECK(std::equal(dst.begin() + static_cast<long>(misalign),
                         dst.begin() + static_cast<long>(misalign + size), source.begin() + 1));
        CHECK(dst[misalign + size] == 0xEE);  // nothing written past the end
      }
    }
  }
}

TEST_CASE("the CPU backend copies and counts direct copies", "[backend]") {
  const auto backend = MakeCpuBackend();
  CHECK(backend->device() == kHostDevice);
  void* dst = backend->Alloc(1000);
  std::vector<char> src(1000);
  std::iota(src.begin(), src.end(), 0);
  backend->Copy(dst, src.data(), src.size(), nullptr);
  CHECK(std::equal(src.begin(), src.end(), static_cast<char*>(dst)));
  CHECK(backend->Stats().direct_copies == 1);
  CHECK(backend->Stats().staged_copies == 0);
  CHECK(backend->Stats().ring_bytes == 0);
  backend->Free(dst);
}

TEST_CASE("staging knobs come from the environment through the policy's parsers", "[backend]") {
  ::setenv("VT_PINNED_H2D_MIB", "16", 1);
  ::setenv("VT_PINNED_H2D_BUFFERS", "eight", 1);  // a typo: the default
  ::setenv("VT_PINNED_H2D_THREADS", "3", 1);
  StagingConfig config = ReadStagingConfigFromEnvironment();
  CHECK(config.chunk_bytes == 16ull << 20);
  CHECK(config.buffers == 4);
  CHECK(config.fill_threads == 3);
  ::setenv("VT_PINNED_H2D_MIB", "0", 1);
  CHECK(ReadStagingConfigFromEnvironment().chunk_bytes == 0);
  ::unsetenv("VT_PINNED_H2D_MIB");
  ::unsetenv("VT_PINNED_H2D_BUFFERS");
  ::unsetenv("VT_PINNED_H2D_THREADS");
  CHECK(ReadStagingConfigFromEnvironment().chunk_bytes == 16ull << 20);
}

TEST_CASE("a build without a GPU says so", "[backend]") {
  if (std::string(GpuBuildKind()) != "none") return;  // a GPU build: tests/device covers it
  CHECK(GpuDeviceCount() == 0);
  CHECK_THROWS_WITH(MakeGpuBackend(0, {}), Catch::Contains("built without CUDA or HIP"));
}

}  // namespace
}  // namespace vt
