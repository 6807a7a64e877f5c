// The one place the staging knobs are read from the environment.
#include <cstdlib>
#include <optional>
#include <string_view>
#include <thread>

#include "vt/runtime/backend.h"

namespace vt {
namespace {

std::optional<std::string_view> Variable(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr) return std::nullopt;
  return std::string_view(value);
}

}  // namespace

StagingConfig ReadStagingConfigFromEnvironment() {
  StagingConfig config;
  config.chunk_bytes = ParsePinnedH2DChunkBytes(Variable("VT_PINNED_H2D_MIB"));
  config.buffers = ParsePinnedH2DBuffers(Variable("VT_PINNED_H2D_BUFFERS"));
  const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
  config.fill_threads = ParsePinnedH2DThreads(Variable("VT_PINNED_H2D_THREADS"), std::min(8u, hardware));
  return config;
}

}  // namespace vt
