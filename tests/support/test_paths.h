// Where tests find data that lives outside the tree. Each returns nullopt
// when the data is absent, so the test that needs it can skip.
#pragma once

#include <filesystem>
#include <optional>

namespace vt::testing {

// ggml's GGUF corpus: $VT_CORPUS_DIR when set, else ../shared/corpus beside
// the source tree.
std::optional<std::filesystem::path> CorpusDir();

// ggml's quantization goldens: $VT_ORACLE_GOLDEN when set, else
// ../shared/oracle/quant-golden-s1.gguf beside the source tree.
std::optional<std::filesystem::path> OracleGoldenFile();

// CTest's code for a skipped test (SKIP_RETURN_CODE).
inline constexpr int kSkipExitCode = 77;

// True when Catch2 is asked to list tests (as CTest discovery does at build
// time): a binary must then list, not skip.
bool IsListingTests(int argc, char** argv);

}  // namespace vt::testing
