#include "test_paths.h"

#include <cstdlib>
#include <string_view>

namespace vt::testing {
namespace {

std::optional<std::filesystem::path> FromEnvOrShared(const char* variable,
                                                     const char* shared_relative) {
  if (const char* value = std::getenv(variable); value != nullptr && *value != '\0') {
    std::filesystem::path path(value);
    if (std::filesystem::exists(path)) return path;
    return std::nullopt;
  }
  const std::filesystem::path path =
      std::filesystem::path(VT_SOURCE_DIR).parent_path() / "shared" / shared_relative;
  if (std::filesystem::exists(path)) return path;
  return std::nullopt;
}

}  // namespace

bool IsListingTests(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::string_view(argv[i]).starts_with("--list")) return true;
  }
  return false;
}

std::optional<std::filesystem::path> CorpusDir() {
  return FromEnvOrShared("VT_CORPUS_DIR", "corpus");
}

std::optional<std::filesystem::path> OracleGoldenFile() {
  return FromEnvOrShared("VT_ORACLE_GOLDEN", "oracle/quant-golden-s1.gguf");
}

}  // namespace vt::testing
